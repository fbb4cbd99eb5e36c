# SPDX-License-Identifier: GPL-2.0
#
# Malformed replies: a test server (tests/kmod/rpcrdma_evil.ko, rxe
# loopback in one guest) answers the rdmastor NFS client's calls with
# broken transport headers. Each kind must end the mount attempt with an
# error after the client drops the connection (a protocol error), never
# a crash, WARN or leak; RDMA_ERROR fails the RPC; a well-formed reply
# is not taken for a bad one. Then everything unloads and nothing is
# left on the device.
. scripts/guest/lib.sh
. scripts/guest/nfs-client.sh
IP=192.0.2.1
P=/sys/module/rpcrdma_evil/parameters

check "soft-RoCE" scripts/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
check "load rdmastor's RPC-over-RDMA client" modprobe rpcrdma
check "load the malformed-reply server" insmod "$(rdmastor_testmod rpcrdma_evil)" port=20050
mkdir -p $MNT

attempt() {	# attempt MODE: a mount that must fail; its kernel messages in /tmp/k
	echo "$1" > $P/mode
	dmesg -C
	! timeout 120 mount -t nfs -o vers=4.2,proto=rdma,port=20050,soft,timeo=30,retrans=1,retry=0 \
		$IP:/ $MNT 2>/tmp/mnt.err
	local rc=$?
	dmesg > /tmp/k
	return $rc
}
for m in short:"header does not decode" badproc:"header does not decode" \
	zerocred:"zero credits" badchunk:"write list not ours" \
	readlist:"read list in a reply" overlong:"reply longer than the RPC's buffer" \
	nomsg:"reply chunk not ours"; do
	mode=${m%%:*} why=${m#*:}
	check "$mode: the mount fails" attempt "$mode"
	diag "$mode: $(tail -1 /tmp/mnt.err); $(grep rdmastor /tmp/k | tail -1)"
	ok "$(grep -q "bad reply ($why" /tmp/k; echo $?)" "$mode: a protocol error ($why) drops the connection"
done
check "rdmaerr: the mount fails" attempt rdmaerr
ok "$(grep -q "RDMA_ERROR ERR_CHUNK" /tmp/k; echo $?)" "rdmaerr: the RPC fails with the server's RDMA_ERROR"
check "good: the mount fails (the server is not NFS)" attempt good
ok "$(! grep -q "bad reply" /tmp/k; echo $?)" "good: a well-formed reply is not a protocol error"
diag "replies sent by the test server: $(cat $P/replies)"
check "unload the test server" rmmod rpcrdma_evil
# failed mounts let go of their transports asynchronously
check "unload rdmastor" wait_for 60 modprobe -r rdmastor_rpcrdma rdmastor_transport rnic_mgr
for kind in qp cq mr; do
	ok "$([ "$(rdma_left $kind)" = 0 ]; echo $?)" "no $kind left"
done
tap_done
