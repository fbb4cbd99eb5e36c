# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-kernels: 6.12 debug
# vm-run: --cmdline slub_debug=FZP
#
# Malformed iSER from a test initiator (tests/kmod/iser_evil.c) against
# rdmastor's target: every bad message ends its connection (or its
# connect is refused), never a crash; a good login still gets its
# reply; afterwards the stock initiator logs in and verifies data, and
# nothing is left behind. The guest poisons freed memory (slub_debug),
# so a use after free shows as a crash or a slab error here.
. tests/lib/guest/lib.sh
. tests/lib/guest/iser.sh
P=/sys/module/iser_evil/parameters

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "modprobe configuration installed" rdmastor_iser_target
check "target: one 64 MiB LUN over iSER" iser_target_create 1 1 64M || bail "no target"
trace_pairs_start
check "load the test initiator" insmod "$(rdmastor_testmod iser_evil)" || bail "no iser_evil"

evil() {
	echo "$1" > $P/run || return 1
	[ "$(cat $P/result)" = "$2" ] || { echo "# $1: $(cat $P/result), wanted $2"; return 1; }
}
check "a well-formed login request gets a login response" evil login "reply 0x23"
for m in short hello rsvd zerostag lyinglen hugedsl ahs notlogin; do
	check "$m: the target drops the connection" evil "$m" dropped
done
check "reserved private-data bits: the connect is refused" evil badpdata refused
check "a good login still works after all that" evil login "reply 0x23"

# Logged-in sessions (target t1, Normal session) that misbehave.
qps_gone() { [ "$(iser_rdma_left qp)" = 0 ]; }

# Conformance: the same SCSI cases over iSER (iser_evil conform: residual
# counts when EDTL differs from what the CDB moves, allocation lengths,
# CmdSN out of the window) and over TCP to the same LUN through LIO's TCP
# portal on the same address (tests/tools/iscsi_tcp_conform.py). Each
# iSER answer must be LIO-over-TCP's: status, residual flags and count,
# and exactly the data bytes (no byte beyond them in the buffer).
# Both log in with InitialR2T=No (unsolicited Data-Out, where DataSN is).
echo No > "$(lio_tpg 1)/param/InitialR2T"
echo conform > $P/run
cat $P/report > /tmp/conform.iser
python3 tests/tools/iscsi_tcp_conform.py "$ISER_IP" 3260 "$ISER_IQN:t1" > /tmp/conform.tcp 2>&1
echo Yes > "$(lio_tpg 1)/param/InitialR2T"
diag "target said: $(dmesg | grep -E 'rdmastor_isert: protocol error|DataSN' | tail -4)"
diag "iSER: $(cat $P/result)"
diag "$(paste -d'|' /tmp/conform.iser /tmp/conform.tcp | sed 's/|/   TCP: /')"
ncases=$(grep -c '^    ("' tests/tools/iscsi_tcp_conform.py)
expect_eq "conform: all $ncases cases ran over iSER" "$(cat $P/result)" "conform $ncases"
expect_eq "conform: and over TCP" "$(wc -l < /tmp/conform.tcp)" "$ncases"
# An ABORT TASK right behind its command races it: either may win, so
# both sides must give one of the RFC 7143 outcomes (aborted: Function
# complete and no status; too late: the status, then Function complete
# or Task does not exist), not the same one.
abort_re='^abort-race (tmf=0 cmd=[01]|tmf=1 cmd=1)$'
while read -r name rest; do
	[ -n "$name" ] || continue
	tcp=$(grep "^$name " /tmp/conform.tcp)
	if [ "$name" = abort-race ]; then
		expect_match "conform: abort-race answered over iSER" "$(grep '^abort-race' /tmp/conform.iser)" "$abort_re"
		expect_match "conform: abort-race answered over TCP" "$(grep '^abort-race' /tmp/conform.tcp)" "$abort_re"
		continue
	fi
	check "conform: $name over iSER as over TCP ($rest)" [ "$name $rest" = "$tcp" ]
done < /tmp/conform.iser
check "the target lets go of the conform session" wait_for 30 qps_gone
# A NOP-Out answering a ping that was never sent (unknown Target
# Transfer Tag): LIO over TCP ends the connection; so must iSER, and the
# command tag of such an answer must not leak (none is taken).
echo nopttt > $P/run
tcp=$(python3 tests/tools/iscsi_tcp_conform.py "$ISER_IP" 3260 "$ISER_IQN:t1" nopttt 2>&1)
expect_eq "nopttt: an answer to no ping ends the connection over iSER" "$(cat $P/result)" dropped
expect_eq "nopttt: as over TCP" "$tcp" dropped
check "the target lets go of that session" wait_for 30 qps_gone
# A READ carrying immediate data ran twice in LIO; now a Reject, and the
# connection stays (the ping after it is answered).
check "readimm: a READ with immediate data is rejected, the session stays" \
	evil readimm "0x3f 0x20"
check "the target lets go of the session" wait_for 30 qps_gone
# A text request LIO refuses (RFC 7143 11.17): the Reject reaches the
# initiator, then the connection ends as with LIO over TCP (it used to
# end before the Reject went out).
check "badtext: the Reject arrives before the connection ends" evil badtext "0x3f dropped"
check "the target lets go of that session" wait_for 30 qps_gone
# A discovery session logged in and then silent holds full rings (4.5
# MiB on rxe): ended after discovery_idle_s without a PDU (1 to 2 periods).
IDLE=/sys/module/rdmastor_isert/parameters/discovery_idle_s
expect_eq "discovery sessions idle 30 s at most by default" "$(cat $IDLE)" 30
echo 3 > $IDLE
echo discidle > $P/run
r=$(cat $P/result)
diag "discidle (discovery_idle_s 3): $r"
check "a silent discovery session is ended within two periods ($r)" \
	sh -c "echo '$r' | grep -Eq '^dropped after [3-7] s$'"
check "and the kernel log says why" sh -c "dmesg | grep -q 'discovery session idle for 3 s: closing'"
check "the target lets go of it" wait_for 30 qps_gone
echo 30 > $IDLE
# More PDUs than command tags: 63 commands parked behind a CmdSN gap, 150
# pings, and a slow receiver so that the answers hold their tags. The
# receive path waited for tags that only its own CQ frees (the session,
# portal removal and unload then hung); now the connection is dropped.
dmesg -C
echo tagflood > $P/run
diag "tagflood: $(cat $P/result)"
expect_match "tagflood: the session ran out of command tags" "$(dmesg)" 'no command tags left'
expect_match "tagflood: the target dropped the connection" "$(cat $P/result)" 'dropped$'
# The parked commands never run: teardown waited for them forever.
check "the target lets go of the flooded session and its parked commands" wait_for 60 qps_gone
# Login PDUs after a rejected one: LIO frees its login buffers and the
# connection without our lock; a request it is not waiting for used to
# be copied into them, and its login work re-armed (use after free).
echo loginflood > $P/run
diag "loginflood: $(cat $P/result)"
expect_match "loginflood: a login request the target is not waiting for ends the connection" \
	"$(cat $P/result)" 'dropped$'
check "the target lets go of it" wait_for 30 qps_gone
check "a good login still works" evil login "reply 0x23"
diag "$(dmesg | grep rdmastor_isert | tail -10 | paste -sd'|')"

# A flood of connections that never log in: each cost a QP and ~4.5 MiB,
# without bound, and each held LIO's login thread for its 15 s timeout.
idle_up() { echo idleup > $P/run && awk '{ print $2 }' $P/result; }
echo idle > $P/run
diag "idle flood: $(cat $P/result); $(idle_up) up"
n=$(idle_up)
expect_ge "idle flood: connections waiting for login" "$n" 1
expect_le "at most 16 connections wait for login (older idle ones dropped for newer)" "$n" 16

check "iscsid runs" iscsid_start
check "the stock initiator logs in while they are up" iser_login 1 || bail "no login"
wait_for 20 iser_disk 1 0 || bail "no LUN"
check "and verifies data" iser_fio after "$(iser_disk 1 0)" --rw=randrw --bs=4k \
	--iodepth=8 --size=16M --io_size=16M
# Fault switches for error paths that stranded state.
D=$(iser_disk 1 0)
# No receive buffer to hold for all-immediate WRITEs (as with half the
# ring held): LIO allocates and the data is copied; the old private copy
# could fail after LIO had the command and strand it.
echo 100000 > /sys/kernel/debug/rdmastor_isert/fail_rx_hold
check "all-immediate WRITEs without a held receive buffer verify" iser_fio nohold "$D" \
	--rw=randwrite --bs=4k --iodepth=8 --size=8M --io_size=8M
echo 0 > /sys/kernel/debug/rdmastor_isert/fail_rx_hold
# An RDMA WRITE (Data-In) or READ (WRITE data) that cannot be set up:
# the command was dropped with no response on a connection that stayed
# up, until something else ended it (8 to 17 s later here); now the
# connection ends at once and the initiator's recovery retries the
# command. Both sides log to this guest's dmesg, on one clock.
FRW=/sys/kernel/debug/rdmastor_transport/fail_rw_init
# ends_at_once: the initiator's connection error follows the target's
# failed set-up within 3 s
ends_at_once() {
	dmesg | awk 'function ts() { match($0, /[0-9]+[.][0-9]+/); return substr($0, RSTART, RLENGTH) }
		/cannot set up an RDMA/ { t = ts() }
		/detected conn error/ && t { if (ts() - t < 3) ok = 1; t = 0 }
		END { exit !ok }'
}
rw_fault() {	# rw_fault DD-ARGS...: one failed set-up, the command completes
	dmesg -C
	echo 1 > $FRW
	timeout 60 dd "$@" 2>/dev/null || return 1
	diag "$(dmesg | grep -E 'cannot set up an RDMA|detected conn error' | paste -sd'|')"
	ends_at_once
}
check "a READ whose Data-In cannot be set up: the connection ends at once, the READ completes" \
	rw_fault if="$D" of=/dev/null bs=64k count=1 skip=3 iflag=direct
check "a WRITE whose data cannot be fetched: likewise" \
	rw_fault if=/dev/zero of="$D" bs=128k count=1 seek=40 oflag=direct
wait_for 20 iser_disk 1 0
check "and data still verifies" iser_fio after-faults "$(iser_disk 1 0)" --rw=randrw --bs=4k \
	--iodepth=8 --size=16M --io_size=16M
check "log out" iser_logout 1
check "idle connections are dropped when no login request comes in 15 s" \
	wait_for 30 sh -c "[ \"\$(echo idleup > $P/run; cat $P/result)\" = 'up 0 answered 0' ]"
check "close them" evil idleclose "closed 24"

# Logins that stall after the target's first response (review 3, M1):
# each kept its QP and full rings (~4.5 MiB) with no deadline, and LIO
# never let go of it, so they piled up without bound, and the one that
# held LIO's login semaphore of the portal group blocked every later
# login (even a good one) for ever. Now a connection has small rings
# until its login completes, at most IST_MAX_LOGIN (32) per portal are
# in login, and each is dropped once its initiator has been silent for
# 15 s after the accept or a response (iser-target.rst, "Memory before
# login").
# What each connection in login costs, both ends (the target's QP and
# small rings, the initiator's QP): the kernel memory it holds, slab
# and vmalloc (soft-RoCE's queues) and the like, about 2.9 MB. Not
# MemAvailable: what the page allocator keeps on its per-CPU lists
# moved it by up to 7 MB between runs of the same tree, 1.8 MB a
# connection over the 4 a host may have in login (N6). M1's cost
# 6.8 MB each.
ISER_LOGIN_KB=4096
mem_avail() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }
kmem_held() {
	awk '/^(Slab|VmallocUsed|KernelStack|PageTables):/ { s += $2 } END { print s }' /proc/meminfo
}
iser_qps() { iser_rdma_left qp; }
# A connect refused at the portal's caps costs the target no connection
# (review 4, N11): the engine asks the portal before it builds one (QP,
# rings). Server-side connections built meanwhile, from a trace
# instance of our own (trace-pairs records the main one).
TI=/sys/kernel/tracing/instances/n11
mkdir $TI && echo 'server == 1' > $TI/events/rdmastor_transport/rst_conn_create/filter &&
	echo 1 > $TI/events/rdmastor_transport/rst_conn_create/enable
m0=$(mem_avail); k0=$(kmem_held); q0=$(iser_qps)
cp /proc/meminfo /tmp/meminfo.0
diag "before: $(grep -E "^(Slab|VmallocUsed):" /proc/meminfo | paste -sd" ")"
echo loginstall > $P/run
stall=$(cat $P/result)
built=$(grep -c 'rst_conn_create:' $TI/trace)
echo 0 > $TI/events/rdmastor_transport/rst_conn_create/enable
diag "loginstall: $built server connections built for its 200 connects"
# the accepted ones, and a few the portal refused after it had admitted
# them (a login slot taken meanwhile); before, all 200 were built
expect_le "loginstall: the target built a connection only for those it accepted ($stall)" \
	"$built" $(( $(echo "$stall" | awk '{ print $2 }') + 4 ))
echo idleup > $P/run
kept=$(cat $P/result)
# what the refused ones freed may still be on its way back (soft-RoCE
# frees QPs from work items): the least held within 3 s
m1=$(mem_avail); k1=$(kmem_held)
for _ in 1 2 3; do
	sleep 1
	k=$(kmem_held)
	[ "$k" -lt "$k1" ] && k1=$k
done
q1=$(iser_qps)
# where it went: the fields that moved by more than 512 kB
diag "loginstall: meminfo moved (kB): $(awk 'NR == FNR { v[$1] = $2; next }
	{ d = $2 - v[$1]; if (d > 512 || d < -512) printf "%s%+d ", $1, d }' /tmp/meminfo.0 /proc/meminfo)"
rmdir $TI
t0=$(date +%s)
diag "loginstall: $stall; $kept; kernel memory held $k0 -> $k1 kB; MemAvailable $m0 -> $m1 kB; QPs $q0 -> $q1"
up=$(echo "$kept" | awk '{ print $2 }')
answered=$(echo "$kept" | awk '{ print $4 }')
expect_ge "loginstall: the target answered stalled logins" "$answered" 1
expect_le "loginstall: at most 32 connections are in login on the portal" "$up" 32
# ... and at most 4 of one initiator address (review 4, N6): before, one
# host held all 32, and LIO, which takes one login at a time per portal
# group, made every other host wait behind them, 15 s each
expect_le "loginstall: at most 4 of them from one initiator address" "$up" 4
check "loginstall: a refused connect says the initiator's limit" \
	sh -c "dmesg | grep -Eq 'refused: 4 connections of this initiator in login, the portal.s limit is 4'"
# another host (the guest's IPv6 address, on a portal of the same group)
# logs in meanwhile, behind at most the 4 stalled ones
IP6=2001:db8::1
login6() {
	timeout 100 iscsiadm -m discovery -t st -p "[$IP6]:3260" -I iser >/dev/null 2>&1 &&
		timeout 100 iscsiadm -m node -T "$ISER_IQN:t1" -p "[$IP6]:3260" -I iser --login >/dev/null 2>&1
}
check "loginstall: an IPv6 portal in the same group" \
	sh -c "mkdir '$(lio_tpg 1)/np/[$IP6]:3260' && echo 1 > '$(lio_tpg 1)/np/[$IP6]:3260/iser'"
t6=$(date +%s)
check "loginstall: another initiator address logs in meanwhile" login6
diag "loginstall: the IPv6 login took $(( $(date +%s) - t6 )) s"
iscsiadm -m node -T "$ISER_IQN:t1" -p "[$IP6]:3260" --logout >/dev/null 2>&1
iscsiadm -m node -o delete -p "[$IP6]:3260" >/dev/null 2>&1
check "loginstall: the IPv6 portal removed" wait_for 30 rmdir "$(lio_tpg 1)/np/[$IP6]:3260"
dmesg | grep "refused:" | head -n1 | while read -r l; do diag "$l"; done
check "loginstall: a refused connect is logged with its device, peer and the limit" \
	sh -c "dmesg | grep -Eq 'rxe0: connect from .* refused: [0-9]+ connections (in login|of this initiator in login|wait for a first login request), the portal.s limit is (32|16|4)'"
# Each side's cost counts, soft-RoCE's QP queues most.
# Before: 18 connections cost 122 MB, 6.8 MB each.
expect_le "loginstall: what each connection in login holds, kB" \
	"$(( (k1 - k0) / (up > 0 ? up : 1) ))" "$ISER_LOGIN_KB"
# LIO takes one login at a time per portal group (np_login_sem): the
# next one waits for the stalled one's 15 s, then stalls 15 s itself.
check "loginstall: every one is dropped, 15 s after its accept or last response" \
	wait_for 45 sh -c "[ \"\$(echo idleup > $P/run; awk '{ print \$2 }' $P/result)\" = 0 ]"
diag "all dropped after $(($(date +%s) - t0)) s"
echo idleclose > $P/run
check "LIO lets go of them: their QPs are gone" wait_for 30 qps_gone
check "a good login still works" evil login "reply 0x23"

# A second login request about when the login's deadlines fire (the 6.12
# porting map's R1): LIO's 6.12 login timer fails the login without
# asking us for the next request and queues its login work itself, so a
# late request must not reach LIO's freed login buffers, and taking the
# connection down must not queue the work LIO is freeing (a use after
# free that the debug lane's KASAN would report).
echo loginlate > $P/run
late=$(cat $P/result)
diag "loginlate: $late"
expect_match "loginlate: each of 3 connections was answered, then asked again late" \
	"$late" "^late 3 answered 3 "
echo idleclose > $P/run
check "loginlate: LIO lets go of them" wait_for 30 qps_gone
check "a good login still works after them" evil login "reply 0x23"

# The portal goes while a login flood runs: Debian 6.1's stock svcrdma
# keeps for good a connect request that reaches its listener after
# nfsd's last accept (svcrdma_malformed.sh's stop flood). Here iSER
# goes off the portal while the flood still connects: its connections
# wait in our portal for LIO's login thread or stall in LIO's login,
# and more arrive during the removal. All of them end, LIO's removal
# returns, nothing is left and the portal comes back.
NP="$(lio_tpg 1)/np/$ISER_IP:3260"
rm -f /tmp/np-off
(echo loginstall > $P/run) &
flood=$!
# 4 connections (one initiator's most in login), both ends' QPs
flood_up() { [ "$(iser_qps)" -ge 8 ]; }
flood_over() { ! kill -0 $flood 2>/dev/null; }
check "portal removal: the login flood is under way" wait_for 60 flood_up
running=no
kill -0 $flood 2>/dev/null && running=yes
t0=$(date +%s)
(echo 0 > "$NP/iser" && touch /tmp/np-off) &
diag "QPs when iSER went off the portal: $(iser_qps); flood still connecting: $running"
check "iSER off the portal under the flood, within 60 s" wait_for 60 test -e /tmp/np-off
diag "removal took $(($(date +%s) - t0)) s"
check "the flood ends" wait_for 120 flood_over
diag "flood: $(cat $P/result)"
check "every flood connection is down" \
	wait_for 30 sh -c "[ \"\$(echo idleup > $P/run; awk '{ print \$2 }' $P/result)\" = 0 ]"
echo idleclose > $P/run
check "no QP is left" wait_for 30 qps_gone
check "iSER back on the portal" sh -c "echo 1 > '$NP/iser'"
check "and a good login works" evil login "reply 0x23"
check "unload the test initiator" rmmod iser_evil
# A portal bound to rxe0's address: removing the device waited for the
# portal to be deleted (the listener ignored DEVICE_REMOVAL).
# (rxe unregisters asynchronously: the device is gone when sysfs says so)
dev_gone() { [ ! -e /sys/class/infiniband/rxe0 ]; }
(rdma link delete rxe0 &)
check "remove rxe0 while the iSER portal listens" wait_for 30 dev_gone
check "remove the target" iser_target_clear
iser_check_gone
tap_done
