# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest body of `make bench B=shrink` (issue 35, item 4: shrink without
# collapse; Documentation/evaluation.rst). The NFSv4.2 mount and the
# iSER LUN of tests/lib/guest/tenants.sh take turns as the victim: fio,
# 256 KiB random read/write at depth 64 (large enough I/Os that what the
# victim holds dwarfs the idle consumers' guaranteed minimums), logs its
# IOPS every 20 ms with Unix time stamps. PRE s in, the budget is set to
# what the victim then holds plus the other consumers' minimums, and a
# newcomer (build/tools/umr, a plain verbs program of equal weight)
# asks for half of what the victim holds: their fair shares are half
# each (the idle consumers keep their minimums), the free entries do
# not cover the request, and the victim is asked to shrink to its
# half.
# SHRINK s later the newcomer exits (the relief); POST s after that fio
# ends. Each victim is also relieved the other way (victim NAME-raise):
# the newcomer stays, and the budget is raised back to the whole device.
# ROUNDS rounds (the first argument, default 7), the two victims in
# alternating order. One row per run in $RDMASTOR_OUT/shrink.csv:
#   round,victim,held,share_cut,budget,newcomer_ms,pre_iops,cut_iops,cut_ratio,recover_ms,errors
# newcomer_ms: how long its registration waited for the victim to make
# room; cut_ratio: the mean IOPS from the cut to the relief over the
# mean of the 3.5 s before the cut (the goal: at least 0.45, a cost of
# at most 55%); recover_ms: from the relief to the start of the first
# 100 ms whose mean is at least 95% of that (-1: never, within POST);
# errors: fio's. ROUND.VICTIM.iops.csv: fio's samples, each prefixed with
# the cut's and the relief's Unix times in ms.
. tests/lib/guest/lib.sh
. tests/lib/guest/tenants.sh
ROUNDS=${1:-7}
PRE=4 SHRINK=4 POST=3
CSV=$RDMASTOR_OUT/shrink.csv
FULL=262144

# the victim's consumer directory (tenants.sh's prefixes)
victim_dir() {
	case $1 in
	nfs4) ls -d $TN_SYS/consumers/nfs-192.0.2.1.* | head -n1 ;;
	iser) ls -d $TN_SYS/consumers/iser-ini-* | head -n1 ;;
	esac
}

# the budget that leaves nothing free while the victim (its consumer
# directory) holds HELD and every other consumer may have its minimum;
# the arbiter keeps budget / 32 out of the shares (rnic_mgr/policy.c)
budget_for() {
	local dir=$1 held=$2 others=0 d m b want
	for d in $TN_SYS/consumers/*; do
		[ "$d" = "$dir" ] && continue
		read -r m < "$d/min"
		others=$((others + m))
	done
	# 64 more: the two halves' water level clears the newcomer's ask
	# despite the fill's rounding (an ask above its share is not owed
	# room, and nobody would be asked to shrink)
	want=$((held + others + 64))
	b=$((want * 32 / 31))
	while [ $((b - b / 32)) -lt "$want" ]; do b=$((b + 1)); done
	echo $b
}

# one run: VICTIM ROUND RELIEF (leave: the newcomer exits; raise: the
# budget is raised and the newcomer stays until fio ends)
shrink_run() {
	local t=$1 round=$2 relief=$3 file dir pid held=0 h min cut ask budget t_cut t_relief
	local upid fd nms f name=$1
	[ "$relief" = raise ] && name=$t-raise
	case $t in
	nfs4) file=$TN_F4 ;;
	iser) file=$TN_LUN ;;
	esac
	wait_for 60 tenants_idle || diag "not idle: $(tr '\n' '|' < $TN_SYS/table)"
	echo arbiter > $TN_SYS/policy
	echo $FULL > $TN_SYS/budget
	rm -f /tmp/shrink_iops.*.log /tmp/shrink.json /tmp/shrink.fifo
	fio --name=shrink --filename="$file" --direct=1 --ioengine=libaio --rw=randrw \
		--bs=256k --iodepth=64 --size=64m --time_based \
		--runtime=$((PRE + SHRINK + POST)) --write_iops_log=/tmp/shrink \
		--log_avg_msec=20 --log_unix_epoch=1 \
		--output-format=json --output=/tmp/shrink.json & pid=$!
	sleep $((PRE - 1))
	dir=$(victim_dir $t)
	# what it holds at full speed: the most of 5 looks over the last second
	for _ in 1 2 3 4 5; do
		read -r h < "$dir/held"
		[ "$h" -gt "$held" ] && held=$h
		sleep 0.2
	done
	[ "$round" = 1 ] && diag "$t: MRs by owner: $(rdma resource show mr 2>/dev/null |
		grep -o 'comm [^ ]*' | sort | uniq -c | paste -sd' ')"
	read -r min < "$dir/min"
	cut=$((held / 2))
	[ "$cut" -lt "$min" ] && cut=$min
	ask=$((held - cut))
	budget=$(budget_for "$dir" "$held")
	echo "$budget" > $TN_SYS/budget
	mkfifo /tmp/shrink.fifo
	t_cut=$(date +%s%3N)
	build/tools/umr $TN_DEV reg:$ask wait < /tmp/shrink.fifo > /tmp/shrink.umr 2>&1 &
	upid=$!
	exec {fd}> /tmp/shrink.fifo
	sleep 1
	diag "$t round $round: held $held, budget $budget, a newcomer asks $ask: now share $(cat "$dir/share"), held $(cat "$dir/held"), target $(cat "$dir/target"); $(cat /tmp/shrink.umr)"
	sleep $((SHRINK - 1))
	t_relief=$(date +%s%3N)
	if [ "$relief" = raise ]; then
		echo $FULL > $TN_SYS/budget
		wait $pid
		exec {fd}>&-
		wait $upid
	else
		exec {fd}>&-
		wait $upid
		echo $FULL > $TN_SYS/budget
		wait $pid
	fi
	nms=$(sed -n 's/.*reg [0-9]* ok .*ms=\([0-9]*\).*/\1/p' /tmp/shrink.umr)
	python3 - "$round" "$name" "$held" "$cut" "$budget" "${nms:--1}" "$t_cut" "$t_relief" \
		>> "$CSV" <<'EOF'
import glob, json, sys
rnd, t, held, cut, budget, nms = sys.argv[1:7]
t_cut, t_relief = int(sys.argv[7]), int(sys.argv[8])
bins = {}
for f in glob.glob("/tmp/shrink_iops.*.log"):
    for line in open(f):
        p = [x.strip() for x in line.split(",")]
        if len(p) >= 2:
            ms = int(p[0])
            bins[ms - ms % 20] = bins.get(ms - ms % 20, 0) + int(p[1])
def mean(a, b):
    v = [bins.get(x, 0) for x in range(a - a % 20, b - b % 20, 20)]
    return sum(v) / len(v) if v else 0.0
pre_iops = mean(t_cut - 3500, t_cut)
cut_iops = mean(t_cut, t_relief)
rec = -1
last = max(bins) if bins else t_relief
for start in range(t_relief - t_relief % 20, last - 100, 20):
    if mean(start, start + 100) >= 0.95 * pre_iops:
        rec = max(0, start - t_relief)
        break
err = json.load(open("/tmp/shrink.json"))["jobs"][0]["error"]
print("%s,%s,%s,%s,%s,%s,%.0f,%.0f,%.3f,%d,%d" % (rnd, t, held, cut, budget, nms, pre_iops,
      cut_iops, cut_iops / pre_iops if pre_iops else 0, rec, err))
EOF
	# the raw 20 ms samples, with the two instants (for the plot)
	for f in /tmp/shrink_iops.*.log; do
		sed "s/^/$t_cut,$t_relief,/" "$f"
	done > "$RDMASTOR_OUT/$round.$name.iops.csv"
	diag "  $(tail -n1 "$CSV")"
	awk -F, 'END { exit $11 != 0 || $6 < 0 }' "$CSV"
}

echo "round,victim,held,share_cut,budget,newcomer_ms,pre_iops,cut_iops,cut_ratio,recover_ms,errors" > "$CSV"
check "shrink: device, NFS mounts, iSER LUN" tenants_setup || bail "no setup"
for round in $(seq "$ROUNDS"); do
	if [ $((round % 2)) = 1 ]; then order="nfs4 iser"; else order="iser nfs4"; fi
	for t in $order; do
		check "round $round: $t shrunk for a newcomer, who leaves, no error" \
			shrink_run $t $round leave
		check "round $round: $t shrunk for a newcomer, the budget raised, no error" \
			shrink_run $t $round raise
	done
done
check "shrink: no fio error in any run" awk -F, 'NR > 1 && $11 != 0 { exit 1 }' "$CSV"
echo $FULL > $TN_SYS/budget
check "shrink: log out" iser_logout 1
check "shrink: unmount" sh -c "umount /mnt/t4 && umount /mnt/t6"
tap_done
