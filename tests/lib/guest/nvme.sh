# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Stock NVMe-oF over RDMA in a guest, without nvme-cli: nvmet-rdma's
# configfs for the target, /dev/nvme-fabrics for the host (nvme-rdma).
# NQN names the subsystem (default rdmastor-nvme).
NVMET=/sys/kernel/config/nvmet
NQN=${NQN:-rdmastor-nvme}

# nvme_target IP [MIB]: a subsystem on a brd RAM disk of MIB (256),
# listening on rdma IP:4420
nvme_target() {
	modprobe brd rd_nr=1 rd_size=$((${2:-256} * 1024)) && modprobe nvmet-rdma || return 1
	mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config ||
		return 1
	mkdir -p $NVMET/subsystems/$NQN/namespaces/1 $NVMET/ports/1 &&
	echo 1 > $NVMET/subsystems/$NQN/attr_allow_any_host &&
	echo -n /dev/ram0 > $NVMET/subsystems/$NQN/namespaces/1/device_path &&
	echo 1 > $NVMET/subsystems/$NQN/namespaces/1/enable &&
	echo rdma > $NVMET/ports/1/addr_trtype && echo ipv4 > $NVMET/ports/1/addr_adrfam &&
	echo "$1" > $NVMET/ports/1/addr_traddr && echo 4420 > $NVMET/ports/1/addr_trsvcid &&
	ln -s $NVMET/subsystems/$NQN $NVMET/ports/1/subsystems/$NQN
}

# nvme_dev: the namespace's block device, once connected
nvme_dev() {
	local b
	# the namespace's device is the subsystem's (native multipath) or
	# the controller's: either has the subsystem's NQN
	for b in /sys/block/nvme*n1; do
		[ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = "$NQN" ] && [ -e "/dev/${b##*/}" ] &&
			echo "/dev/${b##*/}" && return 0
	done
	return 1
}

# nvme_connect IP [OPTIONS]: the stock host connects (OPTIONS: more
# fabrics options, e.g. nr_io_queues=2), and its namespace appears
nvme_connect() {
	nvme_dev >/dev/null && return 0
	modprobe nvme-rdma &&
		echo "transport=rdma,traddr=$1,trsvcid=4420,nqn=$NQN${2:+,$2}" > /dev/nvme-fabrics &&
		wait_for 20 nvme_dev >/dev/null
}

nvme_disconnect() {
	local c
	for c in /sys/class/nvme/nvme*; do
		[ "$(cat "$c/subsysnqn" 2>/dev/null)" = "$NQN" ] && echo 1 > "$c/delete_controller"
	done
	return 0
}

nvme_clear() {
	nvme_disconnect
	rm -f $NVMET/ports/1/subsystems/$NQN
	rmdir $NVMET/ports/1 $NVMET/subsystems/$NQN/namespaces/1 $NVMET/subsystems/$NQN 2>/dev/null
	return 0
}
