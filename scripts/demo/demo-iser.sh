# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# iSER part of `make demo` (one guest): a RAM-backed LUN exported through
# LIO with targetcli over rdmastor's iSER target, open-iscsi logging in
# to it with rdmastor's initiator (rdmastor_iser) over soft-RoCE in the
# same guest, fio on the LUN, and what both ends and rnic_mgr show.
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh
set -e
step() { echo; echo "# ---- $*"; }

step "soft-RoCE: rxe0 on a dummy device (initiator and target share it)"
tests/lib/guest/rxe-setup single
check "rdmastor modules installed" rdmastor_install

step "LIO target with targetcli; enable_iser loads rdmastor_isert (etc/modprobe.d)"
rdmastor_iser_target
echo "# modprobe -R ib_isert: $(modprobe -R ib_isert)"
iser_target_create_tcli 1 1 256M
targetcli ls /iscsi | sed 's/^/# /'
lsmod | grep -E '^(rdmastor_isert|ib_isert|iscsi_target_mod|rdmastor_transport|rnic_mgr) ' | sed 's/^/# /'

step "log in with open-iscsi; its ib_iser loads rdmastor_iser (etc/modprobe.d)"
rdmastor_iser_initiator
echo "# modprobe -n ib_iser: $(modprobe -n -v ib_iser | tail -n1)"
iscsid_start
iser_login 1
wait_for 20 iser_disk 1 0
D=$(iser_disk 1 0)
iscsiadm -m session | sed 's/^/# /'
echo "# LUN: $D ($(blockdev --getsize64 "$D") bytes)"

step "fio: 4 KiB random read/write, depth 16, O_DIRECT, 15 s"
fio --name=demo4k --filename="$D" --size=128m --bs=4k --rw=randrw --direct=1 \
	--ioengine=libaio --iodepth=16 --time_based --runtime=15 --group_reporting |
	grep -E "^ *(read|write|lat|clat \(|READ|WRITE)" | sed 's/^/# /' || true

step "fio: 1 MiB sequential read, depth 4, 10 s"
fio --name=demo1m --filename="$D" --size=128m --bs=1m --rw=read --direct=1 \
	--ioengine=libaio --iodepth=4 --time_based --runtime=10 --group_reporting |
	grep -E "^ *(read|READ)" | sed 's/^/# /' || true

step "the target's connection (/sys/kernel/rdmastor_isert/conns)"
sed 's/^/# /' /sys/kernel/rdmastor_isert/conns
step "the initiator's: every buffer registered for one command, keys ended by the target"
sed 's/^/# /' /sys/kernel/rdmastor_iser/conns
step "RDMA objects: the target uses no MR (DMA addresses); the idle initiator gives its MRs back"
sleep 3
for k in qp mr; do
	echo "# $k: $(rdma resource show $k | grep rxe0 | grep -o 'comm \[[a-z_]*\]' | sort | uniq -c | paste -sd' ')"
done
echo "# MRs of the initiator's session now: $(cat /sys/kernel/rnic_mgr/devices/rxe0/consumers/iser-ini-*/key_held)"

step "log out, remove the target, unload"
iser_logout 1
iser_target_clear
pkill -x iscsid || true
rmmod rdmastor_isert rdmastor_iser
echo "# rdmastor_isert and rdmastor_iser unloaded"
tap_done
