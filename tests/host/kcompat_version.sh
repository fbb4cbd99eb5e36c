#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of kcompat/configure's one answer taken from the version
# (KC_RXE_REQUESTER_MAY_PARK: soft-RoCE's doorbell watchdog is armed
# before 6.12 only), on build trees that hold nothing but a version
# header: every feature test then fails to compile, and the answer
# comes from the version alone.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
. "$tree/tests/lib/guest/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# answer CODE: configure's line for the watchdog, on a tree of version CODE
answer() {
	local k=$tmp/k$1
	mkdir -p "$k/include/generated/uapi/linux"
	[ "$1" = none ] ||
		echo "#define LINUX_VERSION_CODE $1" > "$k/include/generated/uapi/linux/version.h"
	"$tree/kcompat/configure" "$k" "$tmp/out$1.h" key > /dev/null 2>&1
	grep 'KC_RXE_REQUESTER_MAY_PARK' "$tmp/out$1.h"
}
v() { echo $((($1 << 16) + ($2 << 8) + $3)); }
park='#define KC_RXE_REQUESTER_MAY_PARK 1'
nopark='/* #undef KC_RXE_REQUESTER_MAY_PARK */'
expect_eq "Debian 12's 6.1.158: the watchdog armed" "$(answer "$(v 6 1 158)")" "$park"
expect_eq "6.11.11, a kernel not read: taken as 6.1's" "$(answer "$(v 6 11 11)")" "$park"
expect_eq "6.12.0: not armed" "$(answer "$(v 6 12 0)")" "$nopark"
expect_eq "6.12.95 (bookworm-backports): not armed" "$(answer "$(v 6 12 95)")" "$nopark"
expect_eq "7.0: not armed" "$(answer "$(v 7 0 0)")" "$nopark"
expect_eq "no version header: armed (a needless ring is harmless)" "$(answer none)" "$park"
expect_eq "the feature tests answer too (none compiles here)" \
	"$(grep -c '#undef KC_HAVE_' "$tmp/out$(v 6 12 95).h")" "$(find "$tree/kcompat/tests" -name 'have_*.c' | wc -l)"
tap_done
