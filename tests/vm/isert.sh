# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.1
# vm-group: iser (one guest boot: tests/lib/check)
#
# rdmastor's iSER target under LIO, with the stock open-iscsi + ib_iser
# initiator in the same guest (rxe0 loopback): LIO's iSER portal
# loads rdmastor_isert, not ib_isert; discovery and login; verified fio
# (4 KiB random read/write, 1 MiB sequential) on two sessions and three
# LUNs at once; ext4 on a LUN with a file workload; logout and re-login
# with the data still there; nothing left in `rdma resource`; clean
# unload.
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_iser_target
check "the name LIO asks for (ib_isert) is routed to rdmastor_isert" \
	routed_to ib_isert rdmastor_isert

check "target 1: two 64 MiB RAM-disk LUNs, iSER portal" iser_target_create 1 2 64M ||
	bail "no target"
check "target 2: one 64 MiB RAM-disk LUN" iser_target_create 2 1 64M || bail "no target"
trace_pairs_start
expect_match "enable_iser loaded rdmastor_isert" "$(lsmod)" '^rdmastor_isert '
expect_nomatch "and not ib_isert" "$(lsmod)" '^ib_isert '
diag "$(dmesg | grep rdmastor_isert | tail -2 | paste -sd' ')"

check "iscsid runs" iscsid_start
check "discover and log in to target 1 over iSER" iser_login 1 || bail "no login"
check "log in to target 2 (a second session)" iser_login 2 || bail "no login"
wait_for 20 iser_disk 1 1 && wait_for 20 iser_disk 2 0 || bail "the LUNs did not appear"
D10=$(iser_disk 1 0) D11=$(iser_disk 1 1) D20=$(iser_disk 2 0)
diag "LUNs: $D10 $D11 $D20; $(iscsiadm -m session 2>&1 | paste -sd' ')"
expect_eq "two iSER sessions" "$(iscsiadm -m session | grep -c '^iser:')" 2

check "4 KiB random read/write, depth 16, verified (t1 LUN 0)" \
	iser_fio rand4k "$D10" --rw=randrw --bs=4k --iodepth=16 --size=32M --io_size=48M
check "1 MiB sequential write then read, verified (t1 LUN 0)" \
	iser_fio seq1m "$D10" --rw=write --bs=1M --iodepth=4 --size=64M
check "odd sizes 512 B..256 KiB, verified (t2 LUN 0)" \
	iser_fio mixed "$D20" --rw=randrw --bsrange=512-256k --iodepth=8 --size=32M --io_size=48M
# both sessions and all three LUNs at once
iser_fio par0 "$D10" --rw=randrw --bs=16k --iodepth=8 --size=16M --io_size=32M & p0=$!
iser_fio par1 "$D11" --rw=randrw --bs=64k --iodepth=8 --size=32M --io_size=64M --offset=32M & p1=$!
iser_fio par2 "$D20" --rw=randrw --bs=4k --iodepth=16 --size=16M --io_size=16M & p2=$!
wait $p0; r0=$?
wait $p1; r1=$?
wait $p2; r2=$?
ok "$((r0 | r1 | r2))" "three LUNs on two sessions at once, verified"

check "mkfs.ext4 on t1 LUN 1" mkfs.ext4 -q -F "$D11"
mkdir -p /mnt/iser
check "mount it" mount "$D11" /mnt/iser || bail "no filesystem"
check "file workload: 200 files, a directory tree, renames" iser_files /mnt/iser
check "umount" umount /mnt/iser
check "fsck finds the filesystem clean" fsck.ext4 -f -n "$D11"
sha_t1=$(sha256sum "$D10" | cut -d' ' -f1)

# LIO pings each connection every nopin_timeout (15 s): the initiator's
# answer must find the ping by its TTT (else LIO calls it a protocol
# error and the connection is dropped and made again). An answer is a
# NOP-Out with the reserved ITT 0xffffffff (an initiator's own ping has
# a task's ITT): seen by rdmastor_isert's ist_pdu_recv, in a trace
# instance of this check's own.
nop_trace=/sys/kernel/tracing/instances/nopin
nopin_answered() { grep -q 'ist_pdu_recv:.* opcode=0x00 itt=0xffffffff' "$nop_trace/trace"; }
nop_watch() {
	mkdir "$nop_trace" &&
		echo 'itt == 0xffffffff' > "$nop_trace/events/rdmastor_isert/ist_pdu_recv/filter" &&
		echo 1 > "$nop_trace/events/rdmastor_isert/ist_pdu_recv/enable"
}
check "trace the initiator's answers to NOP-In pings" nop_watch
check "the initiator answered a NOP-In ping (within 40 s)" wait_for 40 nopin_answered
diag "$(grep -m1 'ist_pdu_recv:' "$nop_trace/trace" | sed 's/^ *//')"
echo 0 > "$nop_trace/events/rdmastor_isert/ist_pdu_recv/enable"
rmdir "$nop_trace"
expect_nomatch "the initiator's NOP-Out answers find the target's NOP-In pings" \
	"$(dmesg)" 'Unable to locate TTT'
# The stock ib_iser initiator keeps rdma_cm's 0.5 s ACK timeout; after
# an emulation stall that long, soft-RoCE (6.1) retransmits and runs again
# a REG_MR it had run, which fails the initiator's QP ("rxe_reg_fast_mr:
# ... not free"): soft-RoCE's defect on the initiator's side
# (transport/conn.c, rst_set_ack_timeout), said but not counted here
rxe_rerun=$(iser_conn_errors | grep 'rxe_reg_fast_mr: .*not free')
[ -z "$rxe_rerun" ] || diag "the stock initiator's QP failed on soft-RoCE's re-run REG_MR: $rxe_rerun"
expect_nomatch "no connection error in the sessions' life (but soft-RoCE's re-run REG_MR)" \
	"$(iser_conn_errors | grep -v 'rxe_reg_fast_mr: .*not free')" 'detected conn error'
check "log out of target 1" iser_logout 1
check "log out of target 2" iser_logout 2
check_not "no session left" iscsiadm -m session
check "log in to target 1 again" iser_login 1 || bail "no re-login"
wait_for 20 iser_disk 1 1 || bail "the LUNs did not come back"
D10=$(iser_disk 1 0) D11=$(iser_disk 1 1)
check "LUN 0 reads back what it held before the logout" [ "$(sha256sum "$D10" | cut -d' ' -f1)" = "$sha_t1" ]
check "the filesystem on LUN 1 mounts again" mount "$D11" /mnt/iser || bail "no filesystem"
check "and its 200 files are intact" \
	sh -c 'cd /mnt/iser && sha256sum -c --quiet /tmp/iser-sums'

umount /mnt/iser
check "log out" iser_logout 1

check "remove the targets" iser_target_clear
iser_check_gone
tap_done
