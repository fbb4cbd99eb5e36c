# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12
# vm-run: --timeout 1500
#
# Target guest of isert_faults: LIO with rdmastor_isert exporting a RAM
# LUN and a "slow" LUN (device-mapper delay, for task management), and
# hookd, through which the initiator guest restarts the target or slows
# the disk. When the initiator is done: nothing of the target left in
# `rdma resource`, and rdmastor_isert unloads.
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 1
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_iser_target
# LUN 0 is a file: its data must outlive a target restart (which keeps the
# storage objects, as a restarted target keeps its disks)
lun0() {
	local so
	truncate -s 128M /tmp/lun0.img && lio_target 1 &&
		so=$(lio_backstore fileio lun0 fd_dev_name=/tmp/lun0.img,fd_dev_size=134217728) &&
		lio_lun 1 "$so" && lio_enable 1
}
check "target: a 128 MiB file LUN over iSER" lun0 || bail "no target"
check "and a slow LUN (dm-delay)" iser_slow_lun_create 1 || bail "no slow LUN"
tests/lib/guest/hookd "$ISER_IP" 7000 tests/lib/guest/iser-hooks & hookd=$!
check "hookd listens" wait_for 10 sh -c "ss -ltn | grep -q ':7000 '"
# a bound, not a speed: the client takes about 490 s on a quick host and
# was still at its second half after 580 s on a slower one (2026-11-26)
check "the initiator finishes (up to 1200 s)" wait_for 1200 test -e /tmp/iser-done
kill $hookd
diag "$(dmesg | grep -E 'ABORT_TASK|LUN_RESET|rdmastor_isert' | tail -8 | paste -sd'|')"
check "remove the target" iser_target_clear
dmsetup remove slow
losetup -d "$(cat /tmp/slow.loop)"
iser_check_gone
tap_done
