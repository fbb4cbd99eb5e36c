# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the admission experiment (tests/vm/user_admission.sh and
# bench/bodies/user_level.sh): unmodified ib_write_bw pairs, server and
# client in this guest over rxe0's loopback, and what each obtained.
# Source after lib.sh; set ADM (a directory) and DEV first.
ADM_SIZE=65536
# what perftest says when ibv_reg_mr fails
ADM_MRFAIL="allocate MR\|create MR\|create mr"
ADM_SYS=/sys/kernel/rnic_mgr/devices/$DEV

# adm_pair NAME PORT SECS: one pair, each side running SECS seconds
# (SECS "nN": N iterations instead, however long they take).
# The client retries while the server is not listening yet, but not
# after a refused registration: that is the outcome being measured.
# Leaves in $ADM/NAME: .s and .c (outputs), .pids (server, clients),
# .st (exit statuses), .t (start and end, seconds).
adm_pair() {
	local name=$1 port=$2 i st srv t0 run=(-D "$3")
	[ "${3#n}" != "$3" ] && run=(-n "${3#n}")
	ib_write_bw -d $DEV -p "$port" -s $ADM_SIZE "${run[@]}" > $ADM/$name.s 2>&1 &
	srv=$!
	echo $srv > $ADM/$name.pids
	t0=$(date +%s.%N)
	for i in $(seq 120); do
		# a server refused its registration: nobody will answer
		kill -0 $srv 2>/dev/null || break
		ib_write_bw -d $DEV -p "$port" -s $ADM_SIZE "${run[@]}" 192.0.2.1 \
			> $ADM/$name.c 2>&1 &
		echo $! >> $ADM/$name.pids
		wait $!
		st=$?
		echo "client $i: status $st" >> $ADM/$name.st
		[ $st = 0 ] && break
		grep -q "$ADM_MRFAIL" $ADM/$name.c && break
		sleep 0.5
	done
	echo "$t0 $(date +%s.%N)" > $ADM/$name.t
	wait $srv
	echo "server: status $?" >> $ADM/$name.st
}

# adm_completed NAME: the client's transfers all ran: its result line, or
# perftest's complaint that it cannot turn its cycle counts into a
# report (its CPU clock estimate needs r^2 >= 0.9, which a busy
# two-vCPU guest misses now and then; the check comes after the
# transfers finished).
adm_completed() { grep -q "^ *$ADM_SIZE \|Can't produce a report" $ADM/"$1".c 2>/dev/null; }
# adm_refused NAME: how many of the pair's processes were refused a registration
adm_refused() { grep -l "$ADM_MRFAIL" $ADM/"$1".? 2>/dev/null | wc -l; }
# adm_mbps NAME: the client's average bandwidth, or 0
adm_mbps() { awk -v s=$ADM_SIZE '$1 == s && !bw { bw = $4 } END { print bw ? bw : 0 }' $ADM/"$1".c; }

# adm_sample_held FILE: while $ADM/sampling exists, every 0.2 s, each
# perftest consumer's held as "consumer held" lines into FILE. Builtins
# only: forking a reader per consumer five times a second starved
# perftest on two vCPUs (its timed runs ended without a report).
adm_sample_held() {
	local d v
	while [ -e $ADM/sampling ]; do
		for d in $ADM_SYS/consumers/user:ib_write_bw:*; do
			v=0
			read -r v < "$d/held" 2>/dev/null
			[ "$v" != 0 ] && echo "${d##*/} $v"
		done
		sleep 0.2
	done > "$1"
}

# adm_entry_seconds NAME FILE: the entry-seconds pair NAME obtained (its
# server's and clients' consumers together) in FILE's samples.
adm_entry_seconds() {
	awk -v pids=" $(tr '\n' ' ' < $ADM/"$1".pids) " '
		{ split($1, f, ":"); split(f[3], g, ".")
		  if (index(pids, " " g[1] " ")) s += $2 * 0.2 }
		END { printf "%.1f\n", s }' "$2"
}

# adm_jain: Jain's index over the numbers on stdin, one per line (1 =
# all equal, 1/n = one has everything).
adm_jain() {
	awk '{ t += $1; q += $1 * $1; n++ }
		END { if (q == 0) print 0; else printf "%.3f\n", t * t / (n * q) }'
}

# adm_longest_wait: the longest REGISTER-WAIT of user consumers in the
# trace (rnic_wait_done), in ms.
adm_longest_wait() {
	grep "rnic_wait_done:.*cons=user:" /sys/kernel/tracing/trace |
		sed 's/.*waited_ns=\([0-9]*\).*/\1/' | sort -n | tail -n1 |
		awk '{ printf "%d\n", $1 / 1000000 } END { if (!NR) print 0 }'
}
