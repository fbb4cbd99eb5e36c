# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# NFS inline-size benchmark (one guest, rxe loopback, CPU-bound), on the
# pairing driver (pairbench.sh): rdmastor's client mounting rdmastor's
# server, both ends loaded with the same inline_size, 4, 8, 16 and
# 32 KiB (pairings inl4k ... inl32k; inl4k-aa: the A/A copy of the base,
# inl4k). An NFS READ or WRITE whose call and reply fit the inline size
# goes in the Send itself: no registration, no RDMA READ or WRITE; one
# that does not takes a chunk (an MR on the client, an RDMA operation on
# the server). What that costs against copying the data into the Send is
# what this measures, with registrations and chunks per I/O (columns
# regs_per_io, chunks_per_io). Results: nfs-inline.csv in $RDMASTOR_OUT.
#
# Jobs (O_DIRECT, libaio, NFSv4.2, depth 16): 4, 8 and 16 KiB random
# read and write, and 64 KiB, where 16 and 32 KiB inline copy nothing
# less but still receive into bigger buffers.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. bench/guest/pairbench.sh
JOBS=${JOBS:-"rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
rand8k-read:randread:8k:16 rand8k-write:randwrite:8k:16
rand16k-read:randread:16k:16 rand16k-write:randwrite:16k:16
rand64k-read:randread:64k:16 rand64k-write:randwrite:64k:16"}
# shellcheck disable=SC2034	# read by pairbench.sh
PB_DIR=$MNT PB_EXTRA=regs_per_io,chunks_per_io

tot() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' \
	/sys/kernel/rdmastor_svcrdma/totals; }
# shellcheck disable=SC2317	# called by pairbench.sh
pb_counters() { echo "$(xstat regs) $(( $(tot data_chunks) + $(tot write_chunks) ))"; }

pb_pairing() {	# pb_pairing inlNk[-aa]: both ends reloaded with that inline size
	local kib=${1#inl}
	kib=${kib%%k*}
	mountpoint -q $MNT && umount $MNT
	rpc.nfsd 0
	wait_for 60 sh -c 'modprobe -r rdmastor_rpcrdma rdmastor_svcrdma 2>/dev/null; ! grep -qE "^rdmastor_(rpc|svc)rdma " /proc/modules' || return 1
	modprobe rdmastor_svcrdma inline_size=$((kib * 1024)) &&
		modprobe rdmastor_rpcrdma inline_size=$((kib * 1024)) &&
		nfsd_threads && nfs_mount 4.2 && wait_for 30 test -e $EXPORT/grace-over
}

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "RAM-backed export" sh -c "mkdir -p $EXPORT && mount -t tmpfs -o size=512m tmpfs $EXPORT && chmod 1777 $EXPORT"
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
check "nfsd" sh -c "modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; }"
check "nfsd serving over rdmastor" nfsd_start || bail "no server"
check "mount" nfs_mount 4.2
pb_files 4k 8k 16k 64k
umount $MNT
PB_NAME=nfs-inline PB_PAIRS=${PAIRS:-"inl4k inl4k-aa inl8k inl16k inl32k"} PB_JOBS=$JOBS
pb_rounds
mountpoint -q $MNT && umount $MNT
rpc.nfsd 0
tap_done
