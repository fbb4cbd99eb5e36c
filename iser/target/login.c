// SPDX-License-Identifier: GPL-2.0
/*
 * Login phase. A few receive buffers are posted from the start
 * (IST_LOGIN_DEPTH; the full rings come with full feature phase), so
 * login requests arrive like any message. Each is kept here until LIO
 * asks for it (->iscsit_get_login_rx): the first from its login thread,
 * later ones from its login work, which each one queues as it arrives.
 * Only LIO's own threads write LIO's login buffers: LIO frees them when a
 * login fails, and from 6.5 its login timer fails a login by itself.
 * Login is request and response: a request LIO is not waiting for (one
 * pipelined behind another, or after a reject) ends the connection, and
 * so does an initiator that owes a request for IST_LOGIN_WAIT_MS.
 *
 * The final login response is held back until LIO's receive thread
 * starts (->iscsit_get_rx_pdu): the session is then registered, and the
 * initiator's first command, which may follow the response at once,
 * finds the connection in full feature phase.
 */
#include <linux/module.h>
#include <target/iscsi/iscsi_target_core.h>

#include "ist.h"

/**
 * ist_login_recv - a message arrived in the login phase
 * @ic: the connection
 * @p: the decoded message
 *
 * Taken only if it is a login request LIO waits for (ist_conn's
 * login_expect); anything else ends the connection.
 * Context: the engine's receive completion (process, may sleep briefly).
 */
void ist_login_recv(struct ist_conn *ic, const struct iser_pdu *p)
{
	bool ready;

	if (p->opcode != ISER_ISCSI_OP_LOGIN) {
		ist_protocol_error(ic, "a PDU other than a login request before login completed");
		return;
	}
	mutex_lock(&ic->inp->lock);
	if (!ic->login_expect) {
		mutex_unlock(&ic->inp->lock);
		ist_protocol_error(ic, "a login request LIO is not waiting for");
		return;
	}
	ic->login_expect = false;
	memcpy(ic->login_bhs, p->bhs, ISER_BHS_LEN);
	memcpy(ic->login_data, p->data, p->data_len);
	ic->login_len = p->data_len;
	/*
	 * A request after the first (LIO's login thread took the first
	 * when it bound the connection) goes to LIO's login work, as LIO
	 * expects of RDMA. The connection is LIO's until ist_wait_conn(),
	 * which takes login_expect back first.
	 */
	if (ic->bound)
		schedule_delayed_work(&ic->conn->login_work, 0);
	ready = !ic->login_ready;
	ic->login_ready = true;
	mutex_unlock(&ic->inp->lock);
	complete(&ic->login_req);
	if (ready)	/* now LIO's login thread may take the connection */
		wake_up(&ic->inp->wq);
}

/*
 * LIO will not take another login request on this connection. Return:
 * whether it was still waiting for one.
 */
static bool ist_login_unexpect(struct ist_conn *ic)
{
	bool was;

	mutex_lock(&ic->inp->lock);
	was = ic->login_expect;
	ic->login_expect = false;
	mutex_unlock(&ic->inp->lock);
	return was;
}

/**
 * ist_get_login_rx - LIO's ->iscsit_get_login_rx: the next login request
 * @conn: LIO's connection
 * @login: LIO's login state; the request is copied into it here
 *
 * Return: 0, or an errno when LIO's login timer interrupted the wait or
 * the connection went down (no login request is taken after that).
 * Context: process (LIO's login thread or login work), sleeps.
 */
int ist_get_login_rx(struct iscsit_conn *conn, struct iscsi_login *login)
{
	struct ist_conn *ic = conn->context;
	struct iscsi_login_req *req;
	int err;

	/* LIO's login timer interrupts this wait */
	err = wait_for_completion_interruptible(&ic->login_req);
	if (!err && READ_ONCE(ic->down))
		err = -ENOTCONN;
	if (err) {
		/* LIO drops the login next, and frees its buffers */
		ist_login_unexpect(ic);
		return err;
	}
	/* stable: the next is taken only after LIO's response to this one */
	memcpy(login->req, ic->login_bhs, ISCSI_HDR_LEN);
	memcpy(login->req_buf, ic->login_data, ic->login_len);
	if (!login->first_request)
		return 0;
	req = (struct iscsi_login_req *)login->req;
	login->leading_connection = !req->tsih;
	login->current_stage = (req->flags & ISCSI_FLAG_LOGIN_CURRENT_STAGE_MASK) >> 2;
	login->version_min = req->min_version;
	login->version_max = req->max_version;
	memcpy(login->isid, req->isid, sizeof(login->isid));
	login->cmd_sn = be32_to_cpu(req->cmdsn);
	login->init_task_tag = req->itt;
	login->initial_exp_statsn = be32_to_cpu(req->exp_statsn);
	login->cid = be16_to_cpu(req->cid);
	login->tsih = be16_to_cpu(req->tsih);
	return 0;
}

static void ist_login_sent(void *arg, int status)
{
	complete(arg);
}

/**
 * ist_put_login_tx - LIO's ->iscsit_put_login_tx: send a login response
 * @conn: LIO's connection
 * @login: LIO's login state, with the response built
 * @length: bytes of response data
 *
 * A final response is held until ist_get_rx_pdu(); a non-final one lets
 * the initiator's next request in; a reject is waited for (5 s at most).
 *
 * Return: 0 or an errno.
 * Context: process, may sleep.
 */
int ist_put_login_tx(struct iscsit_conn *conn, struct iscsi_login *login,
		     u32 length)
{
	DECLARE_COMPLETION_ONSTACK(sent);
	struct ist_conn *ic = conn->context;
	struct rst_tx *tx;
	u8 *buf;
	u32 len;

	if (length > IST_MAX_DSL)
		return -EINVAL;
	tx = rst_tx_get(ic->rc, IST_LOGIN_SEND_MS);
	if (IS_ERR(tx))
		return PTR_ERR(tx);
	buf = rst_tx_buf(tx);
	len = iser_hdr_encode(buf);
	memcpy(buf + len, login->rsp, ISCSI_HDR_LEN);
	len += ISCSI_HDR_LEN;
	memcpy(buf + len, login->rsp_buf, length);
	len += length;
	if (!login->login_failed && login->login_complete) {
		ic->login_final = tx;
		ic->login_final_len = len;
		return 0;
	}
	if (!login->login_failed) {
		int err;

		/* the initiator answers this one: let its request in first */
		mutex_lock(&ic->inp->lock);
		ic->login_expect = true;
		mutex_unlock(&ic->inp->lock);
		/* its deadline runs from this response (ist_login_wait_expired()) */
		mod_delayed_work(ist_wq, &ic->login_wait,
				 msecs_to_jiffies(IST_LOGIN_WAIT_MS));
		err = rst_tx_post(ic->rc, tx, len, NULL, false, 0);
		/*
		 * Not sent: the connection is going down. If ist_disconnected()
		 * or a request already took login_expect back, LIO's login work
		 * is queued and ends the login; an error here would end it a
		 * second time, with that work still queued.
		 */
		if (err && !ist_login_unexpect(ic))
			return 0;
		return err;
	}
	/*
	 * A login reject: LIO closes the connection as soon as we return;
	 * let the reject reach the initiator first. No login request is
	 * taken after it.
	 */
	rst_tx_on_done(tx, ist_login_sent, &sent);
	rst_tx_post(ic->rc, tx, len, NULL, false, 0);
	if (!wait_for_completion_timeout(&sent, 5 * HZ)) {
		rst_disconnect(ic->rc, -ETIMEDOUT);	/* flushes the send */
		wait_for_completion(&sent);
	}
	return 0;
}

/*
 * LIO arms its NOP-In timer for TCP connections only ("FIXME:
 * Unsolicited NopIN support for ISER"), so an iSER initiator that goes
 * silent was never noticed. Arm it as LIO does for TCP (the timer, its
 * handler and the node attributes are LIO's): every nopin_timeout
 * seconds of the session LIO sends a NOP-In that wants an answer; none
 * in nopin_response_timeout, or a send that fails on a dead link, ends
 * the connection. An answer (rx.c) re-arms it through LIO.
 */
static void ist_start_nopin_timer(struct iscsit_conn *conn)
{
	struct iscsi_node_attrib *na;

	if (!conn->sess || conn->sess->sess_ops->SessionType)
		return;		/* discovery sessions are not pinged */
	na = &to_iscsi_nacl(conn->sess->se_sess->se_node_acl)->node_attrib;
	spin_lock_bh(&conn->nopin_timer_lock);
	if (na->nopin_timeout && !(conn->nopin_timer_flags & ISCSI_TF_RUNNING)) {
		conn->nopin_timer_flags &= ~ISCSI_TF_STOP;
		conn->nopin_timer_flags |= ISCSI_TF_RUNNING;
		mod_timer(&conn->nopin_timer, jiffies + na->nopin_timeout * HZ);
	}
	spin_unlock_bh(&conn->nopin_timer_lock);
}

/*
 * Wait for the connection to end. A discovery session (N6) is ended
 * once it sent nothing for discovery_idle_s: it is not pinged (LIO's
 * NOP-In is for Normal sessions), and one kept open holds its full
 * rings for nothing. Checked at each period's end, so it goes between
 * one and two periods after its last PDU.
 */
static void ist_wait_down(struct ist_conn *ic, bool discovery)
{
	int seen = atomic_read(&ic->rx_pdus);
	unsigned int idle_s;

	for (;;) {
		idle_s = discovery ? READ_ONCE(ist_discovery_idle_s) : 0;
		if (!idle_s) {
			wait_event_interruptible(ic->wq, READ_ONCE(ic->down));
			return;
		}
		if (wait_event_interruptible_timeout(ic->wq, READ_ONCE(ic->down),
						     idle_s * HZ) != 0)
			return;		/* down, or LIO's signal */
		if (atomic_read(&ic->rx_pdus) == seen)
			break;
		seen = atomic_read(&ic->rx_pdus);
	}
	pr_info("connection %u: discovery session idle for %u s: closing\n",
		ic->nr, idle_s);
	rst_disconnect(ic->rc, -ETIMEDOUT);
	wait_event_interruptible(ic->wq, READ_ONCE(ic->down));
}

/**
 * ist_get_rx_pdu - LIO's ->iscsit_get_rx_pdu: the receive thread's body
 * @conn: LIO's connection, now in full feature phase
 *
 * Sends the final login response, arms the NOP-In timer, then waits for
 * the connection to end (a signal from LIO, or ist_disconnected());
 * returning tells LIO it has ended.
 * Context: process (LIO's receive thread), sleeps.
 */
void ist_get_rx_pdu(struct iscsit_conn *conn)
{
	struct ist_conn *ic = conn->context;
	struct rst_tx *tx = ic->login_final;
	int err;

	if (!tx)
		return;		/* the login timed out after its response */
	ic->login_final = NULL;
	/*
	 * N4: full rings before the final response, which lets the
	 * initiator's commands in. Without them the connection cannot work.
	 */
	err = ist_np_login_end(ic) ? rst_rings_grow(ic->rc) : -ENOTCONN;
	if (err) {
		rst_tx_put(ic->rc, tx);
		rst_disconnect(ic->rc, err);
		return;
	}
	WRITE_ONCE(ic->phase, IST_FULL);
	if (rst_tx_post(ic->rc, tx, ic->login_final_len, NULL, false, 0))
		return;
	ist_start_nopin_timer(conn);
	ist_wait_down(ic, conn->sess && conn->sess->sess_ops->SessionType);
}
