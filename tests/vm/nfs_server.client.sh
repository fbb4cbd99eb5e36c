# SPDX-License-Identifier: GPL-2.0
#
# Client half of the rdmastor NFS server test: the stock Linux client
# (stock rpcrdma) and then rdmastor's client mount rdmastor's server in
# the other guest, every NFS version, and verify data.
. scripts/guest/lib.sh
. scripts/guest/nfs-client.sh
result=fail
trap 'nfs_done "$result"' EXIT

check "soft-RoCE on the virtio NIC" scripts/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER

# one version's worth of work; $1 names the client in the results
server_suite() {
	local who=$1 vers opts
	for vers in 3 4.0 4.1 4.2; do
		opts=
		[ "$vers" = 3 ] && opts=nolock
		check "$who: mount NFSv$vers from rdmastor's server" nfs_mount $vers $opts || continue
		check "$who NFSv$vers: 4 KiB random read/write, O_DIRECT, verified" \
			fio_verify r4k --size=1m --bs=4k --rw=randrw --direct=1 --ioengine=libaio --iodepth=8
		check "$who NFSv$vers: 1 MiB sequential writes, buffered, verified" \
			fio_verify s1m --size=4m --bs=1m --rw=write --ioengine=psync
		check "$who NFSv$vers: 512 B..256 KiB random, O_DIRECT, verified" \
			fio_verify mix --size=4m --bsrange=512-256k --rw=randrw --direct=1 --ioengine=libaio --iodepth=4
		rm -f $MNT/r4k* $MNT/s1m* $MNT/mix*
		check "$who: umount NFSv$vers" umount $MNT
	done
}

# The stock client first: the stock rpcrdma, by hand (nothing routes it)
check "stock rpcrdma loaded" modprobe rpcrdma
server_suite stock
check "stock rpcrdma unloads" wait_for 30 modprobe -r rpcrdma

# rdmastor's client
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
server_suite rdmastor
check "rdmastor_rpcrdma unloads" modprobe -r rdmastor_rpcrdma

[ "$tap_failed" = 0 ] && result=pass
trap - EXIT
check "tell the server" nfs_done "$result"
tap_done
