/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two RC QPs of one test program connected to each other over port 1
 * (tests/tools): RDMA WRITEs from one buffer of the program to another,
 * through the NIC, with no second process.
 */
#ifndef RDMASTOR_TOOLS_QP_PAIR_H
#define RDMASTOR_TOOLS_QP_PAIR_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

/* The GID index of the port's IPv4-mapped address (RoCE v2 on rxe). */
static inline int ipv4_gid(struct ibv_context *ctx, union ibv_gid *gid)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };
	int i;

	for (i = 0; i < 32; i++)
		if (!ibv_query_gid(ctx, 1, i, gid) && !memcmp(gid->raw, mapped, 12))
			return i;
	return -1;
}

static inline int qp_connect(struct ibv_qp *qp, uint32_t dest, union ibv_gid *gid, int idx)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_LOCAL_WRITE,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = idx;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			  IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* Two RC QPs of this process connected to each other over the port. */
static inline int connect_pair(struct ibv_pd *pd, struct ibv_cq **cq, struct ibv_qp **qp)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	union ibv_gid gid;
	int idx;

	idx = ipv4_gid(pd->context, &gid);
	*cq = ibv_create_cq(pd->context, 64, NULL, NULL, 0);
	if (idx < 0 || !*cq)
		return -1;
	qa.send_cq = *cq;
	qa.recv_cq = *cq;
	qp[0] = ibv_create_qp(pd, &qa);
	qp[1] = ibv_create_qp(pd, &qa);
	if (!qp[0] || !qp[1] || qp_connect(qp[0], qp[1]->qp_num, &gid, idx) ||
	    qp_connect(qp[1], qp[0]->qp_num, &gid, idx)) {
		printf("cannot connect the QPs\n");
		return -1;
	}
	return 0;
}

#endif /* RDMASTOR_TOOLS_QP_PAIR_H */
