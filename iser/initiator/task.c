// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks: libiscsi's alloc_pdu/init_task/xmit_task/cleanup_task.
 *
 * xmit_task runs under the session's frwd_lock and never sleeps. A SCSI
 * command takes a place in the window, then (unless its data all fits
 * the immediate data) an idle MR for its buffer, maps it with a fresh
 * key and posts the REG_MR chained in front of the command's Send. Every
 * refusal (-EAGAIN) hands the command back to the midlayer; libiscsi
 * then completes the task with REQUEUE, and cleanup_task gives back
 * what xmit_task took. cleanup_task runs under the back_lock, so the MR
 * goes back with rst_mr_put_nosleep().
 */
#include <linux/module.h>
#include <linux/blk-mq.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include "ini.h"
#include "trace.h"

/**
 * ini_alloc_pdu - point libiscsi's header at the task's own (alloc_pdu)
 * @task: the task
 * @opcode: unused
 *
 * Return: 0.
 */
int ini_alloc_pdu(struct iscsi_task *task, u8 opcode)
{
	struct ini_task *it = task->dd_data;

	task->hdr = &it->hdr;
	task->hdr_max = sizeof(it->hdr);
	return 0;
}

/**
 * ini_init_task - a task is about to be sent (init_task)
 * @task: the task
 *
 * Return: 0.
 */
int ini_init_task(struct iscsi_task *task)
{
	struct ini_task *it = task->dd_data;

	it->rc = NULL;
	it->mr = NULL;
	it->in_window = false;
	it->it_state = INI_T_IDLE;
	it->rsp = NULL;
	it->tmf_waits = false;
	return 0;
}

/* The iSER header and the BHS at the front of @buf; returns the length. */
static u32 ini_put_headers(u8 *buf, struct iscsi_task *task, u32 wstag,
			   u64 wva, u32 rstag, u64 rva)
{
	u32 len = iser_hdr_encode_keys(buf, wstag, wva, rstag, rva);

	memcpy(buf + len, task->hdr, task->hdr_len);
	return len + task->hdr_len;
}

static int ini_xmit_mgmt(struct ini_conn *ic, struct rst_conn *rc,
			 struct iscsi_task *task)
{
	struct rst_tx *tx;
	u32 len;
	u8 *buf;
	int err;

	if (task->hdr_len + task->data_count > INI_MSG_SIZE - ISER_HDR_LEN)
		return -EINVAL;
	tx = rst_tx_tryget(rc);
	if (IS_ERR(tx))
		return PTR_ERR(tx);
	buf = rst_tx_buf(tx);
	len = ini_put_headers(buf, task, 0, 0, 0, 0);
	if (task->data_count)
		memcpy(buf + len, task->data, task->data_count);
	len += task->data_count;
	if ((task->hdr->opcode & ISCSI_OPCODE_MASK) == ISCSI_OP_SCSI_TMFUNC) {
		struct iscsi_tm *tm = (struct iscsi_tm *)task->hdr;

		/* what its response ends (rx.c); libiscsi sends one at a time */
		WRITE_ONCE(ic->tmf_func, tm->flags & ISCSI_FLAG_TM_FUNC_MASK);
		ic->tmf_rtt = tm->rtt;
		ic->tmf_lun = tm->lun;
	}
	if (READ_ONCE(ic->hold_mgmt) && task == ic->iconn->login_task) {
		/* ini_send_pdu() posts it after the sender's reply (H7) */
		ic->held_tx = tx;
		ic->held_len = len;
		return 0;
	}
	err = rst_tx_post(rc, tx, len, NULL, false, 0);
	if (err)
		return err;
	/*
	 * A PDU with the reserved tag gets no answer: libiscsi leaves its
	 * reference to us once sent. The PDU is copied, so that is now.
	 */
	if (task->hdr->itt == RESERVED_ITT)
		iscsi_put_task(task);
	return 0;
}

static void ini_want_mrs(struct ini_conn *ic, struct scsi_cmnd *sc)
{
	/* the page span decides the size class, as rst_mr_tryget_sg() sees it */
	WRITE_ONCE(ic->grow_pages, rst_sg_pages(scsi_sglist(sc), scsi_sg_count(sc)));
	queue_work(system_unbound_wq, &ic->grow_work);
}

/* Unsolicited Data-Out PDUs (InitialR2T=No): copies, one Send each. */
static int ini_xmit_unsol(struct ini_conn *ic, struct rst_conn *rc,
			  struct iscsi_task *task, struct rst_tx **txs,
			  unsigned int nr)
{
	struct scsi_cmnd *sc = task->sc;
	struct iscsi_r2t_info *r2t = &task->unsol_r2t;
	struct iscsi_data dhdr;
	unsigned int i;
	int err = 0;

	for (i = 0; i < nr; i++) {
		u8 *buf = rst_tx_buf(txs[i]);
		u32 len, off;

		if (err) {
			rst_tx_put(rc, txs[i]);
			continue;
		}
		iscsi_prep_data_out_pdu(task, r2t, &dhdr);
		off = r2t->data_offset + r2t->sent;
		len = iser_hdr_encode_keys(buf, 0, 0, 0, 0);
		memcpy(buf + len, &dhdr, sizeof(dhdr));
		len += sizeof(dhdr);
		if (sg_pcopy_to_buffer(scsi_sglist(sc), scsi_sg_count(sc),
				       buf + len, r2t->data_count, off) !=
		    r2t->data_count) {
			rst_tx_put(rc, txs[i]);
			err = -EIO;
			continue;
		}
		len += r2t->data_count;
		r2t->sent += r2t->data_count;
		err = rst_tx_post(rc, txs[i], len, NULL, false, 0);
	}
	return err;
}

/* The command's tag, for traces */
static u32 ini_itt(struct iscsi_task *task)
{
	return be32_to_cpu((__force __be32)task->hdr_itt);
}

static int ini_xmit_cmd(struct ini_conn *ic, struct rst_conn *rc,
			struct iscsi_task *task)
{
	struct ini_task *it = task->dd_data;
	struct scsi_cmnd *sc = task->sc;
	struct iscsi_conn *iconn = ic->iconn;
	u32 bufflen = scsi_bufflen(sc), imm = task->imm_count;
	u32 unsol = task->unsol_r2t.data_length;
	struct rst_tx *txs[1 + INI_MAX_UNSOL / INI_MIN_XMIT_DSL];
	u32 wstag = 0, rstag = 0, mlen, rkey, len;
	unsigned int nr_tx = 1, i;
	u64 wva = 0, rva = 0, addr;
	bool need_mr;
	u8 *buf;
	int err;

	if (unsol && iconn->max_xmit_dlength)
		nr_tx += DIV_ROUND_UP(unsol, iconn->max_xmit_dlength);
	/*
	 * What the negotiated parameters should never allow (set_param
	 * clamps them). A refusal would only requeue the command, forever:
	 * the connection fails instead, and the recovery with it.
	 */
	if (sc->sc_data_direction == DMA_BIDIRECTIONAL || imm > INI_MAX_DSL ||
	    (unsol && !iconn->max_xmit_dlength) || nr_tx > ARRAY_SIZE(txs)) {
		pr_warn_ratelimited("%s: cannot send a command of %u bytes, %u immediate, %u unsolicited\n",
				    dev_name(&iconn->cls_conn->dev), bufflen, imm, unsol);
		rst_disconnect(rc, -EINVAL);
		return -EINVAL;
	}
	err = rst_io_trybegin(rc);
	if (err) {
		trace_ini_cmd_refused(rc, ini_itt(task), "window", err);
		return err;
	}
	it->rc = rc;
	it->in_window = true;
	for (i = 0; i < nr_tx; i++) {
		txs[i] = rst_tx_tryget(rc);
		if (IS_ERR(txs[i])) {
			err = PTR_ERR(txs[i]);
			trace_ini_cmd_refused(rc, ini_itt(task), "send ring", err);
			while (i--)
				rst_tx_put(rc, txs[i]);
			return err;
		}
	}
	/* slots first: an MR taken and mapped in vain would be freed */
	need_mr = bufflen && (sc->sc_data_direction == DMA_FROM_DEVICE ||
			      bufflen > imm + unsol);
	if (need_mr) {
		struct rst_mr *m = rst_mr_tryget_sg(rc, scsi_sglist(sc),
						    scsi_sg_count(sc));

		if (IS_ERR(m)) {
			if (PTR_ERR(m) == -EAGAIN)
				ini_want_mrs(ic, sc);
			err = PTR_ERR(m);
			trace_ini_cmd_refused(rc, ini_itt(task), "idle MR", err);
			goto put_txs;
		}
		it->mr = m;
		err = rst_mr_map(m, scsi_sglist(sc), scsi_sg_count(sc),
				 sc->sc_data_direction, &addr, &mlen, &rkey);
		if (err)
			goto put_txs;
		if (sc->sc_data_direction == DMA_FROM_DEVICE) {
			rstag = rkey;
			rva = addr;
		} else {
			/* the target reads what it was not sent, from there */
			wstag = rkey;
			wva = addr + imm + unsol;
		}
	}
	buf = rst_tx_buf(txs[0]);
	len = ini_put_headers(buf, task, wstag, wva, rstag, rva);
	if (imm && sg_pcopy_to_buffer(scsi_sglist(sc), scsi_sg_count(sc),
				      buf + len, imm, 0) != imm) {
		err = -EIO;
		goto put_txs;
	}
	len += imm;
	/* the response may come at once: the state is set before the post */
	it->statsn_valid = READ_ONCE(ic->statsn_seen);
	it->statsn_at_send = READ_ONCE(ic->max_statsn);
	it->it_state = INI_T_SENT;
	trace_ini_cmd_sent(rc, ini_itt(task), bufflen, imm, unsol,
			   sc->sc_data_direction == DMA_FROM_DEVICE, rstag ?: wstag);
	err = rst_tx_post(rc, txs[0], len, it->mr, false, 0);
	if (err) {
		trace_ini_cmd_refused(rc, ini_itt(task), "post", err);
		it->it_state = INI_T_IDLE;
		for (i = 1; i < nr_tx; i++)
			rst_tx_put(rc, txs[i]);
		return err;
	}
	/*
	 * The command is out: a Data-Out that cannot follow it is the
	 * connection's failure, not the command's (libiscsi would undo a
	 * CmdSN the target has seen).
	 */
	if (nr_tx > 1) {
		err = ini_xmit_unsol(ic, rc, task, txs + 1, nr_tx - 1);
		if (err)
			rst_disconnect(rc, err);
	}
	return 0;

put_txs:
	for (i = 0; i < nr_tx; i++)
		rst_tx_put(rc, txs[i]);
	return err;
}

/**
 * ini_xmit_task - send a task's PDU(s) (xmit_task)
 * @task: the task
 *
 * Context: the session's frwd_lock held, or the caller's equivalent;
 * never sleeps.
 *
 * Return: 0; -EAGAIN (window, MRs or send ring full: the command goes
 * back to the midlayer) or another errno.
 */
int ini_xmit_task(struct iscsi_task *task)
{
	struct ini_conn *ic = task->conn->dd_data;
	struct rst_conn *rc = ic->rc;

	if (!rc)
		return -ENOTCONN;
	if (!task->sc)
		return ini_xmit_mgmt(ic, rc, task);
	return ini_xmit_cmd(ic, rc, task);
}

/**
 * ini_cleanup_task - libiscsi is done with a task (cleanup_task)
 * @task: the task
 *
 * Gives back the task's MR and its place in the window (H4).
 * An MR still valid here belongs to a command failed while its
 * connection was already drained (H6) and is freed.
 * Context: the session's back_lock held; never sleeps.
 */
void ini_cleanup_task(struct iscsi_task *task)
{
	struct ini_task *it = task->dd_data;

	lockdep_assert_held(&task->conn->session->back_lock);
	if (it->mr) {
		rst_mr_put_nosleep(it->mr);
		it->mr = NULL;
	}
	if (it->in_window) {
		rst_io_end(it->rc);
		it->in_window = false;
	}
	kfree(it->rsp);
	it->rsp = NULL;
	it->it_state = INI_T_IDLE;
}

/**
 * ini_grow_work - make idle MRs for commands that found none
 * @work: the connection's grow_work
 *
 * Then runs the host's queues, where those commands wait.
 */
void ini_grow_work(struct work_struct *work)
{
	struct ini_conn *ic = container_of(work, struct ini_conn, grow_work);
	struct Scsi_Host *shost = ic->iconn->session->host;
	struct rst_conn *rc = READ_ONCE(ic->rc);
	u32 pages = READ_ONCE(ic->grow_pages);
	struct scsi_device *sdev;
	int made;

	/* stop_conn clears rc, then waits for us, then closes it */
	if (!rc)
		return;
	made = rst_mr_prealloc(rc, pages, INI_GROW_BATCH);
	trace_ini_grow(rc, pages, made);
	if (made <= 0)
		return;
	shost_for_each_device(sdev, shost)
		blk_mq_run_hw_queues(sdev->request_queue, true);
}
