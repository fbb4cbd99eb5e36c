# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The one driver of every pairing benchmark (bench/bodies/*pairs*.sh,
# iser_ini.sh): the same fio jobs through several pairings of stacks in
# one boot, ROUNDS rounds, the order rotated each round so that every
# pairing runs in every position. The host's bench/drivers/pairstats
# makes the tables (medians, order-statistic intervals, ratios paired by
# round, the A/A verdict). Source after lib.sh.
#
# The body defines:
#   pb_pairing NAME   set up that pairing; leaves $PB_DIR (a directory
#                     on the stack under test) or $PB_DEV (a block
#                     device) for the jobs
# and sets PB_NAME (the CSV's name), PB_PAIRS (pairing names; NAME-aa
# pairs are the A/A copies: a second, separately set up run of NAME),
# PB_JOBS (job specs, below). Optional: PB_MRS (command that counts the
# MRs of the stack under test; default: all of rxe0's), PB_PEER (the
# server guest's IP:PORT, where bench/guest/cpu-marks records its CPU
# at each window's start and end; two guests), PB_EXTRA (more
# columns, comma-separated: per I/O, the difference over the job of what
# the body's pb_counters prints, one number per column).
#
# A job spec is NAME:RW:BS:DEPTH[:OPTS], OPTS fio options joined by '+'
# without their "--" (rwmixread=70+rate_iops=200). A job whose OPTS name
# number_ios runs to that count, not for RUNTIME; its latency histogram
# is kept (hist/STACK.JOB.ROUND) for the pooled percentiles. Metadata:
# RW create, stat and unlink make, stat and remove DEPTH files of
# $PB_DIR/meta by name, each call timed (pb_meta), and RW readdir lists
# that directory; run in that order, they work on the same files. RW
# filecreate, filestat or filedelete runs fio's engine of that name on
# the same files instead (fio looks every file up, untimed, before a
# create or delete: with 10,000 files 4 of a pairing's 9 minutes a
# round in two guests; and its filestat stats every file untimed while
# it sets the job up, so the stats it times find the attributes
# cached). They start from a cold client cache (drop_caches), and their
# iops are files a second. OPTS numjobs=N splits the DEPTH files among
# N processes (one directory still; fio's engines then name them
# f.JOB.FILE, so use them throughout or not at all); all N jobs' files
# together are the job's I/Os. Only the stats overlap: the client holds
# the directory's lock across each create and unlink, so N of those
# still go one at a time (8 jobs on 10,000 files: 481 stats a second,
# 58 creates and 118 unlinks).
#
# In cost mode (COST=1, make bench B=insns) each window's edges are
# also the instruction counter's markers in both guests (pbcost.sh).
#
# Output in $RDMASTOR_OUT: PB_NAME.csv (one row per round, pairing and
# job), hist/, PB_NAME-verify.csv (pb_verify). The host writes commit
# beside them (bench/drivers/bench).
# Columns: see PB_COLUMNS; rxe_* are soft-RoCE's port counters over the
# job (rxe_retry: the requester's retransmissions, so an ACK timeout that
# fired; rxe_err: retries exhausted and send errors), busy_us_io the
# guest's busy CPU per I/O with its idle rate subtracted.

# what make bench was asked for (bench/drivers/bench writes it from its
# environment: ROUNDS=3 JOBS=... make bench B=...)
# shellcheck disable=SC1091
[ -f "$RDMASTOR_TREE/build/bench/pairbench.env" ] && . "$RDMASTOR_TREE/build/bench/pairbench.env"
ROUNDS=${ROUNDS:-7}
RUNTIME=${RUNTIME:-3}
RAMP=${RAMP:-1}
# The job sets of the NFS and iSER pairings (JOBS=..., LAT_JOBS=...,
# MORE_JOBS=... replace them): core, QD1 latency, and NFS's more (fsync,
# CPU at a fixed rate, bursts with 1.5 s idle gaps, metadata)
JOBS=${JOBS:-"rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
rand8k-read:randread:8k:16 rand8k-write:randwrite:8k:16
rand16k-read:randread:16k:16 rand16k-write:randwrite:16k:16
seq128k-read:read:128k:4 seq128k-write:write:128k:4
seq1m-read:read:1m:4 seq1m-write:write:1m:4
mix4k-70r:randrw:4k:16:rwmixread=70
qd4-4k-read:randread:4k:4 qd64-4k-read:randread:4k:64
qd4-4k-write:randwrite:4k:4 qd64-4k-write:randwrite:4k:64"}
LAT_JOBS=${LAT_JOBS:-"lat4k-read:randread:4k:1:number_ios=3000 lat4k-write:randwrite:4k:1:number_ios=3000
lat8k-read:randread:8k:1:number_ios=3000 lat8k-write:randwrite:8k:1:number_ios=3000
lat16k-read:randread:16k:1:number_ios=3000 lat16k-write:randwrite:16k:1:number_ios=3000"}
MORE_JOBS=${MORE_JOBS:-"fsync64k-write:write:64k:1:direct=0+fsync=8+ioengine=psync
cpu4k-read:randread:4k:16:rate_iops=300 cpu4k-write:randwrite:4k:16:rate_iops=300
burst64k-read:randread:64k:16:thinktime=1500000+thinktime_blocks=256+number_ios=1280
burst64k-write:randwrite:64k:16:thinktime=1500000+thinktime_blocks=256+number_ios=1280
meta-create:create:0:10000 meta-stat:stat:0:10000:numjobs=8 meta-readdir:readdir:0:0
meta-delete:unlink:0:10000"}
# shellcheck source=bench/guest/pbcost.sh
. bench/guest/pbcost.sh
# The cost mode's jobs (COST_JOBS=...): each at a fixed offered rate
# below every stack's saturation here, so that the stacks do the same
# work a second and instructions per I/O compare like for like; the
# metadata jobs (NFS only) are counted whole
COST_JOBS=${COST_JOBS:-"c4k-read-qd1:randread:4k:1:rate_iops=80
c4k-write-qd1:randwrite:4k:1:rate_iops=80
c4k-read-qd16:randread:4k:16:rate_iops=300 c4k-write-qd16:randwrite:4k:16:rate_iops=300
c64k-read:randread:64k:16:rate_iops=100 c64k-write:randwrite:64k:16:rate_iops=100
c1m-read:read:1m:4:rate_iops=10 c1m-write:write:1m:4:rate_iops=10
c64k-fsync:write:64k:1:direct=0+fsync=8+ioengine=psync+rate_iops=40
c-create:create:0:1000 c-stat:stat:0:1000 c-unlink:unlink:0:1000"}
# pb_block_jobs SPECS: those of SPECS a block device runs (no metadata)
pb_block_jobs() {
	local spec
	for spec in $1; do
		case $(cut -d: -f2 <<< "$spec") in
		create | stat | unlink | readdir | file*) ;;
		*) echo "$spec" ;;
		esac
	done | paste -sd' '
}
PB_COLUMNS="round,pos,stack,job,iops,bw_kib,lat_mean_us,p50_us,p99_us,p999_us,ios,mrs_idle,mrs_load,rxe_pkts,rxe_retry,rxe_dup,rxe_rnr,rxe_err,busy_us_io"

pb_mrs_all() { rdma resource show mr 2>/dev/null | grep -c rxe0; }

# busy_ticks: CPU time the guest spent busy (user, nice, system, irq,
# softirq, steal of all CPUs), in USER_HZ ticks
pb_busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }

# pb_rxe: "pkts retry dup rnr err", soft-RoCE's counters of rxe0's port
# (both ends, in one guest), as `rdma statistic` reads them
pb_rxe() {
	rdma statistic show link rxe0/1 2>/dev/null | tr -s ' ' '\n' | awk '
		prev != "" { v[prev] = $1 } { prev = $1 }
		END { print v["sent_pkts"] + 0, v["completer_retry_err"] + 0,
			v["duplicate_request"] + v["out_of_seq_request"],
			v["rcvd_rnr_err"] + v["send_rnr_err"],
			v["retry_exceeded_err"] + v["retry_rnr_exceeded_err"] + v["send_err"] + v["link_downed"] }'
}

# pb_mark LABEL: tell the server guest's cpu-marks (PB_PEER) to note its
# CPU now; in cost mode, mark the counts at both ends (pbcost.sh)
pb_mark() {
	if pb_cost_on; then
		pb_cost_mark "$PB_NAME,$1"
		return 0
	fi
	[ -n "${PB_PEER:-}" ] || return 0
	echo "$PB_NAME,$1" > "/dev/udp/${PB_PEER%:*}/${PB_PEER#*:}" 2>/dev/null || true
}

# pb_idle_rate ROUND STACK: the guest's busy ticks per second, nothing running
pb_idle_rate() {
	local b0 t0 b1 t1
	b0=$(pb_busy_ticks) t0=$EPOCHREALTIME
	pb_mark "$1,$2,idle,start"
	nap 3
	pb_mark "$1,$2,idle,end"
	b1=$(pb_busy_ticks) t1=$EPOCHREALTIME
	awk -v b="$((b1 - b0))" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.2f", b / (t1 - t0) }'
}

pb_where() {	# pb_where BS: fio's target options
	if [ -n "${PB_DEV:-}" ]; then
		echo "--filename=$PB_DEV --size=256m"
	else
		echo "--directory=$PB_DIR --filename=bench.$1 --size=64m"
	fi
}

pb_files() {	# pb_files BS...: a 64 MiB file of random data per size in $PB_DIR
	local bs
	for bs in "$@"; do
		check "bench file bench.$bs" dd if=/dev/urandom of="$PB_DIR/bench.$bs" bs=1M count=64 status=none
	done
}

# pb_numjobs OPTS: the numjobs=N a job spec's options name, or 1
pb_numjobs() {
	local o
	for o in ${1//+/ }; do
		[[ "$o" == numjobs=* ]] && { echo "${o#numjobs=}"; return; }
	done
	echo 1
}

# pb_target RW BS DEPTH OPTS: fio's options for the job's kind
pb_target() {
	local n
	case $1 in
	filecreate|filestat|filedelete)
		mkdir -p "$PB_DIR/meta"
		n=$(pb_numjobs "$4")
		if [ "$n" = 1 ]; then
			echo "--filename_format=f.\$filenum --nrfiles=$3"
		else
			echo "--filename_format=f.\$jobnum.\$filenum --nrfiles=$(($3 / n)) --group_reporting"
		fi
		echo "--directory=$PB_DIR/meta --ioengine=$1" \
			"--filesize=$2 --openfiles=1 --fallocate=none --create_on_open=1" \
			"--rw=$([ "$1" = filecreate ] && echo write || echo read) --iodepth=1" ;;
	*)	echo "$(pb_where "$2") --rw=$1 --iodepth=$3 --direct=1 --ioengine=libaio" ;;
	esac
}

# pb_readdir: list $PB_DIR/meta from a cold cache; a row as fio-row's
pb_readdir() {
	local t0 n t1
	sync
	echo 3 > /proc/sys/vm/drop_caches
	${PB_WINDOW_START:-:} > /dev/null
	t0=$EPOCHREALTIME
	n=$(ls -f "$PB_DIR/meta" | wc -l)
	t1=$EPOCHREALTIME
	awk -v n="$((n - 2))" -v t0="$t0" -v t1="$t1" 'BEGIN { t = t1 - t0
		printf "%.1f 0 %.1f 0 0 0 %d\n", n / t, t * 1e6, n }'
}

# pb_meta OP N [J]: OP (stat, create or unlink) the N files f.0 ..
# f.N-1 of $PB_DIR/meta by name, in J processes that take N/J names
# each (so a create and a stat may use different J), each call timed; a
# row as fio-row's. stat and unlink start from a cold client cache, one
# LOOKUP a name (the directory is never listed: a READDIRPLUS would
# bring every file's attributes at once); create starts from an empty
# directory and makes each file empty (open O_CREAT|O_EXCL, close), as
# fio's filecreate does, without fio's untimed lookup of every name
# before the first.
pb_meta() {
	if [ "$1" = create ]; then
		rm -rf "$PB_DIR/meta" && mkdir -p "$PB_DIR/meta" || return 1
	fi
	sync
	echo 3 > /proc/sys/vm/drop_caches
	${PB_WINDOW_START:-:} > /dev/null
	perl -MTime::HiRes=time -MFcntl -e '
		my ($op, $dir, $n, $jobs) = @ARGV; my (@lat, @kids, $t);
		my %do = (
			stat => sub { stat($_[0]) },
			create => sub { my $fh; sysopen($fh, $_[0], O_WRONLY | O_CREAT | O_EXCL) && close($fh) },
			unlink => sub { unlink($_[0]) },
		);
		my $call = $do{$op} or die "no operation $op\n";
		my $each = int($n / $jobs); $n = $each * $jobs;
		my $t0 = time;
		for my $j (0 .. $jobs - 1) {
			pipe(my $r, my $w) or die "pipe: $!\n";
			my $pid = fork() // die "fork: $!\n";
			if (!$pid) {
				close $r;
				for my $i (0 .. $each - 1) {
					my $f = "$dir/f." . ($j * $each + $i);
					my $s = time;
					$call->($f) or die "$op $f: $!\n";
					print $w (time - $s) * 1e6, "\n";
				}
				exit 0;
			}
			close $w;
			push @kids, $r;
		}
		for my $r (@kids) { chomp(my @l = <$r>); push @lat, @l; }
		while ((my $k = wait()) > 0) { $? == 0 or die "a $op failed\n"; }
		$t = time - $t0; $t > 0 or $t = 1e-6;
		@lat == $n or die "${op}s timed: " . @lat . ", wanted $n\n";
		@lat = sort { $a <=> $b } @lat; my $sum = 0; $sum += $_ for @lat;
		my $q = sub { $lat[int($_[0] * ($n - 1) + 0.5)] };
		printf "%.1f 0 %.1f %.1f %.1f %.1f %d\n", $n / $t, $sum / $n,
			$q->(0.5), $q->(0.99), $q->(0.999), $n;' "$1" "$PB_DIR/meta" "$2" "${3:-1}"
}

pb_opts() {	# pb_opts OPTS: fio options from a job spec's
	local o
	[ -n "$1" ] || return 0
	for o in ${1//+/ }; do printf -- "--%s " "$o"; done
}

# pb_window_start ROUND STACK JOB: a job's measured window starts
pb_window_start() {
	echo "$(pb_busy_ticks) $EPOCHREALTIME" > /tmp/pb_busy0
	pb_mark "$1,$2,$3,start"
	[ -z "${PB_EXTRA:-}" ] || pb_counters > /tmp/pb_extra0
	echo "$1 $2 $3 start" > "$RDMASTOR_OUT/phase"
}

# pb_job ROUND POS STACK SPEC: run one job, append its row
pb_job() {
	local round=$1 pos=$2 stack=$3 name rw bs depth opts idle t0 b0 b1 t1 r rx0 rx1 hist="" \
		len="--time_based --runtime=$RUNTIME"
	IFS=: read -r name rw bs depth opts <<< "$4"
	local ramp=$RAMP
	# a counted job counts from its first I/O: a ramp could swallow it
	[[ "$opts" == *number_ios=* ]] && { len="--runtime=300" ramp=0; hist=$RDMASTOR_OUT/hist/$stack.$name.$round; }
	case $rw in
	file*) len='' ramp=0
		[ "$rw" = filecreate ] && rm -rf "$PB_DIR/meta"
		[ "$rw" = filecreate ] || { sync; echo 3 > /proc/sys/vm/drop_caches; } ;;
	readdir | stat | create | unlink) len='' ramp=0 ;;
	esac
	# Cost mode counts a time-based fio job inside its steady state: the
	# window starts two seconds after the ramp and ends one before
	# fio does, so that neither fio's start nor its exit and report are
	# in it (nor the count of MRs under load, taken in the ramp). Other
	# jobs are counted whole.
	local inside='' lead=0 mrs_at=$((RAMP + RUNTIME / 2))
	PB_COST_BS=0
	if pb_cost_on && [ -n "$len" ] && [ -z "$hist" ]; then
		inside=1 lead=2 PB_COST_BS=$(numfmt --from=iec "${bs^^}") mrs_at=$RAMP
	fi
	if pb_cost_on && [ -z "${PB_DEV:-}" ]; then
		PB_COST_MNT=$(stat -c %m "$PB_DIR")
	fi
	idle=$(${PB_MRS:-pb_mrs_all})
	( sleep $mrs_at; ${PB_MRS:-pb_mrs_all} > /tmp/pb_mrs_load ) &
	rm -f /tmp/pb_busy1
	# the measured window starts when fio's ramp ends; in cost mode, a
	# metadata job's starts once its caches are dropped (pb_meta and
	# pb_readdir call PB_WINDOW_START), so that it holds no more than
	# the job
	PB_WINDOW_START=:
	if pb_cost_on && [ -z "$inside" ] && [ -z "$len" ] && [[ "$rw" != file* ]]; then
		PB_WINDOW_START="pb_window_start $round $stack $name"
	else
		( sleep $((ramp + lead)); pb_window_start "$round" "$stack" "$name"
		  [ -z "$inside" ] && exit 0
		  nap $((RUNTIME - 3))
		  pb_mark "$round,$stack,$name,end"
		  echo "$(pb_busy_ticks) $EPOCHREALTIME" > /tmp/pb_busy1 ) &
	fi
	rx0=$(pb_rxe)
	if [ "$rw" = readdir ]; then
		pb_readdir > /tmp/pb_row
	elif [ "$rw" = stat ] || [ "$rw" = create ] || [ "$rw" = unlink ]; then
		pb_meta "$rw" "$depth" "$(pb_numjobs "$opts")" > /tmp/pb_row 2> /tmp/pb_meta.err || {
			diag "round $round $stack $name: $(head -c 300 /tmp/pb_meta.err)"; wait; return 1; }
	else
		# shellcheck disable=SC2046,SC2086
		fio --name="$name" $(pb_target "$rw" "$bs" "$depth" "$opts") --bs="$bs" $len \
			--ramp_time="$ramp" $(pb_opts "$opts") --output-format=json+ \
			> /tmp/pb_fio.json 2> /tmp/pb_fio.err || {
			diag "round $round $stack $name: fio failed: $(head -c 300 /tmp/pb_fio.err)"; wait; return 1; }
		bench/guest/fio-row /tmp/pb_fio.json $hist > /tmp/pb_row || {
			diag "$name: $(cat /tmp/pb_row)"; wait; return 1; }
	fi
	b1=$(pb_busy_ticks) t1=$EPOCHREALTIME
	[ -n "$inside" ] || pb_mark "$round,$stack,$name,end"
	rx1=$(pb_rxe)
	local extra='' c1=''
	[ -z "${PB_EXTRA:-}" ] || c1=$(pb_counters)
	echo "$round $stack $name end" > "$RDMASTOR_OUT/phase"
	wait
	read -r b0 t0 < /tmp/pb_busy0
	[ -z "$inside" ] || read -r b1 t1 < /tmp/pb_busy1
	r=$(cat /tmp/pb_row)
	[ -z "${PB_EXTRA:-}" ] || extra=$(awk -v a="$(cat /tmp/pb_extra0)" -v b="$c1" -v n="${r##* }" 'BEGIN {
		k = split(a, x); split(b, y)
		for (i = 1; i <= k; i++) printf ",%.2f", (n > 0 ? (y[i] - x[i]) / n : 0) }')
	# busy ticks (10 ms) over the window, less the idle rate, per I/O
	local cpu rx
	cpu=$(awk -v b="$((b1 - b0))" -v t="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
		-v idle="$PB_IDLE" -v iops="${r%% *}" \
		'BEGIN { x = (b - idle * t) * 10000 / (iops * t); printf "%.0f", x < 0 ? 0 : x }')
	rx=$(awk -v a="$rx0" -v b="$rx1" 'BEGIN { n = split(a, x); split(b, y)
		for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? "," : ""), y[i] - x[i] }')
	echo "$round,$pos,$stack,$name,${r// /,},$idle,$(cat /tmp/pb_mrs_load),$rx,$cpu$extra" >> "$PB_CSV"
	diag "round $round $stack $name: iops bw_kib mean p50 p99 p99.9 ios = $r; MRs $idle/$(cat /tmp/pb_mrs_load); rxe pkts,retry,dup,rnr,err $rx; CPU $cpu us/IO"
}

# pb_rounds: every pairing, every job, ROUNDS rounds, the order rotated
pb_rounds() {
	local order=$PB_PAIRS round pos stack spec
	PB_CSV=$RDMASTOR_OUT/$PB_NAME.csv
	mkdir -p "$RDMASTOR_OUT/hist"
	[ -e "$PB_CSV" ] || echo "$PB_COLUMNS${PB_EXTRA:+,$PB_EXTRA}" > "$PB_CSV"
	if pb_cost_on; then
		check "the resident marker" pb_cost_marker || return 1
	fi
	for round in $(seq "$ROUNDS"); do
		diag "round $round of $ROUNDS, order: $order"
		pos=0
		for stack in $order; do
			pos=$((pos + 1))
			check "round $round: $stack" pb_pairing "$stack" || continue
			PB_IDLE=$(pb_idle_rate "$round" "$stack")
			for spec in $PB_JOBS; do
				pb_job "$round" "$pos" "$stack" "$spec" || true
			done
		done
		# the first pairing goes last (one pairing: nothing moves)
		[[ "$order" == *" "* ]] && order="${order#* } ${order%% *}"
	done
	expect_gt "rows in $PB_NAME.csv (with the header)" "$(wc -l < "$PB_CSV")" 1
}

# pb_verify BS...: once per pairing, fio writes and reads back every
# block size with crc32c checks (random writes at the benchmark's depth)
pb_verify() {
	local stack bs out=$RDMASTOR_OUT/$PB_NAME-verify.csv where
	echo "stack,bs,result" > "$out"
	for stack in $PB_PAIRS; do
		[[ "$stack" == *-aa ]] && continue
		check "verify: $stack" pb_pairing "$stack" || continue
		for bs in "$@"; do
			where="--directory=$PB_DIR --filename=verify.$bs --size=16m"
			[ -n "${PB_DEV:-}" ] && where="--filename=$PB_DEV --size=16m"
			# shellcheck disable=SC2086
			if check "verify: $stack: $bs random writes read back intact" \
				fio --name=verify $where --rw=randwrite --bs="$bs" --iodepth=16 \
				--direct=1 --ioengine=libaio --verify=crc32c --do_verify=1 \
				--verify_fatal=1 --output=/tmp/pb_verify.out; then
				echo "$stack,$bs,pass" >> "$out"
			else
				echo "$stack,$bs,FAIL" >> "$out"
				diag "$(tail -5 /tmp/pb_verify.out)"
			fi
		done
	done
}

# nfs_sweep SUFFIX: the nfsd thread sweep of the NFS pairings (SWEEP:
# counts, or none; SWEEP_ROUNDS rounds of 4 KiB random read and write at
# depth 16, the stock pair at 16 KiB inline and rdmastor's); sets
# STOCK_THREADS and RDMASTOR_THREADS to each server's best and records
# them in nfs-pairs$SUFFIX.threads. Without a sweep they are what the
# environment says (a best count an earlier sweep found), or 8.
nfs_sweep() {
	local t best
	STOCK_THREADS=${STOCK_THREADS:-8} RDMASTOR_THREADS=${RDMASTOR_THREADS:-8}
	if [ "${SWEEP:-8 16 32 64}" != none ]; then
		PB_NAME=nfs-threads$1 PB_PAIRS="" PB_JOBS="rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16"
		for t in ${SWEEP:-8 16 32 64}; do PB_PAIRS="$PB_PAIRS stock-inl@$t rdmastor@$t"; done
		PB_PAIRS=${PB_PAIRS# }
		ROUNDS=${SWEEP_ROUNDS:-3} pb_rounds
		best=$(bench/drivers/pairstats best "$RDMASTOR_OUT/nfs-threads$1.csv" --by threads)
		STOCK_THREADS=$(awk '$1 == "stock-inl" { print $2 }' <<< "$best")
		RDMASTOR_THREADS=$(awk '$1 == "rdmastor" { print $2 }' <<< "$best")
		expect_match "a best thread count for each server" "$STOCK_THREADS $RDMASTOR_THREADS" '^[0-9]+ [0-9]+$'
	fi
	echo "stock $STOCK_THREADS rdmastor $RDMASTOR_THREADS" > "$RDMASTOR_OUT/nfs-pairs$1.threads"
	diag "nfsd threads: stock $STOCK_THREADS, rdmastor $RDMASTOR_THREADS"
}

# nfs_sets SUFFIX: the NFS pairings' sets of rounds (SETS: core, lat,
# more, nconnect, footprint, and the cost mode's cost (NFSv4.2) and
# cost3 (NFSv3): COST_JOBS), through the body's pb_pairing, PB_PAIRS,
# MOUNT_OPTS and NFS_VERS. nconnect and footprint mount NFSv3: this
# kernel's NFSv4 client opens one connection over RDMA whatever
# nconnect says. footprint is 4 and 64 KiB random read/write at depth 16
# over nconnect=4, for the MRs each stack holds (mrs_idle, mrs_load)
# beside its IOPS; not in the default SETS.
# shellcheck disable=SC2034	# loaded_now, MOUNT_OPTS, NFS_VERS: the body's pb_pairing reads them
nfs_sets() {
	local set
	for set in ${SETS:-core lat more nconnect}; do
		loaded_now=''	# each set starts with every pairing set up anew
		case $set in
		core) PB_NAME=nfs-pairs$1 PB_JOBS=$JOBS
			pb_verify 4k 8k 16k 128k 1m ;;
		lat) PB_NAME=nfs-lat$1 PB_JOBS=$LAT_JOBS ;;
		more) PB_NAME=nfs-more$1 PB_JOBS=$MORE_JOBS ;;
		nconnect) PB_NAME=nfs-nconnect$1 MOUNT_OPTS=nconnect=4,nolock NFS_VERS=3
			PB_JOBS=${NCONNECT_JOBS:-"nc4k-read:randread:4k:64 nc4k-write:randwrite:4k:64"} ;;
		footprint) PB_NAME=nfs-footprint$1 MOUNT_OPTS=nconnect=4,nolock NFS_VERS=3
			PB_JOBS="fp4k-rw:randrw:4k:16 fp64k-rw:randrw:64k:16" ;;
		cost) PB_NAME=nfs-cost$1 NFS_VERS=4.2 PB_JOBS=$COST_JOBS ;;
		cost3) PB_NAME=nfs-cost3$1 MOUNT_OPTS=nolock NFS_VERS=3 PB_JOBS=$COST_JOBS ;;
		*) continue ;;
		esac
		pb_rounds
		MOUNT_OPTS='' NFS_VERS=''
	done
}
