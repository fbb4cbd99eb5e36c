#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/drivers/insncost turns a cost-mode run's counts into
# instructions per I/O: on a made-up run whose answers are known (two
# guests' markers, insncount's delta files, kallsyms, the bytes each
# window moved), it divides each window's kernel instructions by the
# window's I/Os (bytes over the block size, or the job's ios column for
# a job counted whole), at each end, takes the median of a build's
# windows, its spread, the ratio to the base, charges addresses to
# their modules, and refuses marks out of order.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/client" "$d/server"
for s in client server; do
	cat > "$d/$s/ksyms.1" <<-XEOFX
	ffffffff81000000 T kfunc
	ffffffffc0000000 t rsx_fn	[rdmastor_rpcrdma]
	ffffffffc0001000 t rnic_fn	[rnic_mgr]
	ffffffffc0002000 t rst_mr_get	[rdmastor_transport]
	ffffffffc0003000 t rst_tx_get	[rdmastor_transport]
	XEOFX
done
K=ffffffff81000010 R=ffffffffc0000010 M=ffffffffc0001010 U=400000
G=ffffffffc0002010 T=ffffffffc0003010
# window SIDE SEQ STACK JOB BYTES0 BYTES1 BS "ENTRIES" [SECONDS]: marker
# SEQ opens the window at time SEQ, SEQ+1 closes it SECONDS (1) later
# with ENTRIES ("ADDR N" pairs)
# shellcheck disable=SC2034	# read through ${!tv}
total_client=0 total_server=0
window() {
	local side=$1 seq=$2 stack=$3 job=$4 b0=$5 b1=$6 bs=$7 entries=$8 len=${9:-1} t tv sum=0
	tv=total_$side
	t=${!tv}
	printf 'total %d\n' "$t" > "$d/$side/count.$seq.1"
	: > "$d/$side/count.$((seq + 1)).2"
	# shellcheck disable=SC2086	# the pairs, as words
	set -- $entries
	while [ $# -ge 2 ]; do
		printf '%s %d\n' "$1" "$2" >> "$d/$side/count.$((seq + 1)).2"
		sum=$((sum + $2))
		shift 2
	done
	t=$((t + sum))
	printf 'total %d\n' "$t" >> "$d/$side/count.$((seq + 1)).2"
	printf -v "$tv" '%d' "$t"
	if [ "$side" = client ]; then
		echo "r,1,$stack,$job,start,$b0,$bs,$seq.0," >> "$d/client/cost-marks.csv"
		echo "r,1,$stack,$job,end,$b1,$bs,$((seq + len)).0,ksyms.1" >> "$d/client/cost-marks.csv"
	else
		echo "r,1,$stack,$job,start,$seq.0," >> "$d/server/cost-marks.csv"
		echo "r,1,$stack,$job,end,$((seq + len)).0,ksyms.1" >> "$d/server/cost-marks.csv"
	fi
}
echo "label,bytes,bs,t,ksyms" > "$d/client/cost-marks.csv"
echo "label,t,ksyms" > "$d/server/cost-marks.csv"
# client: 100 I/Os of 4 KiB a window; the metadata job's 50 from its row
window client 1 stock idle 0 0 0 "$K 2000"
window client 3 stock j4k 0 409600 4096 "$K 1000000 $U 100000"
window client 5 stock-aa j4k 0 409600 4096 "$K 1010000"
window client 7 rdmastor j4k 4096 413696 4096 "$K 700000 $R 50000 $M 1000 $G 2000 $T 4000"
window client 9 stock meta 0 0 0 "$K 500000" 3
window server 1 stock idle 0 0 0 "$K 1000"
window server 3 stock j4k 0 0 0 "$K 500000"
window server 5 stock-aa j4k 0 0 0 "$K 500000"
window server 7 rdmastor j4k 0 0 0 "$K 300000"
window server 9 stock meta 0 0 0 "$K 250000" 3
printf 'round,stack,job,ios\n1,stock,meta,50\n' > "$d/client/r.csv"

out=$(bench/drivers/insncost "$d" r --base stock --csv "$d/r-insns.csv" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
expect_eq "insncost reads the run" "$rc" 0
row() { echo "$out" | awk -v j="$1" -v s="$2" '$1 == j && $2 == s { print; exit }'; }
# The background: stock's idle windows ran 2,000 and 1,000 kernel
# instructions in 1 s, taken off its windows by their length (stock-aa
# and rdmastor had no idle window here: nothing taken off).
# stock: client (1,000,000 - 2,000) / 100 and 10,100 (median 10,040),
# server 4,990 and 5,000: both 14,970 and 15,100, median 15,035, spread
# 130 / 15,035; bg 30 and 0; user 1,000 and 0
expect_match "the base's kernel instructions per I/O, each end and both" \
	"$(row j4k stock)" '^j4k +stock +10040 +4995 +15035 +1\.00x +0\.86%/2 +15 +500$'
# rdmastor: client 757,000 / 100, server 3,000
expect_match "rdmastor's, and its ratio to the base" \
	"$(row j4k rdmastor)" '^j4k +rdmastor +7570 +3000 +10570 +0\.70x +- +0 +0$'
# 3 s long: (500,000 - 6,000) / 50 and (250,000 - 3,000) / 50
expect_match "a job counted whole divides by its row's I/Os (50), less 3 s of background" \
	"$(row meta stock)" '^meta +stock +9880 +4940 +14820 +1\.00x +- +180 '
expect_match "the background: kernel instructions a second in the idle window" \
	"$(echo "$out" | awk '$1 == "stock" && NF == 3')" '^ +stock +2000 +1000$'
expect_match "rdmastor's own modules and rnic_mgr, per I/O" \
	"$(echo "$out" | grep '^rdmastor j4k:')" '570 of 10570 .*\(5\.4%\), rnic_mgr 10 \(0\.09%\)'
expect_match "rnic_mgr with the engine's MR bookkeeping (rst_mr_get, not rst_tx_get)" \
	"$(echo "$out" | grep 'bookkeeping')" 'bookkeeping: 30 \(0\.28%; goal under 3%: met\)'
expect_match "a function charged to its module" "$(echo "$out" | grep 'rsx_fn')" 'rsx_fn \[rdmastor_rpcrdma\] +500$'
expect_eq "the CSV: a row per window (idle ones too), end and module (14, and the header)" \
	"$(wc -l < "$d/r-insns.csv")" 15
# a window whose end is not the next marker is refused, not guessed
sed -i '6{h;d};7{G}' "$d/client/cost-marks.csv"
out=$(bench/drivers/insncost "$d" r --base stock 2>&1)
expect_ne "marks out of order: refused" "$?" 0
expect_match "and said" "$out" 'the marker after r,1,stock-aa,j4k,start is'
tap_done
