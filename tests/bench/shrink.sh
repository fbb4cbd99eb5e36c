# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest body of `make bench B=shrink` (issue 35, item 4: shrink without
# collapse; Documentation/evaluation.rst). The NFSv4.2 mount and the
# iSER LUN of tests/lib/guest/tenants.sh take turns as the victim: fio,
# 64 KiB random read/write at depth 64 (up to 1024 entries), logs its
# IOPS every 20 ms with Unix time stamps. PRE s in, the device's budget
# is lowered so that the victim's share is half of what it held; SHRINK
# s later the budget is restored (the relief); POST s after that fio
# ends. ROUNDS rounds (the first argument, default 7), the two victims
# in alternating order. One row per run in $RDMASTOR_OUT/shrink.csv:
#   round,victim,held,share_cut,budget,pre_iops,cut_iops,cut_ratio,recover_ms,errors
# cut_ratio: the mean IOPS from the cut to the relief over the mean of
# the PRE s before the cut (the goal: at least 0.45, a cost of at most
# 55%); recover_ms: from the relief to the start of the first 100 ms
# whose mean is at least 95% of that PRE mean (-1: never, within POST);
# errors: fio's.
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

# the budget whose fair shares leave the victim TARGET entries: every
# other consumer is idle and gets its minimum; the arbiter keeps a
# reserve of budget / 32 out of the shares (rnic_mgr/policy.c)
budget_for() {
	local dir=$1 target=$2 others=0 d m b want
	for d in $TN_SYS/consumers/*; do
		[ "$d" = "$dir" ] && continue
		read -r m < "$d/min"
		others=$((others + m))
	done
	want=$((target + others))
	b=$((want * 32 / 31))
	while [ $((b - b / 32)) -lt "$want" ]; do b=$((b + 1)); done
	echo $b
}

# one run: VICTIM ROUND
shrink_run() {
	local t=$1 round=$2 file dir pid held=0 h cut budget t_cut t_relief
	case $t in
	nfs4) file=$TN_F4 ;;
	iser) file=$TN_LUN ;;
	esac
	wait_for 60 tenants_idle || diag "not idle: $(tr '\n' '|' < $TN_SYS/table)"
	echo arbiter > $TN_SYS/policy
	echo $FULL > $TN_SYS/budget
	rm -f /tmp/shrink_iops.*.log /tmp/shrink.json
	fio --name=shrink --filename="$file" --direct=1 --ioengine=libaio --rw=randrw \
		--bs=64k --iodepth=64 --size=64m --time_based \
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
	cut=$((held / 2))
	read -r h < "$dir/min"
	[ "$cut" -lt "$h" ] && cut=$h
	budget=$(budget_for "$dir" $cut)
	t_cut=$(date +%s%3N)
	echo "$budget" > $TN_SYS/budget
	sleep 1
	diag "$t round $round: held $held, cut to $cut (budget $budget): now share $(cat "$dir/share"), held $(cat "$dir/held"), target $(cat "$dir/target")"
	sleep $((SHRINK - 1))
	t_relief=$(date +%s%3N)
	echo $FULL > $TN_SYS/budget
	wait $pid
	python3 - "$round" "$t" "$held" "$cut" "$budget" "$t_cut" "$t_relief" >> "$CSV" <<'EOF'
import glob, json, sys
rnd, t, held, cut, budget = sys.argv[1:6]
t_cut, t_relief = int(sys.argv[6]), int(sys.argv[7])
pre = 4000
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
pre_iops = mean(t_cut - pre + 500, t_cut)
cut_iops = mean(t_cut, t_relief)
rec = -1
last = max(bins) if bins else t_relief
for start in range(t_relief - t_relief % 20, last - 100, 20):
    if mean(start, start + 100) >= 0.95 * pre_iops:
        rec = max(0, start - t_relief)
        break
err = json.load(open("/tmp/shrink.json"))["jobs"][0]["error"]
print("%s,%s,%s,%s,%s,%.0f,%.0f,%.3f,%d,%d" % (rnd, t, held, cut, budget, pre_iops, cut_iops,
      cut_iops / pre_iops if pre_iops else 0, rec, err))
EOF
	diag "  $(tail -n1 "$CSV")"
	awk -F, 'END { exit $10 != 0 }' "$CSV"
}

echo "round,victim,held,share_cut,budget,pre_iops,cut_iops,cut_ratio,recover_ms,errors" > "$CSV"
check "shrink: device, NFS mounts, iSER LUN" tenants_setup || bail "no setup"
for round in $(seq "$ROUNDS"); do
	if [ $((round % 2)) = 1 ]; then order="nfs4 iser"; else order="iser nfs4"; fi
	for t in $order; do
		check "round $round: $t shrunk to half and relieved, fio without error" shrink_run $t $round
	done
done
check "shrink: no fio error in any run" awk -F, 'NR > 1 && $10 != 0 { exit 1 }' "$CSV"
echo $FULL > $TN_SYS/budget
check "shrink: log out" iser_logout 1
check "shrink: unmount" sh -c "umount /mnt/t4 && umount /mnt/t6"
tap_done
