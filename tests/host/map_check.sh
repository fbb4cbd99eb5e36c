#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/dev/map-check (run by make lint): the tree's design.rst passes, and
# a copy missing one module or one trace system fails and names it; so
# do a prefix left unexpanded, a component page whose sections leave
# the common outline, an invariant letter used twice, and a header that
# does not state or assert its letter's invariants.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
. "$tree/tests/lib/guest/lib.sh"
doc=$tree/Documentation/design.rst
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$tree/scripts/dev/map-check" 2>&1)
expect_eq "design.rst's map names every module and trace system" "$?" 0
[ -z "$out" ] || diag "$out"

# drop_from_map NAME: design.rst with ``NAME`` gone from its map
drop_from_map() {
	awk -v n="\`\`$1\`\`" '/^Components$/ { on = 1 } /^Tracing$/ { on = 0 }
		on { gsub(n, "") } { print }' "$doc" > "$tmp/design.rst"
}
drop_from_map rtp
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "a map without the test module rtp fails" "$?" 1
expect_match "and names it" "$out" 'module rtp is not in'
drop_from_map rdmastor_iser
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "a map without rdmastor_iser (module and trace system) fails" "$?" 1
expect_match "and names the trace system" "$out" 'trace rdmastor_iser is not in'
# a prefix the map names with nothing to say what it expands to
awk '/^   \* - ``rnp_``$/ { print; getline; print "     -"; next } { print }' "$doc" > "$tmp/design.rst"
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "a map whose prefix rnp_ expands to nothing fails" "$?" 1
expect_match "and names the prefix" "$out" 'prefix rnp_ has no line'
# a component page out of the outline: Tracing renamed, then Limits gone
cp "$tree"/Documentation/*.rst "$tmp/"
sed -i 's/^Tracing$/Traces/; s/^=======$/======/' "$tmp/iser.rst"
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "a component page with a section renamed fails" "$?" 1
expect_match "and names the page and what it wants" "$out" "iser.rst: sections are .*Traces.*; want .*Tracing"
cp "$tree/Documentation/iser.rst" "$tmp/"
awk '/^Limits$/ { exit } { print }' "$tree/Documentation/transport.rst" > "$tmp/transport.rst"
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "a component page without Limits fails" "$?" 1
expect_match "and names it" "$out" "transport.rst: sections are"
cp "$tree/Documentation/transport.rst" "$tmp/"
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "the copies as they are pass again" "$?" 0
cp "$doc" "$tmp/design.rst"
# invariants: a letter used twice; a letter its header does not state;
# a header whose P2 says nothing of how it holds
sed -i '/^   \* - ``ini_``$/,/^   \* - /{s/^     - H$/     - E/}' "$tmp/design.rst"
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "a map giving the initiator the engine's letter E fails" "$?" 1
expect_match "and names the letter and both prefixes" "$out" 'letter E is used by ``rst_`` and ``ini_``'
cp "$doc" "$tmp/design.rst"
sed -i '/^   \* - ``rnp_``$/,/^   \* - /{s/^     - P$/     - Q/}' "$tmp/design.rst"
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "a letter its header does not state fails" "$?" 1
expect_match "and names the header and the letter" "$out" 'rnic_policy.h: states no invariant Q1'
awk '/^ \*  P2\./ { p2 = 1 } p2 && /Asserted:/ { p2 = 0; next } { print }' \
	"$tree/rnic_mgr/rnic_policy.h" > "$tmp/policy.h"
cp "$doc" "$tmp/design.rst"
sed -i "s|\`\`rnic_mgr/rnic_policy.h\`\`|\`\`$tmp/policy.h\`\`|" "$tmp/design.rst"
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "an invariant that does not say how it holds fails" "$?" 1
expect_match "and is named" "$out" 'policy.h: P2 does not say how it holds'
echo "no such section" > "$tmp/design.rst"
out=$("$tree/scripts/dev/map-check" "$tmp/design.rst" 2>&1)
expect_eq "a page with no Components section fails" "$?" 1
tap_done
