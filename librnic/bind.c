// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * librnic's binding to /dev/rnic_mgr (bind.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "bind.h"
#include "events_int.h"

/**
 * struct rnic_binding - one process's binding on one RDMA device
 * @fd: the open /dev/rnic_mgr
 * @shared: the mapped page
 * @lib: event handling for the cache
 * @grace_ms: T, the time a REVOKE gives
 * @consumer_id: the consumer's id, as in its sysfs name
 *
 * Programs hold it by pointer only (bind.h): its layout may change.
 */
struct rnic_binding {
	int fd;
	const struct rnic_shared *shared;
	struct rnic_lib lib;
	uint32_t grace_ms;
	uint64_t consumer_id;
};

/*
 * Before a cache lookup (M8): if the kernel queued an event this
 * binding has not read, read what is queued now. One load when there
 * is none. The kernel announces an event after it queued it
 * (events_posted, release), and a STALE is queued within munmap().
 */
static void rnic_bind_sync(void *arg)
{
	struct rnic_binding *b = arg;
	uint64_t posted = __atomic_load_n(&b->shared->events_posted, __ATOMIC_ACQUIRE);

	if ((uint32_t)posted != b->lib.expect_seq - 1)
		rnic_bind_process(b, 0);
}

/*
 * The device's uverbs node, opened as a verbs program would: a
 * whole-process BIND shows it, so that only a process that may use the
 * device binds to it (rnic_user.h). -ENODEV if verbs has no such device.
 */
static int rnic_uverbs_open(const char *ibdev)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	char path[PATH_MAX];
	int i, fd = -ENODEV;

	if (!list)
		return -errno;
	for (i = 0; list[i]; i++) {
		if (strcmp(ibv_get_device_name(list[i]), ibdev))
			continue;
		snprintf(path, sizeof(path), "/dev/infiniband/%s", list[i]->dev_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
		break;
	}
	ibv_free_device_list(list);
	return fd;
}

/* Both kinds of binding; @flags and @verbs_fd as struct rnic_bind has them. */
static int rnic_bind_make(struct rnic_binding **out, const char *ibdev,
			  uint32_t flags, int verbs_fd, struct rnic_cache *cache,
			  uint32_t weight)
{
	struct rnic_binding *b;
	struct rnic_bind req;
	void *page;
	int err;

	*out = NULL;
	memset(&req, 0, sizeof(req));
	if (strlen(ibdev) >= sizeof(req.ibdev))
		return -EINVAL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	strcpy(req.ibdev, ibdev);
	req.weight = weight;
	req.flags = flags;
	req.verbs_fd = verbs_fd;
	req.abi_version = RNIC_USER_ABI_VERSION;
	b->fd = open("/dev/rnic_mgr", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (b->fd < 0) {
		err = -errno;
		free(b);
		return err;
	}
	if (!(flags & RNIC_BIND_CONTEXT)) {
		req.verbs_fd = rnic_uverbs_open(ibdev);
		if (req.verbs_fd < 0) {
			err = req.verbs_fd;
			close(b->fd);
			free(b);
			return err;
		}
	}
	err = ioctl(b->fd, RNIC_IOC_BIND, &req) < 0 ? -errno : 0;
	if (!(flags & RNIC_BIND_CONTEXT))
		close(req.verbs_fd);	/* needed to bind only */
	if (err) {
		errno = -err;
		goto fail;
	}
	page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		    b->fd, 0);
	if (page == MAP_FAILED)
		goto fail;
	b->shared = page;
	b->grace_ms = req.grace_ms;
	b->consumer_id = req.consumer_id;
	rnic_lib_init(&b->lib, cache, b->shared);
	if (cache)
		rnic_cache_set_sync(cache, rnic_bind_sync, b);
	*out = b;
	return 0;
fail:
	err = -errno;
	close(b->fd);
	free(b);
	return err;
}

/**
 * rnic_bind_open - bind this process to its consumer on an RDMA device
 * @out: set to the binding, freed by rnic_bind_close()
 * @ibdev: the device's name, e.g. "rxe0"
 * @cache: the registration cache REVOKE and STALE act on
 * @weight: the consumer's weight, or 0 for the administrator's default
 *
 * The binding serves every registration of the process on @ibdev that
 * no context binding (rnic_bind_open_context()) serves.
 *
 * The device's uverbs node is opened to bind, and closed again: a
 * process that may not open it (its mode, the device cgroup, another
 * network namespace) may not bind.
 *
 * Return: 0, or a negative errno: -ENOENT (rnic_mgr is not loaded),
 * -ENODEV (no such device, or its user registrations are not charged),
 * -EACCES (the process may not use the device),
 * -EBUSY (this process has a whole-process binding there already),
 * -EPROTO (the kernel's /dev/rnic_mgr is of another ABI version than
 * this library), or what open, ioctl or mmap returned.
 */
int rnic_bind_open(struct rnic_binding **out, const char *ibdev,
		   struct rnic_cache *cache, uint32_t weight)
{
	return rnic_bind_make(out, ibdev, 0, -1, cache, weight);
}

/**
 * rnic_bind_open_context - bind for the registrations of one verbs context
 * @out: set to the binding, freed by rnic_bind_close()
 * @ibdev: the device's name, e.g. "rxe0"
 * @verbs_fd: the context's command descriptor (struct ibv_context's cmd_fd)
 * @cache: the registration cache REVOKE and STALE act on
 * @weight: the consumer's weight, or 0 for the administrator's default
 *
 * For a library that opens its own verbs context beside others in the
 * process: it hears the STALE events of the registrations made through
 * that context, and its part of each REVOKE and RECLAIM, whatever other
 * library in the process binds too.
 *
 * Return: as rnic_bind_open(); -EBUSY if the process has a binding for
 * this context already, -ENOSPC if it has RNIC_BIND_MAX bindings on the
 * device, -EINVAL if @verbs_fd is not a verbs context, -EBADF if it is no
 * open file, -EACCES if it is a verbs context of another device.
 */
int rnic_bind_open_context(struct rnic_binding **out, const char *ibdev,
			   int verbs_fd, struct rnic_cache *cache, uint32_t weight)
{
	return rnic_bind_make(out, ibdev, RNIC_BIND_CONTEXT, verbs_fd, cache, weight);
}

/**
 * rnic_bind_process - wait up to @timeout_ms for events and act on them
 * @b: the binding
 * @timeout_ms: 0 to only take what is there, -1 to wait for one
 *
 * Then lets the cache grow back if the shared page allows more
 * (rnic_lib_refresh()).
 *
 * Return: events handled (0 if none came), -EPROTO for a malformed
 * stream, -ENODEV once the device went away, or another negative errno.
 */
int rnic_bind_process(struct rnic_binding *b, int timeout_ms)
{
	uint64_t buf[2048];	/* events are 8-byte aligned */
	struct pollfd pfd = { .fd = b->fd, .events = POLLIN };
	/* before the reads: what they leave unread up to it was dropped */
	uint64_t posted = __atomic_load_n(&b->shared->events_posted, __ATOMIC_ACQUIRE);
	int handled = 0, r;
	ssize_t n;

	r = poll(&pfd, 1, timeout_ms);
	if (r < 0)
		return -errno;
	if (!r) {
		rnic_lib_drained(&b->lib, posted);
		rnic_lib_refresh(&b->lib);
		return 0;
	}
	for (;;) {
		n = read(b->fd, buf, sizeof(buf));
		if (n < 0 && errno == EAGAIN) {
			rnic_lib_drained(&b->lib, posted);
			rnic_lib_refresh(&b->lib);
			return handled;
		}
		if (n < 0)
			return -errno;
		if (!n)
			return handled ? handled : -ENODEV;
		r = rnic_lib_events(&b->lib, buf, (size_t)n);
		if (r < 0)
			return r;
		handled += r;
	}
}

/**
 * rnic_bind_close - unbind and free the binding (the registrations stay,
 *	still charged)
 * @b: the binding, or NULL
 */
void rnic_bind_close(struct rnic_binding *b)
{
	if (!b)
		return;
	if (b->lib.cache)
		rnic_cache_set_sync(b->lib.cache, NULL, NULL);
	if (b->shared)
		munmap((void *)b->shared, (size_t)sysconf(_SC_PAGESIZE));
	if (b->fd >= 0)
		close(b->fd);
	free(b);
}

/**
 * rnic_bind_fd - the binding's file descriptor, to poll for events
 * @b: the binding
 *
 * POLLIN says events wait: call rnic_bind_process(). Do not read it.
 *
 * Return: the descriptor.
 */
int rnic_bind_fd(const struct rnic_binding *b)
{
	return b->fd;
}

/**
 * rnic_bind_shared - the mapped shared page, for rnic_shared_read()
 * @b: the binding
 *
 * Return: the page, valid until rnic_bind_close().
 */
const struct rnic_shared *rnic_bind_shared(const struct rnic_binding *b)
{
	return b->shared;
}

/**
 * rnic_bind_grace_ms - T: the time a REVOKE gives
 * @b: the binding
 *
 * Return: milliseconds.
 */
uint32_t rnic_bind_grace_ms(const struct rnic_binding *b)
{
	return b->grace_ms;
}

/**
 * rnic_bind_consumer_id - the consumer's id, as in its sysfs name
 * @b: the binding
 *
 * Return: the id.
 */
uint64_t rnic_bind_consumer_id(const struct rnic_binding *b)
{
	return b->consumer_id;
}

/**
 * rnic_bind_stats - what the binding's event handling did
 * @b: the binding
 *
 * Return: its counters, valid until rnic_bind_close().
 */
const struct rnic_lib_stats *rnic_bind_stats(const struct rnic_binding *b)
{
	return rnic_lib_get_stats(&b->lib);
}
