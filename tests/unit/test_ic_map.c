// SPDX-License-Identifier: GPL-2.0
/*
 * insncount's block map and marker decoder (bench/insncount/ic_map.c):
 * a counter never moves once handed out (translated code adds to it
 * through its address) while the map grows past its first index and
 * chunk, the same address finds the same counter, the dump lists the
 * blocks that ran and their sum, and only the exact marker pair decodes.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/insncount/ic_map.h"
#include "tap.h"

#define NR	(3 * IC_CHUNK + 17)

static uint64_t addr(size_t i)
{
	return 0xffffffffc0000000ull + i * 16;	/* blocks as a module's text has */
}

int main(void)
{
	static uint64_t *ctr[NR];
	struct ic_map *m = ic_map_new();
	size_t i, moved = 0, again = 0, lines = 0;
	unsigned long long v, n, sum = 0, want = 0;
	char line[64];
	FILE *f;

	tap_ok(m != NULL, "a map");
	for (i = 0; i < NR; i++) {
		ctr[i] = ic_map_counter(m, addr(i));
		if (!ctr[i])
			break;
		*ctr[i] = i % 3 ? i : 0;	/* every third block never ran */
		want += *ctr[i];
	}
	tap_ok(i == NR, "%zu counters handed out (want %d)", i, NR);
	tap_ok(ic_map_size(m) == NR, "the map holds %zu blocks (want %d)", ic_map_size(m), NR);
	for (i = 0; i < NR; i++) {
		uint64_t *c = ic_map_counter(m, addr(i));

		moved += c != ctr[i];
		again += *c != (i % 3 ? i : 0);
	}
	tap_ok(!moved, "no counter moved while the map grew (%zu did)", moved);
	tap_ok(!again, "each address finds its own count (%zu did not)", again);
	tap_ok(ic_map_size(m) == NR, "looking up made no new counter (%zu)", ic_map_size(m));
	tap_ok(ic_map_total(m) == want, "the total is the sum (%llu, want %llu)",
	       (unsigned long long)ic_map_total(m), want);

	f = tmpfile();
	tap_ok(f && !ic_map_dump(m, f), "the dump is written");
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %llu", &v, &n) == 2 && n) {
			lines++;
			sum += n;
		}
	}
	fclose(f);
	tap_ok(lines == NR - (NR + 2) / 3, "the blocks that ran, and no other (%zu lines, want %d)",
	       lines, NR - (NR + 2) / 3);
	tap_ok(sum == want, "their counts sum to the total (%llu)", sum);

	/* since the last dump: everything once, then only what moved */
	f = tmpfile();
	tap_ok(f && !ic_map_dump_since(m, f), "the first dump since is written");
	fclose(f);
	*ctr[1] += 5;
	*ctr[NR - 1] += 7;
	f = tmpfile();
	tap_ok(f && !ic_map_dump_since(m, f), "the second dump since is written");
	rewind(f);
	lines = 0;
	sum = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %llu", &v, &n) == 2) {
			lines++;
			sum += n;
			tap_ok(v == addr(1) || v == addr(NR - 1),
			       "a moved block, %llx, is listed", v);
		}
	}
	fclose(f);
	tap_ok(lines == 2 && sum == 12, "only the two blocks that ran since, by what they ran (%zu lines summing %llu, want 2 and 12)",
	       lines, sum);
	ic_map_free(m);

	{
		const uint8_t mov[] = { 0xb8, 0x02, 0x4d, 0x44, 0x52 };
		const uint8_t other[] = { 0xb8, 0x02, 0x4d, 0x44, 0x53 };
		const uint8_t cpuid[] = { 0x0f, 0xa2 };
		const uint8_t nop2[] = { 0x66, 0x90 };

		tap_ok(ic_marker(mov, 5, cpuid, 2) == 2, "the marker of code 2 decodes (%d)",
		       ic_marker(mov, 5, cpuid, 2));
		tap_ok(ic_marker(other, 5, cpuid, 2) == -1, "another immediate is no marker");
		tap_ok(ic_marker(mov, 5, nop2, 2) == -1, "without cpuid, no marker");
		tap_ok(ic_marker(mov, 4, cpuid, 2) == -1, "a shorter instruction is no marker");
		tap_ok(ic_marker(cpuid, 2, mov, 5) == -1, "the pair the other way round is none");
	}
	return tap_done();
}
