#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# insncount (bench/insncount), the TCG plugin that counts guest
# instructions, loads into this QEMU (its plugin API version checked),
# counts, and repeats: one guest on one TCG thread runs the same work
# four times between markers; every marker wrote the counts; dd's own
# path (read_zero, vfs_write, write_null, the zeroing) counts the same
# instructions in every round, exactly (write_null: 2,000 calls);
# insnsplit splits a round by the guest's kallsyms into the same total,
# most of it in the kernel. The rounds' totals also hold the
# scheduler's and timer's work, which follows the wall clock: their
# spread is printed, not checked.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
out=build/vm/insncount
make -s -C bench/insncount || { ok 1 "the plugin builds"; tap_done; }
rm -rf "$out"
VM_PLUGIN="$tree/build/insncount/libinsncount.so,out=$tree/$out/count" \
	tests/lib/vm-run --quiet --name insncount --timeout 300 tests/host/guest/insncount.sh \
	> /tmp/rdmastor-insncount.out 2>&1
ok $? "a guest runs with the plugin loaded" "$(tail -5 /tmp/rdmastor-insncount.out)"
# count.SEQ.CODE: markers 1 (start) and 2 (stop), four rounds
files=$(cd "$out" && ls count.*.[12] 2>/dev/null | sort -t. -k2 -n | paste -sd' ')
expect_eq "each marker wrote the counts (8 files)" "$(echo "$files" | wc -w)" 8
total() { sed -n 's/^total //p' "$out/$1"; }
rounds=()
read -r -a files_arr <<< "$files"
set -- $files
while [ $# -ge 2 ]; do
	rounds+=($(( $(total "$2") - $(total "$1") )))
	shift 2
done
diag "instructions a round: ${rounds[*]}"
expect_gt "a round executed instructions" "${rounds[1]:-0}" 0
spread=$(printf '%s\n' "${rounds[@]:1}" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (lo) printf "%.2f", 100 * (hi - lo) / lo }')
# (the totals differ by the scheduler's and the timer's work, which
# follows the wall clock; said, not checked: it depends on speed)
diag "rounds 2-4: totals spread ${spread}%"
# dd's own path runs the same instructions every round, exactly: the
# count is of instructions executed, not sampled or timed
set -- $files
# the zeroing read_zero calls: rep_stos_alternative since 6.4, one of
# clear_user_{erms,rep_good,original} (chosen at boot) before
zero=$(awk '$3 ~ /^(rep_stos_alternative|clear_user_(erms|rep_good|original))$/ { print $3 }' \
	"$out/single/kallsyms" | paste -sd' ')
diag "zeroing functions in this kernel: $zero"
fns="read_zero vfs_write write_null"
zero_count() {	# zero_count SPLIT: the sum of the zeroing functions' counts
	echo "$1" | awk -v z=" $zero " 'index(z, " " $1 " ") && $2 == "[kernel]" { n += $3 } END { print n + 0 }'
}
path_of() {	# path_of BEFORE AFTER: those functions' counts, in order
	local split f
	split=$(bench/insncount/insnsplit "$out/single/kallsyms" "$out/$1" "$out/$2" --top 100000)
	{ for f in $fns; do
		echo "$split" | awk -v f="$f [kernel]" '$1 " " $2 == f { print $3 }'
	done; zero_count "$split"; } | paste -sd' '
}
first=$(path_of "$1" "$2")
diag "round 1's $fns and the zeroing: $first"
expect_match "each of them ran" "$first" '^[1-9][0-9]* [1-9][0-9]* [1-9][0-9]* [1-9][0-9]*$'
wn=$(echo "$first" | awk '{ print $3 }')
expect_eq "write_null: 2,000 calls of the same instructions ($wn, a multiple of 2,000)" \
	"$(( ${wn:-1} % 2000 ))" 0
for r in 2 3 4; do
	expect_eq "round $r: the same counts in dd's path, exactly" \
		"$(path_of "${files_arr[$((2 * r - 2))]}" "${files_arr[$((2 * r - 1))]}")" "$first"
done
# the split by the guest's kallsyms: the same total as the round's,
# most of it in the kernel (dd's work is reads and writes)
split=$(bench/insncount/insnsplit "$out/single/kallsyms" "$out/$3" "$out/$4" --top 5)
echo "$split" | sed 's/^/# /'
expect_eq "insnsplit's total is round 2's" "$(echo "$split" | awk '$1 == "all" { print $2 }')" "${rounds[1]:-}"
expect_gt "most of it in the kernel (share, %)" \
	"$(echo "$split" | awk '$1 == "kernel" { sub(/%/, "", $3); print int($3) }')" 50
expect_match "QEMU's exit wrote the final counts" "$(tail -n1 "$out/count.exit" 2>/dev/null)" '^total [1-9]'
tap_done
