// SPDX-License-Identifier: GPL-2.0
/*
 * Login phase. The receive ring is posted from the start, so login
 * requests arrive like any message. The first is kept until LIO's login
 * thread asks for it (->iscsit_get_login_rx); later ones are handed to
 * LIO's login work as they arrive, as LIO expects of RDMA transports.
 *
 * The final login response is held back until LIO's receive thread
 * starts (->iscsit_get_rx_pdu): the session is then registered, and the
 * initiator's first command, which may follow the response at once,
 * finds the connection in full feature phase.
 */
#include <linux/module.h>

#include "ist.h"

static void ist_login_copy(struct ist_conn *ic, struct iscsi_login *login)
{
	memcpy(login->req, ic->login_bhs, ISCSI_HDR_LEN);
	memcpy(login->req_buf, ic->login_data, ic->login_len);
}

/* A login request arrived (completion context). */
void ist_login_recv(struct ist_conn *ic, const struct iser_pdu *p)
{
	struct iscsi_login *login = NULL;
	struct iscsit_conn *conn;

	if (p->opcode != ISER_ISCSI_OP_LOGIN) {
		ist_protocol_error(ic, "a PDU other than a login request before login completed");
		return;
	}
	memcpy(ic->login_bhs, p->bhs, ISER_BHS_LEN);
	memcpy(ic->login_data, p->data, p->data_len);
	ic->login_len = p->data_len;
	mutex_lock(&ic->inp->lock);
	conn = ic->conn;
	if (conn && conn->conn_login && !conn->conn_login->first_request)
		login = conn->conn_login;
	mutex_unlock(&ic->inp->lock);
	if (login) {
		ist_login_copy(ic, login);
		schedule_delayed_work(&conn->login_work, 0);
	}
	complete(&ic->login_req);
}

int ist_get_login_rx(struct iscsit_conn *conn, struct iscsi_login *login)
{
	struct ist_conn *ic = conn->context;
	struct iscsi_login_req *req;
	int err;

	/* LIO's login timer interrupts this wait */
	err = wait_for_completion_interruptible(&ic->login_req);
	if (err)
		return err;
	if (READ_ONCE(ic->down))
		return -ENOTCONN;
	if (!login->first_request)
		return 0;	/* ist_login_recv() copied it in */
	ist_login_copy(ic, login);
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
	tx = rst_tx_get(ic->rc, 5000);
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
	if (!login->login_failed)
		return rst_tx_post(ic->rc, tx, len, NULL, false, 0);
	/*
	 * A login reject: LIO closes the connection as soon as we return;
	 * let the reject reach the initiator first.
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
 * LIO's receive thread: the session is in full feature phase. Send the
 * final login response, then wait for the connection to end (a signal
 * from LIO, or ist_disconnected()); returning tells LIO it has ended.
 */
void ist_get_rx_pdu(struct iscsit_conn *conn)
{
	struct ist_conn *ic = conn->context;
	struct rst_tx *tx = ic->login_final;

	if (!tx)
		return;		/* the login timed out after its response */
	ic->login_final = NULL;
	WRITE_ONCE(ic->phase, IST_FULL);
	if (rst_tx_post(ic->rc, tx, ic->login_final_len, NULL, false, 0))
		return;
	wait_event_interruptible(ic->wq, READ_ONCE(ic->down));
}
