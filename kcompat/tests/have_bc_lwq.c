// SPDX-License-Identifier: GPL-2.0
/*
 * Is the server's backchannel queue a lock-free queue (lwq) whose
 * producer wakes an idle thread itself (6.8 on), rather than a list under
 * sv_cb_lock with a wait queue?
 */
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xprt.h>

void kcompat_probe(struct svc_serv *serv, struct rpc_rqst *rqst);
/**
 * kcompat_probe - compiles only where the callback queue is an lwq
 * @serv: a server
 * @rqst: a callback call
 */
void kcompat_probe(struct svc_serv *serv, struct rpc_rqst *rqst)
{
	lwq_enqueue(&rqst->rq_bc_list, &serv->sv_cb_list);
	svc_pool_wake_idle_thread(&serv->sv_pools[0]);
}
