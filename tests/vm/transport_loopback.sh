# SPDX-License-Identifier: GPL-2.0
# vm-group: transport (one guest boot: scripts/check)
#
# The transport engine in one guest (client and server over rxe0's
# loopback), through the rtp test protocol: data verified end to end for
# RDMA WRITE and READ with remote and local invalidation, a stale key is
# dead, an idle connection holds no MR, and everything unloads cleanly.
. scripts/guest/lib.sh
IP=192.0.2.1
R=scripts/rtp

field() { awk -v k="$1" '$1 == k { print $2 }' /tmp/out; }
# rtp_run DESC ARGS...: a run whose every I/O must succeed and verify
rtp_run() {
	local desc=$1
	shift
	if ! $R run "$@" $IP > /tmp/out 2>&1; then
		cat /tmp/out
		ok 1 "$desc: run failed"
		return
	fi
	sed 's/^/# /' /tmp/out | paste -sd' '
	ok "$([ "$(field ops)" -gt 0 ] && [ "$(field errors)" = 0 ] &&
		[ "$(field verify_errors)" = 0 ] && [ "$(field proto_errors)" = 0 ]; echo $?)" \
		"$desc: $(field ops) I/Os, no error, data verified"
}
mrs() { rdma resource show mr 2>/dev/null | grep -c . || true; }

check "soft-RoCE" scripts/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
check "load the transport" modprobe rdmastor_transport
check "load rtp" insmod "$(rdmastor_testmod rtp)"
trace_pairs_start
check "server listens" $R server 7471 32
check "no MR exists before any I/O ($(mrs))" [ "$(mrs)" = 0 ]
rtp_run "RDMA WRITE 64 KiB, remote invalidation" -o write -s 64k -c 8 -t 2 -i remote -w 2500
check "every I/O started was accounted for ($(field started))" [ "$(field started)" = $(( $(field ops) + $(field errors) )) ]
ok "$([ "$(field mrs_peak)" -gt 0 ] && [ "$(field mrs_idle)" = 0 ]; echo $?)" \
	"an idle connection gives back its MRs ($(field mrs_peak) under load, $(field mrs_idle) idle)"
ok "$([ "$(field remote_inv)" = "$(field ops)" ] && [ "$(field local_inv)" = 0 ]; echo $?)" \
	"every I/O was invalidated by the server's Send-with-Invalidate ($(field remote_inv))"
check "one registration per I/O ($(field regs))" [ "$(field regs)" = "$(field ops)" ]
# An idle connection, open, after load: no MR in rdma resource.
$R run -o write -s 64k -c 8 -t 1 -i local -w 8000 $IP > /tmp/out 2>&1 &
idle_run=$!
ST=/sys/kernel/debug/rtp/client_stats
check "the connection goes idle and frees its MRs" wait_for 7 sh -c \
	"grep -qx 'running 1' $ST && grep -qx 'outstanding 0' $ST && grep -qx 'mrs 0' $ST && ! grep -qx 'mrs_peak 0' $ST"
ok "$([ "$(mrs)" = 0 ] && grep -qx 'running 1' $ST; echo $?)" \
	"rdma resource shows no MR while the idle connection is open ($(mrs))"
wait $idle_run
rtp_run "RDMA WRITE 64 KiB, local invalidation" -o write -s 64k -c 8 -t 2 -i local
ok "$([ "$(field local_inv)" = "$(field ops)" ] && [ "$(field remote_inv)" = 0 ]; echo $?)" \
	"every I/O was invalidated locally ($(field local_inv))"
rtp_run "RDMA READ 64 KiB, remote invalidation" -o read -s 64k -c 8 -t 2 -i remote
rtp_run "RDMA READ 4 KiB, local invalidation" -o read -s 4k -c 4 -t 2 -i local
rtp_run "RDMA WRITE 1 MiB" -o write -s 1m -c 4 -t 2 -i remote
rtp_run "RDMA READ 1 MiB" -o read -s 1m -c 4 -t 2 -i local
rtp_run "one credit: stop-and-wait" -o write -s 16k -c 1 -t 1 -i remote

check "MRs never above the window ($(field mrs_peak) <= 4)" [ "$(field mrs_peak)" -le 4 ]
# A trace-cmd session, in its own instance (the births-and-deaths
# recording goes on underneath): one I/O at a time, local invalidation.
# Every step of an I/O shows, and each completion carries its id.
trace-cmd record -B example -e rst -e rnic_mgr -o /tmp/example.dat \
	$R run -o read -s 16k -c 1 -t 1 -i local $IP > /tmp/record.out 2>&1
trace-cmd report -i /tmp/example.dat > /tmp/example.txt 2>/dev/null
cp /tmp/example.txt "$RDMASTOR_OUT/trace-example.txt"
# every_seen EVENT...: each EVENT occurs in the report
every_seen() {
	local e
	for e in "$@"; do
		grep -q " $e: " /tmp/example.txt || { diag "no $e in the trace"; return 1; }
	done
}
check "trace-cmd shows a connection's life and an I/O's steps" every_seen \
	rst_conn_create rst_conn_up rnic_consumer_register rst_mr_alloc rst_mr_get \
	rst_mr_map rst_wc_send rst_wc_receive rst_wc_li rst_mr_local_inv rst_mr_put \
	rst_conn_down rst_mr_free rst_conn_destroy rnic_consumer_unregister
ok "$(grep ' rst_wc_' /tmp/example.txt | grep -vqE 'cq\.id=[0-9]+ cid=[0-9]+ status=(SUCCESS|WR_FLUSH_ERR)'; [ $? = 1 ]; echo $?)" \
	"all $(grep -c ' rst_wc_' /tmp/example.txt) completions name their CQ and completion id; none failed (flushes at teardown)"

for inv in remote local; do
	$R stale -s 16k -i $inv $IP > /tmp/out 2>&1
	cat /tmp/out | sed 's/^/# /'
	check "stale key ($inv invalidation): the server's write fails, our buffer is unchanged" grep -q "disconnected 1 unchanged 1" /tmp/out
done
$R server-stats > /tmp/sstats
sed 's/^/# /' /tmp/sstats | paste -sd' '
ok "$(awk '$1 == "stale_attempts" { a = $2 } $1 == "stale_failed" { f = $2 }
	END { exit !(a == 2 && f == 2) }' /tmp/sstats; echo $?)" "the server saw both stale writes fail"
ok "$(awk '$1 == "verify_errors" || $1 == "proto_errors" { s += $2 } END { exit s != 0 }' /tmp/sstats; echo $?)" \
	"the server saw no data or protocol error"
check "no MR left after the connections closed ($(mrs))" [ "$(mrs)" = 0 ]
check "server stops" $R server-stop
check "unload rtp" rmmod rtp
trace_pairs_check
check "unload the transport" modprobe -r rdmastor_transport
check "unload rnic_mgr" modprobe -r rnic_mgr
tap_done
