# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The Magoutis paper's system experiment (Documentation/evaluation.rst): tenants
# of one RDMA device under a budget smaller than their combined
# appetite, in one guest over rxe0's loopback.
#
#   greedy   a librnic program that caches 2400 pages of registrations,
#            entitled or not (UCOOP_GREEDY ucoop coop): it arrives first
#            and takes most of the device
#   nfs4     fio on an NFSv4.2 mount over IPv4 through rdmastor
#   nfs6     fio on an NFSv3 mount of the export over IPv6: its own
#            transport, so its own consumer (a second NFSv4.1+ mount of
#            the same server would share the first one's session)
#   iser     fio on a LUN through rdmastor's iSER initiator and target
#   verbs    a librnic program writing over RDMA between its own QPs
#            (ucoop inflight), revocable like the greedy one
#   churn    with TN_CHURN=1: a program that registers and deregisters
#            a 64-page buffer as fast as it can (ucoop churn), arriving
#            with the greedy one (make bench B=isolation)
#
# TN_VICTIMS names the victims (default "nfs4 nfs6 iser verbs"); make
# bench B=isolation adds two stock ones:
#   nvme     fio on a namespace of the stock nvme-rdma host, against
#            nvmet-rdma on a RAM disk (one I/O queue of 16): a kernel ULP
#            whose MR pools are fixed at connect, charged off the budget
#            when rnic_mgr runs with kernel_ulps=2
#   wbw      an ib_write_bw pair (perftest, no librnic): two processes,
#            each registering its buffer once, that cannot shrink
#
# Source after lib.sh; it sources what it builds on (nfs-server.sh,
# nfs-client.sh, iser.sh).
# tenants_setup once, then tenants_run for each policy. Results in
# $TN_OUT/POLICY.{csv,held,map}: per tenant MB/s, p99 completion
# latency and errors; every consumer's held entries every 0.5 s; which
# consumer is which tenant.
. tests/lib/guest/nfs-server.sh
. tests/lib/guest/nfs-client.sh
. tests/lib/guest/iser.sh
. tests/lib/guest/nvme.sh
TN_DEV=rxe0
TN_SYS=/sys/kernel/rnic_mgr/devices/$TN_DEV
TN_P=/sys/module/rnic_mgr/parameters
TN_OUT=${TN_OUT:-/tmp/tenants}
TN_F4=/mnt/t4/t4.dat
TN_F6=/mnt/t6/t6.dat
TN_VICTIMS=${TN_VICTIMS:-nfs4 nfs6 iser verbs}
TN_IP=192.0.2.1
# which consumer is which victim (prefixes of consumer names; the
# user-level ones add their process's own line)
TN_MAP="nfs-$TN_IP. nfs4
nfs-2001:db8::1. nfs6
iser-ini- iser
kernel:nvme_rdma nvme
user:ib_write_bw: wbw"

# tenants_has NAME: NAME is one of the victims
tenants_has() { case " $TN_VICTIMS " in *" $1 "*) return 0 ;; esac; return 1; }

# the device, the export, two mounts, a LUN
tenants_setup() {
	mkdir -p $TN_OUT /mnt/t4 /mnt/t6
	user_charging_on && tests/lib/guest/rxe-setup single &&
	rdmastor_install && rdmastor_nfs_client && rdmastor_iser_target &&
	rdmastor_iser_initiator &&
	mkdir -p $EXPORT && mount -t tmpfs -o size=512m tmpfs $EXPORT && chmod 1777 $EXPORT &&
	modprobe nfsd && { mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd; } &&
	nfsd_start &&
	mount -t nfs -o vers=4.2,proto=rdma,port=20049 $SERVER:/ /mnt/t4 &&
	mount -t nfs -o vers=3,nolock,proto=rdma6,port=20049 "[$SERVER6]:$EXPORT" /mnt/t6 &&
	iser_target_create 1 1 128M && iscsid_start && iser_login 1 &&
	wait_for 20 iser_disk 1 0 || return 1
	TN_LUN=$(iser_disk 1 0)
	if tenants_has nvme; then
		nvme_target $TN_IP 128 && nvme_connect $TN_IP nr_io_queues=1,queue_size=16 ||
			return 1
		TN_NVME=$(nvme_dev)
	fi
	# a file per mount (both mounts show the same export), laid out once
	# so that runs measure I/O, not allocation
	fio --name=t4 --filename=$TN_F4 --size=64m --bs=1m --rw=write --direct=1 >/dev/null &&
	fio --name=t6 --filename=$TN_F6 --size=64m --bs=1m --rw=write --direct=1 >/dev/null &&
	sync
}

# every consumer idle: holding nothing (a previous run's I/O, write-back)
tenants_idle() {
	local d v
	for d in $TN_SYS/consumers/*; do
		v=0
		read -r v < "$d/held" 2>/dev/null
		[ "$v" = 0 ] || return 1
	done
}

# every consumer's held and fair share, every 0.5 s, as "MS CONSUMER
# HELD SHARE", and each kernel ULP's entries as "MS kernel:NAME ENTRIES
# 0", until $TN_OUT/sampling goes; builtins only (forking readers
# starves the guest)
tenants_sample() {
	local d v sh t0 now n k e
	t0=$(date +%s%N)
	while [ -e $TN_OUT/sampling ]; do
		now=$(date +%s%N)
		for d in $TN_SYS/consumers/*; do
			v=0 sh=0
			read -r v < "$d/held" 2>/dev/null
			read -r sh < "$d/share" 2>/dev/null
			echo "$(( (now - t0) / 1000000 )) ${d##*/} $v $sh"
		done
		# kernel_ulps: NAME mrs N entries N ...
		while read -r n k _ k e _; do
			[ "$k" = entries ] && echo "$(( (now - t0) / 1000000 )) kernel:$n $e 0"
		done < $TN_SYS/kernel_ulps
		sleep 0.5
	done > "$1"
}

# fio as a tenant: FILE NAME SECS: JSON in $TN_OUT/NAME.json
tenants_fio() {
	local file=$1 name=$2 secs=$3
	fio --name="$name" --filename="$file" --direct=1 --ioengine=libaio --rw=randrw --bs=64k \
		--iodepth=16 --size=64m --time_based --runtime="$secs" \
		--output-format=json > $TN_OUT/$name.json 2> $TN_OUT/$name.err
}

# ib_write_bw's server listens for its client
tenants_wbw_listening() { [ -n "$(ss -Hltn 'sport = :18515')" ]; }

# tenants_wbw SECS: an ib_write_bw pair over the device's loopback for
# SECS, in a cgroup of its own (one tenant, two processes); the client's
# report in $TN_OUT/wbw.out, ending "rc=0" when both ran to their end
tenants_wbw() {
	local spid cpid rc=0 bw=(timeout "$(($1 + 60))" ib_write_bw -d "$TN_DEV" -D "$1" -F -s 65536)
	# in the background, each: in_cgroup execs when called in a subshell
	in_cgroup wbw "${bw[@]}" > $TN_OUT/wbw-server.out 2>&1 &
	spid=$!
	wait_for 10 tenants_wbw_listening || rc=1
	in_cgroup wbw "${bw[@]}" 127.0.0.1 > $TN_OUT/wbw.out 2>&1 &
	cpid=$!
	wait $cpid || rc=1
	wait $spid || rc=1
	echo "rc=$rc" >> $TN_OUT/wbw.out
}

# tenants_victim NAME SECS MAP: NAME's workload for SECS (in the
# foreground); a user-level victim adds its process's line to MAP
tenants_victim() {
	local t=$1 secs=$2 pid
	case $t in
	nfs4) tenants_fio $TN_F4 nfs4 "$secs" ;;
	nfs6) tenants_fio $TN_F6 nfs6 "$secs" ;;
	iser) tenants_fio "$TN_LUN" iser "$secs" ;;
	nvme) tenants_fio "$TN_NVME" nvme "$secs" ;;
	wbw) tenants_wbw "$secs" ;;
	verbs)
		in_cgroup verbs build/tools/ucoop $TN_DEV inflight 40 16 "$secs" \
			> $TN_OUT/verbs.out 2>&1 &
		pid=$!
		echo "user:ucoop:$pid. verbs" >> "$3"
		wait $pid ;;
	esac
}

# tenants_run POLICY BUDGET SECS: the greedy tenant (and the churner)
# first, the others 2 s later, all until SECS; with TN_ATTACKERS=0 the
# others alone (neither the greedy tenant nor the churner)
tenants_run() {
	local pol=$1 budget=$2 secs=$3 gpid="" cpid="" pids=() spid t
	# everyone starts from nothing held, so the greedy tenant is first
	wait_for 60 tenants_idle || diag "tenants: not idle: $(tr '\n' '|' < $TN_SYS/table)"
	echo "$pol" > $TN_SYS/policy
	echo "$budget" > $TN_SYS/budget
	echo 1000 > $TN_P/user_grace_ms
	rm -f $TN_OUT/$pol.* $TN_OUT/*.json $TN_OUT/*.err $TN_OUT/*.out
	touch $TN_OUT/sampling
	tenants_sample $TN_OUT/$pol.held &
	spid=$!
	# each user-level tenant in a cgroup of its own: a tenant to rnic_mgr
	if [ "${TN_ATTACKERS:-1}" = 1 ]; then
		UCOOP_GREEDY=1 in_cgroup greedy build/tools/ucoop $TN_DEV coop 48 50 \
			$((secs + 2)) > $TN_OUT/greedy.out 2>&1 &
		gpid=$!
	fi
	if [ "${TN_CHURN:-0}" = 1 ] && [ "${TN_ATTACKERS:-1}" = 1 ]; then
		in_cgroup churn build/tools/ucoop $TN_DEV churn 64 $((secs + 2)) \
			> $TN_OUT/churn.out 2>&1 &
		cpid=$!
	fi
	# which consumer is which tenant (prefixes of consumer names)
	echo "$TN_MAP" > $TN_OUT/$pol.map
	[ -n "$gpid" ] && echo "user:ucoop:$gpid. greedy" >> $TN_OUT/$pol.map
	[ -n "$cpid" ] && echo "user:ucoop:$cpid. churn" >> $TN_OUT/$pol.map
	sleep 2
	for t in $TN_VICTIMS; do
		tenants_victim "$t" "$secs" $TN_OUT/$pol.map & pids+=($!)
	done
	wait "${pids[@]}"
	[ -n "$gpid" ] && wait $gpid
	[ -n "$cpid" ] && wait $cpid
	rm -f $TN_OUT/sampling
	wait $spid
	tenants_summary "$pol" "$secs" > $TN_OUT/$pol.csv
}

# tenants_solo TENANT SECS: TENANT's workload alone, the whole budget
# (262144) under the arbiter: what it does and holds when nothing
# limits it ($TN_OUT/solo.TENANT.{csv,held,map}; the csv has its line)
tenants_solo() {
	local t=$1 secs=$2 spid
	wait_for 60 tenants_idle || diag "tenants: not idle: $(tr '\n' '|' < $TN_SYS/table)"
	echo arbiter > $TN_SYS/policy
	echo 262144 > $TN_SYS/budget
	rm -f $TN_OUT/solo.$t.* $TN_OUT/*.json $TN_OUT/*.err $TN_OUT/*.out
	touch $TN_OUT/sampling
	tenants_sample $TN_OUT/solo.$t.held &
	spid=$!
	echo "$TN_MAP" > $TN_OUT/solo.$t.map
	tenants_victim "$t" "$secs" $TN_OUT/solo.$t.map
	rm -f $TN_OUT/sampling
	wait $spid
	tenants_summary solo "$secs" | grep -E "^policy|^solo,$t," > $TN_OUT/solo.$t.csv
}

# one CSV line per tenant: policy,tenant,MBps,p99_us,errors (the
# churner's MBps is its registration cycles a second; ib_write_bw's,
# its client's average)
tenants_summary() {
	python3 - "$1" "$2" "$TN_OUT" "$TN_VICTIMS" <<'EOF'
import json, os, re, sys
pol, secs, out, victims = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4].split()
print("policy,tenant,MBps,p99_us,errors")
for t in [v for v in ("nfs4", "nfs6", "iser", "nvme") if v in victims]:
    try:
        j = json.load(open("%s/%s.json" % (out, t)))["jobs"][0]
        mbps = (j["read"]["bw_bytes"] + j["write"]["bw_bytes"]) / 1e6
        p99 = max(j[d].get("clat_ns", {}).get("percentile", {}).get("99.000000", 0)
                  for d in ("read", "write")) / 1e3
        print("%s,%s,%.1f,%.0f,%d" % (pol, t, mbps, p99, j["error"]))
    except (OSError, ValueError, KeyError, IndexError):
        print("%s,%s,0,0,1" % (pol, t))
for t, pat in (("verbs", r"inflight writes=(\d+) failed=(\d+)"), ("greedy", r"coop revokes=(\d+)"),
               ("churn", r"churn cycles=(\d+) refused=(\d+)")):
    m = None
    try:
        m = re.search(pat, open("%s/%s.out" % (out, t)).read())
    except OSError:
        pass
    if t == "verbs":
        # each write is one 16-page buffer
        print("%s,verbs,%.1f,0,%d" % (pol, int(m.group(1)) * 16 * 4096 / secs / 1e6 if m else 0,
                                      int(m.group(2)) if m else 1))
    elif t == "churn":
        if os.path.exists("%s/churn.out" % out):
            print("%s,churn,%.0f,0,%d" % (pol, int(m.group(1)) / secs if m else 0, 0 if m else 1))
    else:
        print("%s,greedy,0,0,%d" % (pol, 0 if m else 1))
if "wbw" in victims:
    # "#bytes #iterations BW-peak BW-average MsgRate", then rc=0 when
    # both processes ran to their end
    try:
        txt = open("%s/wbw.out" % out).read()
    except OSError:
        txt = ""
    m = re.search(r"^\s*65536\s+\d+\s+[\d.]+\s+([\d.]+)", txt, re.M)
    ok = m and "rc=0" in txt
    print("%s,wbw,%s,0,%d" % (pol, m.group(1) if m else "0", 0 if ok else 1))
EOF
}
