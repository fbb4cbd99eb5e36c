# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The end of `make demo`: why rdmastor exists, in a minute. Tenants of one
# RDMA NIC (tests/lib/guest/tenants.sh): a greedy program that caches every
# registration it may and leaves them idle, two NFS mounts, an iSER LUN
# and a verbs program writing over RDMA, each user-level program a tenant
# of its own (a cgroup). Then the budget is cut in half. The demo checks
# what it claims: every tenant progresses after the cut, without errors;
# it says so only if its own table shows it, and exits non-zero if not.
. tests/lib/guest/lib.sh
. tests/lib/guest/tenants.sh
SECS=12

# one line of entries held per tenant (consumer name prefixes in $1);
# shell builtins only: forks are slow in a loaded emulated guest
shares() {
	local map=$1 line="" pre t v sum d
	while read -r pre t; do
		sum=0
		for d in $TN_SYS/consumers/"$pre"*; do
			# none yet (a program that has not registered): the
			# pattern itself, which has no held
			[ -r "$d/held" ] || continue
			v=0
			read -r v < "$d/held"
			sum=$((sum + v))
		done
		line="$line $(printf '%7s %5d' "$t" "$sum")"
	done < "$map"
	read -r v < $TN_SYS/budget
	echo "  t=${2}s budget $v:$line"
}

# phase NAME: the four active tenants for SECS seconds, sampled every 2 s;
# their figures in $TN_OUT/NAME.csv
phase() {
	local name=$1 t0 vpid fios=()
	rm -f $TN_OUT/*.json $TN_OUT/verbs.out
	tenants_fio $TN_F4 nfs4 $SECS & fios+=($!)
	tenants_fio $TN_F6 nfs6 $SECS & fios+=($!)
	tenants_fio "$TN_LUN" iser $SECS & fios+=($!)
	in_cgroup verbs build/tools/ucoop $TN_DEV inflight 40 16 $SECS > $TN_OUT/verbs.out 2>&1 &
	vpid=$!
	printf '%s\n' "user:ucoop:$gpid. greedy" "nfs-192.0.2.1. nfs4" "nfs-2001:db8::1. nfs6" \
		"iser-ini- iser" "user:ucoop:$vpid. verbs" > /tmp/demo.map
	t0=$SECONDS
	while [ $((SECONDS - t0)) -lt $SECS ]; do
		sleep 2
		shares /tmp/demo.map $((SECONDS - t0))
	done
	wait $vpid "${fios[@]}"
	tenants_summary arbiter $SECS | grep -v ',greedy,' > $TN_OUT/$name.csv
	cp $TN_OUT/verbs.out $TN_OUT/$name.verbs
}

echo "# Setting up one soft-RoCE NIC with two NFS mounts and an iSER LUN, all through rdmastor..."
tenants_setup > /tmp/setup.log 2>&1 || { tail /tmp/setup.log; exit 1; }
echo 6000 > $TN_SYS/budget
echo 1000 > $TN_P/user_grace_ms
echo "# The NIC's translation budget: 6000 entries. A greedy program arrives first, caches all it may, and leaves it idle."
UCOOP_GREEDY=1 in_cgroup greedy build/tools/ucoop $TN_DEV coop 96 50 $((2 * SECS + 30)) \
	> $TN_OUT/greedy.out 2>&1 &
gpid=$!
wait_for 30 grep -q "coop cached" $TN_OUT/greedy.out
scripts/admin/rnic-top -n 1 $TN_DEV || true
echo "# Now the others arrive: fio on both NFS mounts and the LUN, and a verbs program writing over RDMA."
phase before
echo "# The budget is cut to 3000 entries: the arbiter recomputes shares, revokes, and asks idle caches back."
echo 3000 > $TN_SYS/budget
phase after
echo "# After the cut: rnic-top's view"
scripts/admin/rnic-top -n 1 $TN_DEV || true
gdir=$(ls -d $TN_SYS/consumers/user:ucoop:$gpid.* 2>/dev/null | head -n1)
ginfo="held $(cat "$gdir/held" 2>/dev/null) of a peak of $(cat "$gdir/peak" 2>/dev/null), asked to shrink $(cat "$gdir/revocations" 2>/dev/null) times, for idle entries $(cat "$gdir/idle_reclaims" 2>/dev/null) times"
kill $gpid 2>/dev/null
wait $gpid 2>/dev/null
echo "# Each tenant before and after the cut (MB/s, p99 completion latency, errors):"
printf '%-8s %12s %11s %13s %7s\n' tenant "MB/s before" "MB/s after" "p99 us after" errors
failed=""
while IFS=, read -r _ t mb p99 err; do
	[ "$t" = tenant ] && continue
	b=$(awk -F, -v t="$t" '$2 == t { print $3 }' $TN_OUT/before.csv)
	printf '%-8s %12s %11s %13s %7s\n' "$t" "${b:-?}" "$mb" "$p99" "$err"
	awk -v m="$mb" -v e="$err" 'BEGIN { exit !(m > 0 && e == 0) }' || failed="$failed $t"
done < $TN_OUT/after.csv
echo "# The greedy program: $ginfo"
echo "# The verbs program after the cut: $(tail -n1 $TN_OUT/after.verbs)"
if [ -z "$failed" ]; then
	echo "# Every tenant progressed after the cut, without errors: the greedy program's idle cached"
	echo "# registrations went back (revoked beyond its share, reclaimed while others waited) before"
	echo "# any active registration was refused."
	rc=0
else
	echo "# NOT every tenant progressed after the cut without errors:$failed (see the table above)."
	rc=1
fi
iser_logout 1; umount /mnt/t4 /mnt/t6
exit $rc
