/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One sysfs page of counter lines (a connection per line), for the
 * world-readable statistics files of rdmastor's modules: a line that
 * does not fit whole is counted and left out, never cut, and the page
 * ends with how many were ("... 3 more connections").
 */
#ifndef RDMASTOR_SYSFS_PAGE_H
#define RDMASTOR_SYSFS_PAGE_H

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

/* longest line a caller emits, with room to spare */
#define RDS_LINE_MAX	640

/**
 * struct rds_page - a sysfs show buffer being filled
 * @buf: the page sysfs gave
 * @len: bytes in it
 * @left_out: lines that did not fit
 */
struct rds_page {
	char *buf;
	int len;
	u32 left_out;
};

/* Whether one more line fits; if not, it is counted as left out. */
static inline bool rds_page_room(struct rds_page *p)
{
	if (p->len <= (int)PAGE_SIZE - RDS_LINE_MAX)
		return true;
	p->left_out++;
	return false;
}

static inline __printf(2, 3) void rds_page_emit(struct rds_page *p, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	p->len += vscnprintf(p->buf + p->len, PAGE_SIZE - p->len, fmt, args);
	va_end(args);
}

/* The page's length, after a last line saying what was left out. */
static inline ssize_t rds_page_end(struct rds_page *p, const char *what)
{
	if (p->left_out)
		p->len += scnprintf(p->buf + p->len, PAGE_SIZE - p->len,
				    "... %u more %s\n", p->left_out, what);
	return p->len;
}

/**
 * rds_count_show - a list's length, one value (nr_conns beside conns)
 * @lock: the lock the count is kept under
 * @count: the count
 * @buf: sysfs's page
 *
 * The count has no page limit: the list's page may leave lines out.
 *
 * Return: the bytes written.
 */
static inline ssize_t rds_count_show(spinlock_t *lock, const unsigned int *count, char *buf)
{
	unsigned int n;

	spin_lock(lock);
	n = *count;
	spin_unlock(lock);
	return sysfs_emit(buf, "%u\n", n);
}

#endif /* RDMASTOR_SYSFS_PAGE_H */
