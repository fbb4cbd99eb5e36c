// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoints: iscsid's ep_connect/ep_poll/ep_disconnect on the engine's
 * active side. rst_connect() sleeps until the connection is up, so it
 * runs in a work item and ep_poll waits for it. RFC 7145 private data:
 * we refuse zero-based addresses and accept Send-with-Invalidate.
 */
#include <linux/module.h>
#include <linux/inet.h>
#include "ini.h"

/*
 * The small MR class, in pages (ini.h): an I/O that fits is charged this
 * many entries, a larger one INI_IO_PAGES. 0, or INI_IO_PAGES and up,
 * leaves one class (the engine's rule, transport/frwr.c).
 */
static unsigned int ini_small_pages = INI_SMALL_PAGES;
module_param_named(small_mr_pages, ini_small_pages, uint, 0444);
MODULE_PARM_DESC(small_mr_pages, "pages of the small MR class (default 16: a 64 KiB I/O)");

/*
 * Completions in softirq, as ib_iser handles them: no hop to a kworker
 * for each. ->recv and the LOCAL_INV callbacks never sleep, and take
 * libiscsi's back_lock with bottom halves off (rx.c).
 */
static bool ini_cq_softirq = true;
module_param_named(cq_softirq, ini_cq_softirq, bool, 0444);
MODULE_PARM_DESC(cq_softirq, "handle completions in softirq rather than in a workqueue (default Y)");

static void ini_connect_work(struct work_struct *work)
{
	struct ini_ep *ep = container_of(work, struct ini_ep, connect_work);
	u8 pdata[ISER_CM_LEN];
	char name[40];
	struct rst_conn_params p = {
		.name = name,
		.weight = 1,
		.recv_depth = INI_RECV_DEPTH,
		.send_depth = INI_SEND_DEPTH,
		.msg_size = INI_MSG_SIZE,
		.max_io_pages = INI_IO_PAGES,
		.small_io_pages = ini_small_pages,
		.cq_softirq = READ_ONCE(ini_cq_softirq),
		.private_data = pdata,
		.private_len = sizeof(pdata),
		.ops = &ini_rst_ops,
	};
	struct rst_conn *rc;
	const void *rep;
	u8 len, flags;
	int err = 0;

	/*
	 * Named by the target portal (iser-ini-192.0.2.1), so that rnic_mgr's
	 * consumer_weights can weigh one target; its IQN is not known before
	 * the login, after the connection is made.
	 */
	snprintf(name, sizeof(name), "iser-ini-%pISc", (struct sockaddr *)&ep->dst);
	iser_cm_req_encode(pdata);
	rc = rst_connect(&init_net, (struct sockaddr *)&ep->dst, &p, INI_CONNECT_MS);
	if (IS_ERR(rc)) {
		err = PTR_ERR(rc);
		goto out;
	}
	rep = rst_conn_peer_pdata(rc, &len);
	if (iser_cm_rep_decode(rep, len, &flags)) {
		pr_warn("%s: target's private data has reserved bits set\n", name);
		rst_close(rc);
		err = -EPROTO;
		goto out;
	}
	/* iSCSI says nothing about credits: libiscsi keeps the CmdSN window */
	rst_set_peer_credits(rc, INI_RECV_DEPTH);
	ep->rc = rc;
out:
	ep->connect_err = err;
	complete_all(&ep->connected);
}

/**
 * ini_ep_connect - start connecting to a target (iscsid's ep_connect)
 * @shost: unused: the route decides the device
 * @dst: the target portal
 * @non_blocking: unused: we always connect in the background
 *
 * Return: the endpoint or ERR_PTR.
 */
struct iscsi_endpoint *ini_ep_connect(struct Scsi_Host *shost,
				      struct sockaddr *dst, int non_blocking)
{
	struct iscsi_endpoint *iep;
	struct ini_ep *ep;

	if (dst->sa_family != AF_INET && dst->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	iep = iscsi_create_endpoint(sizeof(*ep));
	if (!iep)
		return ERR_PTR(-ENOMEM);
	ep = iep->dd_data;
	ep->iep = iep;
	memcpy(&ep->dst, dst, dst->sa_family == AF_INET ?
	       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	init_completion(&ep->connected);
	INIT_WORK(&ep->connect_work, ini_connect_work);
	queue_work(system_unbound_wq, &ep->connect_work);
	return iep;
}

/**
 * ini_ep_poll - is the connection up? (iscsid's ep_poll)
 * @iep: the endpoint
 * @timeout_ms: how long to wait
 *
 * Return: 1 when up, 0 if still connecting, a negative errno if it failed.
 */
int ini_ep_poll(struct iscsi_endpoint *iep, int timeout_ms)
{
	struct ini_ep *ep = iep->dd_data;
	long left;

	left = wait_for_completion_interruptible_timeout(&ep->connected,
							 msecs_to_jiffies(timeout_ms));
	if (left < 0)
		return left;
	if (!left)
		return 0;
	return ep->connect_err ?: 1;
}

/**
 * ini_ep_disconnect - take the connection down (iscsid's ep_disconnect)
 * @iep: the endpoint
 *
 * Called after unbind_conn and before stop_conn: a bound connection is
 * disconnected and drained here but freed by stop_conn, once libiscsi
 * has cleaned up its tasks (H6).
 */
void ini_ep_disconnect(struct iscsi_endpoint *iep)
{
	struct ini_ep *ep = iep->dd_data;
	struct ini_conn *ic;

	flush_work(&ep->connect_work);
	mutex_lock(&ini_mutex);
	ic = ep->conn;
	if (ic) {
		ic->stopping = true;
		if (ic->rc)
			rst_shutdown(ic->rc);
		ic->ep = NULL;
		ep->conn = NULL;
	} else if (ep->rc) {
		rst_close(ep->rc);
	}
	ep->rc = NULL;
	mutex_unlock(&ini_mutex);
	iscsi_destroy_endpoint(iep);
}

/**
 * ini_get_ep_param - the target's address of an endpoint
 * @iep: the endpoint
 * @param: ISCSI_PARAM_CONN_ADDRESS or ISCSI_PARAM_CONN_PORT
 * @buf: sysfs buffer
 *
 * Return: bytes written or -EINVAL.
 */
int ini_get_ep_param(struct iscsi_endpoint *iep, enum iscsi_param param,
		     char *buf)
{
	struct ini_ep *ep = iep->dd_data;

	switch (param) {
	case ISCSI_PARAM_CONN_ADDRESS:
	case ISCSI_PARAM_CONN_PORT:
		return iscsi_conn_get_addr_param(&ep->dst, param, buf);
	default:
		return -EINVAL;
	}
}
