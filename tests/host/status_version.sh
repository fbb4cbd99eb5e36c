#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rdmastor status against fake /sys/module and /lib/modules trees: the
# version of the build DKMS installed for each kernel (read from the
# module file itself, plain or xz), and whether the modules loaded now
# are that build; when they are not, status names the loaded ones and
# says to reload them, in text and in Prometheus.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export RNIC_MGR_SYSFS=$t/devices RDMASTOR_SYSMOD=$t/sys RDMASTOR_MODULES=$t/lib RDMASTOR_DKMS=none
run=$(uname -r)
product="rnic_mgr rdmastor_transport rdmastor_rpcrdma rdmastor_svcrdma rdmastor_isert rdmastor_iser"
# fake_ko FILE VERSION: a module file whose .modinfo says VERSION (with
# a srcversion beside it, which must not be taken for it)
fake_ko() {
	printf 'ELF...\0license=GPL\0srcversion=ABCDEF\0version=%s\0depends=\0' "$2" > "$1"
}
# install KVER VERSION [xz]: DKMS's build for KVER
install_build() {
	local d=$t/lib/$1/updates/dkms m
	mkdir -p "$d"
	for m in $product; do
		fake_ko "$d/$m.ko" "$2"
		[ "${3:-}" = xz ] && python3 -c 'import lzma, os, sys
with open(sys.argv[1], "rb") as f, lzma.open(sys.argv[1] + ".xz", "wb") as o:
    o.write(f.read())
os.unlink(sys.argv[1])' "$d/$m.ko"
	done
}
# load VERSION MODULE...: those modules loaded at VERSION
load() {
	local v=$1 m
	shift
	for m in "$@"; do
		mkdir -p "$t/sys/$m"
		echo live > "$t/sys/$m/initstate"
		echo "$v" > "$t/sys/$m/version"
	done
}
rs=scripts/admin/rdmastor
install_build "$run" 0.17.0+git20261207100000.aaaaaaa
install_build 6.1.0-old 0.16.0+git20261101000000.bbbbbbb xz
out=$($rs status)
echo "$out" | sed 's/^/# /'
expect_match "the running kernel's build and its version" "$out" \
	"^  $run \\(running\\): built, version 0\\.17\\.0\\+git20261207100000\\.aaaaaaa$"
expect_match "another kernel's, from xz-compressed modules" "$out" \
	'^  6\.1\.0-old: built, version 0\.16\.0\+git20261101000000\.bbbbbbb$'
expect_match "nothing loaded: said so" "$out" "^Loaded: none of rdmastor's modules$"

load 0.17.0+git20261207100000.aaaaaaa rnic_mgr rdmastor_transport rdmastor_rpcrdma
out=$($rs status)
expect_match "the installed build loaded: current" "$out" \
	'^Loaded: version 0\.17\.0\+git20261207100000\.aaaaaaa, the installed build$'
expect_match "prometheus: no reload needed" "$($rs status --prometheus)" '^rdmastor_reload_needed 0$'

# an upgrade installed a newer build while the old one stays loaded
install_build "$run" 0.17.0+git20261208100000.ccccccc
out=$($rs status)
echo "$out" | grep '^Loaded' | sed 's/^/# /'
expect_match "after an upgrade: reload to run the new build, naming the old and its modules" "$out" \
	'^Loaded: reload to run 0\.17\.0\+git20261208100000\.ccccccc: loaded 0\.17\.0\+git20261207100000\.aaaaaaa \(rnic_mgr, rdmastor_transport, rdmastor_rpcrdma\)$'
prom=$($rs status --prometheus)
expect_match "prometheus: reload needed" "$prom" '^rdmastor_reload_needed 1$'
expect_match "prometheus: the loaded module's version as a label" "$prom" \
	'^rdmastor_module_loaded_info\{module="rnic_mgr",version="0\.17\.0\+git20261207100000\.aaaaaaa"\} 1$'
expect_eq "json: the installed version and the loaded ones" \
	"$($rs status --json | python3 -c 'import json, sys
s = json.load(sys.stdin)
k = [k for k in s["dkms"] if k["running"]][0]
print(k["version"], s["build"]["loaded"]["rnic_mgr"])')" \
	"0.17.0+git20261208100000.ccccccc 0.17.0+git20261207100000.aaaaaaa"

# Prometheus: the build, and user processes summed by tenant, never a
# process id in a label; the client library's parser judges it
d=$t/devices/rxe0
mkdir -p "$d/consumers"
echo 1000 > "$d/budget"
echo on > "$d/user_charging"
for c in "user:fio:4242.7 cgroup:/user.slice/user-1000.slice 100" \
	"user:fio:4243.8 cgroup:/user.slice/user-1000.slice 50" "nfs-192.0.2.1.0 - 300"; do
	set -- $c
	mkdir -p "$d/consumers/$1"
	[ "$2" != - ] && echo "$2" > "$d/consumers/$1/tenant"
	echo "$3" > "$d/consumers/$1/held"
done
$rs status --prometheus > "$t/status.prom"
check "prometheus: parsed by the client library; the build, a tenant's two processes as one, a kernel consumer" \
	sh -c "tests/tools/prom_check.py \
		'rdmastor_build_info{version=\"0.17.0+git20261208100000.ccccccc\",kernel=\"$run\"}=1' \
		'rdmastor_tenant_held_entries{device=\"rxe0\",tenant=\"cgroup:/user.slice/user-1000.slice\"}=150' \
		'rdmastor_tenant_processes{device=\"rxe0\",tenant=\"cgroup:/user.slice/user-1000.slice\"}=2' \
		'rdmastor_consumer_held_entries{device=\"rxe0\",consumer=\"nfs-192.0.2.1.0\"}=300' < $t/status.prom"
expect_eq "prometheus: no process id anywhere in it" "$(grep -c '4242\|4243' "$t/status.prom")" 0

# DKMS's own word decides (dkms status): a kernel whose module files
# DKMS does not account for is not called built
printf '#!/bin/sh\n[ "$*" = "status -m rdmastor" ] || exit 2\necho "rdmastor/0.17.0+git20261208100000.ccccccc, %s, x86_64: installed"\n' "$run" > "$t/dkms"
chmod +x "$t/dkms"
out=$(RDMASTOR_DKMS=$t/dkms $rs status)
expect_match "dkms status: installed for the running kernel: built" "$out" \
	"^  $run \\(running\\): built, version 0\\.17\\.0\\+git20261208100000\\.ccccccc$"
expect_match "files DKMS does not know of: not called built" "$out" \
	'^  6\.1\.0-old: not installed by DKMS \(dkms status: nothing\), version 0\.16\.0\+git20261101000000\.bbbbbbb$'
tap_done
