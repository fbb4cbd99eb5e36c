# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# How long a verifying NFS run takes when the server's link loses every
# packet for 8 s, through rdmastor's client and through the stock
# rpcrdma client, against the same stock server, in one boot, in turns
# (ROUNDS rounds, each stack once a round, the order rotated). The same
# run with no loss is the reference. Results: $RDMASTOR_OUT/nfs-loss.csv
# (round,stack,fault,seconds,reconnects); the rsx trace events of
# rdmastor's runs in $RDMASTOR_OUT/rsx-trace-ROUND.txt.
. tests/lib/guest/lib.sh
. tests/lib/guest/nfs-client.sh
ROUNDS=${ROUNDS:-2}
CSV=$RDMASTOR_OUT/nfs-loss.csv
result=fail
trap 'nfs_done "$result"' EXIT

reconnects() {	# the xprt's connect count, stock or rdmastor (mountstats)
	awk '$1 == "xprt:" && $2 == "rdma" { print $5; exit }' /proc/self/mountstats
}

run() {	# run ROUND STACK FAULT: one verifying run, FAULT (none|link-down) 3 s in
	local t0 t1 c0 pid rc
	c0=$(reconnects)
	t0=$(date +%s.%N)
	timeout 400 fio --name=loss --directory=$MNT --size=16m --bs=64k --rw=randwrite \
		--direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c \
		--do_verify=1 --output-format=terse > /tmp/fio.out 2>&1 &
	pid=$!
	sleep 3
	[ "$3" = none ] || touch "$MNT/$3"
	wait $pid
	rc=$?
	t1=$(date +%s.%N)
	rm -f $MNT/loss*
	echo "$1,$2,$3,$(echo "$t1 - $t0" | bc),$(( $(reconnects) - c0 ))" >> "$CSV"
	diag "round $1, $2, $3: $(tail -n1 "$CSV" | cut -d, -f4) s, fio exit $rc, reconnects +$(( $(reconnects) - c0 ))"
	return "$rc"
}

check "soft-RoCE on the virtio NIC" tests/lib/guest/rxe-setup pair 2
check "server reachable" wait_for 60 ping -c1 -W1 $SERVER
check "rdmastor installed" rdmastor_install
echo "round,stack,fault,seconds,reconnects" > "$CSV"
for round in $(seq "$ROUNDS"); do
	stacks="rdmastor stock"
	[ $((round % 2)) = 0 ] && stacks="stock rdmastor"
	for stack in $stacks; do
		check "round $round: $stack client" client_stack "$stack" 4096 || continue
		check "round $round: $stack mounts NFSv4.2 (hard)" nfs_mount 4.2 hard || continue
		if [ "$stack" = rdmastor ]; then
			echo 1 > /sys/kernel/tracing/events/rdmastor_rpcrdma/enable
			: > /sys/kernel/tracing/trace
		fi
		check "round $round, $stack: a run with no loss, verified" run "$round" "$stack" none
		check "round $round, $stack: a run with 8 s of loss, verified" run "$round" "$stack" link-down
		if [ "$stack" = rdmastor ]; then
			cp /sys/kernel/tracing/trace "$RDMASTOR_OUT/rsx-trace-$round.txt"
			echo 0 > /sys/kernel/tracing/events/rdmastor_rpcrdma/enable
		fi
		umount $MNT
	done
done
column -s, -t < "$CSV" | sed 's/^/# /'
result=pass
tap_done
