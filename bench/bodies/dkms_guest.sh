# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# How long an administrator's `dpkg -i` of rdmastor's packages takes when
# DKMS compiles the modules inside a TCG guest (the alternative to
# deb_install's host-side install), and the purge after it: $1 rounds
# (default 3) in one guest, each from nothing (the purge removes DKMS's
# tree and build), times in seconds to $RDMASTOR_OUT/dkms.csv.
. tests/lib/guest/lib.sh
deb=$RDMASTOR_TREE/build/deb
csv=$RDMASTOR_OUT/dkms.csv
kver=$(uname -r)
rm -rf "/lib/modules/$kver/updates/rdmastor" && depmod -a
echo "round,install_s,purge_s,modules" > "$csv"
for r in $(seq "${1:-3}"); do
	diag "round $r: dpkg -i (DKMS builds six modules for $kver in this guest)"
	t0=$(date +%s.%N)
	DEBIAN_FRONTEND=noninteractive dpkg -i "$deb"/rdmastor-dkms_*.deb "$deb"/rdmastor-utils_*.deb \
		> "/tmp/install-$r.log" 2>&1
	ok $? "round $r: dpkg -i" || { tail -30 "/tmp/install-$r.log"; tap_done; }
	t1=$(date +%s.%N)
	n=$(find "/lib/modules/$kver/updates/dkms/" \( -name 'rnic_mgr*' -o -name 'rdmastor_*' \) | wc -l)
	expect_eq "round $r: six modules installed" "$n" 6

	dpkg --purge rdmastor-utils rdmastor-dkms > "/tmp/purge-$r.log" 2>&1
	ok $? "round $r: dpkg --purge"
	t2=$(date +%s.%N)
	printf '%s,%.1f,%.1f,%s\n' "$r" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$n" >> "$csv"
	diag "$(tail -n1 "$csv")"
done
tap_done
