// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving: every message is decoded (iser_pdu_decode()) before LIO
 * sees it; a malformed one ends the connection. In full feature phase
 * each PDU goes to LIO's handler for its opcode. The receive buffer is
 * reposted when we return, so whatever LIO keeps (immediate and
 * unsolicited data, text) is copied out here.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <scsi/scsi_proto.h>
#include <target/target_core_base.h>
#include <target/target_core_fabric.h>

#include "ist.h"
#include "trace.h"

/**
 * ist_protocol_error - end a connection because of what the peer sent
 * @ic: the connection
 * @what: what was wrong (logged)
 */
void ist_protocol_error(struct ist_conn *ic, const char *what)
{
	trace_ist_protocol_error(ic, what);
	pr_info("protocol error: %s; disconnecting\n", what);
	rst_disconnect(ic->rc, -EPROTO);
}

/*
 * A command for a received PDU. Never waits for a tag: tags come back
 * as sends complete, on the completion queue this runs from, so a wait
 * here would never end (and nor would the QP drain behind it). Out of
 * tags, the PDU is refused and the connection ends.
 */
static struct iscsit_cmd *ist_cmd_alloc(struct ist_conn *ic,
					struct iscsit_conn *conn)
{
	struct iscsit_cmd *cmd;
	struct ist_cmd *icmd;

	cmd = iscsit_allocate_cmd(conn, TASK_RUNNING);
	if (!cmd) {
		pr_info_ratelimited("no command tags left\n");
		return NULL;
	}
	icmd = iscsit_priv_cmd(cmd);
	icmd->ic = ic;
	icmd->cmd = cmd;
	return cmd;
}

/*
 * Queue a Reject of the PDU @bhs (LIO's iscsit_add_reject() would wait
 * for a tag). Return: 0, or -ENOMEM with no tag left.
 */
static int ist_reject(struct ist_conn *ic, struct iscsit_conn *conn, u8 reason,
		      const u8 *bhs)
{
	struct iscsit_cmd *cmd = ist_cmd_alloc(ic, conn);

	if (!cmd)
		return -ENOMEM;
	trace_ist_reject(ic, reason, bhs);
	spin_lock_bh(&conn->cmd_lock);
	list_add_tail(&cmd->i_conn_node, &conn->conn_cmd_list);
	spin_unlock_bh(&conn->cmd_lock);
	iscsit_reject_cmd(cmd, reason, (unsigned char *)bhs);	/* always -1 */
	return 0;
}

static int ist_rx_scsi_cmd(struct ist_conn *ic, struct iscsit_conn *conn,
			   const struct iser_pdu *p)
{
	struct iscsi_scsi_req *hdr = (struct iscsi_scsi_req *)p->bhs;
	struct iscsit_cmd *cmd;
	struct ist_cmd *icmd;
	bool dump = false;
	u32 imm_len;
	int rc;

	/*
	 * Immediate data belongs to WRITEs only. LIO does not check: a READ
	 * with data would run once at setup and again when the data
	 * completed it (two responses, a tag freed twice).
	 */
	if (p->data_len && !(hdr->flags & ISCSI_FLAG_CMD_WRITE))
		return ist_reject(ic, conn, ISCSI_REASON_PROTOCOL_ERROR, p->bhs);
	cmd = ist_cmd_alloc(ic, conn);
	if (!cmd)
		return -ENOMEM;
	icmd = iscsit_priv_cmd(cmd);
	icmd->has_read = p->has_read;
	icmd->read_stag = p->read_stag;
	icmd->read_va = p->read_va;
	icmd->has_write = p->has_write;
	icmd->write_stag = p->write_stag;
	icmd->write_va = p->write_va;
	if (p->has_read || p->has_write)	/* for a hostile-target test */
		ist_fault_note_stag(ic, p->has_read ? p->read_stag : p->write_stag);

	rc = iscsit_setup_scsi_cmd(conn, cmd, (unsigned char *)hdr);
	if (rc < 0)
		return 0;	/* LIO rejected it and owns the command */
	if (!cmd->immediate_cmd) {
		set_bit(IST_CMD_COUNTED, &icmd->flags);
		atomic_inc(&ic->outstanding);
	}
	/*
	 * All the data is immediate: the backend takes it from the receive
	 * buffer, held until the command is released (no copy). With no
	 * buffer to hold (half the ring is held already), LIO allocates and
	 * the data is copied, as for partly immediate data: decided before
	 * LIO sees the command, so nothing fails after it did.
	 */
	if (cmd->immediate_data && cmd->data_direction == DMA_TO_DEVICE &&
	    cmd->first_burst_len == cmd->se_cmd.data_length &&
	    cmd->first_burst_len <= p->data_len) {
		icmd->rx_hold = ist_fault_rx_hold() ? NULL : rst_rx_hold(ic->rc);
		if (icmd->rx_hold)
			cmd->se_cmd.se_cmd_flags |= SCF_PASSTHROUGH_SG_TO_MEM_NOALLOC;
	}
	rc = iscsit_process_scsi_cmd(conn, cmd, hdr);
	if (rc < 0)
		return 0;
	if (rc > 0) {
		dump = true;
		goto sequence;
	}
	if (!cmd->immediate_data)
		return 0;
	/*
	 * LIO checked the length against the command's, FirstBurstLength
	 * and our receive size; the decoder checked it against what came.
	 */
	imm_len = cmd->first_burst_len;
	if (imm_len > p->data_len) {
		ist_protocol_error(ic, "immediate data shorter than declared");
		return 0;
	}
	if (cmd->se_cmd.se_cmd_flags & SCF_PASSTHROUGH_SG_TO_MEM_NOALLOC) {
		sg_init_one(&icmd->imm_sg, p->data, imm_len);
		cmd->se_cmd.t_data_sg = &icmd->imm_sg;
		cmd->se_cmd.t_data_nents = 1;
	} else {
		sg_copy_from_buffer(cmd->se_cmd.t_data_sg, cmd->se_cmd.t_data_nents,
				    p->data, imm_len);
	}
	cmd->write_data_done += imm_len;
	if (cmd->write_data_done == cmd->se_cmd.data_length) {
		spin_lock_bh(&cmd->istate_lock);
		cmd->cmd_flags |= ICF_GOT_LAST_DATAOUT;
		cmd->i_state = ISTATE_RECEIVED_LAST_DATAOUT;
		spin_unlock_bh(&cmd->istate_lock);
	}
sequence:
	rc = iscsit_sequence_cmd(conn, cmd, (unsigned char *)hdr, hdr->cmdsn);
	if (!rc && !dump && cmd->unsolicited_data)
		iscsit_set_unsolicited_dataout(cmd);
	else if (dump && cmd->immediate_data)
		target_put_sess_cmd(&cmd->se_cmd);
	return 0;
}

/* Unsolicited Data-Out (InitialR2T=No); solicited data moves by RDMA READ. */
static int ist_rx_data_out(struct ist_conn *ic, struct iscsit_conn *conn,
			   const struct iser_pdu *p)
{
	struct iscsi_data *hdr = (struct iscsi_data *)p->bhs;
	struct iscsit_cmd *cmd = NULL;
	u32 off = be32_to_cpu(hdr->offset);
	int rc;

	rc = iscsit_check_dataout_hdr(conn, (unsigned char *)hdr, &cmd);
	if (rc < 0)
		return rc;
	if (!cmd)
		return 0;	/* dumped by LIO */
	if (!cmd->unsolicited_data) {
		ist_protocol_error(ic, "Data-Out for data the target reads by RDMA");
		return 0;
	}
	/* LIO checked offset + length against the command's length */
	if (sg_pcopy_from_buffer(cmd->se_cmd.t_data_sg, cmd->se_cmd.t_data_nents,
				 p->data, p->data_len, off) != p->data_len) {
		ist_protocol_error(ic, "Data-Out past the command's buffer");
		return 0;
	}
	return iscsit_check_dataout_payload(cmd, hdr, false);
}

static int ist_rx_text(struct ist_conn *ic, struct iscsit_conn *conn,
		       const struct iser_pdu *p)
{
	struct iscsi_text *hdr = (struct iscsi_text *)p->bhs;
	struct iscsit_cmd *cmd;
	int rc;

	if (be32_to_cpu(hdr->ttt) != 0xFFFFFFFF)
		cmd = iscsit_find_cmd_from_itt(conn, hdr->itt);
	else
		cmd = ist_cmd_alloc(ic, conn);
	if (!cmd)
		return -ENOMEM;
	rc = iscsit_setup_text_cmd(conn, cmd, hdr);
	if (rc < 0)
		return rc;
	kfree(cmd->text_in_ptr);
	cmd->text_in_ptr = NULL;
	if (p->data_len) {
		cmd->text_in_ptr = kmemdup(p->data, p->data_len, GFP_KERNEL);
		if (!cmd->text_in_ptr)
			return -ENOMEM;
	}
	return iscsit_process_text_cmd(conn, cmd, hdr);
}

/*
 * A NOP-Out that answers a NOP-In of ours (it carries our target
 * transfer tag) needs no command of its own: LIO would not free one.
 * What LIO checks with iscsit_add_reject(), which waits for a tag, is
 * checked here first.
 */
static int ist_rx_nop_answer(struct ist_conn *ic, struct iscsit_conn *conn,
			     const struct iser_pdu *p)
{
	struct iscsi_nopout *hdr = (struct iscsi_nopout *)p->bhs;

	if (hdr->itt != RESERVED_ITT || !(hdr->flags & ISCSI_FLAG_CMD_FINAL) ||
	    !p->immediate || p->data_len > conn->conn_ops->MaxXmitDataSegmentLength) {
		ist_reject(ic, conn, ISCSI_REASON_PROTOCOL_ERROR, p->bhs);
		return -EPROTO;
	}
	if (iscsit_setup_nop_out(conn, NULL, hdr))
		return -EPROTO;
	return iscsit_process_nop_out(conn, NULL, hdr);
}

static int ist_rx_pdu(struct ist_conn *ic, struct iscsit_conn *conn,
		      const struct iser_pdu *p)
{
	unsigned char *bhs = (unsigned char *)p->bhs;
	struct iscsit_cmd *cmd;
	int rc;

	if (conn->sess->sess_ops->SessionType &&
	    p->opcode != ISER_ISCSI_OP_TEXT && p->opcode != ISER_ISCSI_OP_LOGOUT) {
		ist_reject(ic, conn, ISCSI_REASON_PROTOCOL_ERROR, bhs);
		return -EPROTO;
	}

	switch (p->opcode) {
	case ISER_ISCSI_OP_SCSI_CMD:
		return ist_rx_scsi_cmd(ic, conn, p);
	case ISER_ISCSI_OP_DATA_OUT:
		return ist_rx_data_out(ic, conn, p);
	case ISER_ISCSI_OP_NOOP_OUT:
		if (((struct iscsi_nopout *)bhs)->ttt != cpu_to_be32(0xFFFFFFFF))
			return ist_rx_nop_answer(ic, conn, p);
		cmd = ist_cmd_alloc(ic, conn);
		if (!cmd)
			return -ENOMEM;
		rc = iscsit_setup_nop_out(conn, cmd, (struct iscsi_nopout *)bhs);
		if (rc < 0)
			return rc;
		/* a ping's data comes back in the NOP-In (tx.c) */
		if (p->data_len && ((struct iscsi_nopout *)bhs)->itt != RESERVED_ITT) {
			cmd->buf_ptr = kmemdup(p->data, p->data_len, GFP_KERNEL);
			if (cmd->buf_ptr)
				cmd->buf_ptr_size = p->data_len;
		}
		return iscsit_process_nop_out(conn, cmd, (struct iscsi_nopout *)bhs);
	case ISER_ISCSI_OP_TMF:
		cmd = ist_cmd_alloc(ic, conn);
		if (!cmd)
			return -ENOMEM;
		return iscsit_handle_task_mgt_cmd(conn, cmd, bhs);
	case ISER_ISCSI_OP_LOGOUT:
		cmd = ist_cmd_alloc(ic, conn);
		if (!cmd)
			return -ENOMEM;
		return iscsit_handle_logout_cmd(conn, cmd, bhs);
	case ISER_ISCSI_OP_TEXT:
		return ist_rx_text(ic, conn, p);
	case ISER_ISCSI_OP_SNACK:
		/* ErrorRecoveryLevel 0 over iSER: nothing to retransmit */
		ist_reject(ic, conn, ISCSI_REASON_CMD_NOT_SUPPORTED, bhs);
		return -EPROTO;
	default:
		ist_reject(ic, conn, ISCSI_REASON_PROTOCOL_ERROR, bhs);
		return -EPROTO;
	}
}

/**
 * ist_recv - the engine's ->recv: one PDU from the initiator
 * @rc: the engine connection
 * @buf: the message (valid until this returns, unless held)
 * @len: its length
 * @inv: it came with a Send with Invalidate
 * @inv_rkey: the key invalidated (with @inv)
 *
 * Decodes the iSER and iSCSI headers and hands the PDU to login or to
 * LIO's full-feature handlers. Anything malformed ends the connection.
 * Context: completion (the CQ's work item); never waits for a command
 * tag (they come back through this CQ).
 */
void ist_recv(struct rst_conn *rc, const void *buf, u32 len, bool inv,
	      u32 inv_rkey)
{
	struct ist_conn *ic = rst_conn_priv(rc);
	struct iscsit_conn *conn;
	struct iser_pdu p;

	if (iser_pdu_decode(buf, len, &p)) {
		ist_protocol_error(ic, "malformed iSER header");
		return;
	}
	trace_ist_pdu_recv(ic, &p);
	if (inv) {
		ist_protocol_error(ic, "the initiator invalidated a key of ours");
		return;
	}
	if (p.data_len > IST_MAX_DSL) {
		ist_protocol_error(ic, "data segment longer than negotiated");
		return;
	}
	if (READ_ONCE(ic->phase) == IST_LOGIN) {
		ist_login_recv(ic, &p);
		return;
	}
	if (p.opcode == ISER_ISCSI_OP_LOGIN) {
		ist_protocol_error(ic, "login request in full feature phase");
		return;
	}
	conn = ic->conn;
	if (!conn || READ_ONCE(ic->closing))
		return;
	atomic_inc(&ic->rx_pdus);
	if (ist_rx_pdu(ic, conn, &p) < 0) {
		/* the Reject LIO may have queued goes out first (tx.c) */
		trace_ist_protocol_error(ic, "PDU refused by the iSCSI layer");
		pr_info("PDU (opcode 0x%02x) refused by the iSCSI layer; disconnecting\n",
			p.opcode);
		WRITE_ONCE(ic->closing, true);
		queue_delayed_work(ist_wq, &ic->close_work,
				   msecs_to_jiffies(IST_REJECT_CLOSE_MS));
	}
}

/**
 * ist_close_work - end a connection whose PDU the iSCSI layer refused
 * @work: the connection's close_work
 *
 * Queued with a delay when the PDU is refused; tx.c runs it at once
 * when the Reject LIO queued for that PDU has been sent.
 * Context: process (ist_wq).
 */
void ist_close_work(struct work_struct *work)
{
	struct ist_conn *ic = container_of(to_delayed_work(work), struct ist_conn,
					   close_work);

	rst_disconnect(ic->rc, -EPROTO);
}
