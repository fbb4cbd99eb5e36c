/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names a local user chooses (a process's comm, a cgroup's path) made
 * safe to show: they become sysfs directory names, columns of the
 * tables rnic-top prints and words of kernel messages, which reach an
 * administrator's terminal. Plain C: built into rnic_mgr.ko and the unit
 * tests (tests/unit/test_name.c).
 */
#ifndef RNIC_MGR_USER_NAME_H
#define RNIC_MGR_USER_NAME_H

#include <rdmastor/compat.h>

/* may @c stay in a name shown as is? (@slash: keep '/', a path's) */
static inline bool rnic_name_char_ok(char c, bool slash)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
	       c == '+' || c == '@' || c == '=' || c == ',' || c == '~' ||
	       (slash && c == '/');
}

/**
 * rnic_name_sanitize - make a user-chosen name safe to show
 * @s: the name, NUL-terminated; changed in place
 * @slash: keep '/' (a path); otherwise it goes too
 *
 * Every byte but letters, digits and ._-+@=,~ (and '/' with @slash)
 * becomes '_': no control character or escape sequence reaches a
 * terminal, no blank splits a column, no ':' splits user:COMM:TGID.
 *
 * Return: how many bytes were replaced.
 */
static inline unsigned int rnic_name_sanitize(char *s, bool slash)
{
	unsigned int n = 0;

	for (; *s; s++) {
		if (!rnic_name_char_ok(*s, slash)) {
			*s = '_';
			n++;
		}
	}
	return n;
}

#endif /* RNIC_MGR_USER_NAME_H */
