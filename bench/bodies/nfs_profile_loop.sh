# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Where the time goes (one guest, rxe loopback): the stock pair at
# INLINE (stock-inl) and rdmastor's pair, each running JOBS (4 KiB random
# read and write at depth 16) for PROFILE_S (10) seconds under
# `perf record -a -g` (cpu-clock: TCG has no hardware counters), ROUNDS
# (2) rounds alternating. A job NAME:create|stat|unlink:0:N[:numjobs=J]
# runs pb_meta on N files (as the pairing runs' metadata jobs) under
# perf for as long as it takes; the IOPS it prints are files a second.
# A stat or unlink job first creates its N files, unprofiled, if the
# directory does not hold them (a job list may name it alone).
# PROFILE_JOBS, PROFILE_S, PROFILE_ROUNDS,
# MOUNT_OPTS and NFS_VERS come from make bench's environment (4.2 and
# no options unless set). perf report's top symbols of each, and the
# split by module, go to $RDMASTOR_OUT/profile-STACK-JOB.txt;
# bench/drivers/bench puts them side by side.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. bench/guest/pairbench.sh
INLINE=${INLINE:-16384}
PROFILE_S=${PROFILE_S:-10}
ROUNDS=${PROFILE_ROUNDS:-2}
JOBS=${PROFILE_JOBS:-"rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16"}
STOCK_THREADS=${STOCK_THREADS:-8} RDMASTOR_THREADS=${RDMASTOR_THREADS:-8}
MOUNT_OPTS=${MOUNT_OPTS:-}
# shellcheck disable=SC2034	# read by pairbench.sh
PB_DIR=$MNT
. bench/guest/nfs-loop-pairs.sh
loop_setup
# shellcheck disable=SC2046	# one bench file per block size the jobs use
pb_files $(for spec in $JOBS; do IFS=: read -r _ rw bs _ <<< "$spec"; case $rw in
	create|stat|unlink) ;; *) echo "$bs" ;; esac; done | sort -u)
umount $MNT

# perf_meta OP N J: pb_meta's OP on N files in J processes under perf
# (system-wide, for as long as the calls take: no fixed run time); its
# row in /tmp/pm.row. The metadata jobs are pb_meta's, as the pairing
# runs'; a stat or unlink first creates the files it lacks, unprofiled.
# perf records with no workload of its own until it is sent SIGINT, so
# its end cannot miss (it used to wrap `sleep 86399` and stop it by
# name, and a pkill that ran before perf had exec'd its workload matched
# nothing: perf waited a day, as a cold stat whose files did not exist
# showed at 2046d5e).
perf_meta() {
	local p rc n
	if [ "$1" != create ]; then
		n=$(find "$PB_DIR/meta" -maxdepth 1 -name 'f.*' 2>/dev/null | wc -l)
		[ "$n" -ge "$2" ] || pb_meta create "$2" "$3" > /dev/null || return 1
	fi
	rm -f /tmp/perf.data
	perf record -q -a -g -e cpu-clock -o /tmp/perf.data 2>/tmp/perf.err &
	p=$!
	# its header written: perf is recording and handles SIGINT
	wait_for 30 test -s /tmp/perf.data || { kill $p; cat /tmp/perf.err; return 1; }
	pb_meta "$1" "$2" "$3" > /tmp/pm.row 2> /tmp/pm.err; rc=$?
	kill -INT $p
	wait $p
	[ -s /tmp/perf.data ] || { cat /tmp/perf.err; return 1; }
	[ "$rc" = 0 ] || head -c 300 /tmp/pm.err
	return $rc
}

profile() {	# profile STACK SPEC: one job under perf, its reports
	local name rw bs depth opts f rate
	IFS=: read -r name rw bs depth opts <<< "$2"
	f=$RDMASTOR_OUT/profile-$1-$name
	case $rw in
	create|stat|unlink)
		perf_meta "$rw" "$depth" "$(pb_numjobs "$opts")" || return 1
		rate=$(awk '{ print $1 }' /tmp/pm.row) ;;
	*)
		perf record -q -a -g -e cpu-clock -o /tmp/perf.data -- \
			fio --name="$name" --directory=$MNT --filename="bench.$bs" --size=64m --rw="$rw" \
			--bs="$bs" --iodepth="$depth" --direct=1 --ioengine=libaio --time_based \
			--runtime="$PROFILE_S" --output-format=json+ > /tmp/pf.json 2>/tmp/perf.err || {
			cat /tmp/perf.err; return 1; }
		rate=$(bench/guest/fio-row /tmp/pf.json | awk '{ print $1 }') ;;
	esac
	{
		echo "$1 $name: $rate IOPS"
		echo "== by module (self)"
		perf report -i /tmp/perf.data --no-children --sort dso --stdio -g none 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -15
		echo "== by symbol (self)"
		perf report -i /tmp/perf.data --no-children --sort dso,sym --stdio -g none 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -200
		# who hands work to workqueues (each hand-off costs a wake-up)
		echo "== callers of queue_work_on"
		perf report -i /tmp/perf.data --no-children --symbols queue_work_on --stdio \
			-g graph,0.1,callee --max-stack 12 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -300
		# the server's threads alone: where its per-call work differs
		echo "== nfsd threads by symbol (self)"
		perf report -i /tmp/perf.data --no-children --comms nfsd --sort sym --stdio -g none 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -60
		echo "== by thread name (self)"
		perf report -i /tmp/perf.data --no-children --sort comm --stdio -g none 2>/dev/null |
			grep -v '^#' | grep -v '^$' | sed 's/[:/][0-9]*\(-\|$\)/\1/' | head -40
	} >> "$f.txt"
}

for round in $(seq "$ROUNDS"); do
	for stack in stock-inl rdmastor; do
		check "round $round: $stack" pb_pairing $stack || continue
		for spec in $JOBS; do
			check "round $round: $stack: ${spec%%:*} under perf" profile $stack "$spec"
		done
	done
done
mountpoint -q $MNT && umount $MNT
rpc.nfsd 0
tap_done
