#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/drivers/pairstats, the analysis of every pairing benchmark: its
# statistics on data whose answer is known (selftest), then its table on
# a made-up run: the A/A verdict, a goal met and one not, the commit.
set -u
tree=$(cd "$(dirname "$0")/../.." && pwd)
. "$tree/tests/lib/guest/lib.sh"
ps=$tree/bench/drivers/pairstats
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$ps" selftest 2>&1)
expect_eq "pairstats selftest passes" "$?" 0
echo "$out" | grep '^not ok\|^#' | while read -r l; do diag "$l"; done

# seven rounds: the A/A copy within 2% of the base, rdmastor 1.3x on
# rand4k and 1.05x on seq1m, every value drifting by round
{
	echo "round,pos,stack,job,iops"
	for r in 1 2 3 4 5 6 7; do
		for s in stock:100 stock-aa:100 rdmastor:130; do
			for j in rand4k-read:1 seq1m-read:0.81; do
				awk -v r=$r -v s="${s%%:*}" -v f="${s#*:}" -v j="${j%%:*}" -v k="${j#*:}" \
					'BEGIN { n = (r * 37 + length(s) * 11) % 5; d = 1 + r / 10
						if (s == "rdmastor" && k < 1) f = 105
						printf "%d,0,%s,%s,%.1f\n", r, s, j, f * d * (1 + (n - 2) / 100) }'
			done
		done
	done
} > "$tmp/run.csv"
echo "0123abc" > "$tmp/commit"
out=$("$ps" table "$tmp/run.csv" --goal 'rand4k-*=1.15' --goal 'seq1m-*=1.15' 2>&1)
expect_eq "pairstats table exits 0" "$?" 0
expect_match "the table names the recorded commit" "$out" 'commit 0123abc'
expect_match "the A/A line says the run can support claims" "$out" 'A/A: stock-aa/stock holds 1.0'
expect_match "the 1.3x job meets a 1.15 goal" "$out" 'on rand4k-read: x1\.[23][0-9] \[.*\]: met$'
expect_match "the 1.05x job does not" "$out" 'on seq1m-read: x1.0[0-9] \[.*\]: NOT met$'

# the A/A copy 15% faster on one job: too noisy, and no goal is claimed
awk -F, -v OFS=, '$3 == "stock-aa" && $4 == "rand4k-read" { $5 = $5 * 1.15 } { print }' \
	"$tmp/run.csv" > "$tmp/noisy.csv"
out=$("$ps" table "$tmp/noisy.csv" --goal 'rand4k-*=1.0' 2>&1)
expect_match "an A/A copy 15% off makes the run too noisy" "$out" 'A/A: TOO NOISY.*rand4k-read'
expect_match "and a goal met is not claimed" "$out" 'met, but the run is too noisy'

# a sweep's table has no A/A by design: it says so, and claims nothing
out=$("$ps" table "$tmp/run.csv" --aa none --goal 'rand4k-*=1.0' 2>&1)
expect_match "--aa none: the table says it has no A/A by design" "$out" 'A/A: none by design'
expect_match "and a goal met is not claimed" "$out" 'met, but this table has no A/A'
[ -n "${PS_KEEP:-}" ] && cp "$tmp"/*.csv "$PS_KEEP"
tap_done
