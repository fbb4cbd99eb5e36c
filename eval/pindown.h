/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pin-down cache, simulated (Tezuka et al., the MRRC paper's baseline): a
 * request inside a cached registration hits; otherwise exactly it is
 * registered and cached, and plain LRU evicts, one deregistration per
 * registration, down to the capacity in pages. Plain C, user space.
 */
#ifndef RDMASTOR_EVAL_PINDOWN_H
#define RDMASTOR_EVAL_PINDOWN_H

#include <stdint.h>

/* a cached registration serves requests starting at most this many pages into it */
#define PD_SPAN		256

struct pindown;

struct pindown *pindown_create(uint64_t capacity);
void pindown_destroy(struct pindown *pd);
int pindown_access(struct pindown *pd, uint64_t first, uint64_t last,
		   uint64_t *evicted, int max, int *nevicted);

#endif /* RDMASTOR_EVAL_PINDOWN_H */
