// SPDX-License-Identifier: GPL-2.0
/*
 * Login and Text requests go on the wire only after their sender has the
 * kernel's answer to its request to send them.
 *
 * iscsid and iscsiadm send a Login or Text request with the netlink
 * request ISCSI_UEVENT_SEND_PDU, then read scsi_transport_iscsi's reply
 * to it. The target's response reaches them as a multicast
 * ISCSI_KEVENT_RECV_PDU on the same socket. If that is queued before the
 * reply (the request's round trip was shorter than the rest of the
 * sender's system call: its CPU was preempted after the post), open-iscsi
 * 2.1.8's iscsiadm takes the response while it looks for the reply
 * (netlink.c, __kipc_call() hands it to ctldev_handle()), and its
 * SendTargets loop then polls the socket for the response it already
 * holds: the discovery times out after 30 s, and its retry crashes
 * (discovery.c). iscsid's event loop takes either order.
 *
 * So a Login or Text request sent by a user task is built into its send
 * slot at once but posted only when that task returns to user space
 * (task_work), after the reply was queued on its socket: the response
 * can only come after it. A kernel task's request, or one whose
 * task_work cannot be queued (the task is exiting), is posted at once.
 *
 * The slot waits in ini_conn.held_tx. The task_work reaches the
 * connection through a struct ini_held, which ini_conn_release()
 * detaches: a connection released meanwhile gives the slot back, and the
 * late task_work finds nothing to post. All of it under ini_mutex.
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "ini.h"

/**
 * struct ini_held - a held Login or Text request's way to its connection
 * @work: the sender's task_work
 * @ic: the connection, or NULL once it was released (ini_mutex)
 */
struct ini_held {
	struct callback_head work;
	struct ini_conn *ic;
};

/* Post the held request, if its connection still has one. Under ini_mutex. */
static void ini_held_post(struct ini_conn *ic)
{
	struct rst_tx *tx = ic->held_tx;

	lockdep_assert_held(&ini_mutex);
	if (!tx)
		return;
	ic->held_tx = NULL;
	/* a post that fails takes the slot; the connection is going down */
	rst_tx_post(ic->rc, tx, ic->held_len, NULL, false, 0);
}

/* The sender is on its way back to user space: its reply is queued. */
static void ini_held_work(struct callback_head *work)
{
	struct ini_held *h = container_of(work, struct ini_held, work);

	mutex_lock(&ini_mutex);
	if (h->ic) {
		h->ic->held = NULL;
		ini_held_post(h->ic);
	}
	mutex_unlock(&ini_mutex);
	kfree(h);
	module_put(THIS_MODULE);
}

/**
 * ini_send_pdu - send a PDU for iscsid or iscsiadm (send_pdu)
 * @cls_conn: the connection
 * @hdr: the PDU's header
 * @data: its data segment
 * @size: bytes of @data
 *
 * Return: 0 or an errno (libiscsi's).
 * Context: process (scsi_transport_iscsi's netlink request), sleeps.
 */
int ini_send_pdu(struct iscsi_cls_conn *cls_conn, struct iscsi_hdr *hdr,
		 char *data, u32 size)
{
	struct iscsi_conn *iconn = cls_conn->dd_data;
	struct ini_conn *ic = iconn->dd_data;
	u8 op = hdr->opcode & ISCSI_OPCODE_MASK;
	struct ini_held *h = NULL;
	int err;

	if ((op == ISCSI_OP_LOGIN || op == ISCSI_OP_TEXT) &&
	    !(current->flags & PF_KTHREAD))
		h = kzalloc(sizeof(*h), GFP_KERNEL);
	mutex_lock(&ini_mutex);
	/* one request at a time: libiscsi has one login task */
	WRITE_ONCE(ic->hold_mgmt, h && !ic->held && ic->rc);
	err = iscsi_conn_send_pdu(cls_conn, hdr, data, size);
	WRITE_ONCE(ic->hold_mgmt, false);
	if (ic->held_tx && !ic->held) {
		h->ic = ic;
		init_task_work(&h->work, ini_held_work);
		__module_get(THIS_MODULE);
		if (!task_work_add(current, &h->work, TWA_RESUME)) {
			ic->held = h;
			h = NULL;
		} else {
			module_put(THIS_MODULE);
			ini_held_post(ic);
		}
	}
	mutex_unlock(&ini_mutex);
	kfree(h);
	ini_fault_send_pdu_delay(op);
	return err;
}

/**
 * ini_held_release - the connection goes: give a held request's slot back
 * @ic: the connection, its rst_conn still there
 *
 * Context: under ini_mutex.
 */
void ini_held_release(struct ini_conn *ic)
{
	lockdep_assert_held(&ini_mutex);
	if (ic->held) {
		ic->held->ic = NULL;
		ic->held = NULL;
	}
	if (ic->held_tx) {
		rst_tx_put(ic->rc, ic->held_tx);
		ic->held_tx = NULL;
	}
}
