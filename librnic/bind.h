/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * librnic's binding to /dev/rnic_mgr: open the device, bind to the
 * process's consumer on one RDMA device, map the shared page, and feed
 * the events read to the registration cache (events.c). A program calls
 * rnic_bind_process() from its progress loop, or polls rnic_bind_fd().
 */
#ifndef RDMASTOR_LIBRNIC_BIND_H
#define RDMASTOR_LIBRNIC_BIND_H

#include <stdint.h>
#include "events.h"

/* one binding: opaque, made by rnic_bind_open() and freed by rnic_bind_close() */
struct rnic_binding;

/* the functions: kernel-doc at their definitions in bind.c */
int rnic_bind_open(struct rnic_binding **out, const char *ibdev,
		   struct rnic_cache *cache, uint32_t weight);

int rnic_bind_open_context(struct rnic_binding **out, const char *ibdev,
			   int verbs_fd, struct rnic_cache *cache, uint32_t weight);

int rnic_bind_process(struct rnic_binding *b, int timeout_ms);

void rnic_bind_close(struct rnic_binding *b);

int rnic_bind_fd(const struct rnic_binding *b);

const struct rnic_shared *rnic_bind_shared(const struct rnic_binding *b);

uint32_t rnic_bind_grace_ms(const struct rnic_binding *b);

uint64_t rnic_bind_consumer_id(const struct rnic_binding *b);

const struct rnic_lib_stats *rnic_bind_stats(const struct rnic_binding *b);

#endif /* RDMASTOR_LIBRNIC_BIND_H */
