// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction counter's block map and marker decoder (ic_map.h).
 * Not thread-safe: the plugin serialises calls.
 */
#include <stdlib.h>
#include <string.h>

#include "ic_map.h"

/**
 * struct ic_map - counters by block address
 * @chunks: the counters, IC_CHUNK a chunk, in order of creation
 * @nr_chunks: chunks allocated
 * @used: counters handed out
 * @index: open addressing over @used, 1 + the counter's number, 0 empty
 * @index_size: slots in @index, a power of two, at least twice @used
 */
struct ic_map {
	struct ic_counter **chunks;
	size_t nr_chunks;
	size_t used;
	uint32_t *index;
	size_t index_size;
};

static struct ic_counter *ic_nth(const struct ic_map *m, size_t n)
{
	return &m->chunks[n / IC_CHUNK][n % IC_CHUNK];
}

/* A block address's first index slot: its bits mixed (blocks align). */
static size_t ic_hash(uint64_t v, size_t size)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return (size_t)v & (size - 1);
}

/* The index slot holding @vaddr, or the empty one where it would go. */
static size_t ic_find(const struct ic_map *m, uint64_t vaddr)
{
	size_t i = ic_hash(vaddr, m->index_size);

	while (m->index[i] && ic_nth(m, m->index[i] - 1)->vaddr != vaddr)
		i = (i + 1) & (m->index_size - 1);
	return i;
}

static int ic_grow_index(struct ic_map *m)
{
	size_t size = m->index_size * 2, n;
	uint32_t *old = m->index;

	m->index = calloc(size, sizeof(*m->index));
	if (!m->index) {
		m->index = old;
		return -1;
	}
	m->index_size = size;
	for (n = 0; n < m->used; n++)
		m->index[ic_find(m, ic_nth(m, n)->vaddr)] = (uint32_t)n + 1;
	free(old);
	return 0;
}

/**
 * ic_map_new - an empty map
 *
 * Return: the map, or NULL without memory.
 */
struct ic_map *ic_map_new(void)
{
	struct ic_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->index_size = 1024;
	m->index = calloc(m->index_size, sizeof(*m->index));
	if (!m->index) {
		free(m);
		return NULL;
	}
	return m;
}

/**
 * ic_map_counter - the counter of blocks starting at @vaddr, made if new
 * @m: the map
 * @vaddr: a block's first guest address
 *
 * Return: the counter's address, the same for the map's life, or NULL
 * without memory (or past 2^32 - 1 blocks).
 */
uint64_t *ic_map_counter(struct ic_map *m, uint64_t vaddr)
{
	struct ic_counter *c;
	size_t i = ic_find(m, vaddr);

	if (m->index[i])
		return &ic_nth(m, m->index[i] - 1)->insns;
	if (m->used >= UINT32_MAX - 1)
		return NULL;
	if (m->used == m->nr_chunks * IC_CHUNK) {
		struct ic_counter **chunks = realloc(m->chunks, (m->nr_chunks + 1) * sizeof(*chunks));

		if (!chunks)
			return NULL;
		m->chunks = chunks;
		m->chunks[m->nr_chunks] = calloc(IC_CHUNK, sizeof(struct ic_counter));
		if (!m->chunks[m->nr_chunks])
			return NULL;
		m->nr_chunks++;
	}
	if ((m->used + 1) * 2 > m->index_size) {
		if (ic_grow_index(m))
			return NULL;
		i = ic_find(m, vaddr);
	}
	c = ic_nth(m, m->used);
	c->vaddr = vaddr;
	c->insns = 0;
	m->used++;
	m->index[i] = (uint32_t)m->used;
	return &c->insns;
}

/**
 * ic_map_size - blocks the map holds a counter for
 * @m: the map
 *
 * Return: how many.
 */
size_t ic_map_size(const struct ic_map *m)
{
	return m->used;
}

/**
 * ic_map_total - instructions counted in all
 * @m: the map
 *
 * Return: the sum of the counters.
 */
uint64_t ic_map_total(const struct ic_map *m)
{
	uint64_t sum = 0;
	size_t n;

	for (n = 0; n < m->used; n++)
		sum += ic_nth(m, n)->insns;
	return sum;
}

/**
 * ic_map_dump - write every counter that counted, "VADDR INSNS" in hex
 * and decimal, one a line, in creation order
 * @m: the map
 * @f: where to
 *
 * Return: 0, or -1 if writing failed.
 */
int ic_map_dump(const struct ic_map *m, FILE *f)
{
	size_t n;

	for (n = 0; n < m->used; n++) {
		const struct ic_counter *c = ic_nth(m, n);

		if (c->insns && fprintf(f, "%llx %llu\n", (unsigned long long)c->vaddr,
					(unsigned long long)c->insns) < 0)
			return -1;
	}
	return 0;
}

/**
 * ic_map_dump_since - write what each counter counted since the last
 * call, "VADDR INSNS" as ic_map_dump() does, for the counters that
 * moved only
 * @m: the map
 * @f: where to
 *
 * A window between two markers is then one file the size of the code
 * that ran in it, not of all the code that ever ran.
 *
 * Return: 0, or -1 if writing failed (the counters are then marked as
 * written all the same: the next call starts from now).
 */
int ic_map_dump_since(struct ic_map *m, FILE *f)
{
	int err = 0;
	size_t n;

	for (n = 0; n < m->used; n++) {
		struct ic_counter *c = ic_nth(m, n);
		uint64_t now = c->insns;

		if (now != c->dumped && !err &&
		    fprintf(f, "%llx %llu\n", (unsigned long long)c->vaddr,
			    (unsigned long long)(now - c->dumped)) < 0)
			err = -1;
		c->dumped = now;
	}
	return err;
}

/**
 * ic_map_free - free the map and its counters
 * @m: the map; no translated code may use its counters any more
 */
void ic_map_free(struct ic_map *m)
{
	size_t n;

	if (!m)
		return;
	for (n = 0; n < m->nr_chunks; n++)
		free(m->chunks[n]);
	free(m->chunks);
	free(m->index);
	free(m);
}

/**
 * ic_marker - whether two instructions are a marker, and its code
 * @insn: the first instruction's bytes
 * @len: its length
 * @next: the second's
 * @next_len: its length
 *
 * Return: the code (0..255) of "mov $0x52444dNN, %eax; cpuid", else -1.
 */
int ic_marker(const uint8_t *insn, size_t len, const uint8_t *next, size_t next_len)
{
	uint32_t imm;

	if (len != 5 || insn[0] != 0xb8 || next_len != 2 || next[0] != 0x0f || next[1] != 0xa2)
		return -1;
	imm = (uint32_t)insn[1] | (uint32_t)insn[2] << 8 | (uint32_t)insn[3] << 16 |
	      (uint32_t)insn[4] << 24;
	if ((imm & ~0xffu) != IC_MARK_BASE)
		return -1;
	return (int)(imm & 0xff);
}
