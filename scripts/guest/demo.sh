# SPDX-License-Identifier: GPL-2.0
#
# Guest body of `make demo`: soft-RoCE, rdmastor's modules, and what
# rnic_mgr sees of the RDMA devices.
. scripts/guest/lib.sh
set -e
step() { echo; echo "# ---- $*"; }

step "soft-RoCE: rxe0 on a dummy netdev"
scripts/guest/rxe-setup single
rdma link show

step "install and load rdmastor"
check "rdmastor modules installed" rdmastor_install
modprobe rnic_mgr
lsmod | grep -E '^(rnic_mgr|rdma_rxe|ib_core) '

step "what rnic_mgr sees (/sys/kernel/rnic_mgr/devices)"
for d in /sys/kernel/rnic_mgr/devices/*; do
	echo "# device $(basename "$d"):"
	for f in "$d"/*; do
		[ -f "$f" ] && printf '#   %-10s %s\n' "$(basename "$f")" "$(cat "$f")"
	done
done

step "unload"
modprobe -r rnic_mgr
echo "# rnic_mgr unloaded cleanly"
