# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The rdmastor NFS client against the stock Linux NFS server in a second
# guest: the modprobe configuration routes proto=rdma to rdmastor, every
# NFS version mounts and verifies data (random and sequential, buffered
# and O_DIRECT, 4 KiB to 1 MiB), a source tree unpacks byte for byte,
# many creates/renames/removes, mmap writes, a file larger than the
# memory the writer may use; every way the protocol can carry data is
# used; IPv6 and nconnect; after umount nothing of rdmastor is left and
# it unloads. First, the baseline: the stock client against the same
# stock server (NFSv3, verified), so that a broken NFS/RDMA between the
# guests shows as that, not as rdmastor's fault. In core scope (lib.sh's
# full_scope: make check's second kernel) rdmastor's client mounts NFSv3
# and 4.2 with the two verifying runs only, then ends.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
result=fail
trap 'nfs_done "$result"' EXIT

# mountstats_matches: the xprt line has stock 6.1's 27 fields, and
# nfs-utils' mountstats, which labels them by position, reads the same
# figures as rdmastor's own sysfs counters (no I/O runs meanwhile).
mountstats_matches() {
	local ms nf
	nf=$(awk '$1 == "xprt:" && $2 == "rdma" { print NF - 2; exit }' /proc/self/mountstats)
	expect_eq "mountstats: the xprt line has stock's 27 fields" "$nf" 27
	ms=$(mountstats --xprt $MNT 2>&1)
	diag "$(echo "$ms" | grep -E 'segments|Registered|NOMSG|Allocated|Bad replies' | paste -sd';')"
	expect_eq "mountstats: Read segments are Read chunks and RDMA_NOMSG calls" \
		"$(echo "$ms" | sed -n 's/^\tRead segments: //p')" "$(( $(xstat read_chunks) + $(xstat long_calls) ))"
	expect_eq "mountstats: Write segments" "$(echo "$ms" | sed -n 's/^\tWrite segments: //p')" "$(xstat write_chunks)"
	expect_eq "mountstats: Reply segments" "$(echo "$ms" | sed -n 's/^\tReply segments: //p')" "$(xstat reply_chunks)"
	expect_eq "mountstats: bytes registered for Read chunks" \
		"$(echo "$ms" | sed -n 's/^\tRegistered: \([0-9]*\) bytes/\1/p')" "$(xstat request_bytes)"
	expect_eq "mountstats: RDMA_NOMSG calls" "$(echo "$ms" | sed -n 's/^\tRDMA_NOMSG calls: //p')" "$(xstat long_calls)"
	expect_eq "mountstats: bad replies" "$(echo "$ms" | sed -n 's/^\tBad replies: //p')" "$(xstat bad_replies)"
}

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER
# the stock client by hand (nothing routes it yet)
check "stock client: rpcrdma loads" modprobe rpcrdma
if check "stock client: mount NFSv3 over RDMA" nfs_mount 3 nolock; then
	check "stock client: the mount uses proto=rdma" grep -q " $MNT nfs .*proto=rdma" /proc/mounts
	check "stock client: fio 4 KiB random writes, O_DIRECT, verified" \
		fio_verify stock --size=1m --bs=4k --rw=randwrite --ioengine=psync --direct=1
	rm -f $MNT/stock*
	check "stock client: umount" umount $MNT
fi
check "stock client: rpcrdma unloads" wait_for 30 modprobe -r rpcrdma
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
for name in rpcrdma rpcrdma6 xprtrdma; do
	check "modprobe $name is routed to rdmastor_rpcrdma" routed_to $name rdmastor_rpcrdma
done

# The engine first, so that every connection and MR of the run is traced.
check "load the engine" modprobe rdmastor_transport
trace_pairs_start

versions="3 4.0 4.1 4.2"
full_scope || versions="3 4.2"
for vers in $versions; do
	opts=
	[ "$vers" = 3 ] && opts=nolock
	check "mount NFSv$vers over rdmastor" nfs_mount $vers $opts || continue
	if [ "$vers" = 3 ]; then
		# nothing was loaded by hand: mount's own module request did it
		check "the mount loaded rdmastor_rpcrdma" grep -q "^rdmastor_rpcrdma " /proc/modules
		expect_nomatch "the stock rpcrdma is not loaded" "$(cat /proc/modules)" '^rpcrdma '
	fi
	diag "$(grep " $MNT " /proc/mounts)"
	check "NFSv$vers: 4 KiB random read/write, O_DIRECT, verified" \
		fio_verify r4k --size=1m --bs=4k --rw=randrw --direct=1 --ioengine=libaio --iodepth=8
	check "NFSv$vers: 1 MiB sequential writes, buffered, verified" \
		fio_verify s1m --size=4m --bs=1m --rw=write --ioengine=psync
	if [ "$vers" = 4.2 ] && full_scope; then
		check "NFSv$vers: 128 KiB sequential, O_DIRECT, verified" \
			fio_verify s128k --size=4m --bs=128k --rw=write --direct=1 --ioengine=psync
		check "NFSv$vers: 1 MiB random, O_DIRECT, depth 4, verified" \
			fio_verify r1m --size=8m --bs=1m --rw=randwrite --direct=1 --ioengine=libaio --iodepth=4
		check "NFSv$vers: 64 KiB random, buffered, verified" \
			fio_verify r64k --size=4m --bs=64k --rw=randwrite --ioengine=psync
		check "NFSv$vers: mmap 4 KiB random writes, verified" \
			fio_verify mm --size=2m --bs=4k --rw=randwrite --ioengine=mmap
		check "NFSv$vers: unpack a source tree (39 files), byte for byte" tree_copy
		check "NFSv$vers: 200 creates, renames and removes" churn
		check "NFSv$vers: a 4000-byte symlink (Read chunk, Reply chunk)" long_link
		check "NFSv$vers: 64 MiB file, writer held to 16 MiB of memory, verified" small_memory
		diag "calls: inline $(xstat inline_calls), read chunk $(xstat read_chunks), long $(xstat long_calls); replies: inline $(xstat inline_replies), write chunk $(xstat write_chunks), reply chunk $(xstat reply_chunks)"
		expect_gt "Read chunks carried data" "$(xstat read_chunks)" 0
		expect_gt "Write chunks carried data" "$(xstat write_chunks)" 0
		expect_gt "Reply chunks carried data" "$(xstat reply_chunks)" 0
		check "every registration ended invalid (regs $(xstat regs) = remote $(xstat remote_inv) + local $(xstat local_inv) + freed $(xstat freed_unknown); abandoned RPCs $(xstat abandoned))" [ "$(xstat regs)" = "$(( $(xstat remote_inv) + $(xstat local_inv) + $(xstat freed_unknown) ))" ]
		check "no bad reply from the stock server" [ "$(xstat bad_replies)" = 0 ]
		expect_gt "more than 100 Sends" "$(xstat sends)" 100
		expect_le "few Sends ask for a completion (signaled Sends, at most 1 in 8 of $(xstat sends))" \
			"$(xstat sends_signaled)" $(( $(xstat sends) / 8 ))
		check "the mount's QP shows in rdma resource ($(rdma_left qp))" [ "$(rdma_left qp)" -ge 1 ]
		mountstats_matches
		check "the transport's sysfs files are readable by any user" \
			su nobody -s /bin/sh -c "cat $(xdir)/stats $(xdir)/peer > /dev/null"
		diag "$(rdma resource show qp; rdma resource show cq; rdma resource show mr | head -3)"
	fi
	rm -rf $MNT/r4k* $MNT/s1m* $MNT/s128k* $MNT/r1m* $MNT/r64k* $MNT/mm* $MNT/big* $MNT/tree
	check "umount NFSv$vers" umount $MNT
done

if ! full_scope; then
	trace_pairs_check
	check "rdmastor_rpcrdma unloads" wait_for 30 modprobe -r rdmastor_rpcrdma
	check "then the engine and rnic_mgr" modprobe -r rdmastor_transport rnic_mgr
	[ "$tap_failed" = 0 ] && result=pass
	trap - EXIT
	check "tell the server" nfs_done "$result"
	tap_done
fi

# IPv6: proto=rdma6 asks for netid rdma6, which the same transport serves.
NFS_PROTO=rdma6
if check "mount NFSv4.2 over IPv6 (proto=rdma6)" nfs_mount 4.2; then
	diag "$(grep " $MNT " /proc/mounts)"
	expect_match "the mount is proto=rdma6 to $SERVER6" "$(grep " $MNT " /proc/mounts)" "proto=rdma6,.*addr=$SERVER6"
	expect_match "its connection runs to [$SERVER6]:20049" "$(rdma resource show cm_id)" "dst-addr $SERVER6:20049"
	check "IPv6: 4 KiB random read/write, O_DIRECT, verified" \
		fio_verify r4k --size=1m --bs=4k --rw=randrw --direct=1 --ioengine=libaio --iodepth=8
	check "IPv6: 1 MiB sequential, O_DIRECT, verified" \
		fio_verify s1m --size=4m --bs=1m --rw=write --direct=1 --ioengine=psync
	expect_gt "IPv6: data went by Read chunks" "$(xstat read_chunks)" 0
	expect_gt "IPv6: and by Write chunks" "$(xstat write_chunks)" 0
	expect_eq "IPv6: no bad reply" "$(xstat bad_replies)" 0

	check "rnic_mgr lists the mount as nfs-$SERVER6" \
		grep -q "^nfs-$SERVER6\\." /sys/kernel/rnic_mgr/devices/rxe0/table
	rm -f $MNT/r4k* $MNT/s1m*
	check "umount (IPv6)" umount $MNT
fi
unset NFS_PROTO

# nconnect: the NFS client opens several transports to one server and
# spreads RPCs over them; each is a connection and rnic_mgr consumer of
# its own. NFSv3: this kernel's NFSv4 client honours nconnect over TCP
# only (fs/nfs/nfs4client.c), whichever RDMA transport is loaded.
if check "mount NFSv3 with nconnect=2" nfs_mount 3 nolock,nconnect=2; then
	check "nconnect=2: 4 KiB random read/write, O_DIRECT, depth 16, verified" \
		fio_verify r4k --size=2m --bs=4k --rw=randrw --direct=1 --ioengine=libaio --iodepth=16
	check "nconnect=2: 1 MiB sequential, O_DIRECT, depth 4, verified" \
		fio_verify s1m --size=8m --bs=1m --rw=write --direct=1 --ioengine=libaio --iodepth=4
	diag "transports' Sends: $(xprt_sends | paste -sd' ')"
	check "the mount has two rdma transports" [ "$(xprt_sends | wc -l)" = 2 ]
	check "both carried RPCs" [ "$(xprt_sends | awk '$1 > 50' | wc -l)" = 2 ]
	check "two QPs of rdmastor ($(rdma_left qp))" [ "$(rdma_left qp)" = 2 ]
	check "rnic_mgr lists two consumers nfs-$SERVER" [ "$(grep -c "^nfs-$SERVER\\." /sys/kernel/rnic_mgr/devices/rxe0/table)" = 2 ]
	rm -f $MNT/r4k* $MNT/s1m*
	check "umount (nconnect=2)" umount $MNT
fi

# Long calls: NFS marks the bulk data of WRITE and SYMLINK, so those go
# by Read chunk; a call that is large for another reason is a long call.
# With a 1 KiB inline size, NFSACL SETACL of a 100-entry ACL is one, and
# GETACL's reply (sparse pages the transport fills) a Reply chunk.
# (unloading a module with tracepoints clears the trace: pair up first)
trace_pairs_check
check "reload rdmastor_rpcrdma with inline_size=1024" \
	wait_for 60 sh -c "modprobe -r rdmastor_rpcrdma && modprobe rdmastor_rpcrdma inline_size=1024"
trace_pairs_start
if check "mount NFSv3 (1 KiB inline)" nfs_mount 3 nolock; then
	check "NFSv3: a 100-entry ACL set and read back" long_acl 100
	check "it went as a long call ($(xstat long_calls))" [ "$(xstat long_calls)" -gt 0 ]
	check "umount" umount $MNT
fi

# Nothing of rdmastor may stay on the device once the last mount is gone.
none_left() { [ "$(rdma_left "$1")" = 0 ]; }
for kind in qp cq mr; do
	check "no $kind of rdmastor left after umount" wait_for 30 none_left $kind
done
diag "$(rdma resource show qp)"
trace_pairs_check
check "rdmastor_rpcrdma unloads" modprobe -r rdmastor_rpcrdma
check "then the engine and rnic_mgr" modprobe -r rdmastor_transport rnic_mgr
[ "$tap_failed" = 0 ] && result=pass
trap - EXIT
check "tell the server" nfs_done "$result"
tap_done
