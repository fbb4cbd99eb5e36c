// SPDX-License-Identifier: GPL-2.0
/*
 * Splitting and checking of rule lists (rnic_mgr/rule_list.h). Input
 * comes from root but is parsed as if hostile all the same: bounded
 * lengths, no number overflow, nothing half-applied on an error.
 */
#include "rule_list.h"

static bool rl_space(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n';
}

/**
 * rl_parse - split a rule list and parse each rule
 * @s: the list, NUL-terminated
 * @max_len: longest list, its NUL included
 * @rules: an array of @max rules of @size bytes each; filled in, or left
 *	untouched when the list is refused
 * @size: the size of one rule
 * @max: room in @rules
 * @nr: set to the number of rules
 * @scratch: room for one rule, for the checking pass
 * @parse: parses one rule
 *
 * Every rule is checked first, so a refused list changes nothing.
 *
 * Return: 0, @parse's error for a malformed rule, -E2BIG for more than
 * @max rules or a list too long.
 */
int rl_parse(const char *s, size_t max_len, void *rules, size_t size, u32 max,
	     u32 *nr, void *scratch, rl_rule_fn parse)
{
	u32 n = 0, pass;
	int err;

	if (strnlen(s, max_len) >= max_len)
		return -E2BIG;
	for (pass = 0; pass < 2; pass++) {
		const char *p = s;

		n = 0;
		while (*p) {
			const char *e;

			while (*p && rl_space(*p))
				p++;
			if (!*p)
				break;
			for (e = p; *e && !rl_space(*e); e++)
				;
			if (n == max)
				return -E2BIG;
			err = parse(p, e, pass ? (char *)rules + n * size : scratch);
			if (err)
				return err;
			n++;
			p = e;
		}
	}
	*nr = n;
	return 0;
}

/**
 * rl_number - a decimal number that is the whole of [s, e)
 * @s: its first digit
 * @e: just past its last
 * @lo: the least it may be
 * @hi: the most it may be (at most U64_MAX / 10)
 * @out: the number
 *
 * Return: 0, -EINVAL if it is not a number, -ERANGE outside [lo, hi].
 */
int rl_number(const char *s, const char *e, u64 lo, u64 hi, u64 *out)
{
	u64 v = 0;

	if (s == e)
		return -EINVAL;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (u64)(*s - '0');
		if (v > hi)
			return -ERANGE;
	}
	if (v < lo)
		return -ERANGE;
	*out = v;
	return 0;
}
