# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Client half of the rdmastor NFS server test: the stock Linux client
# (stock rpcrdma, its inline sizes cut to 1 KiB so that many calls are
# long calls and many replies go by Reply chunk) and then rdmastor's
# client mount rdmastor's server in the other guest. Each NFS version
# (the stock client: 3, 4.0, 4.1, 4.2; rdmastor's: 3 and 4.2) verifies
# data (4 KiB random O_DIRECT, 1 MiB sequential buffered); NFSv3 with NLM locking and a 100-entry ACL; NFSv4.2 with
# 512 B..256 KiB random and 1 MiB O_DIRECT reads, many creates/renames/
# removes (stock) or a source tree unpacked and compared (rdmastor), a
# 4000-byte symlink, v4 locks and a delegation recalled over the
# backchannel. rdmastor's client then mounts over IPv6 and with
# nconnect=2 (two connections from one mount), writes a file larger than the
# memory it may use and rides out faults during verifying runs: its own
# link losing everything for 8 s, nfsd restarted (the listener comes
# back), and a soft mount that gives up mid-transfer (the server sees
# the client drop the connection with I/O in flight).
# In core scope (lib.sh's full_scope: make check's second kernel) each
# client mounts NFSv3 and 4.2 with the verifying runs only, then ends.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
result=fail
trap 'nfs_done "$result"' EXIT

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "netem on eth0, doing nothing yet" link_netem_ready
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER

locks() {	# an exclusive lock excludes a second taker until it is released
	local f=$MNT/lockfile held=/tmp/lock-held
	touch $f || return 1
	rm -f $held
	# the holder says when it holds: NLM may take a while to grant the
	# first lock (the server's grace period, a loaded host), and a second
	# taker tried before that would rightly be granted
	flock -x $f -c "touch $held; sleep 3" &
	wait_for 30 test -e $held || { echo "# the first lock was never granted"; wait; return 1; }
	if flock -n -x $f -c true; then echo "# the second lock was granted"; wait; return 1; fi
	wait && flock -n -x $f -c true && rm -f $f
}
deleg_recall() {	# deleg_recall FILE: a read delegation of deleg/FILE recalled by a server write
	local line
	# nfsd hands out no delegation during its grace period
	wait_for 60 test -e $MNT/grace-over || return 1
	exec 3< $MNT/deleg/$1
	read -r line <&3
	[ "$line" = original ] || { exec 3<&-; return 1; }
	rm -f $MNT/deleg-done
	echo "$1" > $MNT/deleg-ready
	wait_for 120 test -e $MNT/deleg-done &&
		grep -q "type: deleg" $MNT/deleg-states &&
		[ "$(cat $MNT/deleg-done)" = 0 ] &&
		wait_for 30 sh -c "[ \"\$(cat $MNT/deleg/$1)\" = server ]"
	local rc=$?
	exec 3<&-
	return $rc
}

# client_suite WHO DELEG-FILE VERSIONS: what each client does against the
# server, for each NFS version of VERSIONS
client_suite() {
	local who=$1 vers opts
	for vers in $3; do
		opts=
		[ "$vers" = 3 ] && opts=lock
		# the delegation check polls for a file the server makes: a
		# cached negative lookup hid it for up to acdirmax (60 s)
		[ "$vers" = 4.2 ] && opts=lookupcache=positive
		check "$who: mount NFSv$vers from rdmastor's server" nfs_mount $vers $opts || continue
		check "$who NFSv$vers: 4 KiB random read/write, O_DIRECT, verified" \
			fio_verify r4k --size=1m --bs=4k --rw=randrw --direct=1 --ioengine=libaio --iodepth=8
		check "$who NFSv$vers: 1 MiB sequential writes, buffered, verified" \
			fio_verify s1m --size=4m --bs=1m --rw=write --ioengine=psync
		full_scope || vers=core
		case $vers in
		3)
			check "$who NFSv3: NLM locks exclude each other" locks
			check "$who NFSv3: a 100-entry ACL set and read back" long_acl 100
			;;
		4.2)
			check "$who NFSv$vers: 512 B..256 KiB random, O_DIRECT, verified" \
				fio_verify mix --size=2m --bsrange=512-256k --rw=randrw --direct=1 --ioengine=libaio --iodepth=4
			check "$who NFSv4.2: 1 MiB sequential reads, O_DIRECT, verified" \
				fio_verify s1m --size=4m --bs=1m --rw=read --direct=1 --ioengine=psync
			if [ "$who" = stock ]; then
				check "$who NFSv4.2: 200 creates, renames and removes" churn
			else
				check "$who NFSv4.2: unpack a source tree, byte for byte" tree_copy
			fi
			check "$who NFSv4.2: a 4000-byte symlink" long_link
			check "$who NFSv4.2: v4 locks exclude each other" locks
			check "$who NFSv4.2: a delegation recalled over the backchannel" deleg_recall "$2"
			;;
		esac
		rm -rf $MNT/r4k* $MNT/s1m* $MNT/mix* $MNT/tree
		check "$who: umount" umount $MNT
	done
}

# NLM: the status monitor on this side too
check "rpc.statd" sh -c "mkdir -p /run/rpcbind /var/lib/nfs/sm /var/lib/nfs/sm.bak && { pgrep -x rpcbind || rpcbind -w; } && { pgrep -x rpc.statd || rpc.statd; }"

# The stock client first: the stock rpcrdma, by hand (nothing routes it)
check "stock rpcrdma loaded" modprobe rpcrdma
check "stock client: 1 KiB inline both ways" \
	sysctl -qw sunrpc.rdma_max_inline_read=1024 sunrpc.rdma_max_inline_write=1024
if full_scope; then
	client_suite stock file2 "3 4.0 4.1 4.2"
else
	client_suite stock file2 "3 4.2"
fi
check "stock rpcrdma unloads" wait_for 30 modprobe -r rpcrdma

# rdmastor's client
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
# NFSv4.0 and 4.1 through rdmastor's client are rpcrdma's (against the
# stock server); here, with both ends ours, the oldest and the newest
client_suite rdmastor file3 "3 4.2"
if ! full_scope; then
	check "rdmastor_rpcrdma unloads" wait_for 30 modprobe -r rdmastor_rpcrdma
	[ "$tap_failed" = 0 ] && result=pass
	trap - EXIT
	check "tell the server" nfs_done "$result"
	tap_done
fi

# ---- IPv6: nfsd's "rdma" entry listens on both families ----
NFS_PROTO=rdma6
if check "rdmastor: mount NFSv4.2 over IPv6 (proto=rdma6)" nfs_mount 4.2; then
	check "its connection runs to [$SERVER6]:20049" \
		sh -c "rdma resource show cm_id | grep -q 'dst-addr $SERVER6:20049'"
	check "IPv6: 4 KiB random read/write, O_DIRECT, verified" \
		fio_verify r4k --size=1m --bs=4k --rw=randrw --direct=1 --ioengine=libaio --iodepth=8
	rm -f $MNT/r4k*
	check "umount (IPv6)" umount $MNT
fi
unset NFS_PROTO

# ---- nconnect: one mount, two connections to the server ----
# (NFSv3: this kernel's NFSv4 client honours nconnect over TCP only)
if check "rdmastor: mount NFSv3 with nconnect=2" nfs_mount 3 nolock,nconnect=2; then
	check "nconnect=2: 4 KiB random read/write, O_DIRECT, depth 16, verified" \
		fio_verify r4k --size=2m --bs=4k --rw=randrw --direct=1 --ioengine=libaio --iodepth=16
	diag "transports' Sends: $(xprt_sends | paste -sd' ')"
	check "both connections to rdmastor's server carried RPCs" \
		[ "$(xprt_sends | awk '$1 > 50' | wc -l)" = 2 ]
	rm -f $MNT/r4k*
	check "umount (nconnect=2)" umount $MNT
fi

# ---- rdmastor's client: a large file, and faults during verifying runs ----
fio_bg() {	# a verifying run in the background ($fio_pid)
	# at most 2 MiB/s: at least 8 s of I/O, so a fault 2 s in lands mid-run
	timeout 400 fio --name=fault --directory=$MNT --size=16m --bs=64k --rw=randwrite \
		--rate=2m --direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c \
		--do_verify=1 --output-format=terse > /tmp/fio.out 2>&1 &
	fio_pid=$!
}
fio_running() {	# the fault must land mid-run
	kill -0 $fio_pid 2>/dev/null || { echo "# the run ended before the fault landed"; return 1; }
}
fio_wait() { wait $fio_pid || { tail -5 /tmp/fio.out; dmesg | tail -20; return 1; }; rm -f $MNT/fault*; }
own_link_down() {
	fio_bg
	sleep 2
	link_netem loss 100% || return 1
	fio_running || { link_netem; return 1; }
	sleep 8
	link_netem
	fio_wait
}
nfsd_restart() {
	fio_bg
	sleep 2
	touch $MNT/restart-nfsd
	sleep 2
	fio_running || return 1
	fio_wait
}
# a 10 s RPC timeout (timeo=100, 60 s by default): after the loss, a
# reply it swallowed is resent only once its RPC times out (so does the
# stock client: testing.rst, rdmastor's NFS client after 8 s of loss)
if check "rdmastor: mount NFSv4.2 (hard, timeo=100)" nfs_mount 4.2 hard,timeo=100; then
	check "rdmastor NFSv4.2: 64 MiB file, writer held to 16 MiB of memory, verified" small_memory
	rm -f $MNT/big*
	check "own link down (100% loss) 8 s during fio: completes, verified" own_link_down
	check "nfsd restarted during fio: completes, verified" nfsd_restart
	check "umount" umount $MNT
fi
SOFT=/mnt/soft
soft_mount() { local MNT=$SOFT; nfs_mount 3 nolock,soft,timeo=10,retrans=1; }
soft_outage() {	# the client gives up on RPCs with data in flight, and reconnects
	timeout 120 dd if=/dev/zero of=$SOFT/lost bs=64k count=4096 oflag=direct status=none 2>/dev/null &
	local pid=$!
	sleep 2
	link_netem loss 100% || return 1
	# the loss must land mid-run
	kill -0 $pid 2>/dev/null || { echo "# the writer ended before the loss"; link_netem; return 1; }
	sleep 8
	link_netem
	wait $pid
	[ $? != 124 ]
}
soft_works() {
	dd if=/dev/urandom of=/tmp/soft.src bs=64k count=16 status=none &&
		dd if=/tmp/soft.src of=$SOFT/back bs=64k oflag=direct status=none && cmp /tmp/soft.src $SOFT/back
}
if check "mount NFSv3 soft (timeo=10, retrans=1)" soft_mount; then
	check "soft mount: a writer through 8 s of loss ends, no hang" soft_outage
	check "soft mount: works again once the link is back" wait_for 90 soft_works
	rm -f $SOFT/lost $SOFT/back
	check "umount the soft mount" umount $SOFT
fi
check "rdmastor_rpcrdma unloads" wait_for 30 modprobe -r rdmastor_rpcrdma
check "soft-RoCE's GSI QP survived the link faults" gsi_up

[ "$tap_failed" = 0 ] && result=pass
trap - EXIT
check "tell the server" nfs_done "$result"
tap_done
