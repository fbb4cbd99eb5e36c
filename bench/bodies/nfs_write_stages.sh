# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Where a call's time goes in rdmastor's NFS server (one guest, rxe
# loopback): STAGE_JOBS (64 KiB random write and read at depth 16) over
# NFSv3 with nconnect=4, 16 KiB inline, for STAGE_S (5) seconds with
# rdmastor_svcrdma's per-call tracepoints on, at each nfsd thread count
# of STAGE_THREADS (8 64). Per call (connection and xid), from the
# tracepoints' timestamps:
#   hop      rsv_call -> rsv_pull_post: to the pull work posting the Read
#            chunk's RDMA READs (the workqueue hop, the pages)
#   read     rsv_pull_post -> rsv_pull_done: the READs themselves
#   queue    rsv_pull_done, or rsv_call without a chunk -> rsv_recvfrom:
#            waiting for an nfsd thread
#   service  rsv_recvfrom -> rsv_reply: nfsd's work and the reply's
#            RDMA WRITEs and Send being posted
# The stock pair runs the same jobs at STAGE_THREADS' last count: its
# IOPS, and its "read" stage from svcrdma_wc_read (an RDMA READ's post
# to its completion, which an nfsd thread waits for).
# With STAGE_RPC=1, both stacks instead run the jobs with sunrpc's own
# tracepoints on, the ones every RPC transport passes through, and a
# call's time is divided the same way for both (xid and task):
#   start    rpc_task_begin -> xprt_transmit: the client's work until
#            the call is sent (slot, encoding, the transport's post)
#   out      -> svc_xdr_recvfrom: to an nfsd thread holding the call
#   execute  -> svc_xdr_sendto: nfsd's work
#   back     -> xprt_lookup_rqst: the reply sent, carried and matched in
#            the client's receive handler
#   finish   -> rpc_task_end: the task woken, the reply decoded, done
# STAGE_NCONNECT (4) sets the mount's connections.
# Rows in $RDMASTOR_OUT/stages.csv:
#   stack,threads,job,iops,calls,stage,p50_us,p90_us,p99_us
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. bench/guest/pairbench.sh
INLINE=16384
STAGE_S=${STAGE_S:-5}
STAGE_THREADS=${STAGE_THREADS:-"8 64"}
STAGE_JOBS=${STAGE_JOBS:-"w64k:randwrite:64k:16 r64k:randread:64k:16"}
STAGE_RPC=${STAGE_RPC:-0}
NFS_VERS=3 MOUNT_OPTS=nconnect=${STAGE_NCONNECT:-4},nolock
STOCK_THREADS=${STAGE_THREADS##* } RDMASTOR_THREADS=8
# shellcheck disable=SC2034	# read by pairbench.sh
PB_DIR=$MNT
T=/sys/kernel/tracing
EVENTS="rsv_call rsv_pull_post rsv_pull_done rsv_recvfrom rsv_reply"
CSV=$RDMASTOR_OUT/stages.csv
. bench/guest/nfs-loop-pairs.sh

# iops JOB_SPEC: run it for STAGE_S seconds; print its IOPS
iops() {
	local name rw bs depth
	IFS=: read -r name rw bs depth _ <<< "$1"
	fio --name="$name" --directory=$MNT --filename="bench.$bs" --size=64m --rw="$rw" \
		--bs="$bs" --iodepth="$depth" --direct=1 --ioengine=libaio --time_based \
		--runtime="$STAGE_S" --output-format=json > /tmp/st.json || return 1
	bench/guest/fio-row /tmp/st.json | awk '{ printf "%.0f\n", $1 }'
}

# traced SPEC EVENT...: the job with those tracepoints (SYSTEM/NAME) on;
# prints its IOPS, leaves the trace in $T/trace
traced() {
	local spec=$1 e n
	shift
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 16384 > $T/buffer_size_kb
	for e in "$@"; do echo 1 > "$T/events/$e/enable"; done
	echo 1 > $T/tracing_on
	n=$(iops "$spec")
	echo 0 > $T/tracing_on
	for e in "$@"; do echo 0 > "$T/events/$e/enable"; done
	[ -n "$n" ] && echo "$n"
}

# pcts: "N,p50,p90,p99" of the numbers on stdin, "0,-,-,-" if none
pcts() {
	sort -n | awk '{ v[n++] = $1 }
		function q(x) { return sprintf("%.0f", v[int(x * (n - 1) + 0.5)]) }
		END { if (n) print n "," q(0.5) "," q(0.9) "," q(0.99); else print "0,-,-,-" }'
}

# stages SPEC: rdmastor's server stages of the job, from its tracepoints
stages() {
	local n e st ev=()
	for e in $EVENTS; do ev+=("rdmastor_svcrdma/$e"); done
	n=$(traced "$1" "${ev[@]}") || return 1
	# one line per finished call: hop, read, queue, service in us
	awk '
		match($0, /[0-9]+\.[0-9]+: rsv_[a-z_]+:/) {
			split(substr($0, RSTART, RLENGTH), f, ": ")
			t = f[1] * 1e6; ev = f[2]; sub(/:$/, "", ev)
			match($0, /conn=[0-9]+ xid=0x[0-9a-f]+/)
			k = substr($0, RSTART, RLENGTH)
			if (ev == "rsv_call") { c[k] = t; o[k] = ""; p[k] = ""; r[k] = ""; next }
			if (!(k in c)) next
			if (ev == "rsv_pull_post") o[k] = t
			else if (ev == "rsv_pull_done") p[k] = t
			else if (ev == "rsv_recvfrom") r[k] = t
			else if (ev == "rsv_reply" && r[k] != "") {
				hop = "-"; rd = "-"; q = c[k]
				if (o[k] != "" && p[k] != "") { hop = o[k] - c[k]; rd = p[k] - o[k]; q = p[k] }
				print hop, rd, r[k] - q, t - r[k]
				delete c[k]
			}
		}' $T/trace > /tmp/st.calls
	for st in hop:1 read:2 queue:3 service:4; do
		echo "rdmastor,$RDMASTOR_THREADS,${1%%:*},$n,$(awk -v f="${st#*:}" '$f != "-" { print $f }' /tmp/st.calls |
			pcts | sed "s/,/,${st%:*},/")" >> "$CSV"
	done
	diag "$(grep "^rdmastor,$RDMASTOR_THREADS,${1%%:*}," "$CSV" | paste -sd' ')"
}

# stock_stages SPEC: the stock server's RDMA READ latency in the job
stock_stages() {
	local n
	n=$(traced "$1" rpcrdma/svcrdma_wc_read) || return 1
	echo "stock-inl,$STOCK_THREADS,${1%%:*},$n,$(grep -o 'latency-us=[0-9]*' $T/trace |
		cut -d= -f2 | pcts | sed 's/,/,read,/')" >> "$CSV"
	diag "$(grep "^stock-inl,$STOCK_THREADS,${1%%:*}," "$CSV")"
}

# rpc_stages STACK SPEC: the job's calls divided by sunrpc's tracepoints
rpc_stages() {
	local n e st ev=()
	for e in rpc_task_begin xprt_transmit svc_xdr_recvfrom svc_xdr_sendto \
		xprt_lookup_rqst rpc_task_end; do
		ev+=("sunrpc/$e")
	done
	n=$(traced "$2" "${ev[@]}") || return 1
	# one line per finished call: start, out, execute, back, finish in us
	awk '
		match($0, /[0-9]+\.[0-9]+: [a-z_]+:/) {
			split(substr($0, RSTART, RLENGTH), f, ": ")
			t = f[1] * 1e6; ev = f[2]; sub(/:$/, "", ev)
			task = ""; xid = ""
			if (match($0, /task:[0-9a-f]+@[0-9a-f]+/)) task = substr($0, RSTART, RLENGTH)
			if (match($0, /xid=0x[0-9a-f]+/)) xid = substr($0, RSTART, RLENGTH)
			if (ev == "rpc_task_begin") { b[task] = t; next }
			if (ev == "xprt_transmit") {
				if (!(task in b) || (task in x)) next	# a retransmission
				x[task] = xid; tx[xid] = t; next
			}
			if (!(xid in tx) && ev != "rpc_task_end") next
			if (ev == "svc_xdr_recvfrom") rv[xid] = t
			else if (ev == "svc_xdr_sendto") sd[xid] = t
			else if (ev == "xprt_lookup_rqst" && / status=0/) lk[xid] = t
			else if (ev == "rpc_task_end" && (task in x)) {
				k = x[task]
				if (rv[k] != "" && sd[k] != "" && lk[k] != "")
					print tx[k] - b[task], rv[k] - tx[k], sd[k] - rv[k], lk[k] - sd[k], t - lk[k]
				delete b[task]; delete x[task]
				delete tx[k]; delete rv[k]; delete sd[k]; delete lk[k]
			}
		}' $T/trace > /tmp/st.calls
	for st in start:1 out:2 execute:3 back:4 finish:5; do
		echo "${1%@*},${1#*@},${2%%:*},$n,$(awk -v f="${st#*:}" '{ print $f }' /tmp/st.calls |
			pcts | sed "s/,/,${st%:*},/")" >> "$CSV"
	done
	diag "$(grep "^${1%@*},${1#*@},${2%%:*}," "$CSV" | paste -sd' ')"
}

# rpc_mode: each stack at its thread count, the jobs under sunrpc's
# tracepoints, the stacks' order alternating with each job
rpc_mode() {
	local spec s order="rdmastor@$RDMASTOR_THREADS stock-inl@$STOCK_THREADS"
	for spec in $STAGE_JOBS; do
		for s in $order; do
			check "$s, NFSv3 $MOUNT_OPTS" pb_pairing "$s" || continue
			check "$s ${spec%%:*}: stages from sunrpc's tracepoints" rpc_stages "$s" "$spec"
		done
		order="${order#* } ${order%% *}"
	done
}

echo "stack,threads,job,iops,calls,stage,p50_us,p90_us,p99_us" > "$CSV"
loop_setup
# shellcheck disable=SC2046	# one bench file per block size
pb_files $(for s in $STAGE_JOBS; do IFS=: read -r _ _ bs _ <<< "$s"; echo "$bs"; done | sort -u)
umount $MNT
if [ "$STAGE_RPC" = 1 ]; then
	rpc_mode
	mountpoint -q $MNT && umount $MNT
	rpc.nfsd 0
	tap_done
fi
for t in $STAGE_THREADS; do
	check "rdmastor, $t nfsd threads, NFSv3 nconnect=4" pb_pairing "rdmastor@$t" || continue
	RDMASTOR_THREADS=$t
	for spec in $STAGE_JOBS; do
		check "rdmastor@$t ${spec%%:*}: stages from the tracepoints" stages "$spec"
	done
done
check "stock pair, $STOCK_THREADS nfsd threads" pb_pairing stock-inl && for spec in $STAGE_JOBS; do
	check "stock-inl ${spec%%:*}: RDMA READ latency from svcrdma_wc_read" stock_stages "$spec"
done
expect_gt "rows in stages.csv (with the header)" "$(wc -l < "$CSV")" 1
mountpoint -q $MNT && umount $MNT
rpc.nfsd 0
tap_done
