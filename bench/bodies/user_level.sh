# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Guest body of `make bench B=user-level` (Documentation/user-level.rst):
#  regcost    ibv_reg_mr/ibv_dereg_mr cost by size in rnic_mgr's modes
#             off, monitor and on, and with rnic_mgr unloaded; same
#             boot, each round every mode, order rotated
#  revoke     time from REVOKE to release for a bound program answering
#             from its cache (rnic_mgr's last_reclaim_ms), by T
#  xfer       the Open-MX pinning paper: a large buffer written in pieces, registered up
#             front, lazily or overlapped, nothing cached
#  admission  unmodified ib_write_bw pairs needing more than the budget,
#             under each policy, rounds interleaved
#  churn      a tenant's registration latency while another tenant
#             registers and deregisters as fast as it can, charged and not
# Writes regcost.csv, revoke.csv, xfer.csv, admission.csv into the results share
# for bench/drivers/bench-user-level to summarize. Arguments name the parts to
# run (all four without): `make bench B=eval-xfer` runs xfer alone.
. tests/lib/guest/lib.sh
DEV=rxe0
SYS=/sys/kernel/rnic_mgr/devices/$DEV
P=/sys/module/rnic_mgr/parameters
UMR=build/tools/umr
COOP=build/tools/ucoop
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-10}
# a transfer takes well under a second and TCG's timing wanders from
# one to the next by 2x: the Open-MX pinning paper needs more rounds than the others
XFER_ROUNDS=${XFER_ROUNDS:-9}
O=$RDMASTOR_OUT
PARTS=" ${*:-regcost revoke xfer admission churn} "
part() { [[ "$PARTS" == *" $1 "* ]]; }

check "soft-RoCE" tests/lib/guest/rxe-setup single
check "rdmastor installed" rdmastor_install
# the parts run alone must not depend on regcost's modprobe
check "user charging on" user_charging_on
check "rnic_mgr loaded" modprobe rnic_mgr

# --- registration cost: rnic_mgr's modes and without it ---
if part regcost; then
	# Each round runs every mode once per size, the order rotated by
	# round: TCG timing drifts, so only a round's runs are compared
	# (bench-user-level takes each round's ratio to "off", then the
	# median over rounds). off, monitor, on: rnic_mgr loaded, the
	# device's user_charging so; stock: rnic_mgr unloaded; off-aa: off
	# again, the A/A arm that shows what a round's noise alone gives.
	echo "round,mode,pages,reg_ns,dereg_ns" > $O/regcost.csv
	set -- off monitor on stock off-aa
	for round in $(seq ${REG_ROUNDS:-9}); do
		modes="$*"
		set -- "${@:2}" "$1"
		for pages in ${REGCOST_PAGES:-1 16 256}; do
			n=2000
			[ $pages = 256 ] && n=500
			for mode in $modes; do
				if [ $mode = stock ]; then
					modprobe -r rnic_mgr 2>/dev/null
				else
					modprobe rnic_mgr && echo "${mode%-aa}" > $SYS/user_charging
				fi
				line=$($UMR $DEV loop:$n:$pages) || { diag "umr failed: $line"; continue; }
				reg=$(echo "$line" | sed -n 's/.* reg_ns=\([0-9]*\) .*/\1/p')
				dereg=$(echo "$line" | sed -n 's/.* dereg_ns=\([0-9]*\).*/\1/p')
				echo "$round,$mode,$pages,$reg,$dereg" >> $O/regcost.csv
				diag "regcost round $round $mode $pages pages: reg $reg ns, dereg $dereg ns"
			done
		done
	done
	modprobe rnic_mgr && echo on > $SYS/user_charging
fi

# --- REVOKE to release, by T ---
if part revoke; then
	echo "grace_ms,rep,reclaim_ms,newcomer_ms,late" > $O/revoke.csv
	echo 4000 > $SYS/budget
	echo 10000 > $P/user_wait_ms
	for rep in $(seq $REPS); do
		for t in 100 1000; do
			echo $t > $P/user_grace_ms
			$COOP $DEV coop 60 50 4 > /tmp/coop.out 2>&1 &
			cpid=$!
			wait_for 30 grep -q "coop cached 3000" /tmp/coop.out || { diag "coop did not start"; kill $cpid; continue; }
			dir=$(ls -d $SYS/consumers/user:*:$cpid.* | head -n1)
			out=$($UMR $DEV reg:1800)
			nms=$(echo "$out" | sed -n 's/.*ms=\([0-9]*\).*/\1/p')
			rms=$(cat $dir/last_reclaim_ms)
			late=$(cat $dir/late_revocations)
			wait $cpid
			echo "$t,$rep,$rms,$nms,$late" >> $O/revoke.csv
			diag "revoke T=$t rep $rep: reclaim $rms ms, newcomer waited $nms ms, late $late"
		done
	done
	echo 1000 > $P/user_grace_ms
	echo 262144 > $SYS/budget

fi

# --- the Open-MX pinning paper: large transfers, registration up front, lazy, overlapped ---
if part xfer; then
	echo "round,mode,size,piece,MBps" > $O/xfer.csv
	for size in 262144 1048576 4194304 16777216; do
		$COOP $DEV xfer $size 262144 $XFER_ROUNDS > /tmp/xfer.out 2>&1 || diag "xfer failed: $(cat /tmp/xfer.out)"
		sed -n 's/^xfer round=\([0-9]*\) mode=\([a-z]*\) size=\([0-9]*\) piece=\([0-9]*\) MBps=\([0-9]*\)$/\1,\2,\3,\4,\5/p' \
			/tmp/xfer.out >> $O/xfer.csv
		diag "xfer $size: $(tr '\n' ' ' < /tmp/xfer.out)"
	done
	check "the Open-MX pinning paper: every size measured" [ "$(grep -c ',overlap,' $O/xfer.csv)" -ge $((4 * XFER_ROUNDS)) ]
fi

# --- admission: perftest pairs under each policy ---
# --- registration churn: one tenant registers and deregisters as fast as
# it can; another tenant's registration latency, with and without it ---
if part churn; then
	# five configurations in a random order each round: rnic_mgr loaded
	# (charged) or not (stock), the churner running or not, and stock
	# quiet twice (the control: what two quiet runs differ by). Churner
	# and measured program are tenants of their own (cgroups), each on
	# a vCPU of its own, so that what is left is contention in the
	# registration path, not for the CPU.
	echo "round,mode,load,reg_p50_us,reg_p99_us" > $O/churn.csv
	nouser() { ! ls -d $SYS/consumers/user:* > /dev/null 2>&1; }
	# how hard the churner churns: its register/deregister pair, alone
	modprobe rnic_mgr
	line=$(taskset -c 1 $UMR $DEV loop:5000:1)
	diag "churn: the churner alone, charged: $line"
	echo "$line" | sed -n 's/^loop 5000 1 reg_ns=\([0-9]*\) dereg_ns=\([0-9]*\)/charged,\1,\2/p' > $O/churn-rate.csv
	for round in $(seq ${CHURN_ROUNDS:-15}); do
		for cfg in $(printf '%s\n' charged:quiet charged:churn stock:quiet stock:churn stock:quiet2 | shuf); do
			mode=${cfg%%:*} load=${cfg##*:} cpid=
			if [ $mode = charged ]; then
				modprobe rnic_mgr
			else
				wait_for 20 nouser
				modprobe -r rnic_mgr || diag "churn: rnic_mgr would not unload"
			fi
			if [ $load = churn ]; then
				in_cgroup churner taskset -c 1 $UMR $DEV loop:100000000:1 > /dev/null 2>&1 &
				cpid=$!
				sleep 1
			fi
			line=$(in_cgroup measured taskset -c 0 $UMR $DEV lat:${CHURN_N:-2000}:4)
			if [ -n "$cpid" ]; then
				kill $cpid
				wait $cpid 2>/dev/null
			fi
			p50=$(echo "$line" | sed -n 's/.* reg_p50_us=\([0-9.]*\) .*/\1/p')
			p99=$(echo "$line" | sed -n 's/.* reg_p99_us=\([0-9.]*\) .*/\1/p')
			[ -n "$p99" ] || { diag "churn: umr said: $line"; continue; }
			echo "$round,$mode,$load,$p50,$p99" >> $O/churn.csv
			diag "churn round $round $mode $load: reg p50 $p50 us, p99 $p99 us"
		done
	done
	modprobe rnic_mgr
fi

if part admission; then
	ADM=/tmp/adm
	. tests/lib/guest/perftest-pairs.sh
	SIZE=$ADM_SIZE
	mkdir -p $ADM
	echo 1 > /sys/kernel/tracing/events/rnic_mgr/rnic_wait_done/enable
	# one process's entries: a lone pair's peak
	ib_write_bw -d $DEV -p 18600 -s $SIZE -n 100 > /dev/null 2>&1 &
	sleep 1
	ib_write_bw -d $DEV -p 18600 -s $SIZE -n 100 192.0.2.1 > /dev/null 2>&1 &
	peak=0
	for i in $(seq 100); do
		for d in $SYS/consumers/user:ib_write_bw:*; do
			[ -e "$d/peak" ] && v=$(cat "$d/peak" 2>/dev/null) && [ "${v:-0}" -gt $peak ] && peak=$v
		done
		[ $peak -gt 0 ] && ! pgrep -x ib_write_bw >/dev/null && break
		sleep 0.1
	done
	wait
	budget=$(( peak * 5 + peak / 2 ))
	diag "admission: each process holds $peak entries; budget $budget for 8 processes"
	echo 60000 > $P/user_wait_ms
	echo "policy,round,pair,completed,refused,wall_s,MBps,entry_s,longest_wait_ms" > $O/admission.csv
	for round in $(seq $ROUNDS); do
		pols="arbiter fcfs static"
		[ $round = 2 ] && pols="fcfs static arbiter"
		[ $round = 3 ] && pols="static arbiter fcfs"
		for pol in $pols; do
			echo $pol > $SYS/policy
			echo $budget > $SYS/budget
			rm -f $ADM/*
			echo > /sys/kernel/tracing/trace
			touch $ADM/sampling
			adm_sample_held $ADM/held &
			spid=$!
			pids=()
			for i in 1 2 3 4; do
				adm_pair "p$i" $((18610 + i)) 4 &
				pids+=($!)
			done
			wait "${pids[@]}"
			rm -f $ADM/sampling
			wait $spid
			lw=$(adm_longest_wait)
			for i in 1 2 3 4; do
				done_=0; adm_completed p$i && done_=1
				wall=$(awk '{ printf "%.1f", $2 - $1 }' $ADM/p$i.t)
				echo "$pol,$round,$i,$done_,$(adm_refused p$i),$wall,$(adm_mbps p$i),$(adm_entry_seconds p$i $ADM/held),$lw" >> $O/admission.csv
			done
			diag "admission round $round $pol: $(awk -F, -v p=$pol -v r=$round '$1 == p && $2 == r { c += $4; f += $5 } END { print c " of 4 completed, " f " refused" }' $O/admission.csv)"
			wait_for 20 sh -c "! ls -d $SYS/consumers/user:* >/dev/null 2>&1"
		done
	done
	echo arbiter > $SYS/policy
	echo 262144 > $SYS/budget
fi
check "rnic_mgr unloads after the benchmark" modprobe -r rnic_mgr
tap_done
