// SPDX-License-Identifier: GPL-2.0
/*
 * rdmastor_transport: the protocol-neutral RDMA engine (include/rdmastor/rst.h).
 */
#include <linux/module.h>
#include <linux/workqueue.h>

#include "rst_int.h"

/* Writable at run time, so bounded: 0 would make the idle reaper spin. */
static int rst_set_mr_idle_ms(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 10, 3600000);
}

static const struct kernel_param_ops rst_mr_idle_ms_ops = {
	.set = rst_set_mr_idle_ms,
	.get = param_get_uint,
};

unsigned int rst_mr_idle_ms = 1000;
module_param_cb(mr_idle_ms, &rst_mr_idle_ms_ops, &rst_mr_idle_ms, 0644);
MODULE_PARM_DESC(mr_idle_ms, "a connection that starts no I/O for this long frees its idle MRs (10..3600000)");

static int __init rst_init(void)
{
	/* Teardown runs here: it must make progress under memory pressure. */
	rst_wq = alloc_workqueue("rdmastor_rst", WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	if (!rst_wq)
		return -ENOMEM;
	rst_fault_init();
	return 0;
}

static void __exit rst_exit(void)
{
	rst_fault_exit();
	destroy_workqueue(rst_wq);
}

module_init(rst_init);
module_exit(rst_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdmastor: RDMA transport engine (local-DMA-lkey messaging, per-I/O FRWR, arbiter-driven window)");
