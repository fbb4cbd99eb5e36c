// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_client half of rnic_mgr: follows RDMA devices as they are added
 * and removed, and gives each one a struct rnic_dev.
 *
 * Lifetime of a struct rnic_dev: created by rnic_add_one() and held by
 * the RDMA core as our client data; rnic_remove_one() unpublishes it from
 * sysfs and drops the creation reference. Readers of sysfs files hold
 * their own kobject reference, so the memory goes when the last of them
 * does, never under an open attribute file.
 */
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "rnic_mgr.h"

static struct ib_client rnic_client;

static int rnic_add_one(struct ib_device *ibdev)
{
	struct rnic_dev *rd;
	int err;

	rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return -ENOMEM;
	rd->rd_ibdev = ibdev;
	strscpy(rd->rd_name, dev_name(&ibdev->dev), sizeof(rd->rd_name));
	rd->rd_max_mr = ibdev->attrs.max_mr;
	rd->rd_max_frpl = ibdev->attrs.max_fast_reg_page_list_len;

	err = rnic_sysfs_add_dev(rd);
	if (err)
		return err;	/* the kobject release already freed rd */

	ib_set_client_data(ibdev, &rnic_client, rd);
	pr_info("rnic_mgr: device %s added\n", rd->rd_name);
	return 0;
}

static void rnic_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct rnic_dev *rd = client_data;

	pr_info("rnic_mgr: device %s removed\n", rd->rd_name);
	rd->rd_ibdev = NULL;
	rnic_sysfs_del_dev(rd);
}

static struct ib_client rnic_client = {
	.name = "rnic_mgr",
	.add = rnic_add_one,
	.remove = rnic_remove_one,
};

/**
 * rnic_client_init - start following RDMA devices
 *
 * Return: 0 or a negative errno from ib_register_client().
 * Context: process, may sleep; calls rnic_add_one() for each existing
 * device before returning.
 */
int rnic_client_init(void)
{
	return ib_register_client(&rnic_client);
}

/**
 * rnic_client_exit - stop following RDMA devices
 *
 * Context: process, may sleep; calls rnic_remove_one() for each device.
 */
void rnic_client_exit(void)
{
	ib_unregister_client(&rnic_client);
}
