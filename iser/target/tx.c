// SPDX-License-Identifier: GPL-2.0
/*
 * Sending and data movement. Every PDU is one send from the engine's
 * ring: the iSER header, the iSCSI header LIO builds in place, and the
 * data segment (sense, text, reject, ping data) copied behind it, so no
 * PDU needs a mapping of its own. SCSI READ data goes by RDMA WRITE
 * chained in front of the response; SCSI WRITE data by RDMA READ, into
 * pages referenced by DMA address, or in forced-MR mode through an MR
 * registered for that READ only. Responses invalidate the command's
 * key in the initiator (Send-with-Invalidate) where it agreed to that.
 *
 * A command is released (ist_cmd_put()) when its last send completes or
 * fails; on a connection that is down, sending fails at once and the
 * command is released just the same, so LIO's wait for its commands
 * ends.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <rdmastor/kcompat.h>
#include <target/target_core_base.h>
#include <target/target_core_fabric.h>

#include "ist.h"
#include "trace.h"

/**
 * ist_window - most commands the session may have outstanding
 * @ic: the connection
 *
 * Return: the MRs its share covers in forced-MR mode (at least 1), or
 * U32_MAX when it takes no translation entries (LIO's depth applies).
 */
u32 ist_window(struct ist_conn *ic)
{
	if (!ic->use_mr)
		return U32_MAX;		/* no translation entries: LIO's depth */
	return max(rst_mr_limit(ic->rc), 1U);
}

/**
 * ist_cmd_uncount - the command no longer counts against the window
 * @icmd: the command (uncounted at most once)
 */
void ist_cmd_uncount(struct ist_cmd *icmd)
{
	if (test_and_clear_bit(IST_CMD_COUNTED, &icmd->flags))
		atomic_dec(&icmd->ic->outstanding);
}

/*
 * Lower the MaxCmdSN LIO put in @bhs so that the commands outstanding
 * plus those the initiator may still send stay within ist_window().
 * Initiators ignore a MaxCmdSN below one they have seen (RFC 7143
 * 4.2.2.1), so a lowered window takes effect as commands complete.
 */
static void ist_clamp_maxcmdsn(struct ist_conn *ic, u8 *bhs)
{
	u32 exp = get_unaligned_be32(bhs + 28);
	u32 lio_max = get_unaligned_be32(bhs + 32);
	u32 win = ist_window(ic);
	u32 out = atomic_read(&ic->outstanding);
	u32 max;

	if (win == U32_MAX) {
		WRITE_ONCE(ic->window_adv, lio_max - exp + 1);
		return;
	}
	/* the share binds: free entries may have come since the last look */
	if (out + 1 >= win && time_after(jiffies, READ_ONCE(ic->share_checked) + HZ / 10)) {
		WRITE_ONCE(ic->share_checked, jiffies);
		rst_refresh_share(ic->rc);
		win = ist_window(ic);
	}
	max = exp - 1 + (win > out ? win - out : 0);
	if ((s32)(max - lio_max) > 0)
		max = lio_max;
	put_unaligned_be32(max, bhs + 32);
	WRITE_ONCE(ic->window_adv, max - exp + 1);
}

static u8 *ist_tx_bhs(struct rst_tx *tx)
{
	u8 *buf = rst_tx_buf(tx);

	iser_hdr_encode(buf);
	memset(buf + ISER_HDR_LEN, 0, ISER_BHS_LEN);
	return buf + ISER_HDR_LEN;
}

static u8 *ist_tx_data(struct rst_tx *tx)
{
	return (u8 *)rst_tx_buf(tx) + ISER_HEADERS_LEN;
}

/*
 * The key the response invalidates in the initiator, or 0. @may_fault:
 * the response's send takes any key (READ data's takes its own).
 */
static u32 ist_inv_rkey(struct ist_cmd *icmd, bool may_fault)
{
	u32 key = 0;

	/* hostile-target test: as if the initiator had to invalidate itself */
	if (!icmd->ic->send_w_inv || ist_fault_no_inv())
		return 0;
	if (icmd->has_read)
		key = icmd->read_stag;
	else if (icmd->has_write)
		key = icmd->write_stag;
	/* hostile-target test: maybe another command's key */
	if (may_fault && key)
		key = ist_fault_wrong_inv(icmd->ic, key);
	return key;
}

/* Repost the receive buffer a command's immediate data was used from. */
static void ist_cmd_release_rx(struct ist_cmd *icmd)
{
	struct rst_rx *rx = xchg(&icmd->rx_hold, NULL);

	if (rx)
		rst_rx_release(icmd->ic->rc, rx);
}

/**
 * ist_unmap_cmd - LIO's ->iscsit_unmap_cmd: LIO frees the command
 * @conn: its connection
 * @cmd: the command
 *
 * Every path but LIO's abort ends here: the held receive buffer of its
 * immediate data is reposted.
 */
void ist_unmap_cmd(struct iscsit_conn *conn, struct iscsit_cmd *cmd)
{
	ist_cmd_release_rx(iscsit_priv_cmd(cmd));
}

/**
 * ist_cmd_put - release our hold on a command
 * @icmd: the command
 * @comp_err: its send failed (the connection is going down)
 */
void ist_cmd_put(struct ist_cmd *icmd, bool comp_err)
{
	struct iscsit_cmd *cmd = icmd->cmd;
	struct iscsit_conn *conn = cmd->conn;

	ist_cmd_uncount(icmd);
	ist_cmd_release_rx(icmd);
	spin_lock_bh(&conn->cmd_lock);
	if (!list_empty(&cmd->i_conn_node))
		list_del_init(&cmd->i_conn_node);
	spin_unlock_bh(&conn->cmd_lock);

	switch (cmd->iscsi_opcode) {
	case ISCSI_OP_SCSI_CMD:
		if (cmd->data_direction == DMA_TO_DEVICE) {
			iscsit_stop_dataout_timer(cmd);
			/*
			 * Failed while LIO waits for the data (write pending):
			 * the reference LIO holds for the data is ours to drop.
			 */
			if (comp_err && cmd->se_cmd.t_state == TRANSPORT_WRITE_PENDING)
				target_put_sess_cmd(&cmd->se_cmd);
		}
		transport_generic_free_cmd(&cmd->se_cmd, 0);
		break;
	case ISCSI_OP_SCSI_TMFUNC:
		transport_generic_free_cmd(&cmd->se_cmd, 0);
		break;
	case ISCSI_OP_REJECT:
	case ISCSI_OP_NOOP_OUT:
	case ISCSI_OP_TEXT:
		if (!comp_err && test_bit(IST_CMD_TEXT_CONTINUE, &icmd->flags))
			break;	/* more text to come under the same command */
		if (cmd->se_cmd.se_tfo) {
			/* a reject that took over a SCSI command */
			transport_generic_free_cmd(&cmd->se_cmd, 0);
			break;
		}
		fallthrough;
	default:
		iscsit_release_cmd(cmd);
		break;
	}
}

/* Control completions that sleep in LIO, in process context. */
static void ist_ctrl_work(struct work_struct *work)
{
	struct ist_cmd *icmd = container_of(work, struct ist_cmd, work);
	struct ist_conn *ic = icmd->ic;
	struct iscsit_cmd *cmd = icmd->cmd;
	bool counted = test_bit(IST_CMD_CTRL_COUNTED, &icmd->flags);

	switch (cmd->i_state) {
	case ISTATE_SEND_TASKMGTRSP:
		iscsit_tmr_post_handler(cmd, cmd->conn);
		fallthrough;
	case ISTATE_SEND_REJECT:
	case ISTATE_SEND_TEXTRSP:
		cmd->i_state = ISTATE_SENT_STATUS;
		ist_cmd_put(icmd, false);
		break;
	case ISTATE_SEND_LOGOUTRSP:
		/* may close the session, and wait for ist_wait_conn() */
		iscsit_logout_post_handler(cmd, cmd->conn);
		break;
	default:
		break;
	}
	/* ist_wait_conn() waits for this count: drop it last */
	if (counted && atomic_dec_and_test(&ic->ctrl_pending))
		wake_up_all(&ic->wq);
}

/*
 * The READ data LIO produced is se_cmd->data_length bytes: it lowers that
 * on underflow (an INQUIRY or MODE SENSE shorter than its allocation
 * length), below the buffer it allocated for the EDTL. Trim the
 * scatterlist to it for the RDMA WRITE, so that the initiator gets what
 * LIO over TCP sends and not the rest of the buffer (ib_isert writes it
 * all); ist_untrim() puts it back once the WRITE is done with it.
 * Return: the entries to write.
 */
static u32 ist_trim_data_in(struct ist_cmd *icmd, struct se_cmd *se_cmd)
{
	u32 left = se_cmd->data_length;
	struct scatterlist *sg;
	int i;

	for_each_sg(se_cmd->t_data_sg, sg, se_cmd->t_data_nents, i) {
		if (left <= sg->length) {
			icmd->trim_sg = sg;
			icmd->trim_len = sg->length;
			sg->length = left;
			return i + 1;
		}
		left -= sg->length;
	}
	return se_cmd->t_data_nents;
}

static void ist_untrim(struct ist_cmd *icmd)
{
	if (icmd->trim_sg) {
		icmd->trim_sg->length = icmd->trim_len;
		icmd->trim_sg = NULL;
	}
}

/* A PDU's send completed, or failed (rst_tx_on_done()). */
static void ist_send_done(void *arg, int status)
{
	struct ist_cmd *icmd = arg;
	struct iscsit_cmd *cmd = icmd->cmd;
	struct ist_conn *ic = icmd->ic;

	trace_ist_send_done(icmd, 0, status);
	ist_untrim(icmd);	/* the engine is done with the READ data */
	if (status) {
		ist_fault_send_failed(icmd);
		ist_cmd_put(icmd, true);
		return;
	}
	/* a refused PDU: its Reject is out, the connection may end now */
	if (cmd->i_state == ISTATE_SEND_REJECT && READ_ONCE(ic->closing))
		mod_delayed_work(ist_wq, &ic->close_work, 0);
	switch (cmd->i_state) {
	case ISTATE_SEND_TASKMGTRSP:
	case ISTATE_SEND_REJECT:
	case ISTATE_SEND_TEXTRSP:
		set_bit(IST_CMD_CTRL_COUNTED, &icmd->flags);
		atomic_inc(&ic->ctrl_pending);
		fallthrough;
	case ISTATE_SEND_LOGOUTRSP:
		INIT_WORK(&icmd->work, ist_ctrl_work);
		queue_work(ist_wq, &icmd->work);
		break;
	case ISTATE_SEND_NOPIN_WANT_RESPONSE:
		/* kept until the initiator's NOP-Out answers (ISTATE_REMOVE) */
		spin_lock_bh(&cmd->istate_lock);
		cmd->i_state = ISTATE_SENT_NOPIN_WANT_RESPONSE;
		spin_unlock_bh(&cmd->istate_lock);
		break;
	default:
		cmd->i_state = ISTATE_SENT_STATUS;
		ist_cmd_put(icmd, false);
		break;
	}
}

/* Post a PDU built in @tx; the command is released when it completes. */
static int ist_post(struct ist_cmd *icmd, struct rst_tx *tx, u32 dlen)
{
	struct ist_conn *ic = icmd->ic;
	u32 inv = ist_inv_rkey(icmd, true);
	u32 len = ISER_HEADERS_LEN + dlen;
	struct ist_fault_copy copy;

	ist_clamp_maxcmdsn(ic, rst_tx_buf(tx) + ISER_HDR_LEN);
	if (ist_fault_silent()) {
		/* hostile-target test: as if sent, and nothing goes out */
		rst_tx_put(ic->rc, tx);
		ist_send_done(icmd, 0);
		return 0;
	}
	/* hostile-target tests: to be sent again once posted */
	ist_fault_copy_save(&copy, rst_tx_buf(tx), len);
	rst_tx_on_done(tx, ist_send_done, icmd);
	/* on failure the callback has released the command */
	rst_tx_post(ic->rc, tx, len, NULL, inv != 0, inv);
	ist_fault_copies(ic, &copy);
	return 0;
}

/*
 * A send slot for a response. LIO's transmit thread may wait; target
 * core's completion paths may not (-EAGAIN makes it retry). On a
 * connection that is down the command is released here.
 */
static struct rst_tx *ist_tx_get(struct ist_cmd *icmd, bool may_wait, int *err)
{
	struct rst_tx *tx = rst_tx_get(icmd->ic->rc, may_wait ? 10000 : 0);

	if (!IS_ERR(tx))
		return tx;
	if (PTR_ERR(tx) == -ENOTCONN) {
		ist_cmd_put(icmd, true);
		*err = 0;
	} else {
		*err = may_wait ? PTR_ERR(tx) : -EAGAIN;
	}
	return NULL;
}

/* SCSI Response: status, and sense data if there is any. */
static u32 ist_build_response(struct iscsit_conn *conn, struct iscsit_cmd *cmd,
			      struct rst_tx *tx)
{
	struct iscsi_scsi_rsp *hdr = (struct iscsi_scsi_rsp *)ist_tx_bhs(tx);
	struct se_cmd *se_cmd = &cmd->se_cmd;
	u32 dlen = 0;

	iscsit_build_rsp_pdu(cmd, conn, true, hdr);
	if (se_cmd->sense_buffer &&
	    (se_cmd->se_cmd_flags & (SCF_TRANSPORT_TASK_SENSE | SCF_EMULATED_TASK_SENSE))) {
		/* SenseLength, then the sense data LIO put behind it */
		put_unaligned_be16(se_cmd->scsi_sense_length, cmd->sense_buffer);
		dlen = min_t(u32, se_cmd->scsi_sense_length + sizeof(__be16),
			     sizeof(cmd->sense_buffer));
		memcpy(ist_tx_data(tx), cmd->sense_buffer, dlen);
		hton24(hdr->dlength, dlen);
	}
	return dlen;
}

/**
 * ist_queue_status - LIO's ->iscsit_queue_status: send a SCSI Response
 * @conn: the connection
 * @cmd: the command
 *
 * Return: 0, or -EAGAIN when no send slot is free now (target core
 * retries).
 */
int ist_queue_status(struct iscsit_conn *conn, struct iscsit_cmd *cmd)
{
	struct ist_cmd *icmd = iscsit_priv_cmd(cmd);
	struct rst_tx *tx;
	u32 dlen;
	int err;

	tx = ist_tx_get(icmd, false, &err);
	if (!tx)
		return err;
	dlen = ist_build_response(conn, cmd, tx);
	ist_cmd_uncount(icmd);
	trace_ist_status(icmd, dlen, 0);
	return ist_post(icmd, tx, dlen);
}

/**
 * ist_queue_data_in - LIO's ->iscsit_queue_data_in: READ data and status
 * @conn: the connection
 * @cmd: the command
 *
 * RDMA WRITE of the data LIO produced into the initiator's buffer,
 * chained in front of the SCSI Response.
 *
 * Return: 0, or -EAGAIN when no send slot is free now.
 */
int ist_queue_data_in(struct iscsit_conn *conn, struct iscsit_cmd *cmd)
{
	struct ist_cmd *icmd = iscsit_priv_cmd(cmd);
	struct ist_conn *ic = icmd->ic;
	struct se_cmd *se_cmd = &cmd->se_cmd;
	struct ist_fault_copy copy;
	u32 dlen, inv, nents, stag, len;
	struct rst_tx *tx;
	u64 va;
	int err;

	if (!icmd->has_read) {
		ist_protocol_error(ic, "READ data for a command without a read buffer");
		ist_cmd_put(icmd, true);
		return 0;
	}
	tx = ist_tx_get(icmd, false, &err);
	if (!tx)
		return err;
	dlen = ist_build_response(conn, cmd, tx);
	if (!se_cmd->data_length || !se_cmd->t_data_nents) {
		ist_cmd_uncount(icmd);
		trace_ist_status(icmd, dlen, 0);
		return ist_post(icmd, tx, dlen);	/* no data: the status only */
	}
	nents = ist_trim_data_in(icmd, se_cmd);
	trace_ist_data_in(icmd, se_cmd->data_length, 0);
	ist_cmd_uncount(icmd);
	ist_clamp_maxcmdsn(ic, rst_tx_buf(tx) + ISER_HDR_LEN);
	inv = ist_inv_rkey(icmd, false);
	va = icmd->read_va;
	stag = icmd->read_stag;
	if (ist_fault_silent()) {
		/* hostile-target test: as if sent, and nothing goes out */
		rst_tx_put(ic->rc, tx);
		ist_send_done(icmd, 0);
		return 0;
	}
	/* hostile-target test: maybe to the key of a READ that has completed */
	ist_fault_stale_write(icmd, &va, &stag);
	len = ISER_HEADERS_LEN + dlen;
	ist_fault_copy_save(&copy, rst_tx_buf(tx), len);
	rst_tx_on_done(tx, ist_send_done, icmd);
	rst_rw_write_send_async(ic->rc, se_cmd->t_data_sg, nents, va, stag, tx,
				len, inv != 0);
	ist_fault_copies(ic, &copy);
	return 0;
}

static void ist_read_done(struct rst_read_op *op, int status);

/* Start the RDMA READ of a command's remaining WRITE data. */
static int ist_read_start(struct ist_cmd *icmd)
{
	struct iscsit_cmd *cmd = icmd->cmd;
	struct se_cmd *se_cmd = &cmd->se_cmd;

	icmd->rd.done = ist_read_done;
	trace_ist_read_start(icmd, se_cmd->data_length - cmd->write_data_done, 0);
	return rst_rw_read_async(icmd->ic->rc, &icmd->rd, se_cmd->t_data_sg,
				 se_cmd->t_data_nents, cmd->write_data_done,
				 icmd->write_va, icmd->write_stag, icmd->ic->use_mr);
}

static void ist_read_done(struct rst_read_op *op, int status)
{
	struct ist_cmd *icmd = container_of(op, struct ist_cmd, rd);
	struct iscsit_cmd *cmd = icmd->cmd;

	trace_ist_read_done(icmd, cmd->se_cmd.data_length - cmd->write_data_done,
			    status);
	if (status) {
		ist_cmd_put(icmd, true);
		return;
	}
	iscsit_stop_dataout_timer(cmd);
	spin_lock_bh(&cmd->istate_lock);
	cmd->write_data_done = cmd->se_cmd.data_length;
	cmd->cmd_flags |= ICF_GOT_LAST_DATAOUT;
	cmd->i_state = ISTATE_RECEIVED_LAST_DATAOUT;
	spin_unlock_bh(&cmd->istate_lock);
	target_execute_cmd(&cmd->se_cmd);
}

/**
 * ist_get_dataout - LIO's ->iscsit_get_dataout: fetch the WRITE data
 * @conn: the connection
 * @cmd: the command
 * @recovery: LIO's recovery flag (unused: ERL 0)
 *
 * RDMA READ of what the immediate data did not bring. Never -EAGAIN:
 * LIO ignores that for a WRITE with immediate data; a READ sink that
 * finds no MR waits for one in the engine.
 *
 * Return: 0.
 */
int ist_get_dataout(struct iscsit_conn *conn, struct iscsit_cmd *cmd,
		    bool recovery)
{
	struct ist_cmd *icmd = iscsit_priv_cmd(cmd);
	struct ist_conn *ic = icmd->ic;
	int err;

	if (!icmd->has_write) {
		ist_protocol_error(ic, "WRITE data beyond the immediate data, without a write buffer");
		ist_cmd_put(icmd, true);
		return 0;
	}
	/*
	 * Never -EAGAIN to LIO: it ignores that for a WRITE with immediate
	 * data. A READ sink that finds no MR waits for one in the engine.
	 */
	err = ist_read_start(icmd);
	if (err)
		ist_cmd_put(icmd, true);	/* the connection is going down */
	return 0;
}

static int ist_send_nopin(struct ist_cmd *icmd, bool response)
{
	struct iscsit_cmd *cmd = icmd->cmd;
	struct rst_tx *tx;
	u32 dlen;
	int err;

	tx = ist_tx_get(icmd, true, &err);
	if (!tx)
		return err;
	iscsit_build_nopin_rsp(cmd, cmd->conn, (struct iscsi_nopin *)ist_tx_bhs(tx),
			       response);
	/* echo the ping data rx.c kept (cmd->buf_ptr) */
	dlen = min_t(u32, cmd->buf_ptr_size, IST_MAX_DSL);
	if (dlen)
		memcpy(ist_tx_data(tx), cmd->buf_ptr, dlen);
	return ist_post(icmd, tx, dlen);
}

/**
 * ist_immediate_queue - LIO's ->iscsit_immediate_queue
 * @conn: the connection
 * @cmd: the command
 * @state: what LIO queued: release it, or send a NOP-In ping
 *
 * Return: 0 or an errno (a ping that could not be sent).
 */
int ist_immediate_queue(struct iscsit_conn *conn, struct iscsit_cmd *cmd, int state)
{
	struct ist_cmd *icmd = iscsit_priv_cmd(cmd);

	icmd->ic = conn->context;
	icmd->cmd = cmd;
	switch (state) {
	case ISTATE_REMOVE:
		ist_cmd_put(icmd, true);
		return 0;
	case ISTATE_SEND_NOPIN_WANT_RESPONSE:
	case ISTATE_SEND_NOPIN_NO_RESPONSE:
		/*
		 * LIO queued the state, not set it: ist_send_done() keeps a
		 * ping that wants an answer by this state, so that the
		 * initiator's NOP-Out finds it by its TTT.
		 */
		spin_lock_bh(&cmd->istate_lock);
		cmd->i_state = state;
		spin_unlock_bh(&cmd->istate_lock);
		return ist_send_nopin(icmd, false);
	default:
		pr_warn("unknown immediate state %d\n", state);
		return -EINVAL;
	}
}

/**
 * ist_response_queue - LIO's ->iscsit_response_queue: control responses
 * @conn: the connection
 * @cmd: the command
 * @state: which response: NOP-In, SCSI status of a command that failed
 *	before it ran, logout, task management, Reject or text
 *
 * Return: 0 or an errno.
 */
int ist_response_queue(struct iscsit_conn *conn, struct iscsit_cmd *cmd, int state)
{
	struct ist_cmd *icmd = iscsit_priv_cmd(cmd);
	struct ist_conn *ic = conn->context;
	struct rst_tx *tx;
	u8 *bhs;
	u32 dlen = 0;
	int err, rc;

	icmd->ic = ic;
	icmd->cmd = cmd;
	switch (state) {
	case ISTATE_SEND_NOPIN:
		return ist_send_nopin(icmd, true);
	case ISTATE_SEND_STATUS:
		/* a SCSI command that failed before it ran */
		tx = ist_tx_get(icmd, true, &err);
		if (!tx)
			return err;
		dlen = ist_build_response(conn, cmd, tx);
		ist_cmd_uncount(icmd);
		return ist_post(icmd, tx, dlen);
	case ISTATE_SEND_LOGOUTRSP:
		ist_fault_hold_logout();
		break;
	case ISTATE_SEND_TASKMGTRSP:
	case ISTATE_SEND_REJECT:
	case ISTATE_SEND_TEXTRSP:
		break;
	default:
		pr_warn("unknown response state %d\n", state);
		return -EINVAL;
	}
	tx = ist_tx_get(icmd, true, &err);
	if (!tx)
		return err;
	bhs = ist_tx_bhs(tx);
	switch (state) {
	case ISTATE_SEND_LOGOUTRSP:
		rc = iscsit_build_logout_rsp(cmd, conn, (struct iscsi_logout_rsp *)bhs);
		if (rc < 0)
			goto fail;
		ic->logout_posted = true;
		break;
	case ISTATE_SEND_TASKMGTRSP:
		iscsit_build_task_mgt_rsp(cmd, conn, (struct iscsi_tm_rsp *)bhs);
		break;
	case ISTATE_SEND_REJECT:
		/* the data segment is the rejected PDU's header */
		iscsit_build_reject(cmd, conn, (struct iscsi_reject *)bhs);
		dlen = ISCSI_HDR_LEN;
		memcpy(ist_tx_data(tx), cmd->buf_ptr, dlen);
		hton24(((struct iscsi_reject *)bhs)->dlength, dlen);
		break;
	case ISTATE_SEND_TEXTRSP:
		rc = iscsit_build_text_rsp(cmd, conn, (struct iscsi_text_rsp *)bhs,
					   ISCSI_INFINIBAND);
		if (rc < 0)
			goto fail;
		dlen = min_t(u32, rc, IST_MAX_DSL);
		memcpy(ist_tx_data(tx), cmd->buf_ptr, dlen);
		if (((struct iscsi_text_rsp *)bhs)->flags & ISCSI_FLAG_TEXT_CONTINUE)
			set_bit(IST_CMD_TEXT_CONTINUE, &icmd->flags);
		else
			clear_bit(IST_CMD_TEXT_CONTINUE, &icmd->flags);
		break;
	}
	return ist_post(icmd, tx, dlen);
fail:
	rst_tx_put(ic->rc, tx);
	return rc;
}

/**
 * ist_aborted_task - LIO's ->iscsit_aborted_task: no response will be sent
 * @conn: the connection
 * @cmd: the aborted command
 *
 * LIO's abort path never calls ->iscsit_unmap_cmd, so the held receive
 * buffer is given back here.
 */
void ist_aborted_task(struct iscsit_conn *conn, struct iscsit_cmd *cmd)
{
	struct ist_cmd *icmd = iscsit_priv_cmd(cmd);

	trace_ist_aborted(icmd, cmd->se_cmd.data_length, 0);
	ist_cmd_uncount(icmd);
	spin_lock_bh(&conn->cmd_lock);
	if (!list_empty(&cmd->i_conn_node))
		list_del_init(&cmd->i_conn_node);
	spin_unlock_bh(&conn->cmd_lock);
	if (cmd->data_direction == DMA_TO_DEVICE)
		iscsit_stop_dataout_timer(cmd);
	/*
	 * The backend is done with the data (LIO aborts a command once it
	 * has completed there), and LIO's abort path never calls
	 * ->iscsit_unmap_cmd: give the receive buffer back now.
	 */
	ist_cmd_release_rx(icmd);
}
