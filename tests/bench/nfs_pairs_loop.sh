# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# NFS pairings benchmark in one guest (rxe loopback: client and server
# share the guest's CPUs), on the pairing driver (pairbench.sh).
#
# First the nfsd thread sweep: 4 KiB random read and write at depth 16
# through the stock pair (16 KiB inline) and rdmastor's pair with 8, 16,
# 32 and 64 nfsd threads, SWEEP_ROUNDS (3) rounds: each server's best
# count (pairstats best) is what it runs with afterwards.
#
# Then the pairings, each server at its own best thread count:
#   stock        stock client + stock server, 4 KiB inline (the default)
#   stock-inl    the stock pair, inline raised to INLINE by sysctl: the
#                best-configured stock pair, the base of every ratio
#   stock-inl-aa the same again, set up anew: the A/A control
#   rdmastor     rdmastor's client + server, inline INLINE bytes
# rdmastor's client with the stock server is left out: one kernel cannot
# hold both client transports. Four sets of jobs, each its own run of
# rounds with its own A/A line (SETS chooses; each set of 7 rounds takes
# about an hour here):
#   core      JOBS: random 4-16 KiB at depth 16, sequential 128 KiB and
#             1 MiB, 70/30, depths 4 and 64
#   lat       LAT_JOBS: QD1 latency at 4, 8 and 16 KiB (3000 I/Os a
#             round: 21,000 pooled over 7 rounds)
#   more      MORE_JOBS: buffered writes with fsync (COMMIT), CPU at a
#             fixed 300 IOPS, bursts with 1.5 s idle gaps (rdmastor frees
#             MRs idle for 1 s), metadata on 10,000 files
#   nconnect  the mounts with nconnect=4, 4 KiB random at depth 64
# Results: nfs-threads-loop.csv, nfs-pairs-loop.csv (and -verify.csv),
# nfs-lat-loop.csv, nfs-more-loop.csv, nfs-nconnect-loop.csv in
# $RDMASTOR_OUT
# (eval/drivers/bench).
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/pairbench.sh
INLINE=${INLINE:-16384}
SWEEP_ROUNDS=${SWEEP_ROUNDS:-3}
SWEEP=${SWEEP:-8 16 32 64}
JOBS=${JOBS:-"rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16
rand8k-read:randread:8k:16 rand8k-write:randwrite:8k:16
rand16k-read:randread:16k:16 rand16k-write:randwrite:16k:16
seq128k-read:read:128k:4 seq128k-write:write:128k:4
seq1m-read:read:1m:4 seq1m-write:write:1m:4
mix4k-70r:randrw:4k:16:rwmixread=70
qd4-4k-read:randread:4k:4 qd64-4k-read:randread:4k:64
qd4-4k-write:randwrite:4k:4 qd64-4k-write:randwrite:4k:64"}
LAT_JOBS=${LAT_JOBS:-"lat4k-read:randread:4k:1:number_ios=3000 lat4k-write:randwrite:4k:1:number_ios=3000
lat8k-read:randread:8k:1:number_ios=3000 lat8k-write:randwrite:8k:1:number_ios=3000
lat16k-read:randread:16k:1:number_ios=3000 lat16k-write:randwrite:16k:1:number_ios=3000"}
MORE_JOBS=${MORE_JOBS:-"fsync64k-write:write:64k:1:direct=0+fsync=8+ioengine=psync
cpu4k-read:randread:4k:16:rate_iops=300 cpu4k-write:randwrite:4k:16:rate_iops=300
burst64k-read:randread:64k:16:thinktime=1500000+thinktime_blocks=256+number_ios=1280
burst64k-write:randwrite:64k:16:thinktime=1500000+thinktime_blocks=256+number_ios=1280
meta-create:filecreate:4k:10000 meta-stat:filestat:4k:10000 meta-readdir:readdir:0:0
meta-delete:filedelete:4k:10000"}
SETS=${SETS:-core lat more nconnect}
MOUNT_OPTS=
# shellcheck disable=SC2034	# read by pairbench.sh
PB_DIR=$MNT

. tests/lib/guest/nfs-loop-pairs.sh
loop_setup
pb_files 4k 8k 16k 64k 128k 1m
umount $MNT

STOCK_THREADS=8 RDMASTOR_THREADS=8
if [ "$SWEEP" != none ]; then
	PB_NAME=nfs-threads-loop PB_PAIRS="" PB_JOBS="rand4k-read:randread:4k:16 rand4k-write:randwrite:4k:16"
	for t in $SWEEP; do PB_PAIRS="$PB_PAIRS stock-inl@$t rdmastor@$t"; done
	PB_PAIRS=${PB_PAIRS# }
	ROUNDS=$SWEEP_ROUNDS pb_rounds
	best=$(eval/drivers/pairstats best "$RDMASTOR_OUT/nfs-threads-loop.csv" --by threads)
	STOCK_THREADS=$(awk '$1 == "stock-inl" { print $2 }' <<< "$best")
	RDMASTOR_THREADS=$(awk '$1 == "rdmastor" { print $2 }' <<< "$best")
	expect_match "a best thread count for each server" "$STOCK_THREADS $RDMASTOR_THREADS" '^[0-9]+ [0-9]+$'
fi
echo "stock $STOCK_THREADS rdmastor $RDMASTOR_THREADS" > "$RDMASTOR_OUT/nfs-pairs-loop.threads"
diag "nfsd threads: stock $STOCK_THREADS, rdmastor $RDMASTOR_THREADS"

PB_PAIRS=${PAIRS:-"stock stock-inl stock-inl-aa rdmastor"}
for set in $SETS; do
	loaded_now=''	# each set starts with every pairing set up anew
	case $set in
	core) PB_NAME=nfs-pairs-loop PB_JOBS=$JOBS
		pb_verify 4k 8k 16k 128k 1m ;;
	lat) PB_NAME=nfs-lat-loop PB_JOBS=$LAT_JOBS ;;
	more) PB_NAME=nfs-more-loop PB_JOBS=$MORE_JOBS ;;
	nconnect) PB_NAME=nfs-nconnect-loop MOUNT_OPTS=nconnect=4
		PB_JOBS="nc4k-read:randread:4k:64 nc4k-write:randwrite:4k:64" ;;
	*) continue ;;
	esac
	pb_rounds
	MOUNT_OPTS=
done
mountpoint -q $MNT && umount $MNT
rpc.nfsd 0
tap_done
