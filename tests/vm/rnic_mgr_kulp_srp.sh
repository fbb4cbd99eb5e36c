# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# vm-group: rnic_mgr (one guest boot: tests/lib/check)
#
# What the stock SRP initiator (ib_srp) does when a cap refuses its MRs
# (rnic_mgr/kulp/cap.c), over rxe loopback against the stock SRP target
# (LIO's ib_srpt, reached through the RDMA CM). ib_srp allocates its
# fast-registration pool, one MR per command slot of a channel, when it
# creates the channel, inside the write to add_target; a refused
# allocation is to it the device running out: the channel, and with it
# the add_target write, fails with ENOMEM and what it had taken goes
# back. It does not wait or retry. Once the cap allows a channel's pool,
# add_target goes through; a target never holds more than the cap. The
# stock target allocates no MR on RoCE (rdma_rw uses the local key).
. tests/lib/guest/lib.sh
. tests/lib/guest/kulp.sh
LIO=/sys/kernel/config/target
IP=192.0.2.1
PORT=5555

# the target port's name as ib_srpt gives it: the interface id of GID 0
srpt_port() {
	cut -d: -f5- /sys/class/infiniband/rxe0/ports/1/gids/0
}
# the target's id (srpt_service_guid, "0x" and 16 hex digits) without 0x
srpt_guid() { sed 's/^0x//' /sys/module/ib_srpt/parameters/srpt_service_guid; }
# the stock SRP target: a 16 MiB RAM disk behind rxe0's port, on the
# RDMA CM at $IP:$PORT, for the initiator at $IP (ib_srpt has no demo
# mode: a login through the RDMA CM is let in by its source address)
srpt_target() {
	local tpg so acl
	modprobe target_core_mod && modprobe ib_srpt || return 1
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	mkdir -p "$LIO/srpt" || return 1
	echo $PORT > "$LIO/srpt/discovery_auth/rdma_cm_port" || return 1
	so=$LIO/core/rd_mcp_0/srp0
	mkdir -p "$so" && echo "rd_pages=4096" > "$so/control" &&
		cat /proc/sys/kernel/random/uuid > "$so/wwn/vpd_unit_serial" &&
		echo 1 > "$so/enable" || return 1
	tpg=$LIO/srpt/$(srpt_port)/tpgt_1
	acl=$tpg/acls/$IP
	mkdir -p "$tpg/lun/lun_0" && ln -s "$so" "$tpg/lun/lun_0/srp0" &&
		mkdir -p "$acl/lun_0" && ln -s "$tpg/lun/lun_0" "$acl/lun_0/lun0" &&
		echo 1 > "$tpg/enable"
}
srpt_target_clear() {
	local tpg
	tpg=$LIO/srpt/$(srpt_port)/tpgt_1
	echo 0 > "$tpg/enable" && rm "$tpg/acls/$IP/lun_0/lun0" &&
		rmdir "$tpg/acls/$IP/lun_0" "$tpg/acls/$IP" &&
		rm "$tpg/lun/lun_0/srp0" && rmdir "$tpg/lun/lun_0" && rmdir "$tpg" && rmdir "$LIO/srpt/$(srpt_port)" &&
		rmdir "$LIO/core/rd_mcp_0/srp0" && rmdir "$LIO/core/rd_mcp_0" &&
		rmdir "$LIO/srpt"	# the fabric's directory holds ib_srpt
}
# add_target: one channel to the target; the write's own status
add_target() {
	local g
	g=$(srpt_guid)
	echo "id_ext=$g,ioc_guid=$g,dest=$IP:$PORT,ch_count=1" \
		> /sys/class/infiniband_srp/srp-rxe0-1/add_target 2> /tmp/srp-add.err
}
srp_ports() { ls /sys/class/srp_remote_ports 2>/dev/null; }
# srp_disk: the SCSI disk of the SRP target's LUN, once scanned
srp_disk() {
	local p h
	p=$(srp_ports | head -n1)
	[ -n "$p" ] || return 1
	h=${p#port-}
	h=${h%%:*}
	p=$(ls /sys/class/scsi_host/host"$h"/device/target"$h":*/"$h":*/block 2>/dev/null | head -n1)
	[ -n "$p" ] && [ -b "/dev/$p" ] && echo "/dev/$p"
}
remove_targets() {
	local p
	for p in $(srp_ports); do
		echo 1 > "/sys/class/srp_remote_ports/$p/delete" || return 1
	done
	wait_for 20 sh -c "[ -z \"\$(ls /sys/class/srp_remote_ports 2>/dev/null)\" ]"
}
verify() {	# verify NAME: 4 MiB of verified random writes on the LUN
	wait_for 20 srp_disk &&
		fio --name="$1" --filename="$(srp_disk)" --rw=randwrite --bs=16k --iodepth=8 \
			--ioengine=libaio --direct=1 --size=4M --verify=crc32c --do_verify=1 \
			--output=/tmp/fio-"$1".out
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load rnic_mgr" modprobe rnic_mgr
check "the stock SRP target: a 16 MiB RAM disk on the RDMA CM, port $PORT" srpt_target ||
	bail "no target"
# sd_mod: no udev in a guest to load it for the LUN
check "the stock SRP initiator" modprobe -a ib_srp sd_mod || bail "no ib_srp"
check "it adds the target (one channel)" add_target || bail "no target added: $(cat /tmp/srp-add.err)"
check "I/O through it verifies" verify counted
kulp_only ib_srp
check "remove the target" remove_targets
check "its MRs go with it" wait_for 20 ulp_zero ib_srp

# Half of one channel's entries: the pool cannot be had
kulp_cap_half ib_srp channel
t0=$(date +%s%N)
check_not "the stock initiator cannot add the target beyond its cap" add_target
diag "the failed add_target took $(( ($(date +%s%N) - t0) / 1000000 )) ms: $(cat /tmp/srp-add.err)"
diag "$(dmesg | grep -iE 'srp' | tail -3 | paste -sd'|')"
expect_match "it fails with ENOMEM" "$(cat /tmp/srp-add.err)" "Cannot allocate memory"
expect_eq "and has no remote port" "$(srp_ports)" ""
kulp_refused ib_srp $cap add_target

check "the cap raised to one channel's entries" sh -c "echo 'ib_srp $peak' > $D/kernel_ulp_caps"
check "the stock initiator adds the target" add_target
check "I/O through it verifies" verify capped
check "it holds no more than the cap" [ "$(ulp ib_srp entries)" -le "$peak" ]
check "remove the target" remove_targets
check "its MRs go with it" wait_for 20 ulp_zero ib_srp
check "the cap lifted" sh -c "echo 'ib_srp 0' > $D/kernel_ulp_caps"

check "ib_srp unloads" wait_for 20 rmmod ib_srp
check "remove the SRP target" srpt_target_clear
check "ib_srpt unloads" wait_for 20 rmmod ib_srpt
check "rnic_mgr unloads" modprobe -r rnic_mgr
tap_done
