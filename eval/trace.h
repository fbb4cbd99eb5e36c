/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdmastor's translation-use traces (Documentation/evaluation.rst): one
 * RDMA access to a registered page per line, captured in a guest from
 * soft-RoCE's data path (tests/lib/guest/capture-trace), text:
 *
 *   # rdmastor-trace 1
 *   T_NS DEV CTX KEY PAGE SIDE LEN
 *
 * T_NS   time, ns (monotonic, any origin)
 * DEV    the RDMA device
 * CTX    the context owning the MR (its protection domain, hashed to 32
 *        bits): a process, or a kernel consumer
 * KEY    the MR's key, hex (its low byte rotates on re-registration)
 * PAGE   the page within the MR
 * SIDE   s (the NIC reads the page: a send, an RDMA READ response, the
 *        source of an RDMA WRITE) or r (it writes it: a receive, an RDMA
 *        WRITE's target, a READ's destination)
 * LEN    bytes of that page the access touched
 *
 * Lines starting with '#' are comments. Plain C, user space.
 */
#ifndef RDMASTOR_EVAL_TRACE_H
#define RDMASTOR_EVAL_TRACE_H

#include <stdint.h>
#include <stdio.h>

#define TRACE_MAGIC	"# rdmastor-trace 1"

/**
 * struct trace_rec - one access
 * @t_ns: time
 * @dev: device name
 * @ctx: context
 * @key: MR key
 * @page: page within the MR
 * @side: 0 send (read by the NIC), 1 receive (written by it)
 * @len: bytes
 */
struct trace_rec {
	uint64_t t_ns;
	char dev[32];
	uint32_t ctx;
	uint32_t key;
	uint64_t page;
	int side;
	uint32_t len;
};

/**
 * struct trace_acc - what a simulator needs of one access
 * @ctx: context
 * @key: MR key
 * @page: page within the MR
 * @side: 0 send, 1 receive
 */
struct trace_acc {
	uint32_t ctx;
	uint32_t key;
	uint64_t page;
	int side;
};

int trace_parse_line(const char *line, struct trace_rec *r);
struct trace_acc *trace_load(const char *path, size_t *n);
FILE *trace_csv_open(const char *path);
int trace_read(FILE *f, struct trace_rec *r, long *lineno);

#endif /* RDMASTOR_EVAL_TRACE_H */
