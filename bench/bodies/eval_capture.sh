# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest body of `make bench B=eval-capture` (Documentation/evaluation.rst):
# translation-use traces (tests/lib/guest/capture-trace) of real workloads
# on rxe0, into the results share as NAME.trace:
#   perftest   ib_write_bw, 64 KiB messages
#   nfs        fio 64 KiB random read/write on an NFSv4.2 mount (rdmastor:
#              each I/O's buffer fast-registered for that I/O)
#   iser       the same on an iSER LUN (rdmastor's initiator)
#   ucache     a librnic program writing from 30 cached regions (long-lived
#              registrations, a registration cache's pattern)
#   uxfer      a librnic program registering each 256 KiB piece of a 4 MiB
#              transfer for that transfer only (no cache)
# and each workload's registrations as NAME.regs (the MRRC paper's input), and
# regcost.csv: ibv_reg_mr/ibv_dereg_mr per call by pages in this guest,
# charged by rnic_mgr as the captured programs were, for the cost model
# bench/drivers/eval-report fits.
. tests/lib/guest/lib.sh
. tests/lib/guest/tenants.sh
O=$RDMASTOR_OUT
SECS=${SECS:-3}
CAP=tests/lib/guest/capture-trace

capture() {	# capture NAME COMMAND...
	local name=$1
	shift
	local err
	err=$($CAP start 2>&1) || { diag "$name: capture-trace start failed: $err"; return 1; }
	"$@" > /tmp/cap-$name.out 2>&1
	diag "$name: $($CAP stop $O/$name.trace $O/$name.regs | tr '\n' ' ')"
	[ "$(grep -vc '^#' $O/$name.trace)" -gt 0 ]
}
perftest_pair() {
	ib_write_bw -d rxe0 -p 18700 -s 65536 -n 2000 > /dev/null 2>&1 &
	sleep 1
	ib_write_bw -d rxe0 -p 18700 -s 65536 -n 2000 192.0.2.1
	wait
}
fio_on() {	# fio_on FILE
	fio --name=cap --filename="$1" --direct=1 --ioengine=libaio --rw=randrw --bs=64k --iodepth=8 \
		--size=64m --time_based --runtime=$SECS
}

check "tenants' setup: NFS mounts and an iSER LUN" tenants_setup || bail "no setup"
check "capture perftest" capture perftest perftest_pair
check "capture nfs" capture nfs fio_on $TN_F4
check "capture iser" capture iser fio_on "$TN_LUN"
check "capture ucache" capture ucache build/tools/ucoop rxe0 inflight 30 50 $SECS
check "capture uxfer" capture uxfer build/tools/ucoop rxe0 xfer 4194304 262144 2
regcost() {
	local pages line
	echo "pages,reg_ns,dereg_ns" > $O/regcost.csv
	for _ in 1 2 3; do
		for pages in 1 4 16 64 256; do
			line=$(build/tools/umr rxe0 loop:500:$pages) || return 1
			echo "$pages,$(echo "$line" | sed -n 's/.* reg_ns=\([0-9]*\) dereg_ns=\([0-9]*\).*/\1,\2/p')" \
				>> $O/regcost.csv
		done
	done
	diag "registration cost: $(tr '\n' ' ' < $O/regcost.csv)"
}
check "registration cost by pages, for the cost model" regcost
check "log out" iser_logout 1
check "unmount" sh -c "umount /mnt/t4 && umount /mnt/t6"
tap_done
