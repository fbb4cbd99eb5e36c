#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every module parameter is documented: each module's parameters, read
# from its sources (module_param, module_param_named, module_param_cb
# and rnic_mgr's RNIC_UINT_PARAM), are named as ``NAME`` on the
# module's reference page. An administrator who finds a parameter in
# modinfo finds it in the book.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
. "$tree/tests/lib/guest/lib.sh"
cd "$tree" || exit 1
# params DIR: the parameter names DIR's sources declare
params() {
	grep -rhoE '(RNIC_UINT_PARAM(_PERM)?|module_param(_named|_cb)?)\([a-z_0-9]+' "$1" --include='*.c' |
		sed 's/.*(//' | grep -v '^_' | sort -u
}
for pair in rnic_mgr:rnic_mgr fs/client:nfs fs/server:nfs-server iser/initiator:iser-initiator \
	iser/target:iser transport:transport; do
	dir=${pair%%:*} page=Documentation/${pair#*:}.rst
	names=$(params "$dir")
	missing=$(for p in $names; do grep -q "\`\`$p\`\`" "$page" || echo "$p"; done | paste -sd' ')
	expect_gt "$dir declares parameters" "$(echo "$names" | wc -w)" 0
	expect_eq "$dir: every parameter ($(echo "$names" | wc -w)) is on $page" "$missing" ""
done
tap_done
