# SPDX-License-Identifier: GPL-2.0
#
# Helpers for NFS client test bodies: mount the server guest's export
# over RDMA and tell the server when we are done. Source after lib.sh.
SERVER=192.0.2.1
MNT=/mnt/nfs

# nfs_mount VERS [OPTIONS]: mount, retrying while the server comes up.
nfs_mount() {
	local vers=$1 opts=${2:+,$2} path=/ i
	# v4 sees the export as the pseudo-root (fsid=0); v3 by its path
	[ "${vers%%.*}" = 3 ] && path=/export
	mkdir -p $MNT
	for i in $(seq 60); do
		timeout 120 mount -t nfs -o vers=$vers,proto=rdma,port=20049$opts \
			$SERVER:$path $MNT 2>/tmp/mnt.err && return 0
		sleep 1
	done
	cat /tmp/mnt.err
	return 1
}

# nfs_done RESULT: leave RESULT in the export for the server to read.
nfs_done() {
	nfs_mount 3 nolock && echo "$1" > $MNT/done && umount $MNT
}

# rdmastor_nfs_client: install the modprobe configuration that makes
# proto=rdma reach rdmastor (etc/modprobe.d/rdmastor-nfs.conf).
rdmastor_nfs_client() {
	install -m 644 "$RDMASTOR_TREE/etc/modprobe.d/rdmastor-nfs.conf" /etc/modprobe.d/
}
