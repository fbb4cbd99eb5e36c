// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_mgr: the arbiter of RDMA NIC translation resources.
 *
 * Module init only starts the parts in order: sysfs first, so that the
 * ib_client, which registers a directory per device as soon as it is
 * added, has somewhere to put them.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "rnic_mgr.h"

/*
 * rxe and most NICs report no useful limit on translation entries, so
 * the default budget is configuration: 256 Ki entries map 1 GiB in 4 KiB
 * pages. Change a device's budget at run time in sysfs.
 */
unsigned int rnic_default_entries = 262144;
module_param_named(default_entries, rnic_default_entries, uint, 0644);
MODULE_PARM_DESC(default_entries, "budget of translation entries for each new device");

unsigned int rnic_default_keys = 4096;
module_param_named(default_keys, rnic_default_keys, uint, 0644);
MODULE_PARM_DESC(default_keys, "budget of MR keys for each new device");

unsigned int rnic_revoke_deadline_ms = 1000;
module_param_named(revoke_deadline_ms, rnic_revoke_deadline_ms, uint, 0644);
MODULE_PARM_DESC(revoke_deadline_ms, "time a consumer has to reach a shrink target before it is counted late");

unsigned int rnic_reap_interval_ms = 100;
module_param_named(reap_interval_ms, rnic_reap_interval_ms, uint, 0644);
MODULE_PARM_DESC(reap_interval_ms, "period of the reaper that keeps the free reserve");

static int __init rnic_mgr_init(void)
{
	int err;

	if (!rnic_reap_interval_ms)
		rnic_reap_interval_ms = 1;
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
