# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for iSER guest tests: an LIO target made through configfs (or
# targetcli) and exported over iSER, and the stock open-iscsi + ib_iser
# initiator logging in to it. Source after lib.sh: . tests/lib/guest/iser.sh
#
# Targets are iqn.2026-11.org.rdmastor:tN; each LUN is a RAM disk
# (rd_mcp) named tN-lM; the portal is $ISER_IP:3260 with iSER enabled.

ISER_IP=${ISER_IP:-192.0.2.1}
ISER_IQN=iqn.2026-11.org.rdmastor

# targetcli asks the system D-Bus for tcmu-runner's backstores and fails
# without one; a guest has none, so give it a private bus.
if [ -z "${DBUS_SYSTEM_BUS_ADDRESS:-}" ]; then
	DBUS_SYSTEM_BUS_ADDRESS=$(dbus-daemon --session --fork --print-address=1 2>/dev/null | head -n1)
	export DBUS_SYSTEM_BUS_ADDRESS
fi
export HOME=${HOME:-/root}

# rdmastor_iser_target: make LIO's iSER requests load rdmastor_isert.
rdmastor_iser_target() {
	install -m 644 "$RDMASTOR_TREE/etc/modprobe.d/rdmastor-iser.conf" /etc/modprobe.d/
}

# LIO is configured through configfs directly, as rtslib (targetcli's
# library) does: under emulation one targetcli command takes about 6 s
# (Python and rtslib starting, the whole configuration read back), a
# two-LUN target a minute. targetcli itself, the stock tool, is what
# deb_install uses (iser_target_create_tcli).
LIO=/sys/kernel/config/target

# lio_ready: configfs mounted, LIO's core and its iSCSI fabric loaded.
lio_ready() {
	# configfs (and its mount point) comes with LIO's core module
	modprobe target_core_mod && modprobe iscsi_target_mod || return 1
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	mkdir -p "$LIO/iscsi"
}

# lio_backstore PLUGIN NAME CONTROL: a storage object NAME of PLUGIN
# (rd_mcp, fileio, iblock) in an HBA of its own, configured by the
# comma-separated CONTROL string and enabled; prints its configfs path.
lio_backstore() {
	local plugin=$1 name=$2 control=$3 i=0 so
	while [ -e "$LIO/core/${plugin}_$i" ]; do i=$((i + 1)); done
	so=$LIO/core/${plugin}_$i/$name
	mkdir -p "$so" && echo "$control" > "$so/control" || return 1
	case "$plugin" in
	fileio|iblock) echo "${control#*=}" | cut -d, -f1 > "$so/udev_path" || return 1 ;;
	esac
	cat /proc/sys/kernel/random/uuid > "$so/wwn/vpd_unit_serial" &&
		echo 1 > "$so/enable" && echo "$so"
}

# lio_tpg N: configfs path of target N's portal group 1.
lio_tpg() { echo "$LIO/iscsi/$ISER_IQN:t$1/tpgt_1"; }

# lio_lun N STORAGE-OBJECT-PATH: export it as target N's next LUN.
lio_lun() {
	local tpg l=0
	tpg=$(lio_tpg "$1")
	while [ -e "$tpg/lun/lun_$l" ]; do l=$((l + 1)); done
	mkdir "$tpg/lun/lun_$l" && ln -s "$2" "$tpg/lun/lun_$l/$(basename "$2")"
}

# lio_target N: target N, open to any initiator (no ACLs, no CHAP: test
# guests only), its portal on $ISER_IP:3260 serving iSER, not enabled
# (lio_enable N, once its LUNs are in).
lio_target() {
	local tpg a
	tpg=$(lio_tpg "$1")
	lio_ready && mkdir -p "$tpg" || return 1
	for a in authentication=0 demo_mode_write_protect=0 generate_node_acls=1 \
		cache_dynamic_acls=1; do
		echo "${a#*=}" > "$tpg/attrib/${a%%=*}" || return 1
	done
	# writing iser makes LIO request "ib_isert": etc/modprobe.d routes it
	mkdir "$tpg/np/$ISER_IP:3260" && echo 1 > "$tpg/np/$ISER_IP:3260/iser"
}
lio_enable() { echo 1 > "$(lio_tpg "$1")/enable"; }

# iser_target_create N LUNS SIZE: target N with LUNS RAM-disk LUNs of SIZE
# (bytes, or with a K, M or G suffix) named tN-lM.
iser_target_create() {
	local n=$1 luns=$2 bytes l so
	bytes=$(numfmt --from=iec "$3") || return 1
	lio_target "$n" || return 1
	for l in $(seq 0 $((luns - 1))); do
		so=$(lio_backstore rd_mcp "t$n-l$l" "rd_pages=$((bytes / 4096))") &&
			lio_lun "$n" "$so" || return 1
	done
	lio_enable "$n"
}

# iser_target_create_tcli N LUNS SIZE: the same through targetcli, in
# one session fed on stdin as a script would: each start of targetcli
# costs about 4 s under TCG (Python, rtslib reading configfs), and
# seven of them made this 30 s. targetcli's shell logs an error and
# goes on, so what it made is checked in configfs afterwards.
iser_target_create_tcli() {
	local n=$1 luns=$2 size=$3 iqn=$ISER_IQN:t$1 tpg l
	tpg=/iscsi/$iqn/tpg1
	{
		echo "/iscsi create $iqn"
		for l in $(seq 0 $((luns - 1))); do
			echo "/backstores/ramdisk create t$n-l$l $size"
			echo "$tpg/luns create /backstores/ramdisk/t$n-l$l"
		done
		echo "$tpg set attribute authentication=0 demo_mode_write_protect=0" \
			"generate_node_acls=1 cache_dynamic_acls=1"
		# targetcli made a TCP portal on 0.0.0.0; serve iSER on ours only
		echo "$tpg/portals delete 0.0.0.0 3260"
		echo "$tpg/portals create $ISER_IP 3260"
		echo "$tpg/portals/$ISER_IP:3260 enable_iser true"
	} | targetcli > /tmp/targetcli.log 2>&1
	iser_target_is "$n" "$luns" || { sed 's/^/# targetcli: /' /tmp/targetcli.log; return 1; }
}

# iser_target_is N LUNS: target N is in configfs as
# iser_target_create_tcli makes it: LUNS LUNs, open to any initiator
# without CHAP, enabled, its one portal ours and serving iSER
iser_target_is() {
	local tpg
	tpg=$(lio_tpg "$1")
	[ "$(ls -d "$tpg"/lun/lun_* 2>/dev/null | wc -l)" = "$2" ] &&
		[ "$(cat "$tpg/attrib/generate_node_acls")" = 1 ] &&
		[ "$(cat "$tpg/attrib/demo_mode_write_protect")" = 0 ] &&
		[ "$(cat "$tpg/attrib/cache_dynamic_acls")" = 1 ] &&
		[ "$(cat "$tpg/attrib/authentication")" = 0 ] &&
		[ "$(cat "$tpg/enable")" = 1 ] &&
		[ "$(ls "$tpg/np")" = "$ISER_IP:3260" ] &&
		[ "$(cat "$tpg/np/$ISER_IP:3260/iser")" = 1 ]
}

# lio_targets_remove: remove every iSCSI target (its sessions end), and
# keep the storage objects.
lio_targets_remove() {
	local tpg d
	for tpg in "$LIO"/iscsi/iqn.*/tpgt_*; do
		[ -d "$tpg" ] || continue
		echo 0 > "$tpg/enable"
		# explicit ACLs (isert_faults makes one of a logged-in
		# initiator's), with their mapped LUNs
		for d in "$tpg"/acls/*/lun_*/ "$tpg"/acls/*/; do
			[ -d "$d" ] || continue
			find "$d" -maxdepth 1 -type l -delete && rmdir "$d" || return 1
		done
		for d in "$tpg"/lun/lun_*; do
			[ -d "$d" ] || continue
			find "$d" -maxdepth 1 -type l -delete && rmdir "$d" || return 1
		done
		for d in "$tpg"/np/*; do
			[ -d "$d" ] && { rmdir "$d" || return 1; }
		done
		rmdir "$tpg" && rmdir "$(dirname "$tpg")" || return 1
	done
}

# iser_target_clear_tcli: the same through targetcli.
iser_target_clear_tcli() {
	targetcli clearconfig confirm=True >/dev/null
}

# iser_target_clear: remove every target and storage object.
iser_target_clear() {
	local d
	[ -d "$LIO/iscsi" ] || return 0
	lio_targets_remove || return 1
	for d in "$LIO"/core/*_[0-9]*/*/; do
		[ -e "$d/enable" ] && { rmdir "$d" || return 1; }
	done
	for d in "$LIO"/core/*_[0-9]*; do
		[ -d "$d" ] && { rmdir "$d" || return 1; }
	done
	return 0
}

# iser_target_restart SECONDS: a target restart as the initiator sees it:
# every target removed (sessions end, the portals close) and, SECONDS
# later, made again with the same LUNs on the same storage objects, so
# data written before the restart is still there after it.
iser_target_restart() {
	local tpg n lun so saved=/tmp/lio-restart
	: > "$saved"
	for tpg in "$LIO"/iscsi/iqn.*/tpgt_*; do
		[ -d "$tpg" ] || continue
		n=$(basename "$(dirname "$tpg")"); n=${n##*:t}
		for lun in $(ls -d "$tpg"/lun/lun_* 2>/dev/null | sort -V); do
			so=$(readlink -f "$(find "$lun" -maxdepth 1 -type l | head -n1)")
			echo "$n $so" >> "$saved"
		done
		echo "$n" >> "$saved"
	done
	lio_targets_remove || return 1
	sleep "$1"
	while read -r n so; do
		[ -d "$(lio_tpg "$n")" ] || lio_target "$n" || return 1
		if [ -n "$so" ]; then lio_lun "$n" "$so" || return 1
		else lio_enable "$n" || return 1
		fi
	done < "$saved"
}

# iscsid_start: the initiator daemon (iscsiadm talks to it).
iscsid_start() {
	mkdir -p /etc/iscsi /run/lock/iscsi
	[ -s /etc/iscsi/initiatorname.iscsi ] ||
		echo "InitiatorName=iqn.2026-11.org.rdmastor:initiator" > /etc/iscsi/initiatorname.iscsi
	modprobe ib_iser
	modprobe sd_mod	# no udev in a guest to load it for the LUNs
	pgrep -x iscsid >/dev/null || iscsid
	# ready once it listens for iscsiadm (its abstract socket);
	# `iscsiadm -m session` fails whenever there is no session, ready or not
	wait_for 10 sh -c "ss -xl | grep -q ISCSIADM_ABSTRACT_NAMESPACE" || true
}

# iser_login N: discover and log in to target N over iSER. A discovery
# that fails shows what iscsiadm and the kernel said.
iser_login() {
	local iqn=$ISER_IQN:t$1 rc
	iscsiadm -m discovery -t st -p "$ISER_IP:3260" -I iser >/tmp/iser-disc.out 2>&1
	rc=$?
	if [ "$rc" != 0 ]; then
		diag "discovery: exit $rc (139: SIGSEGV): $(tail -n 5 /tmp/iser-disc.out | paste -sd'|')"
		diag "$(dmesg | tail -n 15)"
		return 1
	fi
	iscsiadm -m node -T "$iqn" -p "$ISER_IP:3260" -I iser --login >/dev/null
}

# iser_logout N: log out of target N.
#
# Runtime PM of the sessions' SCSI targets is forbidden first (power/control
# "on" holds a usage count, so no idle request is queued for them). Debian
# 6.1's scsi_transport_iscsi removes a target from its WQ_MEM_RECLAIM
# iscsi_ctrl workqueue, and device_del then flushes the target's pending
# pm_runtime_work, which is on the !WQ_MEM_RECLAIM pm queue:
# check_flush_dependency() WARNs, and panic_on_warn makes that a panic
# (seen in the iSER pairs bench and with one-vCPU guests; the stock
# initiator's path, no module of ours on it). The request is queued when
# the target's last LUN goes just before it, so it is a race that a slower
# guest loses more often.
iser_logout() {
	local c
	for c in /sys/class/iscsi_session/session*/device/target*/power/control; do
		[ -w "$c" ] && echo on > "$c"
	done
	iscsiadm -m node -T "$ISER_IQN:t$1" -p "$ISER_IP:3260" -I iser --logout >/dev/null
}

# iser_disk N LUN: the initiator's block device for LUN of target N.
iser_disk() {
	local link=/dev/disk/by-path/ip-$ISER_IP:3260-iser-$ISER_IQN:t$1-lun-$2
	[ -e "$link" ] && readlink -f "$link" && return 0
	# without udev: find the SCSI disk through sysfs
	local s h
	for s in /sys/class/iscsi_session/session*; do
		[ "$(cat "$s/targetname" 2>/dev/null)" = "$ISER_IQN:t$1" ] || continue
		for h in "$s"/device/target*/*:*:*:"$2"/block/*; do
			[ -e "$h" ] && echo "/dev/$(basename "$h")" && return 0
		done
	done
	return 1
}

# iser_fio NAME DEV FIO-ARGS...: a fio job on DEV that verifies its data.
iser_fio() {
	local name=$1 dev=$2
	shift 2
	fio --name="$name" --filename="$dev" --direct=1 --ioengine=libaio \
		--verify=crc32c --do_verify=1 --output-format=terse "$@" > "/tmp/fio-$name.out" 2>&1 ||
		{ tail -20 "/tmp/fio-$name.out"; return 1; }
}

# iser_rdma_left KIND: objects of KIND (qp, cq, mr) on rxe0 that are not
# ib_core's own (the GSI QP and its CQ stay).
iser_rdma_left() {
	rdma resource show "$1" 2>/dev/null | grep "rxe0" | grep -vc "comm \[ib_core\]"
}

# iser_slow_lun_create N: add to target N a LUN on a 64 MiB device-mapper
# delay device ("slow", no delay until tests/lib/guest/iser-hooks slow-on).
iser_slow_lun_create() {
	local loop so
	modprobe dm_delay && modprobe loop && truncate -s 64M /tmp/slow.img &&
		loop=$(losetup -f --show /tmp/slow.img) && echo "$loop" > /tmp/slow.loop &&
		dmsetup create --noudevsync slow --table "0 $(blockdev --getsz "$loop") delay $loop 0 0" &&
		dmsetup mknodes slow &&
		so=$(lio_backstore iblock slow udev_path=/dev/mapper/slow) &&
		lio_lun "$1" "$so"
}

# hook CMD: run CMD on the target guest (tests/lib/guest/hookd there);
# its output becomes TAP comments, its status ours.
hook() {
	local out rc
	out=$(exec 5<>"/dev/tcp/$ISER_IP/7000" && echo "$1" >&5 && cat <&5) || return 1
	rc=$(echo "$out" | tail -n1)
	echo "$out" | sed '$d' | sed 's/^/# target: /'
	return "${rc:-1}"
}

# iser_check_gone: after the last logout and the target's removal, no QP,
# CQ or MR is left on rxe0, births and deaths pair up if trace_pairs_start
# ran, and rdmastor's modules unload (TAP checks).
iser_check_gone() {
	local k
	for k in qp cq mr; do
		check "no $k left (within 30 s)" wait_for 30 iser_none_left $k
	done
	[ -n "${trace_pairs_on:-}" ] && trace_pairs_check
	# rmmod: modprobe -r would also try LIO's core, which configfs holds
	check "rdmastor_isert unloads" rmmod rdmastor_isert
	check "then the engine and rnic_mgr" modprobe -r rdmastor_transport rnic_mgr
}

iser_none_left() { [ "$(iser_rdma_left "$1")" = 0 ]; }

# iser_conn_errors: each iSCSI connection error in the kernel log, on
# one line with its timestamp and error code first, then the three
# kernel lines before it, newest first ('|' between them): a check that
# fails on one says why in CI's summary, which is cut at 200 characters
# and where the guest's log is not shown
iser_conn_errors() {
	dmesg | awk '
		/detected conn error/ { print $0 " after: " p1 " | " p2 " | " p3 }
		{ line = $0; sub(/^\[[^]]*\] */, "", line); p3 = p2; p2 = p1; p1 = line }'
}

# iser_conn_errors_ours: iser_conn_errors, less each error that followed
# soft-RoCE refusing a REG_MR it ran twice ("rxe_reg_fast_mr: ... not
# free") once its requester has gone back (a retransmission or an RNR
# retry: completer_retry_err or rcvd_rnr_err above 0). Debian 6.1's rxe
# runs again, after going back, the REG_MRs queued behind the
# unacknowledged Send and fails the QP on the second
# (Documentation/transport.rst): the emulated NIC's defect, shown as a
# diagnostic. Without such a retry, every error counts.
iser_conn_errors_ours() {
	local d=/sys/class/infiniband/rxe0/ports/1/hw_counters retries errs
	errs=$(iser_conn_errors)
	retries=$(($(cat $d/completer_retry_err 2>/dev/null || echo 0) +
		$(cat $d/rcvd_rnr_err 2>/dev/null || echo 0)))
	if [ "$retries" -gt 0 ]; then
		grep 'not free' <<< "$errs" | sed 's/^/# soft-RoCE went back and ran a REG_MR twice: /' >&2
		errs=$(grep -v 'not free' <<< "$errs")
	fi
	echo "$errs"
}

# rdmastor_iser_initiator: make iscsid's "ib_iser" load rdmastor_iser.
rdmastor_iser_initiator() {
	install -m 644 "$RDMASTOR_TREE/etc/modprobe.d/rdmastor-iser-initiator.conf" /etc/modprobe.d/
}

# iser_stock_target: LIO's iSER requests load the stock ib_isert again
# (the targets must have been cleared and rdmastor_isert unloaded).
iser_stock_target() {
	rm -f /etc/modprobe.d/rdmastor-iser.conf
}

# iser_pair_ends NAME: the initiator's and the target's kind (stock or
# rdmastor) in a pairing of the iSER benchmarks, "INI TGT": stock, ini
# (rdmastor_iser alone), tgt (rdmastor_isert alone), rdmastor; NAME-aa
# as NAME. Fails on any other name.
iser_pair_ends() {
	case ${1%-aa} in
	stock) echo "stock stock" ;;
	ini) echo "rdmastor stock" ;;
	tgt) echo "stock rdmastor" ;;
	rdmastor) echo "rdmastor rdmastor" ;;
	nvme) echo "nvme nvme" ;;
	*) return 1 ;;
	esac
}

# iser_files DIR: 200 files, a directory tree and renames in DIR; their
# sums go to /tmp/iser-sums (check with sha256sum -c in DIR).
iser_files() {
	local d=$1
	# one process for the 200 files and the 200 renames: a process per
	# file took 45 s under emulation, the file system's work a few
	perl -e 'my $d = shift; open(my $r, "<", "/dev/urandom") or die;
		for my $i (1 .. 200) {
			read($r, my $b, $i * 997) == $i * 997 or die;
			open(my $f, ">", "$d/f$i") or die "$d/f$i: $!\n";
			print $f $b or die; close($f) or die "$d/f$i: $!\n";
		}' "$d" || return 1
	cp -a /usr/share/doc/bash "$d/doc" || return 1
	(cd "$d" && sha256sum f* > /tmp/iser-sums) &&
		perl -e 'my $d = shift;
			rename("$d/f$_", "$d/g$_") or die "$_: $!\n" for 1 .. 100;
			rename("$d/g$_", "$d/f$_") or die "$_: $!\n" for 1 .. 100;' "$d"
}
