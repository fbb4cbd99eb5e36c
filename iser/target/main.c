// SPDX-License-Identifier: GPL-2.0
/*
 * rdmastor_isert: LIO's iSER transport (ISCSI_INFINIBAND) on the rdmastor
 * engine. targetcli's `enable_iser true` asks the kernel for "ib_isert";
 * etc/modprobe.d/rdmastor-iser.conf makes that name load this module.
 */
#include <linux/module.h>

#include "ist.h"

struct workqueue_struct *ist_wq;

bool ist_force_mr;
module_param_named(force_mr, ist_force_mr, bool, 0644);
MODULE_PARM_DESC(force_mr,
		 "register every RDMA READ sink with a per-I/O MR charged to rnic_mgr, as iWARP requires (new connections)");

/*
 * A discovery session answers SendTargets and is logged out within
 * milliseconds; one left open keeps its full rings (4.5 MiB on rxe).
 */
unsigned int ist_discovery_idle_s = 30;
module_param_named(discovery_idle_s, ist_discovery_idle_s, uint, 0644);
MODULE_PARM_DESC(discovery_idle_s,
		 "end a discovery session that sent nothing for this many seconds (0: never; default 30)");

/**
 * ist_get_sup_prot_ops - LIO's ->iscsit_get_sup_prot_ops
 * @conn: the connection
 *
 * Return: TARGET_PROT_NORMAL: no T10-PI offload (Documentation/iser.rst).
 */
static enum target_prot_op ist_get_sup_prot_ops(struct iscsit_conn *conn)
{
	return TARGET_PROT_NORMAL;	/* no T10-PI offload */
}

struct iscsit_transport ist_transport = {
	.name			= "rdmastor/iSER",
	.transport_type		= ISCSI_INFINIBAND,
	.rdma_shutdown		= true,
	.priv_size		= sizeof(struct ist_cmd),
	.owner			= THIS_MODULE,
	.iscsit_setup_np	= ist_setup_np,
	.iscsit_accept_np	= ist_accept_np,
	.iscsit_free_np		= ist_free_np,
	.iscsit_wait_conn	= ist_wait_conn,
	.iscsit_free_conn	= ist_free_conn,
	.iscsit_get_login_rx	= ist_get_login_rx,
	.iscsit_put_login_tx	= ist_put_login_tx,
	.iscsit_immediate_queue	= ist_immediate_queue,
	.iscsit_response_queue	= ist_response_queue,
	.iscsit_get_dataout	= ist_get_dataout,
	.iscsit_queue_data_in	= ist_queue_data_in,
	.iscsit_queue_status	= ist_queue_status,
	.iscsit_aborted_task	= ist_aborted_task,
	.iscsit_unmap_cmd	= ist_unmap_cmd,
	.iscsit_get_rx_pdu	= ist_get_rx_pdu,
	.iscsit_get_sup_prot_ops = ist_get_sup_prot_ops,
};

static int __init ist_init(void)
{
	/* control completions and logout: they sleep in LIO */
	ist_wq = alloc_workqueue("rdmastor_isert", WQ_UNBOUND, 0);
	if (!ist_wq)
		return -ENOMEM;
	ist_stats_init();
	iscsit_register_transport(&ist_transport);
	return 0;
}

static void __exit ist_exit(void)
{
	iscsit_unregister_transport(&ist_transport);
	ist_stats_exit();
	destroy_workqueue(ist_wq);
}

module_init(ist_init);
module_exit(ist_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(RDMASTOR_VERSION);
MODULE_DESCRIPTION("rdmastor: iSER target transport for LIO (DMA-address data movement, messaging without MRs)");
MODULE_SOFTDEP("pre: iscsi_target_mod rdmastor_transport");
