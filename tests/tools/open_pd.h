/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test programs' way into a device (tests/tools): a protection
 * domain on the RDMA device named, with plain libibverbs.
 */
#ifndef RDMASTOR_TOOLS_OPEN_PD_H
#define RDMASTOR_TOOLS_OPEN_PD_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

/**
 * open_pd - a protection domain on a device
 * @name: the device, as ibv_get_device_name() says it
 *
 * Return: the PD, or NULL if there is no such device or it cannot open.
 */
static inline struct ibv_pd *open_pd(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int i, n;

	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return ctx ? ibv_alloc_pd(ctx) : NULL;
}

/**
 * open_uverbs - open a device's verbs node, as a BIND shows it
 * @name: the device, as ibv_get_device_name() says it
 *
 * Return: the file descriptor, or -1 (errno set; ENODEV: no such device).
 */
static inline int open_uverbs(const char *name)
{
	struct ibv_device **list;
	char path[256];
	int i, n, fd = -1;

	errno = ENODEV;
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name)) {
			snprintf(path, sizeof(path), "/dev/infiniband/%s",
				 list[i]->dev_name);
			fd = open(path, O_RDWR | O_CLOEXEC);
		}
	if (list)
		ibv_free_device_list(list);
	return fd;
}

#endif /* RDMASTOR_TOOLS_OPEN_PD_H */
