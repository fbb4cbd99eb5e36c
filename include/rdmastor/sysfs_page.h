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

#endif /* RDMASTOR_SYSFS_PAGE_H */
