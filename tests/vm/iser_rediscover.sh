# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-group: iser (one guest boot: tests/lib/check)
# vm-kernels: 6.1 6.12
#
# SendTargets discovery right after the initiator's module loads, again
# and again, against rdmastor's target (two targets on one portal, as
# iser_initiator has them): the initiator switched between the stock
# ib_iser and rdmastor_iser each round (isert_faults' switch),
# iscsid restarted, and `iscsiadm -m discovery` run at once. A discovery
# whose Text response never comes makes open-iscsi's iscsiadm give up
# after its timeout, and its retry path then crashes it (SIGSEGV): the
# crash isert_faults once showed. Each round must discover at its first
# try and log in with verified I/O. Then the same race made certain: the
# netlink reply to rdmastor_iser's Text request held back. Last,
# rdmastor_iser against the stock ib_isert.
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_iser_target
check "target 1: one 32 MiB LUN" iser_target_create 1 1 32M || bail "no target"
check "target 2 on the same portal: one 32 MiB LUN" iser_target_create 2 1 32M

# discover_now: a SendTargets discovery; its exit status (139: SIGSEGV)
discover_now() {
	iscsiadm -m discovery -t st -p "$ISER_IP:3260" -I iser > /tmp/disc.out 2>&1
}

# one_round KIND: KIND's initiator (stock or rdmastor) freshly loaded
# with a new iscsid, then discovery at once, login, verified I/O, logout
one_round() {
	local kind=$1 rc dev
	pkill -x iscsid; wait_for 10 sh -c '! pgrep -x iscsid >/dev/null'
	rmmod ib_iser rdmastor_iser 2>/dev/null
	if [ "$kind" = rdmastor ]; then
		rdmastor_iser_initiator
	else
		rm -f /etc/modprobe.d/rdmastor-iser-initiator.conf
	fi
	iscsid_start
	discover_now; rc=$?
	expect_eq "$kind, round $2: discovery right after the module loaded: exit" "$rc" 0 ||
		diag "$(paste -sd'|' /tmp/disc.out)"
	[ "$rc" = 0 ] || return 1
	check "$kind, round $2: log in" iscsiadm -m node -T "$ISER_IQN:t1" -p "$ISER_IP:3260" \
		-I iser --login || return 1
	wait_for 20 iser_disk 1 0 || { ok 1 "$kind, round $2: the LUN appears"; return 1; }
	dev=$(iser_disk 1 0)
	check "$kind, round $2: verified I/O" iser_fio "rd$2" "$dev" --rw=randrw --bs=4k \
		--iodepth=8 --size=2M --io_size=2M
	check "$kind, round $2: log out" iser_logout 1
}
for r in 1 2; do
	one_round stock "$r" || break
	one_round rdmastor "$r" || break
done

# late_reply: rdmastor_iser freshly loaded, its Text requests' netlink
# replies held back 500 ms (the fault switch send_pdu_delay_ms). Were a
# request posted at once, the target's response would reach iscsiadm's
# socket before the reply, iscsiadm would take it while it looks for the
# reply and then wait for it in vain: the discovery would time out after
# 30 s and its retry crash. rdmastor_iser posts it after the reply
# (iser/initiator/send_pdu.c).
late_reply() {
	local sw=/sys/kernel/debug/rdmastor_iser/send_pdu_delay_ms rc t0 t
	pkill -x iscsid; wait_for 10 sh -c '! pgrep -x iscsid >/dev/null'
	rmmod ib_iser rdmastor_iser 2>/dev/null
	rdmastor_iser_initiator
	iscsid_start
	[ -e "$sw" ] || { ok 1 "the fault switch $sw exists"; return 1; }
	echo 500 > "$sw"
	t0=$(date +%s)
	discover_now; rc=$?
	t=$(($(date +%s) - t0))
	echo 0 > "$sw"
	expect_eq "rdmastor, netlink reply 500 ms late: discovery: exit" "$rc" 0 ||
		diag "$(paste -sd'|' /tmp/disc.out)"
	expect_le "rdmastor, netlink reply 500 ms late: discovery took at most 10 s" "$t" 10
}
late_reply

check "no session left" sh -c '! iscsiadm -m session >/dev/null 2>&1'
check "remove the targets" iser_target_clear
check "rdmastor_isert unloads" wait_for 30 rmmod rdmastor_isert

# rdmastor's initiator against the stock target
iser_stock_target
check "stock target: one 32 MiB LUN" iser_target_create 1 1 32M
check "that is the stock ib_isert" grep -q '^ib_isert ' /proc/modules
one_round rdmastor stock
check "remove the stock target" iser_target_clear
pkill -x iscsid
check "no qp left (within 30 s)" wait_for 30 iser_none_left qp
check "the initiators unload" sh -c 'rmmod ib_iser 2>/dev/null; rmmod rdmastor_iser 2>/dev/null; ! grep -qE "^(ib_iser|rdmastor_iser) " /proc/modules'
check "ib_isert unloads" wait_for 30 rmmod ib_isert
check "then the engine and rnic_mgr" modprobe -r rdmastor_transport rnic_mgr
tap_done
