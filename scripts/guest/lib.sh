# SPDX-License-Identifier: GPL-2.0
#
# Helpers for test bodies that run inside a guest: TAP output, polling,
# and loading rdmastor's modules. Source it: . scripts/guest/lib.sh
#
# A body prints one TAP line per check and exits non-zero if any failed.

tap_n=0
tap_failed=0

# ok COND DESCRIPTION: record a result; COND is an exit status (0 = pass).
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

# check DESCRIPTION CMD...: run CMD, echoing it, and record its result.
check() {
	local desc=$1 rc
	shift
	echo "# \$ $*"
	"$@"
	rc=$?
	ok "$rc" "$desc"
	return "$rc"
}

# diag MESSAGE: a TAP comment, shown as progress by the harness.
diag() {
	echo "# $*"
}

# wait_for SECONDS CMD...: poll CMD every 0.2 s until it succeeds.
wait_for() {
	local deadline=$(( $(date +%s) + $1 ))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$deadline" ] || return 1
		sleep 0.2
	done
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
# (the host installed them with scripts/install-modules before booting).
rdmastor_install() {
	local ko inst rc=0
	for ko in $(find "$RDMASTOR_TREE" -name '*.ko' -not -path '*/tests/*' -not -path '*/build/*'); do
		inst=$(modinfo -n "$(basename "$ko" .ko)" 2>/dev/null)
		if ! cmp -s "$ko" "$inst"; then
			echo "# $(basename "$ko") is not installed or stale: run make install"
			rc=1
		fi
	done
	return "$rc"
}

# rdmastor_testmod NAME: path of a test-only module.
rdmastor_testmod() {
	echo "$RDMASTOR_TREE/tests/kmod/$1.ko"
}

# trace_pairs_start: record the births and deaths of connections, MRs and
# rnic_mgr consumers from here on (scripts/guest/trace-pairs; the
# modules must be loaded).
trace_pairs_start() {
	check "trace-cmd records births and deaths" scripts/guest/trace-pairs start &&
		trace_pairs_on=1
}

# trace_pairs_check: every object born since trace_pairs_start died, once
# (call after teardown, before the modules unload).
trace_pairs_check() {
	local rc
	trace_pairs_on=
	scripts/guest/trace-pairs check > /tmp/trace-pairs.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/trace-pairs.out
	ok "$rc" "births and deaths pair up: $(head -1 /tmp/trace-pairs.out | sed 's/^trace-pairs: //')"
}
