#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of tests/lib/guest/trace-pairs on canned trace-cmd reports
# (from a transport_loopback run, and an NFS server run): it passes a run whose births and
# deaths pair up and fails a leak, a double death and a run with no
# connection at all.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
fx=tests/host/fixtures

expect() {	# expect FIXTURE RC TEXT
	local out rc
	out=$(tests/lib/guest/trace-pairs pair "$fx/$1.txt")
	rc=$?
	expect_eq "trace-pairs $1: exit $2" "$rc" "$2"
	expect_match "trace-pairs $1: says '$3'" "$out" "$3"

}
expect trace-paired 0 "20/20 connections, 47/47 MRs, 10/10 consumers"
expect trace-mr-leak 1 "never died: mr conn=1 mr=22"
expect trace-double-death 1 "died unborn or twice: conn conn=1"
expect trace-no-conn 1 "0/0 connections"
# from an svcrdma_force_mr run: the NFS server's connections pair too
expect trace-nfsd-paired 0 "1/1 NFS server connections"
expect trace-nfsd-leak 1 "never died: nfsd conn=1"
tap_done
