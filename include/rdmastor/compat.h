/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The few kernel facilities rdmastor's pure code uses, so that the same
 * .c file builds into a module and into user-space tests, fuzzers and the
 * simulator. Only types, sort and min/max: pure code allocates nothing
 * and takes no locks; its callers do both.
 */
#ifndef RDMASTOR_COMPAT_H
#define RDMASTOR_COMPAT_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/sort.h>
#include <linux/math64.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <linux/export.h>

#else /* user space */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <endian.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) min((t)(a), (t)(b))
#define max_t(t, a, b) max((t)(a), (t)(b))

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

/* a * b / c without overflowing the product */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((__uint128_t)a * b / c);
}

/*
 * Wire types: the kernel's user-space headers' plain integers (uapi
 * headers use them too); sparse checks them in the kernel.
 */
#include <linux/types.h>
#define cpu_to_be16(x) htobe16(x)
#define cpu_to_be32(x) htobe32(x)
#define cpu_to_be64(x) htobe64(x)
#define be16_to_cpu(x) be16toh(x)
#define be32_to_cpu(x) be32toh(x)
#define be64_to_cpu(x) be64toh(x)

#define U64_MAX UINT64_MAX
#define U32_MAX UINT32_MAX

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *),
			void (*swap)(void *, void *, int))
{
	(void)swap;
	qsort(base, num, size, cmp);
}

#endif /* __KERNEL__ */

#endif /* RDMASTOR_COMPAT_H */
