# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for NFS client test bodies: mount the server guest's export
# over RDMA and tell the server when we are done. Source after lib.sh.
SERVER=192.0.2.1
SERVER6=2001:db8::1
MNT=/mnt/nfs

# nfs_mount VERS [OPTIONS]: mount, retrying while the server comes up.
# NFS_PROTO=rdma6 mounts over IPv6 (SERVER6).
nfs_mount() {
	local vers=$1 opts=${2:+,$2} path=/ proto=${NFS_PROTO:-rdma} host=$SERVER i
	# v4 sees the export as the pseudo-root (fsid=0); v3 by its path
	[ "${vers%%.*}" = 3 ] && path=/export
	[ "$proto" = rdma6 ] && host="[$SERVER6]"
	mkdir -p $MNT
	for i in $(seq 60); do
		timeout 120 mount -t nfs -o vers=$vers,proto=$proto,port=20049$opts \
			$host:$path $MNT 2>/tmp/mnt.err && return 0
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

# xdir [MOUNTPOINT]: the sysfs directory of rdmastor's transport to the
# server of the first rdma mount (MOUNTPOINT's if given): the one with the
# lowest id, which mounts of one server and version share.
# Shell builtins only past the one awk: forks are slow under emulation.
xdir() {
	local srv d addr id best='' best_id=''
	srv=$(awk -v m="${1:-}" '$1 == "device" { s = $2; in_m = (m == "" || $5 == m) }
		in_m && $1 == "xprt:" && $2 == "rdma" { print s; exit }' /proc/self/mountstats)
	srv=${srv%:/*}
	srv=${srv#[}
	srv=${srv%]}
	for d in /sys/kernel/rdmastor_rpcrdma/xprts/xprt-*; do
		[ -r "$d/peer" ] || continue
		read -r addr _ < "$d/peer"
		id=${d##*-}
		if [ "$addr" = "$srv" ] && { [ -z "$best_id" ] || [ "$id" -lt "$best_id" ]; }; then
			best=$d best_id=$id
		fi
	done
	[ -n "$best" ] && echo "$best"
}

# xstat FIELD [MOUNTPOINT]: a counter of the first rdma mount (MOUNTPOINT's
# if given): SUNRPC's generic ones from its xprt line in
# /proc/self/mountstats (fs/client/stats.c rsx_print_stats: stock's
# fields), rdmastor's from its transport's sysfs stats file.
xstat() {
	case $1 in
	port | bind | connects | connect_time | idle | sends | recvs | bad_xids | req_u | bklog_u)
		awk -v k="$1" -v m="${2:-}" '$1 == "device" { in_m = (m == "" || $5 == m) }
		in_m && $1 == "xprt:" && $2 == "rdma" {
			split("port bind connects connect_time idle sends recvs bad_xids req_u bklog_u", n, " ")
			for (i = 1; i in n; i++) if (n[i] == k) { print $(i + 2); exit }
		}' /proc/self/mountstats
		;;
	*)
		local d k v
		d=$(xdir "${2:-}") || return 1
		while read -r k v; do
			[ "$k" = "$1" ] && { echo "$v"; return 0; }
		done < "$d/stats"
		;;
	esac
}

# fio_verify NAME FIO-ARGS...: a fio job on the mount that verifies its data.
fio_verify() {
	local name=$1
	shift
	fio --name="$name" --directory=$MNT --verify=crc32c --do_verify=1 \
		--output-format=terse "$@" > /tmp/fio.out 2>&1 ||
		{ tail -20 /tmp/fio.out; return 1; }
}

# rdma_left KIND: how many objects of KIND (mr, qp, cq) are on rxe0 that
# ib_core's own GSI QP does not account for. On a client guest nothing
# but rdmastor uses the device (the stock rpcrdma is not loaded).
rdma_left() {
	rdma resource show "$1" 2>/dev/null | grep "rxe0" | grep -vc "comm \[ib_core\]"
}

# Workloads of the NFS tests, on the mount at $MNT.
xprt_sends() {	# the Sends of each rdma transport of the mount, one per line
	awk '$1 == "xprt:" && $2 == "rdma" { print $8 }' /proc/self/mountstats
}

# three header directories, 39 files (each costs the client a few RPCs,
# some 80 ms each under emulation with two guests)
TREE_DIRS="usb netfilter_bridge can"
tree_copy() {
	local d
	mkdir -p $MNT/tree && tar -C /usr/include/linux -cf - $TREE_DIRS | tar -C $MNT/tree -xf - ||
		return 1
	for d in $TREE_DIRS; do
		diff -r /usr/include/linux/$d $MNT/tree/$d || return 1
	done
}
churn() {	# 200 creates, renames, removes; the directory ends empty
	local d=$MNT/churn i
	mkdir -p $d || return 1
	for i in $(seq 200); do echo "$i" > $d/f$i || return 1; done
	# one process renames them all: 200 mv processes took 100 s under
	# emulation, the RENAMEs themselves a few
	perl -e 'for (1 .. 200) { rename("$ARGV[0]/f$_", "$ARGV[0]/g$_") or die "$_: $!\n" }' $d ||
		return 1
	[ "$(ls $d | wc -l)" = 200 ] && [ "$(cat $d/g150)" = 150 ] || return 1
	rm -f $d/g* && rmdir $d
}
long_acl() {	# long_acl N: an N-entry POSIX ACL set and read back (NFSACL SETACL, GETACL)
	local spec i
	touch $MNT/acl || return 1
	for i in $(seq 10000 $((10000 + $1 - 1))); do spec="${spec}u:$i:r,"; done
	setfacl -m "${spec%,}" $MNT/acl &&
		[ "$(getfacl -n $MNT/acl 2>/dev/null | grep -c '^user:1[0-9]*:r--')" = "$1" ] &&
		rm $MNT/acl
}
long_link() {	# SYMLINK's call (a Read chunk) and READLINK's reply exceed the inline size
	local target
	target=$(printf 'd%.0s' $(seq 4000))
	ln -s "$target" $MNT/longlink && [ "$(readlink $MNT/longlink)" = "$target" ] &&
		rm $MNT/longlink
}
small_memory() {	# 64 MiB written and verified by a writer held to 16 MiB
	{ mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup; } &&
		echo +memory > /sys/fs/cgroup/cgroup.subtree_control &&
		mkdir -p /sys/fs/cgroup/nfs-small &&
		echo 16M > /sys/fs/cgroup/nfs-small/memory.high &&
		sh -c "echo \$\$ > /sys/fs/cgroup/nfs-small/cgroup.procs &&
		       fio --name=big --directory=$MNT --size=64m --bs=256k --rw=write \
		           --ioengine=psync --verify=crc32c --do_verify=1 --output-format=terse" \
		> /tmp/fio.out 2>&1 || { tail -20 /tmp/fio.out; return 1; }
}

# client_stack KIND INLINE: the NFS client of that kind (rdmastor|stock),
# its inline sizes INLINE bytes, loaded alone
client_stack() {
	# an unmounted transport lets go of its module a moment later
	wait_for 60 sh -c 'modprobe -r rdmastor_rpcrdma 2>/dev/null; modprobe -r rpcrdma 2>/dev/null; ! grep -qE "^(rdmastor_rpcrdma|rpcrdma) " /proc/modules' || return 1
	if [ "$1" = rdmastor ]; then
		modprobe rdmastor_rpcrdma inline_size="$2"
	else
		modprobe rpcrdma &&
			sysctl -qw sunrpc.rdma_max_inline_read="$2" sunrpc.rdma_max_inline_write="$2"
	fi
}
