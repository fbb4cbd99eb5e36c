#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rnic_mgr's sysfs files and their ABI document agree: every file of a
# device's and a consumer's directory (the attribute arrays of
# rnic_mgr/sysfs.c) has its What: entry in
# Documentation/ABI/stable/sysfs-kernel-rnic_mgr, and every entry names
# a file that exists, but the lists, which are not an interface. The
# kernel's own get_abi.pl (linux-source) validates the format.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
cd "$tree" || exit 1
. tests/lib/guest/lib.sh
abi=Documentation/ABI/stable/sysfs-kernel-rnic_mgr
lists="table tenants kernel_ulps kernel_ulp_caps"

# attrs ARRAY PREFIX: the sysfs names in ARRAY (sysfs.c's variables,
# NAME_attr or PREFIXNAME_attr)
attrs() {
	sed -n "/static struct attribute \*$1\[\]/,/^};/p" rnic_mgr/sysfs.c |
		grep -o '&[a-z_]*_attr' | sed "s/^&$2//; s/^&//; s/_attr\$//" | sort
}
# documented DIR: the files the document lists directly under DIR
documented() {
	sed -n "s|^What:[[:space:]]*/sys/kernel/rnic_mgr/devices/<dev>/$1\\([a-z_]*\\)\$|\\1|p" "$abi" | grep . | sort
}
dev_files=$(attrs rnic_dev_attrs "" | grep -vxF -f <(tr ' ' '\n' <<< "$lists"))
expect_eq "every device file but the lists is documented, and no other" \
	"$(documented "" | paste -sd' ')" "$(echo "$dev_files" | paste -sd' ')"
expect_eq "every consumer file is documented, and no other" \
	"$(documented 'consumers/<name>.<id>/' | paste -sd' ')" "$(attrs rnic_cons_attrs cons_ | paste -sd' ')"
get_abi=${GET_ABI:-$(ls /usr/src/linux-source-*/scripts/get_abi.pl 2>/dev/null | sort -V | tail -n1)}
if [ -n "$get_abi" ]; then
	out=$(perl "$get_abi" validate --dir Documentation/ABI 2>&1)
	expect_eq "the kernel's get_abi.pl validates Documentation/ABI" "$out" ""
else
	ok 1 "get_abi.pl from linux-source is unpacked (make deps)"
fi
tap_done
