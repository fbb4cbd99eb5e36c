// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_mgr: the arbiter of RDMA NIC translation resources.
 *
 * Module init only starts the parts in order: sysfs first, so that the
 * ib_client, which registers a directory per device as soon as it is
 * added, has somewhere to put them.
 */
#include <linux/module.h>

#include "rnic_mgr.h"

static int __init rnic_mgr_init(void)
{
	int err;

	err = rnic_sysfs_init();
	if (err)
		goto out;
	err = rnic_client_init();
	if (err)
		goto out_sysfs;
	pr_info("rnic_mgr: loaded\n");
	return 0;

out_sysfs:
	rnic_sysfs_exit();
out:
	return err;
}

static void __exit rnic_mgr_exit(void)
{
	rnic_client_exit();
	rnic_sysfs_exit();
	pr_info("rnic_mgr: unloaded\n");
}

module_init(rnic_mgr_init);
module_exit(rnic_mgr_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("rdmastor developers");
MODULE_DESCRIPTION("rdmastor arbiter of RDMA NIC translation resources");
