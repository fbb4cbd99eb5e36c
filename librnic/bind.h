/* SPDX-License-Identifier: GPL-2.0 */
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

/**
 * struct rnic_binding - one process's binding on one RDMA device
 * @fd: the open /dev/rnic_mgr
 * @shared: the mapped page
 * @lib: event handling for the cache
 * @grace_ms: T, the time a REVOKE gives
 * @consumer_id: the consumer's id, as in its sysfs name
 */
struct rnic_binding {
	int fd;
	const struct rnic_shared *shared;
	struct rnic_lib lib;
	uint32_t grace_ms;
	uint64_t consumer_id;
};

/* the functions: kernel-doc at their definitions in bind.c */
int rnic_bind_open(struct rnic_binding *b, const char *ibdev,
		   struct rnic_cache *cache, uint32_t weight);

int rnic_bind_process(struct rnic_binding *b, int timeout_ms);

void rnic_bind_close(struct rnic_binding *b);

#endif /* RDMASTOR_LIBRNIC_BIND_H */
