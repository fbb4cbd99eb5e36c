// SPDX-License-Identifier: GPL-2.0
/*
 * Receive: every PDU the target sends is decoded with its lengths
 * checked (iser_pdu_decode, iser_rsp_decode) before libiscsi sees it.
 * A SCSI Response first ends its command's registration (H1):
 * the target's Send-with-Invalidate must name the command's key, else
 * we post a LOCAL_INV and hand the response over when it completes.
 * What the target should not have sent is a protocol error: the
 * connection fails and open-iscsi recovers the session.
 *
 * ->recv runs in the engine's completion context: softirq (ep.c's
 * cq_softirq, the default) or its completion work (process context, BH
 * enabled). libiscsi's receive path expects BH off, so it disables
 * them, which in softirq changes nothing; nothing here sleeps.
 */
#include <linux/module.h>
#include <scsi/scsi_cmnd.h>
#include "ini.h"
#include "trace.h"

/* Why a connection fails; set under the back_lock, acted on outside it */
struct ini_verdict {
	enum iscsi_err err;
	const char *why;
};

static void ini_verdict_set(struct ini_verdict *v, enum iscsi_err err,
			    const char *why)
{
	v->err = err;
	v->why = why;
}

/*
 * iscsi_conn_failure() takes the frwd_lock, which nests outside the
 * back_lock: called with neither held.
 */
static void ini_fail(struct ini_conn *ic, const struct ini_verdict *v)
{
	if (!v->err)
		return;
	trace_ini_proto_error(READ_ONCE(ic->rc), v->err, v->why ?: "libiscsi refused the PDU");
	if (v->why)
		pr_warn_ratelimited("%s: %s: protocol error\n",
				    dev_name(&ic->iconn->cls_conn->dev), v->why);
	iscsi_conn_failure(ic->iconn, v->err);
}

/* Hand a PDU to libiscsi. Under the back_lock, BH off. */
static void ini_deliver(struct ini_conn *ic, const u8 *bhs, const u8 *data,
			u32 dlen, struct ini_verdict *v)
{
	struct iscsi_hdr *hdr = (struct iscsi_hdr *)bhs;
	int rc;

	lockdep_assert_held(&ic->iconn->session->back_lock);
	rc = __iscsi_complete_pdu(ic->iconn, hdr, (char *)data, dlen);
	if (rc && rc != ISCSI_ERR_NO_SCSI_CMD)
		ini_verdict_set(v, rc, NULL);
}

/*
 * Hand libiscsi the held task management response (H5): no
 * command it ended may still be invalidating its key. Under the
 * back_lock, BH off.
 */
static void ini_tmf_deliver(struct ini_conn *ic, struct ini_verdict *v)
{
	struct iscsi_session *session = ic->iconn->session;
	u8 func = READ_ONCE(ic->tmf_func);
	int i;

	lockdep_assert_held(&session->back_lock);
	for (i = 0; i < session->cmds_max; i++) {
		struct iscsi_task *task = session->cmds[i];
		struct ini_task *it = task->dd_data;

		WARN_ONCE(task->sc && task->conn == ic->iconn &&
			  it->it_state == INI_T_INVALIDATING &&
			  iser_tmf_ends(func, (__force u32)ic->tmf_rtt, ic->tmf_lun.scsi_lun,
					(__force u32)task->hdr_itt, task->lun.scsi_lun),
			  "task management response before a LOCAL_INV it ended\n");
	}
	ini_deliver(ic, ic->tmf_rsp, NULL, 0, v);
}

/**
 * ini_inv_done - our LOCAL_INV of a command's key completed
 * @arg: the task
 * @status: the LOCAL_INV's
 *
 * Its response may go, and a task management response that waits for
 * it too (H5).
 * Context: completion, or process (fault.c's delay).
 */
void ini_inv_done(void *arg, int status)
{
	struct iscsi_task *task = arg;
	struct ini_task *it = task->dd_data;
	struct ini_conn *ic = task->conn->dd_data;
	struct iscsi_session *session = task->conn->session;
	struct ini_verdict v = {};

	local_bh_disable();
	spin_lock(&session->back_lock);
	/* a failed LOCAL_INV means the QP is in error: recovery follows */
	if (!status && it->it_state == INI_T_INVALIDATING) {
		it->it_state = INI_T_ANSWERED;
		ini_deliver(ic, it->rsp, it->rsp + ISER_BHS_LEN,
			    it->rsp_len - ISER_BHS_LEN, &v);
	}
	/* a task management response waits for this key too (H5) */
	if (it->tmf_waits) {
		it->tmf_waits = false;
		if (status)
			ic->tmf_failed = true;
		if (atomic_dec_and_test(&ic->tmf_pending) && !ic->tmf_failed)
			ini_tmf_deliver(ic, &v);
	}
	/* the reference ini_scsi_rsp() took; may free the task */
	__iscsi_put_task(task);
	spin_unlock(&session->back_lock);
	ini_fail(ic, &v);
	local_bh_enable();
}

/* A SCSI Response. Under the back_lock, BH off. */
static void ini_scsi_rsp(struct ini_conn *ic, const struct iser_pdu *p,
			 const struct iser_rsp *r, bool invalidated,
			 u32 inv_rkey, struct ini_verdict *v)
{
	struct iscsi_task *task;
	struct ini_task *it;

	lockdep_assert_held(&ic->iconn->session->back_lock);
	task = iscsi_itt_to_ctask(ic->iconn, (__force itt_t)cpu_to_be32(r->itt));
	if (!task)
		return ini_verdict_set(v, ISCSI_ERR_BAD_ITT, "response to no command");
	it = task->dd_data;
	if (it->it_state != INI_T_SENT)
		return ini_verdict_set(v, ISCSI_ERR_PROTO, "response to a command not in flight");
	if (!iser_rsp_statsn_fresh(it->statsn_valid, it->statsn_at_send, r->stat_sn))
		return ini_verdict_set(v, ISCSI_ERR_PROTO, "stale StatSN (answered twice)");
	if (!iser_rsp_residual_ok(r, scsi_bufflen(task->sc)))
		return ini_verdict_set(v, ISCSI_ERR_PROTO, "residual beyond the transfer");
	if (!ic->statsn_seen || iser_sn_after(r->stat_sn, ic->max_statsn))
		WRITE_ONCE(ic->max_statsn, r->stat_sn);
	WRITE_ONCE(ic->statsn_seen, true);
	if (invalidated) {
		if (!it->mr || rst_mr_remote_invalidated(it->mr, inv_rkey))
			return ini_verdict_set(v, ISCSI_ERR_PROTO, "invalidated the wrong key");
		trace_ini_rsp(ic->rc, r->itt, r->stat_sn, "remote_inv");
	} else if (it->mr) {
		trace_ini_rsp(ic->rc, r->itt, r->stat_sn, "local_inv");
		it->rsp_len = ISER_BHS_LEN + p->data_len;
		it->rsp = kmalloc(it->rsp_len, GFP_ATOMIC);
		if (!it->rsp)
			return ini_verdict_set(v, ISCSI_ERR_CONN_FAILED, "no memory");
		memcpy(it->rsp, p->bhs, ISER_BHS_LEN);
		memcpy(it->rsp + ISER_BHS_LEN, p->data, p->data_len);
		/* held until the LOCAL_INV completes (ini_inv_done) */
		if (!iscsi_get_task(task))
			return ini_verdict_set(v, ISCSI_ERR_PROTO, "task gone");
		it->it_state = INI_T_INVALIDATING;
		if (rst_mr_local_invalidate_async(it->mr, ini_fault_inv_done(), task)) {
			/*
			 * Not posted: the response could never be handed on
			 * and the command would wait for the SCSI timeout.
			 * The connection fails instead (its QP is in error).
			 */
			it->it_state = INI_T_SENT;
			__iscsi_put_task(task);
			return ini_verdict_set(v, ISCSI_ERR_CONN_FAILED,
					       "LOCAL_INV not posted");
		}
		return;
	}
	if (!it->mr)
		trace_ini_rsp(ic->rc, r->itt, r->stat_sn, "no_mr");
	it->it_state = INI_T_ANSWERED;
	ini_deliver(ic, p->bhs, p->data, p->data_len, v);
}

/* One LOCAL_INV for a task management response completed. */
static void ini_tmf_inv_done(void *arg, int status)
{
	struct iscsi_task *task = arg;
	struct ini_conn *ic = task->conn->dd_data;
	struct iscsi_session *session = task->conn->session;
	struct ini_verdict v = {};

	local_bh_disable();
	spin_lock(&session->back_lock);
	if (status)
		ic->tmf_failed = true;
	__iscsi_put_task(task);
	/* the last one: the response may go (unless the QP failed: recovery) */
	if (atomic_dec_and_test(&ic->tmf_pending) && !ic->tmf_failed)
		ini_tmf_deliver(ic, &v);
	spin_unlock(&session->back_lock);
	ini_fail(ic, &v);
	local_bh_enable();
}

/*
 * A task management response (H5): the commands it ends lose
 * their keys first. Under the back_lock, BH off.
 */
static void ini_tmf_rsp(struct ini_conn *ic, const struct iser_pdu *p,
			struct ini_verdict *v)
{
	struct iscsi_session *session = ic->iconn->session;
	u8 func = READ_ONCE(ic->tmf_func);
	int i, ended = 0, waited = 0;

	lockdep_assert_held(&session->back_lock);
	if (atomic_read(&ic->tmf_pending))
		return ini_verdict_set(v, ISCSI_ERR_PROTO, "task management answered twice");
	/* Response 0: function complete; anything else ended nothing */
	if (p->bhs[2]) {
		trace_ini_tmf_rsp(ic->rc, func, p->bhs[2], 0);
		ini_deliver(ic, p->bhs, NULL, 0, v);
		return;
	}
	memcpy(ic->tmf_rsp, p->bhs, ISER_BHS_LEN);
	ic->tmf_failed = false;
	atomic_set(&ic->tmf_pending, 1);
	for (i = 0; i < session->cmds_max; i++) {
		struct iscsi_task *task = session->cmds[i];
		struct ini_task *it = task->dd_data;

		if (!task->sc || task->conn != ic->iconn || !it->mr ||
		    (it->it_state != INI_T_SENT && it->it_state != INI_T_INVALIDATING) ||
		    !iser_tmf_ends(func, (__force u32)ic->tmf_rtt, ic->tmf_lun.scsi_lun,
				   (__force u32)task->hdr_itt, task->lun.scsi_lun))
			continue;
		if (it->it_state == INI_T_INVALIDATING) {
			/* answered, its LOCAL_INV running: wait for it (L1) */
			it->tmf_waits = true;
			atomic_inc(&ic->tmf_pending);
			waited++;
			continue;
		}
		if (!iscsi_get_task(task))
			continue;
		it->it_state = INI_T_ABORTED;
		atomic_inc(&ic->tmf_pending);
		ended++;
		if (rst_mr_local_invalidate_async(it->mr, ini_tmf_inv_done, task)) {
			/* not posted: the connection is going down */
			ic->tmf_failed = true;
			atomic_dec(&ic->tmf_pending);
			__iscsi_put_task(task);
		}
	}
	trace_ini_tmf_rsp(ic->rc, func, 0, ended + waited);
	if (atomic_dec_and_test(&ic->tmf_pending) && !ic->tmf_failed)
		ini_tmf_deliver(ic, v);
}

static void ini_recv(struct rst_conn *rc, const void *buf, u32 len,
		     bool invalidated, u32 inv_rkey)
{
	struct ini_conn *ic = rst_conn_priv(rc);
	struct iscsi_session *session;
	struct ini_verdict v = {};
	struct iser_pdu p;
	struct iser_rsp r;

	if (!ic) {
		/* nothing was sent before bind_conn: nothing may arrive */
		rst_disconnect(rc, -EPROTO);
		return;
	}
	if (test_bit(ISCSI_CONN_FLAG_SUSPEND_RX, &ic->iconn->flags))
		return;
	if (iser_pdu_decode(buf, len, &p) || iser_rsp_decode(&p, &r)) {
		ini_verdict_set(&v, ISCSI_ERR_PROTO, "malformed PDU");
		ini_fail(ic, &v);
		return;
	}
	session = ic->iconn->session;
	local_bh_disable();
	if (invalidated && r.opcode != ISER_ISCSI_OP_SCSI_RSP) {
		ini_verdict_set(&v, ISCSI_ERR_PROTO, "invalidation without a command");
	} else {
		spin_lock(&session->back_lock);
		if (r.opcode == ISER_ISCSI_OP_SCSI_RSP)
			ini_scsi_rsp(ic, &p, &r, invalidated, inv_rkey, &v);
		else if (r.opcode == ISER_ISCSI_OP_TMF_RSP)
			ini_tmf_rsp(ic, &p, &v);
		else
			ini_deliver(ic, p.bhs, p.data, p.data_len, &v);
		/* libiscsi matched it to our Logout: the close that follows is no failure */
		if (r.opcode == ISER_ISCSI_OP_LOGOUT_RSP && !v.err)
			WRITE_ONCE(ic->logged_out, true);
		spin_unlock(&session->back_lock);
	}
	ini_fail(ic, &v);
	local_bh_enable();
}

static void ini_disconnected(struct rst_conn *rc, int reason)
{
	struct ini_conn *ic = rst_conn_priv(rc);

	if (!ic) {
		trace_ini_disconnected(rc, reason, "unbound");
		return;
	}
	if (READ_ONCE(ic->stopping)) {
		trace_ini_disconnected(rc, reason, "stopping");
		return;
	}
	/*
	 * The target closes the connection once its Logout Response is
	 * out; iscsid, which has that response, stops the connection
	 * next. The TCP transport ignores a close while logging out too.
	 */
	if (READ_ONCE(ic->logged_out)) {
		trace_ini_disconnected(rc, reason, "after_logout");
		return;
	}
	trace_ini_disconnected(rc, reason, "failed");
	iscsi_conn_failure(ic->iconn, ISCSI_ERR_CONN_FAILED);
}

const struct rst_conn_ops ini_rst_ops = {
	.recv = ini_recv,
	.disconnected = ini_disconnected,
};
