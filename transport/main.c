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

bool rst_mr_keep_idle;
module_param_named(mr_keep_idle, rst_mr_keep_idle, bool, 0644);
MODULE_PARM_DESC(mr_keep_idle, "keep idle MRs until rnic_mgr asks for them back, rather than for mr_idle_ms (default N)");

/* The local ACK timeout exponent, as IBTA encodes it: 4.096 us << value. */
static int rst_param_set_ack_timeout(const char *val,
				     const struct kernel_param *kp)
{
	int t, err = kstrtoint(val, 0, &t);

	if (err)
		return err;
	if (t < -1 || t > 31)
		return -EINVAL;
	*(int *)kp->arg = t;
	return 0;
}

static const struct kernel_param_ops rst_ack_timeout_ops = {
	.set = rst_param_set_ack_timeout,
	.get = param_get_int,
};

int rst_ack_timeout = -1;
module_param_cb(ack_timeout, &rst_ack_timeout_ops, &rst_ack_timeout, 0644);
MODULE_PARM_DESC(ack_timeout, "local ACK timeout of new connections, 4.096 us << N (0..31); -1: rdma_cm's, 20 (4.3 s) on soft-RoCE");

unsigned int rst_rxe_kick_ms = 1000;
module_param_named(rxe_kick_ms, rst_rxe_kick_ms, uint, 0644);
MODULE_PARM_DESC(rxe_kick_ms, "on soft-RoCE whose requester may park (6.1), ring the doorbell of a send queue that stood still this long (kick.c; 0: never)");

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
MODULE_VERSION(RDMASTOR_VERSION);
MODULE_DESCRIPTION("rdmastor: RDMA transport engine (local-DMA-lkey messaging, per-I/O FRWR, arbiter-driven window)");
