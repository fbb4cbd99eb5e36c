// SPDX-License-Identifier: GPL-2.0
/*
 * librnic's binding to /dev/rnic_mgr (bind.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bind.h"

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

/**
 * rnic_bind_open - bind this process to its consumer on an RDMA device
 * @b: filled in
 * @ibdev: the device's name, e.g. "rxe0"
 * @cache: the registration cache REVOKE and STALE act on
 * @weight: the consumer's weight, or 0 for the administrator's default
 *
 * Return: 0, or a negative errno: -ENOENT (rnic_mgr is not loaded),
 * -ENODEV (no such device, or its user registrations are not charged),
 * -EBUSY (this process is bound already), or what open, ioctl or mmap
 * returned.
 */
int rnic_bind_open(struct rnic_binding *b, const char *ibdev,
		   struct rnic_cache *cache, uint32_t weight)
{
	struct rnic_bind req;
	void *page;
	int err;

	memset(b, 0, sizeof(*b));
	memset(&req, 0, sizeof(req));
	if (strlen(ibdev) >= sizeof(req.ibdev))
		return -EINVAL;
	strcpy(req.ibdev, ibdev);
	req.weight = weight;
	b->fd = open("/dev/rnic_mgr", O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (b->fd < 0)
		return -errno;
	if (ioctl(b->fd, RNIC_IOC_BIND, &req) < 0)
		goto fail;
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
	return 0;
fail:
	err = -errno;
	close(b->fd);
	b->fd = -1;
	return err;
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
	int handled = 0, r;
	ssize_t n;

	r = poll(&pfd, 1, timeout_ms);
	if (r < 0)
		return -errno;
	if (!r) {
		rnic_lib_refresh(&b->lib);
		return 0;
	}
	for (;;) {
		n = read(b->fd, buf, sizeof(buf));
		if (n < 0 && errno == EAGAIN) {
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
 * rnic_bind_close - unbind (the registrations stay, still charged)
 * @b: the binding
 */
void rnic_bind_close(struct rnic_binding *b)
{
	if (b->lib.cache)
		rnic_cache_set_sync(b->lib.cache, NULL, NULL);
	if (b->shared)
		munmap((void *)b->shared, (size_t)sysconf(_SC_PAGESIZE));
	if (b->fd >= 0)
		close(b->fd);
	b->shared = NULL;
	b->fd = -1;
}
