# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12 debug
# vm-group: nfs (one guest boot: tests/lib/check)
#
# Malformed replies: a test server (tests/kmod/rpcrdma_evil.ko, rxe
# loopback in one guest) answers the rdmastor NFS client's calls with
# broken transport headers. Each kind must end the mount attempt with an
# error after the client drops the connection (a protocol error), never
# a crash, WARN or leak; RDMA_ERROR fails the RPC; a well-formed reply
# is not taken for a bad one. Then everything unloads and nothing is
# left on the device.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
IP=192.0.2.1
P=/sys/module/rpcrdma_evil/parameters

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_nfs_client
check "load rdmastor's RPC-over-RDMA client" modprobe rpcrdma
check "load the malformed-reply server" insmod "$(rdmastor_testmod rpcrdma_evil)" port=20050
mkdir -p $MNT

# attempt MODE: a mount that must fail; its kernel messages in /tmp/k.
# Each bad reply drops the connection at once; the soft mount then gives
# up after its RPC timeout (1 s, twice: 3 s took 6 s an attempt).
attempt() {
	echo "$1" > $P/mode
	dmesg -C
	! timeout 120 mount -t nfs -o vers=4.2,proto=rdma,port=20050,soft,timeo=10,retrans=1,retry=0 \
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
	check "$mode: a protocol error ($why) drops the connection" grep -q "bad reply ($why" /tmp/k
done
check "rdmaerr: the mount fails" attempt rdmaerr
check "rdmaerr: the RPC fails with the server's RDMA_ERROR" grep -q "RDMA_ERROR ERR_CHUNK" /tmp/k
check "good: the mount fails (the server is not NFS)" attempt good
expect_nomatch "good: a well-formed reply is not a protocol error" "$(cat /tmp/k)" "bad reply"
diag "replies sent by the test server: $(cat $P/replies)"

# rpc_call PROC WANT: one RPC of the test program (procedure 1: room for
# a 2800-byte reply; 2: 8 KiB) through rdmastor's client to the test
# server; it must return (a hang is a failure) with result WANT.
rpc_call() {
	(echo "$1" > $P/call) &
	local pid=$!
	wait_for 90 sh -c "! kill -0 $pid" || { echo "# call $1 did not return"; return 1; }
	wait $pid
	[ "$(cat $P/call_result)" = "$2" ] || { echo "# call $1: $(cat $P/call_result), wanted $2"; return 1; }
}
# Inline reply size (RFC 8166 3.3.3, RFC 8797): a reply that does not fit
# what the server may send inline needs a Reply chunk, or it ends in
# ERR_CHUNK. The test server ("big") answers 2000 bytes as a correct
# server would: inline if it fits its send size, else by the Reply chunk.
echo big > $P/mode
check "big reply, 4 KiB server send size: inline, the call succeeds" rpc_call 1 ok
e0=$(cat $P/err_chunk) c0=$(cat $P/chunk_replies)
echo 1024 > $P/send_size
check "1 KiB server send size: the client offers a Reply chunk, the call succeeds" rpc_call 1 ok
expect_gt "the reply went by Reply chunk" "$(cat $P/chunk_replies)" "$c0"
expect_eq "no ERR_CHUNK" "$(cat $P/err_chunk)" "$e0"

echo 4096 > $P/send_size
echo 1 > $P/no_pdata
check "no private data (1 KiB default): the call succeeds" rpc_call 1 ok
check "no ERR_CHUNK without private data either" [ "$(cat $P/err_chunk)" = "$e0" ]
echo 0 > $P/no_pdata
# A duplicated reply to a call whose keys are invalidated locally: the
# second is a protocol error, the call completes once, nothing hangs.
dmesg -C
echo 1 > $P/dup
check "every reply sent twice: the call returns and succeeds" rpc_call 2 ok
check "a second call too" rpc_call 2 ok
echo 0 > $P/dup
dmesg > /tmp/k
diag "$(grep rdmastor /tmp/k | tail -2 | paste -sd'|')"
check "the duplicate is a protocol error" grep -q "bad reply (duplicate reply" /tmp/k
check "unload the test server" rmmod rpcrdma_evil
# failed mounts let go of their transports asynchronously
check "unload rdmastor" wait_for 60 modprobe -r rdmastor_rpcrdma rdmastor_transport rnic_mgr
for kind in qp cq mr; do
	check "no $kind left" [ "$(rdma_left $kind)" = 0 ]
done
tap_done
