# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The end of `make demo`: why rdmastor exists, in a minute. Tenants of one
# RDMA NIC (tests/lib/guest/tenants.sh): a greedy program that caches every
# registration it may, two NFS mounts, an iSER LUN and a verbs program,
# then a budget cut. The arbiter gives each its share; the greedy one is
# told to shrink and does, within its grace period.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/iser.sh
. tests/lib/guest/tenants.sh
SECS=24

# one line of entries held per tenant (consumer name prefixes in $1);
# shell builtins only: forks are slow in a loaded emulated guest
shares() {
	local map=$1 line="" pre t v sum d
	while read -r pre t; do
		sum=0
		for d in $TN_SYS/consumers/"$pre"*; do
			v=0
			read -r v < "$d/held" 2>/dev/null
			sum=$((sum + v))
		done
		line="$line $(printf '%7s %5d' "$t" "$sum")"
	done < "$map"
	read -r v < $TN_SYS/budget
	echo "  t=${2}s budget $v:$line"
}

echo "# Setting up one soft-RoCE NIC with two NFS mounts and an iSER LUN, all through rdmastor..."
tenants_setup > /tmp/setup.log 2>&1 || { tail /tmp/setup.log; exit 1; }
echo 6000 > $TN_SYS/budget
echo 1000 > $TN_P/user_grace_ms
echo "# The NIC's translation budget: 6000 entries. A greedy program arrives first and caches all it may."
UCOOP_GREEDY=1 build/tools/ucoop $TN_DEV coop 96 50 $((SECS + 4)) > $TN_OUT/greedy.out 2>&1 &
gpid=$!
sleep 3
scripts/admin/rnic-top -n 1 $TN_DEV || true
echo "# Now the others arrive: fio on both NFS mounts and the LUN, and a verbs program writing over RDMA."
tenants_fio $TN_F4 nfs4 $SECS & tenants_fio $TN_F6 nfs6 $SECS & tenants_fio "$TN_LUN" iser $SECS &
build/tools/ucoop $TN_DEV inflight 40 16 $SECS > $TN_OUT/verbs.out 2>&1 &
printf '%s\n' "user:ucoop:$gpid. greedy" "nfs-192.0.2.1. nfs4" "nfs-2001:db8::1. nfs6" \
	"iser-ini- iser" "user:ucoop:$!. verbs" > /tmp/demo.map
t0=$SECONDS
cut=0
while [ $((SECONDS - t0)) -lt $SECS ]; do
	sleep 2
	shares /tmp/demo.map $((SECONDS - t0))
	if [ $cut = 0 ] && [ $((SECONDS - t0)) -ge $((SECS / 2)) ]; then
		echo "# The budget is cut to 3000 entries: the arbiter recomputes shares and revokes."
		echo 3000 > $TN_SYS/budget
		cut=1
	fi
done
wait
echo "# After: rnic-top's view"
scripts/admin/rnic-top -n 1 $TN_DEV || true
tenants_summary arbiter $SECS | tr , "\t"
echo "# The greedy program: $(tail -n1 $TN_OUT/greedy.out)"
echo "# The verbs program: $(tail -n1 $TN_OUT/verbs.out)"
echo "# The arbiter shared the budget; the greedy one gave back what it was asked, from idle cached registrations."
iser_logout 1; umount /mnt/t4 /mnt/t6
