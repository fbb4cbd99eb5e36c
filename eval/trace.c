// SPDX-License-Identifier: GPL-2.0
/*
 * Reading rdmastor's translation-use traces (format in trace.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/**
 * trace_parse_line - one line of a trace
 * @line: the text, without or with its newline
 * @r: filled in
 *
 * Return: 1 for an access, 0 for a comment or an empty line, -EINVAL for
 * anything else (a field missing or out of range, a side not s or r).
 */
int trace_parse_line(const char *line, struct trace_rec *r)
{
	char side[4];
	uint64_t ctx, key;
	int n, used = 0;

	while (*line == ' ' || *line == '\t')
		line++;
	if (*line == '#' || *line == '\n' || *line == '\0')
		return 0;
	memset(r, 0, sizeof(*r));
	n = sscanf(line, "%" SCNu64 " %31s %" SCNu64 " %" SCNx64 " %" SCNu64 " %3s %" SCNu32 " %n",
		   &r->t_ns, r->dev, &ctx, &key, &r->page, side, &r->len, &used);
	if (n != 7 || line[used] != '\0' || ctx > UINT32_MAX || key > UINT32_MAX ||
	    side[1] != '\0' || (side[0] != 's' && side[0] != 'r'))
		return -EINVAL;
	r->ctx = (uint32_t)ctx;
	r->key = (uint32_t)key;
	r->side = side[0] == 'r';
	return 1;
}

/**
 * trace_read - the next access of a trace
 * @f: the file
 * @r: filled in
 * @lineno: the line count, kept up to date (for error messages)
 *
 * Return: 1, 0 at the end, -EINVAL for a malformed line (at *@lineno).
 */
int trace_read(FILE *f, struct trace_rec *r, long *lineno)
{
	char buf[256];
	int err;

	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);

		(*lineno)++;
		if (len && buf[len - 1] == '\n')
			buf[--len] = '\0';
		else if (len == sizeof(buf) - 1)
			return -EINVAL;		/* longer than any valid line */
		err = trace_parse_line(buf, r);
		if (err)
			return err;
	}
	return 0;
}

/**
 * trace_load - every access of a trace file, in order
 * @path: the file
 * @n: set to the number of accesses
 *
 * Return: a malloc()ed array (the caller frees it), or NULL after a
 * message on stderr (the file cannot be read, a line is malformed, or
 * memory runs out).
 */
struct trace_acc *trace_load(const char *path, size_t *n)
{
	struct trace_acc *a = NULL, *bigger;
	size_t cap = 0;
	struct trace_rec r;
	long lineno = 0;
	FILE *f = fopen(path, "r");
	int err;

	if (!f) {
		perror(path);
		return NULL;
	}
	*n = 0;
	while ((err = trace_read(f, &r, &lineno)) > 0) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 65536;
			bigger = realloc(a, cap * sizeof(*a));
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			a = bigger;
		}
		a[(*n)++] = (struct trace_acc){ r.ctx, r.key, r.page, r.side };
	}
	fclose(f);
	if (err < 0) {
		if (err == -ENOMEM)
			fprintf(stderr, "%s: out of memory\n", path);
		else
			fprintf(stderr, "%s:%ld: malformed line\n", path, lineno);
		free(a);
		return NULL;
	}
	return a;
}

/**
 * trace_csv_open - a CSV file the tools append their rows to
 * @path: the file (created if missing)
 *
 * Return: the stream, or NULL after a message on stderr.
 */
FILE *trace_csv_open(const char *path)
{
	FILE *f = fopen(path, "a");

	if (!f)
		perror(path);
	return f;
}
