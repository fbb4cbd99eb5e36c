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
#   nconnect  NFSv3 mounts with nconnect=4, 4 KiB random at depth 64
#   footprint NFSv3 with nconnect=4, 4 and 64 KiB random read/write at
#             depth 16: the MRs each stack holds and its IOPS (not in
#             the default SETS)
# Results: nfs-threads-loop.csv, nfs-pairs-loop.csv (and -verify.csv),
# nfs-lat-loop.csv, nfs-more-loop.csv, nfs-nconnect-loop.csv,
# nfs-footprint-loop.csv in
# $RDMASTOR_OUT
# (bench/drivers/bench).
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. bench/guest/pairbench.sh
INLINE=${INLINE:-16384}
MOUNT_OPTS=
# shellcheck disable=SC2034	# read by pairbench.sh
PB_DIR=$MNT

. bench/guest/nfs-loop-pairs.sh
loop_setup
pb_files 4k 8k 16k 64k 128k 1m
umount $MNT

nfs_sweep -loop
PB_PAIRS=${PAIRS:-"stock stock-inl stock-inl-aa rdmastor"}
nfs_sets -loop
mountpoint -q $MNT && umount $MNT
rpc.nfsd 0
tap_done
