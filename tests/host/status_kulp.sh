#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rdmastor top and status against a fake sysfs: kernel ULPs' MRs
# (kernel_ulps) and their caps (kernel_ulp_caps) merge into one line per
# ULP, a ULP with a cap and no MR yet is listed, "-" says no cap, and
# JSON and Prometheus carry the cap and the refusals.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export RNIC_MGR_SYSFS=$t/devices
d=$t/devices/rxe0
mkdir -p "$d/consumers"
echo 150000 > "$d/budget"
echo 65536 > "$d/key_budget"
echo arbiter > "$d/policy"
echo off > "$d/user_charging"
cat > "$d/kernel_ulps" <<'X'
nvme_rdma mrs 288 entries 74016 peak_mrs 288 peak_entries 74016 allocs 288
rpcrdma mrs 5 entries 1280 peak_mrs 5 peak_entries 1280 allocs 9
X
cat > "$d/kernel_ulp_caps" <<'X'
nvme_rdma cap 80000 entries 74016 reserved 0 waits 2 refused 1
ib_iser cap 4096 entries 0 reserved 0 waits 0 refused 0
X
rs=scripts/admin/rdmastor
top=$($rs top rxe0)
echo "$top" | sed 's/^/# /'
expect_match "top: nvme_rdma's MRs with its cap and refusals" "$top" \
	'^kernel:nvme_rdma +288 +74016 +288 +74016 +80000 +1$'
expect_match "top: rpcrdma without a cap shows -" "$top" '^kernel:rpcrdma +5 +1280 +5 +1280 +- +0$'
expect_match "top: a capped ULP with no MR yet is listed" "$top" '^kernel:ib_iser +0 +0 +0 +0 +4096 +0$'
expect_eq "top: one line per ULP" "$(echo "$top" | grep -c '^kernel:')" 3
json=$($rs top --json rxe0)
expect_eq "json: nvme_rdma's cap and refusals" \
	"$(echo "$json" | python3 -c 'import json, sys
u = {k["name"]: k for k in json.load(sys.stdin)["devices"][0]["kernel_ulps"]}
print(u["nvme_rdma"]["cap"], u["nvme_rdma"]["refused"], u["rpcrdma"]["cap"], u["ib_iser"]["mrs"])')" \
	"80000 1 0 0"
prom=$($rs status --prometheus)
expect_match "prometheus: the cap" "$prom" \
	'^rdmastor_kernel_ulp_cap_entries\{device="rxe0",ulp="nvme_rdma"\} 80000$'
expect_match "prometheus: the refusals, a counter" "$prom" \
	'^rdmastor_kernel_ulp_refused_total\{device="rxe0",ulp="nvme_rdma"\} 1$'
echo "$prom" > "$t/status.prom"
check "prometheus: the client library's parser accepts it, names as it writes them" \
	sh -c "tests/tools/prom_check.py < '$t/status.prom'"
# names users chose, shown: no control character reaches the terminal
# (a kernel that did not sanitise them: rnic_mgr's own does)
mkdir -p "$d/consumers/user:u$(printf '\033')[2J:77.0"
printf 'tenant weight procs share held keys processes\ncgroup:/t\033[7m 1 1 0 0 0\n' > "$d/tenants"
echo on > "$d/user_charging"
top=$($rs top rxe0)
expect_eq "top: no control character in what it prints" \
	"$(printf '%s' "$top" | LC_ALL=C tr -d '\n\t' | LC_ALL=C tr -cd '\000-\037\177' | wc -c)" 0
expect_match "top: the tenant's escape shown as '?'" "$top" 'cgroup:/t\?\[7m'
tap_done
