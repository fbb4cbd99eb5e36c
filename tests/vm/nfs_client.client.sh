# SPDX-License-Identifier: GPL-2.0
#
# The rdmastor NFS client against the stock Linux NFS server in a second
# guest: the modprobe configuration routes proto=rdma to rdmastor, every
# NFS version mounts, fio verifies data, and umount leaves nothing of
# rdmastor on the device.
. scripts/guest/lib.sh
. scripts/guest/nfs-client.sh
result=fail
ok_all=0

check "soft-RoCE on the virtio NIC" scripts/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
check "modprobe rpcrdma loads rdmastor" modprobe rpcrdma
check "rdmastor_rpcrdma is loaded" grep -q "^rdmastor_rpcrdma " /proc/modules
ok "$(grep -q "^rpcrdma " /proc/modules; [ $? = 1 ]; echo $?)" "the stock rpcrdma is not loaded"

fio_verify() {	# fio_verify NAME ARGS...
	local name=$1
	shift
	fio --name="$name" --directory=$MNT --ioengine=psync --verify=crc32c \
		--do_verify=1 --output-format=terse "$@" > /tmp/fio.out 2>&1 ||
		{ tail -20 /tmp/fio.out; return 1; }
}

for vers in 3 4.0 4.1 4.2; do
	opts=
	[ "$vers" = 3 ] && opts=nolock
	check "mount NFSv$vers over rdmastor" nfs_mount $vers $opts || { ok_all=1; continue; }
	diag "$(grep " $MNT " /proc/mounts)"
	check "NFSv$vers: fio 4 KiB random writes, O_DIRECT, verified" \
		fio_verify rand4k --size=1m --bs=4k --rw=randwrite --direct=1 || ok_all=1
	check "NFSv$vers: fio 1 MiB sequential writes, buffered, verified" \
		fio_verify seq1m --size=4m --bs=1m --rw=write || ok_all=1
	rm -f $MNT/rand4k* $MNT/seq1m*
	diag "$(grep -A3 "xprt:" /proc/self/mountstats | head -3)"
	check "umount NFSv$vers" umount $MNT || ok_all=1
done
diag "$(dmesg | grep rdmastor | tail -5)"
[ "$ok_all" = 0 ] && result=pass
nfs_done "$result"
tap_done
