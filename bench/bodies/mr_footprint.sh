# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# MR footprint (issue 35, item 4), one guest (rxe loopback): the MRs and
# translation entries each stack keeps for the same load, idle and busy,
# and the IOPS it gave.
#   NFS, NFSv3 with nconnect=CONNS (4): the stock pair (xprtrdma and
#     svcrdma, 16 KiB inline) against rdmastor's client and server.
#     NFSv3, since this kernel's NFSv4 client opens one connection over
#     RDMA whatever nconnect says; the connections are counted.
#   NVMe-oF (stock nvme-rdma against nvmet-rdma on brd, IO_QUEUES 2):
#     the stock stack with no rdmastor counterpart, for scale
# For each: the 64 MiB file written first (sequential 256 KiB), then
# idle 3 s later (rdmastor frees idle MRs after 1 s; the stock modules
# keep what the writes made), busy for each block size of BSS (4k, in
# the inline size, and 64k, which every stack registers): RUNTIME (10)
# s of random read/write at depth 16 sampled every 0.5 s (the peak),
# and idle 3 s after. MRs and connections (connected CM IDs, client's
# and server's) by the RDMA core's resource tracking,
# per owning module; entries from rnic_mgr: kernel_ulps for the stock
# modules, the consumers' held entries for rdmastor's. Rows in
# $RDMASTOR_OUT/footprint.csv:
#   stack,phase,conns,mrs,entries,iops
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. bench/guest/pairbench.sh
. tests/lib/guest/nvme.sh
INLINE=16384
CONNS=${CONNS:-4}
IO_QUEUES=${IO_QUEUES:-2}
RUNTIME=${RUNTIME:-10}
BSS=${BSS:-4k 64k}
NFS_VERS=3 MOUNT_OPTS=nconnect=$CONNS,nolock
STOCK_THREADS=8 RDMASTOR_THREADS=8
D=/sys/kernel/rnic_mgr/devices/rxe0
CSV=$RDMASTOR_OUT/footprint.csv
. bench/guest/nfs-loop-pairs.sh

# res TYPE OWNER...: the objects of TYPE (mr) the RDMA core tracks
# for those modules. The rdma tool cuts a kernel owner's name short
# ("comm [rdmastor_transpo": rdmastor's count read 0 at every sample of
# the first run): the first 15 characters are matched.
res() {
	local t=$1 o n=0
	shift
	for o in "$@"; do
		n=$((n + $(rdma resource show "$t" 2>/dev/null | grep -c "comm \[${o:0:15}" || true)))
	done
	echo $n
}
mrs() { res mr "$@"; }
# conns OWNER...: their connected RDMA CM IDs (a QP made through the CM
# is tracked as the CM's own, "comm [rdma_cm]")
conns() {
	local o n=0
	for o in "$@"; do
		n=$((n + $(rdma resource show cm_id 2>/dev/null |
			grep "state CONNECT" | grep -c "comm \[${o:0:15}" || true)))
	done
	echo $n
}
# entries STACK: translation entries its MRs map at most
entries() {
	case $1 in
	nfs-stock) awk '$1 == "rpcrdma" { print $5 }' $D/kernel_ulps ;;
	nvme-stock) awk '$1 == "nvme_rdma" { print $5 }' $D/kernel_ulps ;;
	# rdmastor's consumers: their held entries (table: name ... held)
	nfs-rdmastor) awk 'NR > 1 && $1 ~ /^nfs/ { s += $5 } END { print s + 0 }' $D/table ;;
	esac
}
owners() {
	case $1 in
	nfs-stock) echo rpcrdma ;;	# Debian's 6.1: client and server in rpcrdma.ko
	nfs-rdmastor) echo rdmastor_transport ;;
	nvme-stock) echo nvme_rdma nvmet_rdma ;;
	esac
}
# row STACK PHASE MRS ENTRIES IOPS, with the stack's connections now
row() {
	# shellcheck disable=SC2046
	echo "$1,$2,$(conns $(owners "$1")),$3,$4,$5" >> "$CSV"
}

# busy STACK FILE BS: the peak MRs and entries of 0.5 s samples while
# fio runs BS random read/write on FILE, and fio's IOPS
busy() {
	local stack=$1 file=$2 bs=$3 pid peak=0 peak_e=0 m e iops
	fio --name=fp --filename="$file" --size=64m --rw=randrw --bs="$bs" --iodepth=16 \
		--ioengine=libaio --direct=1 --time_based --runtime="$RUNTIME" \
		--output-format=json --output=/tmp/fp.json & pid=$!
	while kill -0 $pid 2>/dev/null; do
		# shellcheck disable=SC2046
		m=$(mrs $(owners "$stack")) e=$(entries "$stack")
		[ "$m" -gt "$peak" ] && peak=$m
		[ "${e:-0}" -gt "$peak_e" ] && peak_e=$e
		sleep 0.5
	done
	wait $pid || return 1
	iops=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(round(j["read"]["iops"] + j["write"]["iops"]))' /tmp/fp.json)
	row "$stack" "busy $bs" "$peak" "$peak_e" "$iops"
}

# measure STACK FILE: FILE written, then idle, busy at each of BSS and
# idle again
measure() {
	local stack=$1 file=$2 bs
	dd if=/dev/zero of="$file" bs=256k count=256 oflag=direct status=none || return 1
	sleep 3
	# shellcheck disable=SC2046
	row "$stack" idle "$(mrs $(owners "$stack"))" "$(entries "$stack")" ""
	for bs in $BSS; do
		busy "$stack" "$file" "$bs" || return 1
	done
	sleep 3
	# shellcheck disable=SC2046
	row "$stack" "idle after" "$(mrs $(owners "$stack"))" "$(entries "$stack")" ""
	diag "$stack: $(grep "^$stack," "$CSV" | paste -sd' ')"
}

echo "stack,phase,conns,mrs,entries,iops" > "$CSV"
loop_setup
umount $MNT
# before the stock pair mounts again: MRs allocated before it loaded
# are not counted
check "rnic_mgr counts kernel ULPs" sh -c "modprobe rnic_mgr && test -f $D/kernel_ulps"
for pairing in stock-inl rdmastor; do
	stack=nfs-${pairing%-inl}
	check "$stack, NFSv3 nconnect=$CONNS: mounted" pb_pairing $pairing || continue
	# shellcheck disable=SC2046
	expect_eq "$stack: connected CM IDs, client's and server's of $CONNS connections" \
		"$(conns $(owners $stack))" $((2 * CONNS))
	check "$stack: idle, busy, idle again" measure $stack $MNT/fp
	rm -f $MNT/fp
done
mountpoint -q $MNT && umount $MNT
rpc.nfsd 0
check "NVMe-oF target" nvme_target 192.0.2.1 128 &&
	check "stock nvme-rdma connects ($IO_QUEUES I/O queues)" nvme_connect 192.0.2.1 nr_io_queues=$IO_QUEUES &&
	check "NVMe stock: idle, busy, idle again" measure nvme-stock "$(nvme_dev)"
nvme_clear
diag "kernel_ulps: $(paste -sd'|' $D/kernel_ulps)"
tap_done
