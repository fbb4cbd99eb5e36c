// SPDX-License-Identifier: GPL-2.0
/*
 * Are the unaligned accessors in linux/unaligned.h (6.12 on) rather than
 * asm/unaligned.h? (Asked here, not with __has_include: sparse 0.6.4
 * does not know it.)
 */
#include <linux/unaligned.h>

u32 kcompat_probe(const void *p);
/**
 * kcompat_probe - compiles only where linux/unaligned.h exists
 * @p: four bytes at any alignment
 *
 * Return: them, big-endian.
 */
u32 kcompat_probe(const void *p)
{
	return get_unaligned_be32(p);
}
