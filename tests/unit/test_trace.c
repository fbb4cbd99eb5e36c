// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of eval/trace.c, the reader of translation-use traces:
 * well-formed lines, comments and blank lines, and each way a line can
 * be malformed; a whole file read record by record with line numbers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "eval/trace.h"
#include "tap.h"

int main(void)
{
	struct trace_rec r;
	const char *text = "# rdmastor-trace 1\n\n1 rxe0 7 0x100 0 s 4096\n# x\n2 rxe0 7 0x100 1 r 10\n";
	long lineno = 0;
	FILE *f;
	int n1, n2, n3;

	tap_ok(trace_parse_line("123 rxe0 42 0x1234a5 17 s 4096", &r) == 1 &&
	       r.t_ns == 123 && !strcmp(r.dev, "rxe0") && r.ctx == 42 &&
	       r.key == 0x1234a5 && r.page == 17 && r.side == 0 && r.len == 4096,
	       "an access: every field");
	tap_ok(trace_parse_line("5 mlx5_0 1 ff 0 r 1\n", &r) == 1 && r.side == 1 && r.key == 0xff,
	       "a receive, the key without 0x, a newline");
	tap_ok(trace_parse_line("# rdmastor-trace 1", &r) == 0 && trace_parse_line("", &r) == 0 &&
	       trace_parse_line("   # x", &r) == 0, "comments and blank lines");
	tap_ok(trace_parse_line("1 rxe0 1 0x1 0 x 1", &r) == -EINVAL, "a side neither s nor r");
	tap_ok(trace_parse_line("1 rxe0 1 0x1 0 s", &r) == -EINVAL, "a field missing");
	tap_ok(trace_parse_line("1 rxe0 1 0x1 0 s 1 extra", &r) == -EINVAL, "a field too many");
	tap_ok(trace_parse_line("1 rxe0 4294967296 0x1 0 s 1", &r) == -EINVAL,
	       "a context beyond 32 bits");
	tap_ok(trace_parse_line("1 rxe0 1 0x100000000 0 s 1", &r) == -EINVAL, "a key beyond 32 bits");
	tap_ok(trace_parse_line("1 rxe0 1 0x1 0 sr 1", &r) == -EINVAL, "a two-letter side");

	f = fmemopen((void *)text, strlen(text), "r");
	n1 = trace_read(f, &r, &lineno);
	n2 = trace_read(f, &r, &lineno);
	n3 = trace_read(f, &r, &lineno);
	tap_ok(n1 == 1 && n2 == 1 && r.t_ns == 2 && r.side == 1 && n3 == 0 && lineno == 5,
	       "a file: two accesses, comments skipped, end (line %ld)", lineno);
	fclose(f);
	f = fmemopen((void *)"1 rxe0 1 0x1 0 s 1\nbad\n", 23, "r");
	lineno = 0;
	n1 = trace_read(f, &r, &lineno);
	n2 = trace_read(f, &r, &lineno);
	tap_ok(n1 == 1 && n2 == -EINVAL && lineno == 2, "a malformed line: -EINVAL at its line");
	fclose(f);
	return tap_done();
}
