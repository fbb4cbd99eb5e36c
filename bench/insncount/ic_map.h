/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instruction counter's pure parts, plain C built into the TCG
 * plugin (insncount.c) and into the unit tests (tests/unit/test_ic_map.c):
 *
 * - a map from a translation block's guest address to its counter. The
 *   plugin's inline op adds a block's instruction count to that counter
 *   each time the block runs, through a pointer baked into the
 *   translated code, so a counter never moves once handed out: counters
 *   live in fixed chunks, and only the index over them is rehashed;
 * - the marker a guest program executes to have the counts written out:
 *   "mov $0x52444dNN, %eax; cpuid" (NN the marker's code), an
 *   instruction pair nothing else emits.
 */
#ifndef IC_MAP_H
#define IC_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* counters in a chunk; chunks are never moved or freed before the map */
#define IC_CHUNK	4096
#define IC_MARK_BASE	0x52444d00u	/* "RDM" */

/**
 * struct ic_counter - one block's count
 * @vaddr: the block's first guest address
 * @insns: instructions executed in blocks starting there
 * @dumped: @insns when ic_map_dump_since() last wrote it
 */
struct ic_counter {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t dumped;
};

struct ic_map;

struct ic_map *ic_map_new(void);
uint64_t *ic_map_counter(struct ic_map *m, uint64_t vaddr);
size_t ic_map_size(const struct ic_map *m);
uint64_t ic_map_total(const struct ic_map *m);
int ic_map_dump(const struct ic_map *m, FILE *f);
int ic_map_dump_since(struct ic_map *m, FILE *f);
void ic_map_free(struct ic_map *m);
int ic_marker(const uint8_t *insn, size_t len, const uint8_t *next, size_t next_len);

#endif /* IC_MAP_H */
