#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of scripts/admin/rnic-mgr-config (the boot-time budgets) against a
# fake sysfs: parameters and budgets land where they belong, globs and
# order decide which line wins, a named device gets only its own lines,
# a wrong line or a refused value is reported and the rest still
# applies, `check` changes nothing, and the shipped example file parses.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export RNIC_MGR_CONF=$t/rnic_mgr.conf RNIC_MGR_SYSFS=$t/devices RNIC_MGR_MODPROBE=$t/modprobe.conf \
	RNIC_MGR_PARAMS=$t/params RNIC_MGR_NOLOAD=1
cfg=scripts/admin/rnic-mgr-config

fresh() {	# fresh: devices mlx5_0, mlx5_1, rxe0 and four parameters, at defaults
	rm -rf "$t/devices" "$t/params"
	mkdir -p "$t/params"
	for p in default_entries default_keys revoke_deadline_ms reap_interval_ms; do
		echo 7 > "$t/params/$p"
	done
	for d in mlx5_0 mlx5_1 rxe0; do
		mkdir -p "$t/devices/$d"
		echo 262144 > "$t/devices/$d/budget"
		echo 4096 > "$t/devices/$d/key_budget"
		echo arbiter > "$t/devices/$d/policy"
		echo off > "$t/devices/$d/user_charging"
		: > "$t/devices/$d/kernel_ulp_caps"
	done
}
val() { cat "$t/$1"; }
is() {	# is FILE VALUE DESCRIPTION
	expect_eq "$3 ($1)" "$(val "$1")" "$2"
}

cat > "$RNIC_MGR_CONF" <<'EOF'
# comment
param revoke_deadline_ms 500   # trailing comment
device mlx5_*  entries 2097152 keys 65536
device mlx5_1  keys 1024
device rxe0 entries 65536 user monitor
device mlx5_1 policy fcfs user on
device mlx5_* ulps share
device mlx5_0 ulps off
EOF
fresh
"$cfg" apply 2>/dev/null
ok $? "apply: a well-formed file applies with status 0"
is params/revoke_deadline_ms 500 "a parameter is written"
is params/default_entries 7 "parameters not named stay"
is devices/mlx5_0/budget 2097152 "a glob line sets the entries of a matching device"
is devices/mlx5_0/key_budget 65536 "and its keys"
is devices/mlx5_1/budget 2097152 "a later line leaves what it does not name"
is devices/mlx5_1/key_budget 1024 "the last matching line wins"
is devices/rxe0/budget 65536 "an exact name"
is devices/rxe0/key_budget 4096 "a budget no line names stays"
is devices/rxe0/user_charging monitor "user charging, on the same line as a budget"
is devices/mlx5_1/user_charging on "and on a line of its own"
is devices/mlx5_1/policy fcfs "a policy"
is devices/mlx5_0/user_charging off "user charging no line names stays off"
is devices/mlx5_1/kernel_ulp_caps "* share" "ulps share: every stock ULP capped at its share"
is devices/mlx5_0/kernel_ulp_caps "" "ulps off on a later line: share never set on the way, none to end"
is devices/rxe0/kernel_ulp_caps "" "no ULP is capped where no line says so"

# kernel_ulp_caps shows the ULPs' own lines below the default's: a
# default already in force is not written again (each udev apply would
# log it anew), nor ended where none is
fresh
printf '* share\nnvme_rdma cap 131072 held 0 share 1 default 1\n' > "$t/devices/mlx5_1/kernel_ulp_caps"
printf 'nvme_rdma cap 4096 held 0\n' > "$t/devices/mlx5_0/kernel_ulp_caps"
out=$("$cfg" apply 2>&1)
ok $? "apply over defaults in force: status 0"
expect_nomatch "the default in force is not written again" "$out" "kernel_ulp_caps ="
is devices/mlx5_1/kernel_ulp_caps "$(printf '* share\nnvme_rdma cap 131072 held 0 share 1 default 1')" \
	"a default in force: the attribute untouched"
is devices/mlx5_0/kernel_ulp_caps "nvme_rdma cap 4096 held 0" "no default to end: untouched"
fresh
printf '* share\n' > "$t/devices/mlx5_0/kernel_ulp_caps"
"$cfg" apply 2>/dev/null
is devices/mlx5_0/kernel_ulp_caps "* 0" "ulps off ends a default in force"

fresh
"$cfg" apply rxe0 2>/dev/null
ok $? "apply DEVICE: status 0"
is devices/rxe0/budget 65536 "apply DEVICE sets that device"
is devices/mlx5_0/budget 262144 "and no other"
is params/revoke_deadline_ms 500 "parameters apply with any device"

fresh
out=$("$cfg" apply nosuch 2>&1)
expect_eq "apply DEVICE of a device rnic_mgr does not have: status 1" $? 1
expect_match "and it says so" "$out" "does not manage device nosuch"

cat > "$RNIC_MGR_CONF" <<'EOF'
param nosuch 1
param revoke_deadline_ms soon
device rxe0 entries many
device rxe0 sizes 5
device rxe0 user always
frobnicate
device rxe0 ulps 5
device mlx5_0 entries 1000
device mlx5_1 keys 77
EOF
fresh
rm "$t/devices/mlx5_1/key_budget" && mkdir "$t/devices/mlx5_1/key_budget"	# a write that fails
out=$("$cfg" apply 2>&1)
rc=$?
expect_eq "a wrong file: status 1" "$rc" 1
for want in "has no parameter 'nosuch'" ":2: expected 'param NAME VALUE'" \
	":3: entries needs a number" ":4: unknown setting 'sizes'" \
	":5: user is off, monitor or on" \
	":6: unknown keyword 'frobnicate'" ":7: ulps is share or off" \
	"mlx5_1 key_budget = 77 refused"; do
	if grep -qF -- "$want" <<< "$out"; then
		ok 0 "reported: $want"
	else
		ok 1 "reported: $want" "got '$(_expect_short "$out")', want it to contain '$want'"
	fi
done
is devices/mlx5_0/budget 1000 "the good lines still apply"
is devices/rxe0/budget 262144 "a bad value changes nothing"
is devices/rxe0/user_charging off "nor does a bad mode"

fresh
out=$("$cfg" check 2>&1)
expect_eq "check reports a wrong file: status 1" $? 1
expect_match "check reports a wrong file" "$out" "unknown keyword"
is devices/mlx5_0/budget 262144 "check changes nothing"

RNIC_MGR_CONF=etc/rdmastor/rnic_mgr.conf "$cfg" check >/dev/null 2>&1
ok $? "the shipped /etc/rdmastor/rnic_mgr.conf parses"
sed -n '/^# Examples:/,$ s/^#   //p' etc/rdmastor/rnic_mgr.conf > "$t/examples.conf"
out=$(RNIC_MGR_CONF=$t/examples.conf "$cfg" options 2>&1)
ok $? "its examples, uncommented, parse"
expect_match "and give every kind of option" "$out" \
	'^options rnic_mgr revoke_deadline_ms=500 devices=rocep[*]:.*,ibp[*]:.* consumer_weights=nfsd-rdma-.*,iser-ini-'
mkdir "$t/dir.conf"
out=$(RNIC_MGR_CONF=$t/dir.conf "$cfg" check 2>&1)
expect_eq "a file that cannot be read is an error: status 1" $? 1
expect_match "not an empty file" "$out" "cannot read"
# and under an awk that skips a directory and succeeds, as gawk does
# (the host that found it had gawk as awk; mawk fails by itself)
mkdir "$t/gawk-like"
cat > "$t/gawk-like/awk" <<EOF2
#!/bin/sh
for a; do shift; [ -d "\$a" ] || set -- "\$@" "\$a"; done
exec $(command -v awk) "\$@"
EOF2
chmod +x "$t/gawk-like/awk"
out=$(PATH=$t/gawk-like:$PATH RNIC_MGR_CONF=$t/dir.conf "$cfg" check 2>&1)
expect_eq "with an awk that skips a directory: still status 1" $? 1
expect_match "and still cannot read" "$out" "cannot read"

# L7: a parameter's name is a name, not a path; settings are words, not
# globs (a file named like a setting in the working directory)
mkdir -p "$t/outside"
echo 7 > "$t/outside/victim"
cat > "$RNIC_MGR_CONF" <<'EOF'
param ../outside/victim 1
device rxe0 entries*
EOF
fresh
touch "$t/entries1234"
out=$(cd "$t" && "$tree/$cfg" apply 2>&1)
expect_eq "a parameter named by a path: status 1" $? 1
is outside/victim 7 "and the file that path names is not written"
expect_match "it is reported as no parameter" "$out" "has no parameter '../outside/victim'"
expect_match "a glob among the settings stays a word" "$out" "unknown setting 'entries[*]'"
is devices/rxe0/budget 262144 "and sets nothing"

# One mechanism: the file becomes rnic_mgr's own module options, which
# the kernel applies at each device's add and rename; apply writes them
# for the next load, and sets the rule lists at once when it runs
cat > "$RNIC_MGR_CONF" <<'EOF'
param revoke_deadline_ms 500
device rocep*  entries 2097152 keys 65536 ulps share
device rocep1s0f1 user monitor
weight nfs-192.0.2.1.* 4
weight iser-ini-iqn.2026-12.org.example:* 2
EOF
fresh
"$cfg" apply 2>/dev/null
ok $? "apply, weights and rules: status 0"
want='options rnic_mgr revoke_deadline_ms=500 devices=rocep*:entries=2097152:keys=65536:ulps=share,rocep1s0f1:user=monitor consumer_weights=nfs-192.0.2.1.*=4,iser-ini-iqn.2026-12.org.example:*=2'
expect_eq "the options file: the parameters, the device rules in order, the weights" \
	"$(grep -v '^#' "$RNIC_MGR_MODPROBE")" "$want"
is params/devices "rocep*:entries=2097152:keys=65536:ulps=share,rocep1s0f1:user=monitor" \
	"the device rules set at once, for devices added or renamed from now"
is params/consumer_weights "nfs-192.0.2.1.*=4,iser-ini-iqn.2026-12.org.example:*=2" "and the weights"
expect_eq "rnic-mgr-config options prints the same line" "$("$cfg" options 2>/dev/null)" "$want"
# not loaded: the options file only
RNIC_MGR_NOLOAD='' RNIC_MGR_MODPROBE=$t/cold.conf "$cfg" apply 2>/dev/null
expect_eq "rnic_mgr not loaded: the options written all the same" \
	"$(grep -v '^#' "$t/cold.conf")" "$want"
# the kernel's limits, said here and not left to a refused load
{ for i in $(seq 33); do echo "device rxe$i keys 10"; done; echo "device bad/name keys 1"; \
  echo "weight x 0"; } > "$RNIC_MGR_CONF"
out=$("$cfg" apply 2>&1)
expect_eq "33 device rules, a bad glob, weight 0: status 1" $? 1
expect_match "the rule count, with the kernel's limit" "$out" "33 devices rules, at most 32: none set"
expect_match "the glob" "$out" "a device glob is at most 63 of"
expect_match "the weight" "$out" "expected 'weight GLOB N', N 1..10000"
check "the options file has no devices= then" sh -c "! grep -q devices= '$RNIC_MGR_MODPROBE' 2>/dev/null"
: > "$RNIC_MGR_CONF"
"$cfg" apply 2>/dev/null
check "an empty file: no options file" test ! -e "$RNIC_MGR_MODPROBE"

# a parameter the running rnic_mgr does not have is not written into
# the options either (the kernel would only warn at the next load)
printf 'param no_such_param 5\nparam revoke_deadline_ms 400\n' > "$RNIC_MGR_CONF"
fresh
out=$("$cfg" apply 2>&1)
expect_eq "an unknown parameter: status 1" $? 1
expect_match "said so" "$out" "rnic_mgr has no parameter 'no_such_param'"
expect_eq "and left out of the options" "$(grep -v '^#' "$RNIC_MGR_MODPROBE")" "options rnic_mgr revoke_deadline_ms=400"

RNIC_MGR_CONF=$t/none "$cfg" apply 2>/dev/null
ok $? "no file: nothing to do, status 0"
tap_done
