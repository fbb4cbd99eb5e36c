# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Where a call's time goes in rdmastor's NFS server (one guest, rxe
# loopback): STAGE_JOBS (64 KiB random write and read at depth 16) over
# NFSv3 with nconnect=4, 16 KiB inline, for STAGE_S (5) seconds with
# rdmastor_svcrdma's per-call tracepoints on, at each nfsd thread count
# of STAGE_THREADS (8 64). Per call (connection and xid), from the
# tracepoints' timestamps:
#   pull     rsv_call -> rsv_pull_done: the Read chunk's RDMA READs,
#            with the workqueue hop before them (calls with a chunk)
#   queue    rsv_pull_done, or rsv_call without a chunk -> rsv_recvfrom:
#            waiting for an nfsd thread
#   service  rsv_recvfrom -> rsv_reply: nfsd's work and the reply's
#            RDMA WRITEs and Send being posted
# The stock pair runs the same jobs at STAGE_THREADS' last count for
# its IOPS beside rdmastor's (its tracepoints are not comparable).
# Rows in $RDMASTOR_OUT/stages.csv:
#   stack,threads,job,iops,calls,stage,p50_us,p90_us,p99_us
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/pairbench.sh
INLINE=16384
STAGE_S=${STAGE_S:-5}
STAGE_THREADS=${STAGE_THREADS:-"8 64"}
STAGE_JOBS=${STAGE_JOBS:-"w64k:randwrite:64k:16 r64k:randread:64k:16"}
NFS_VERS=3 MOUNT_OPTS=nconnect=4,nolock
STOCK_THREADS=${STAGE_THREADS##* } RDMASTOR_THREADS=8
# shellcheck disable=SC2034	# read by pairbench.sh
PB_DIR=$MNT
T=/sys/kernel/tracing
EVENTS="rsv_call rsv_pull_done rsv_recvfrom rsv_reply"
CSV=$RDMASTOR_OUT/stages.csv
. tests/lib/guest/nfs-loop-pairs.sh

# iops JOB_SPEC: run it for STAGE_S seconds; print its IOPS
iops() {
	local name rw bs depth
	IFS=: read -r name rw bs depth _ <<< "$1"
	fio --name="$name" --directory=$MNT --filename="bench.$bs" --size=64m --rw="$rw" \
		--bs="$bs" --iodepth="$depth" --direct=1 --ioengine=libaio --time_based \
		--runtime="$STAGE_S" --output-format=json > /tmp/st.json || return 1
	tests/lib/guest/fio-row /tmp/st.json | awk '{ printf "%.0f\n", $1 }'
}

# stages STACK THREADS SPEC: the job with the tracepoints on; its rows
stages() {
	local e n
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 16384 > $T/buffer_size_kb
	for e in $EVENTS; do echo 1 > "$T/events/rdmastor_svcrdma/$e/enable"; done
	echo 1 > $T/tracing_on
	n=$(iops "$3") || return 1
	echo 0 > $T/tracing_on
	for e in $EVENTS; do echo 0 > "$T/events/rdmastor_svcrdma/$e/enable"; done
	awk -v pre="$1,$2,${3%%:*},$n" '
		match($0, /[0-9]+\.[0-9]+: rsv_[a-z_]+:/) {
			split(substr($0, RSTART, RLENGTH), f, ": ")
			t = f[1] * 1e6; ev = f[2]; sub(/:$/, "", ev)
			match($0, /conn=[0-9]+ xid=0x[0-9a-f]+/)
			k = substr($0, RSTART, RLENGTH)
			if (ev == "rsv_call") { c[k] = t; p[k] = ""; r[k] = "" }
			else if (ev == "rsv_pull_done" && k in c) p[k] = t
			else if (ev == "rsv_recvfrom" && k in c) r[k] = t
			else if (ev == "rsv_reply" && k in c && r[k] != "") {
				if (p[k] != "") { pull[np++] = p[k] - c[k]; q = p[k] } else q = c[k]
				queue[nq++] = r[k] - q; svc[ns++] = t - r[k]
				delete c[k]
			}
		}
		function pct(a, n, x,   i, j, v, s) {
			if (!n) return "-"
			for (i = 0; i < n; i++) s[i] = a[i]
			# insertion sort: a few thousand calls
			for (i = 1; i < n; i++) { v = s[i]; for (j = i - 1; j >= 0 && s[j] > v; j--) s[j + 1] = s[j]; s[j + 1] = v }
			return sprintf("%.0f", s[int(x * (n - 1) + 0.5)])
		}
		function row(name, a, n) { printf "%s,%d,%s,%s,%s,%s\n", pre, n, name, pct(a, n, 0.5), pct(a, n, 0.9), pct(a, n, 0.99) }
		END { row("pull", pull, np); row("queue", queue, nq); row("service", svc, ns) }
	' $T/trace >> "$CSV"
	diag "$(grep "^$1,$2,${3%%:*}," "$CSV" | paste -sd' ')"
}

echo "stack,threads,job,iops,calls,stage,p50_us,p90_us,p99_us" > "$CSV"
loop_setup
# shellcheck disable=SC2046	# one bench file per block size
pb_files $(for s in $STAGE_JOBS; do IFS=: read -r _ _ bs _ <<< "$s"; echo "$bs"; done | sort -u)
umount $MNT
for t in $STAGE_THREADS; do
	check "rdmastor, $t nfsd threads, NFSv3 nconnect=4" pb_pairing "rdmastor@$t" || continue
	for spec in $STAGE_JOBS; do
		check "rdmastor@$t ${spec%%:*}: stages from the tracepoints" stages rdmastor "$t" "$spec"
	done
done
check "stock pair, ${STAGE_THREADS##* } nfsd threads" pb_pairing stock-inl && for spec in $STAGE_JOBS; do
	n=$(iops "$spec") && echo "stock-inl,${STAGE_THREADS##* },${spec%%:*},$n,,,,," >> "$CSV"
	expect_match "stock-inl ${spec%%:*}: IOPS" "${n:-}" '^[0-9]+$'
done
expect_gt "rows in stages.csv (with the header)" "$(wc -l < "$CSV")" 1
mountpoint -q $MNT && umount $MNT
rpc.nfsd 0
tap_done
