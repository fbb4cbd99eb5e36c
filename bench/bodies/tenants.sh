# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest body of `make bench B=tenants` (Documentation/evaluation.rst,
# the Magoutis paper): five tenants of rxe0 under a budget smaller than their
# appetite (tests/lib/guest/tenants.sh), under the arbiter, first come
# first served and the static partition, rounds interleaved. Results
# (ROUND.POLICY.{csv,held,map}) in the results share for
# bench/drivers/bench-tenants.
. tests/lib/guest/lib.sh
. tests/lib/guest/tenants.sh
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-20}
BUDGET=${BUDGET:-4000}
O=$RDMASTOR_OUT

check "tenants: device, NFS mounts, iSER LUN" tenants_setup || bail "no setup"
for round in $(seq $ROUNDS); do
	pols="arbiter fcfs static"
	[ $round = 2 ] && pols="fcfs static arbiter"
	[ $round = 3 ] && pols="static arbiter fcfs"
	for pol in $pols; do
		diag "round $round: $pol, budget $BUDGET, $SECS s"
		tenants_run $pol $BUDGET $SECS
		for f in csv held map; do cp $TN_OUT/$pol.$f $O/$round.$pol.$f; done
		# the programs' own words, for a failed tenant
		for f in verbs greedy; do cp $TN_OUT/$f.out $O/$round.$pol.$f.out; done
		while read -r l; do diag "  $l"; done < $TN_OUT/$pol.csv
	done
done
echo arbiter > $TN_SYS/policy
echo 262144 > $TN_SYS/budget
check "tenants: log out" iser_logout 1
check "tenants: unmount" sh -c "umount /mnt/t4 && umount /mnt/t6"
tap_done
