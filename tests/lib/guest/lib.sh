# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for test bodies that run inside a guest: TAP output, polling,
# and loading rdmastor's modules. Source it: . tests/lib/guest/lib.sh
#
# A body prints one TAP line per check and exits non-zero if any failed.

tap_n=0
tap_failed=0
tap_last=${EPOCHREALTIME:-0}

# ok COND DESCRIPTION [DETAIL]: record a result; COND is an exit status
# (0 = pass). DETAIL says what a failure saw ("got X, want Y"); the first
# failure of a body goes to RDMASTOR_OUT/first-failure, which the harness
# puts on the test's summary line.
ok() {
	tap_n=$((tap_n + 1))
	tap_time "$2"
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
		return 0
	fi
	echo "not ok $tap_n - $2"
	[ -n "${3:-}" ] && echo "# $3"
	tap_failed=$((tap_failed + 1))
	if [ -n "${RDMASTOR_OUT:-}" ] && [ ! -s "$RDMASTOR_OUT/first-failure" ]; then
		echo "not ok $tap_n - $2${3:+: $3}" | head -c 400 > "$RDMASTOR_OUT/first-failure" 2>/dev/null
	fi
	return 1
}

# tap_time DESCRIPTION: how long the check just ended took (since the
# previous one ended), kept in $RDMASTOR_OUT/check-times for tests/lib/check's
# list of the slowest checks
tap_time() {
	local now=${EPOCHREALTIME:-0} us
	us=$(( ${now/./} - ${tap_last/./} ))
	tap_last=$now
	[ -n "${RDMASTOR_OUT:-}" ] || return 0
	printf '%d.%d %s#%s %s\n' $((us / 1000000)) $((us / 100000 % 10)) \
		"${RDMASTOR_BODY:-body}" "$tap_n" "$1" \
		>> "$RDMASTOR_OUT/check-times" 2>/dev/null
}

# check DESCRIPTION CMD...: run CMD, echoing it, and record its result.
check() {
	local desc=$1 rc
	shift
	echo "# \$ $*"
	"$@"
	rc=$?
	ok "$rc" "$desc" "got exit $rc from '$*', want 0"
	return "$rc"
}

# check_not DESCRIPTION CMD...: CMD must fail.
check_not() {
	local desc=$1 rc
	shift
	echo "# \$ ! $*"
	"$@"
	rc=$?
	if [ "$rc" != 0 ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc" "got exit 0 from '$*', want a failure"
	fi
}

# check_within SECONDS DESCRIPTION CMD...: poll CMD (every 0.2 s) until it
# succeeds; fail if it has not within SECONDS.
check_within() {
	local secs=$1 desc=$2 t0=$SECONDS
	shift 2
	if wait_for "$secs" "$@"; then
		ok 0 "$desc"
	else
		ok 1 "$desc" "got no success of '$*' within $secs s (waited $((SECONDS - t0)) s), want one"
	fi
}

# expect_eq DESCRIPTION GOT WANT: GOT is WANT (compared as strings).
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok 0 "$1"
	else
		ok 1 "$1" "got '$2', want '$3'"
	fi
}

# expect_ne DESCRIPTION GOT UNWANTED: GOT is anything but UNWANTED.
expect_ne() {
	if [ "$2" != "$3" ]; then
		ok 0 "$1"
	else
		ok 1 "$1" "got '$2', want anything else"
	fi
}

# _expect_cmp OP DESCRIPTION GOT BOUND: integer comparison; GOT that is
# not an integer fails.
_expect_cmp() {
	local op=$1 desc=$2 got=$3 bound=$4 word pass=1
	if [[ "$got" =~ ^-?[0-9]+$ ]]; then
		case "$op" in
		-le) (( got <= bound )) && pass=0 ;;
		-lt) (( got < bound )) && pass=0 ;;
		-ge) (( got >= bound )) && pass=0 ;;
		-gt) (( got > bound )) && pass=0 ;;
		esac
	fi
	case "$op" in
	-le) word="at most" ;; -lt) word="less than" ;;
	-ge) word="at least" ;; -gt) word="more than" ;;
	esac
	if [ "$pass" = 0 ]; then
		ok 0 "$desc"
	else
		ok 1 "$desc" "got '$got', want $word $bound"
	fi
}

# expect_le / expect_lt / expect_ge / expect_gt DESCRIPTION GOT BOUND
expect_le() { _expect_cmp -le "$@"; }
expect_lt() { _expect_cmp -lt "$@"; }
expect_ge() { _expect_cmp -ge "$@"; }
expect_gt() { _expect_cmp -gt "$@"; }

# expect_match DESCRIPTION TEXT REGEX: TEXT has a line matching the
# extended REGEX. expect_nomatch: no line does.
expect_match() {
	if grep -qE -- "$3" <<< "$2"; then
		ok 0 "$1"
	else
		ok 1 "$1" "got '$(_expect_short "$2")', want a line matching /$3/"
	fi
}
expect_nomatch() {
	local line
	line=$(grep -E -m1 -- "$3" <<< "$2")
	if [ -z "$line" ]; then
		ok 0 "$1"
	else
		ok 1 "$1" "got '$(_expect_short "$line")', want no line matching /$3/"
	fi
}

# _expect_short TEXT: TEXT on one line, at most 200 characters.
_expect_short() {
	local t
	t=$(tr '\n' '|' <<< "$1")
	t=${t%|}
	[ "${#t}" -gt 200 ] && t="${t:0:200}..."
	echo "$t"
}

# diag MESSAGE: a TAP comment, shown as progress by the harness.
diag() {
	echo "# $*"
}

# rxe_counters: soft-RoCE's loss and retry counters of rxe0 on one line
# (a lost ACK shows as the peer's duplicate_request and this side's
# completer_retry_err; send_err counts packets rxe could not send).
rxe_counters() {
	local d=/sys/class/infiniband/rxe0/ports/1/hw_counters f out=
	for f in send_err rcvd_rnr_err rcvd_seq_err completer_retry_err \
		retry_exceeded_err duplicate_request out_of_seq_request; do
		out="$out $f $(cat $d/$f 2>/dev/null)"
	done
	echo "${out# }"
}

# rxe_progress FILE: once a second until killed, a line of rxe0's packet
# counters and each RC QP's state and PSNs into FILE, for a failure's
# diagnosis: a stalled requester shows as sq-psn and sent_pkts standing
# still while the peer waits.
rxe_progress() {
	local d=/sys/class/infiniband/rxe0/ports/1/hw_counters
	while :; do
		echo "$(date +%s) sent $(cat $d/sent_pkts) rcvd $(cat $d/rcvd_pkts)" \
			"$(rdma -d res show qp link rxe0/1 2>/dev/null | awk '/type RC/ {
				for (i = 1; i < NF; i++)
					if ($i ~ /^(lqpn|state|sq-psn|rq-psn)$/)
						printf "%s %s ", $i, $(i + 1)
				printf "| " }')"
		sleep 1
	done >> "$1"
}

# slower SECONDS: SECONDS on Debian's kernels, RDMASTOR_SLOWER times
# that on the debug kernel: how long a load must run to outlast checks
# whose waits (wait_for) stretch so.
slower() { echo $(( $1 * ${RDMASTOR_SLOWER:-1} )); }

# Faults on the link are netem on eth0: put there once, doing nothing,
# before any RDMA traffic (link_netem_ready), then changed in place
# (link_netem). Adding or deleting a root qdisc under traffic drops what
# is sent meanwhile (the device runs noop_qdisc for a moment), and 6.12's
# soft-RoCE fails the QP whose send was dropped. A connection's QP comes
# back with a reconnect; the GSI QP, which carries connection
# management, stays in error, and that host answers no connection
# request again (CI: rpcrdma_faults' server after an 8 s loss).
# Changing netem replaces nothing and drops nothing it holds.
link_netem_ready() { tc qdisc replace dev eth0 root netem limit 100000; }
# link_netem [SETTING...]: netem does SETTING (loss 100%, delay 1000ms),
# or nothing
link_netem() { tc qdisc change dev eth0 root netem limit 100000 "$@"; }
# gsi_up: soft-RoCE's GSI QP (connection management) can still send
gsi_up() { rdma res show qp | grep -q "type GSI state RTS"; }

# kasan_kernel: the running kernel has KASAN (the debug kernel). Freed
# memory waits in KASAN's quarantine (up to 1/32 of RAM) before it is
# reused, so how far MemAvailable falls is no measure of what a load
# holds there.
kasan_kernel() { grep -qw kasan_report /proc/kallsyms; }

# wait_for SECONDS CMD...: poll CMD every 0.2 s until it succeeds.
# On the debug kernel (make check-debug), every check runs RDMASTOR_SLOWER
# (vm-run: 3) times slower, and so SECONDS is that many times longer:
# the lane looks for memory and lock errors, not for speed.
wait_for() {
	local deadline=$((EPOCHSECONDS + $1 * ${RDMASTOR_SLOWER:-1}))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$EPOCHSECONDS" -lt "$deadline" ] || return 1
		nap 0.2
	done
}

# nap SECONDS: sleep without running a program: read's timeout on a
# FIFO that nobody writes. A poll five times a second then costs no
# fork and exec (a date and a sleep each time were most of an idle
# guest's instructions, which the benchmarks' cost mode counts).
nap() {
	if [ -z "${NAP_FD:-}" ]; then
		[ -p /run/nap.fifo ] || mkfifo /run/nap.fifo 2>/dev/null
		exec {NAP_FD}<>/run/nap.fifo
	fi
	read -r -t "$1" -u "$NAP_FD" _ || :
}

# body_cgroup: the cgroup v2 directory this body runs in (stage2's).
body_cgroup() {
	echo "/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)"
}

# in_cgroup NAME CMD...: run CMD in cgroup NAME under this body's own,
# made if need be: a tenant of its own to rnic_mgr (tenant_by cgroup,
# its default). In the background (a subshell of its own) it execs, so
# that $! is CMD's pid.
in_cgroup() {
	local cg
	cg=$(body_cgroup)/$1
	shift
	mkdir -p "$cg" || return 1
	set -- sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"
	if [ "$BASHPID" != "$$" ]; then
		exec "$@"
	fi
	"$@"
}

# bail REASON: a step later checks depend on failed; stop here.
bail() {
	diag "stopping: $*"
	ok 1 "$*"
	tap_done
}

# tap_done: print the plan and exit with the body's status.
tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ] || diag "$tap_failed of $tap_n failed"
	exit $(( tap_failed != 0 ))
}

# rdmastor_install: check that modprobe will find this tree's modules
# (the harness put them in the guest's module layer, make modlayer):
# vm-run compared each with the layer's copy on the host (modlayer-check
# in the results), and here modprobe must resolve each name to that copy.
# Once a boot: the layer and what modprobe resolves do not change within
# one, and the modinfo per module cost a group's bodies 0.8 s each.
rdmastor_install() {
	local st m inst rc=0 n=0
	[ -e /run/rdmastor-install-checked ] && return 0
	while read -r st m; do
		n=$((n + 1))
		inst=$(modinfo -n "$m" 2>/dev/null)
		if [ "$st" != same ]; then
			echo "# $m: the module layer's copy is stale: run make modlayer"
			rc=1
		elif [ "$inst" != "/lib/modules/$(uname -r)/updates/rdmastor/$m.ko" ] &&
			[ "$inst" != "/usr/lib/modules/$(uname -r)/updates/rdmastor/$m.ko" ]; then
			echo "# $m: modprobe finds '$inst', not the module layer's copy"
			rc=1
		fi
	done < "$RDMASTOR_OUT/modlayer-check"
	[ "$n" -gt 0 ] || { echo "# no module of this tree in the layer: run make modlayer"; rc=1; }
	[ "$rc" = 0 ] && : > /run/rdmastor-install-checked
	return "$rc"
}

# user_charging_on: rnic_mgr charges user registrations on every device,
# those it adds from now on (modprobe.d) and those it has: the default
# is off (Documentation/user-level.rst, "Turning it on").
user_charging_on() {
	local d
	echo "options rnic_mgr devices=*:user=on" > /etc/modprobe.d/rdmastor-test-user.conf
	[ -d /sys/module/rnic_mgr ] || return 0
	echo "*:user=on" > /sys/module/rnic_mgr/parameters/devices || return 1
	for d in /sys/kernel/rnic_mgr/devices/*/user_charging; do
		[ -e "$d" ] && { echo on > "$d" || return 1; }
	done
	return 0
}

# routed_to NAME MODULE: modprobe's configuration (etc/modprobe.d) sends
# a request for NAME to rdmastor's MODULE first (its "install" line
# falls back to the stock module when MODULE cannot load).
routed_to() {
	modprobe -n -v "$1" 2>&1 | grep -q -- "--ignore-install $2 "
}

# full_scope: true unless the harness runs this body for its core checks
# only (make check's "# vm-kernels: SERIES:core"): a body runs its
# further checks under `if full_scope; then ... fi`
full_scope() { [ "${RDMASTOR_SCOPE:-full}" != core ]; }

# rdmastor_testmod NAME: path of a test-only module, built for this
# guest's kernel (tests/lib/vm/build-modlayer).
rdmastor_testmod() {
	echo "/rdmastor-tests/$1.ko"
}

# test_consumer_stat NAME COLUMN: a column of the test consumer
# NAME's line in tests/kmod/rnic_test_consumer.c's stats (its header
# line names the columns)
test_consumer_stat() {
	awk -v n="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == n { print $col[c] }' /sys/kernel/debug/rnic_test/stats
}

# trace_pairs_start: record the births and deaths of connections, MRs and
# rnic_mgr consumers from here on (tests/lib/guest/trace-pairs; the
# modules must be loaded).
trace_pairs_start() {
	check "trace-cmd records births and deaths" tests/lib/guest/trace-pairs start &&
		trace_pairs_on=1
}

# trace_pairs_check: every object born since trace_pairs_start died, once
# (call after teardown, before the modules unload).
trace_pairs_check() {
	local rc
	# shellcheck disable=SC2034	# read by iser.sh's teardown
	trace_pairs_on=
	tests/lib/guest/trace-pairs check > /tmp/trace-pairs.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/trace-pairs.out
	ok "$rc" "births and deaths pair up: $(head -1 /tmp/trace-pairs.out | sed 's/^trace-pairs: //')"
}
