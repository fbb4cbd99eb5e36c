// SPDX-License-Identifier: GPL-2.0
/*
 * Fault and hostile-target switches of rdmastor_isert, for tests; built
 * only with RDMASTOR_DEBUG (make check, make bench), a product build has
 * the stubs in ist.h instead. In debugfs, beside conns
 * (/sys/kernel/debug/rdmastor_isert/), each taking a count (the next N
 * times):
 *
 *   fail_rx_hold       the next N commands whose data is all immediate
 *                      find no receive buffer to hold, as when half the
 *                      ring is held already
 *   fault_wrong_inv    a response invalidates the key of the command
 *                      received last, if that is another one
 *   fault_no_inv       a response is sent without invalidating its
 *                      command's key, as by a target that does not use
 *                      Send-with-Invalidate: the initiator invalidates
 *                      it itself
 *   fault_dup_rsp      a SCSI Response is sent twice
 *   fault_bogus_itt    and once more for a tag never sent
 *   fault_stale_write  READ data goes to the previous READ's key, which
 *                      the initiator has invalidated; stale_write_failed
 *                      counts the ones the initiator's NIC refused
 *   fault_silent       while non-zero, no PDU of the full feature phase
 *                      is sent: a target that stops answering
 *   fault_hold_logout  while non-zero, a Logout Response waits (up to
 *                      IST_LOGOUT_HOLD_MAX), then goes out and LIO
 *                      closes the connection at once; logouts_held counts
 *                      the ones waiting. A test stops iscsid meanwhile,
 *                      so the close reaches the initiator before iscsid
 *                      has read the response.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>

#include "ist.h"

enum ist_fault {
	IST_FAULT_WRONG_INV,
	IST_FAULT_DUP_RSP,
	IST_FAULT_BOGUS_ITT,
	IST_FAULT_STALE_WRITE,
	IST_FAULT_NO_INV,
	IST_FAULTS
};

static atomic_t ist_fail_rx_hold = ATOMIC_INIT(0);
static atomic_t ist_faults[IST_FAULTS];
static atomic_t ist_silent = ATOMIC_INIT(0);
static atomic_t ist_stale_failed = ATOMIC_INIT(0);
static atomic_t ist_hold_logout = ATOMIC_INIT(0);
static atomic_t ist_logouts_held = ATOMIC_INIT(0);

/* a held Logout Response goes out after this even if never released */
#define IST_LOGOUT_HOLD_MAX	(60 * HZ)

static const char * const ist_fault_names[IST_FAULTS] = {
	[IST_FAULT_WRONG_INV] = "fault_wrong_inv",
	[IST_FAULT_DUP_RSP] = "fault_dup_rsp",
	[IST_FAULT_BOGUS_ITT] = "fault_bogus_itt",
	[IST_FAULT_STALE_WRITE] = "fault_stale_write",
	[IST_FAULT_NO_INV] = "fault_no_inv",
};

/* misbehave this time? true once for each count written to its file */
static bool ist_fault(enum ist_fault f)
{
	return atomic_add_unless(&ist_faults[f], -1, 0);
}

/**
 * ist_fault_rx_hold - should this command find no buffer to hold?
 *
 * Return: true once for each count written to fail_rx_hold.
 * Context: any.
 */
bool ist_fault_rx_hold(void)
{
	return atomic_add_unless(&ist_fail_rx_hold, -1, 0);
}

/**
 * ist_fault_silent - send nothing now?
 *
 * Return: true while fault_silent is non-zero.
 * Context: any.
 */
bool ist_fault_silent(void)
{
	return atomic_read(&ist_silent) != 0;
}

/**
 * ist_fault_hold_logout - hold a Logout Response while fault_hold_logout
 *
 * Context: LIO's transmit thread of the connection (it may sleep).
 */
void ist_fault_hold_logout(void)
{
	unsigned long end = jiffies + IST_LOGOUT_HOLD_MAX;

	if (!atomic_read(&ist_hold_logout))
		return;
	atomic_inc(&ist_logouts_held);
	while (atomic_read(&ist_hold_logout) && time_before(jiffies, end))
		msleep(20);
	atomic_dec(&ist_logouts_held);
}

/**
 * ist_fault_note_stag - remember the key of the command received last
 * @ic: the connection
 * @stag: that command's key (its read key, else its write key)
 *
 * Context: the connection's receive path.
 */
void ist_fault_note_stag(struct ist_conn *ic, u32 stag)
{
	WRITE_ONCE(ic->recent_stag, stag);
}

/**
 * ist_fault_no_inv - send this response without invalidation?
 *
 * Return: true once for each count written to fault_no_inv.
 */
bool ist_fault_no_inv(void)
{
	return ist_fault(IST_FAULT_NO_INV);
}

/**
 * ist_fault_wrong_inv - the key a response invalidates, maybe the wrong one
 * @ic: the connection
 * @key: the response's own command's key (not 0)
 *
 * Return: with fault_wrong_inv, the key of the command received last
 * when that is another one (it came after this one, so it is likely
 * still in flight and its key alive); else @key.
 */
u32 ist_fault_wrong_inv(struct ist_conn *ic, u32 key)
{
	u32 other = READ_ONCE(ic->recent_stag);

	if (other && other != key && ist_fault(IST_FAULT_WRONG_INV))
		return other;
	return key;
}

/**
 * ist_fault_stale_write - aim READ data at a completed READ's key?
 * @icmd: the command whose data goes out
 * @va: in: its buffer's address; out: where the data goes
 * @stag: in: its key; out: the key the data goes to
 *
 * With fault_stale_write, the last READ's address and key, which the
 * initiator has invalidated; the command is marked (stale_write).
 */
void ist_fault_stale_write(struct ist_cmd *icmd, u64 *va, u32 *stag)
{
	struct ist_conn *ic = icmd->ic;

	if (READ_ONCE(ic->last_read_stag) && ist_fault(IST_FAULT_STALE_WRITE)) {
		*va = READ_ONCE(ic->last_read_va);
		*stag = READ_ONCE(ic->last_read_stag);
		icmd->stale_write = true;
	}
	WRITE_ONCE(ic->last_read_va, icmd->read_va);
	WRITE_ONCE(ic->last_read_stag, icmd->read_stag);
}

/**
 * ist_fault_send_failed - a PDU's send failed: count a refused stale write
 * @icmd: the command whose send failed
 */
void ist_fault_send_failed(struct ist_cmd *icmd)
{
	if (icmd->stale_write)
		atomic_inc(&ist_stale_failed);
}

/**
 * ist_fault_copy_save - keep a copy of a PDU about to be posted
 * @c: the copy (on the caller's stack)
 * @msg: the PDU, iSER header first
 * @len: its length; longer than the copy holds: no copy
 */
void ist_fault_copy_save(struct ist_fault_copy *c, const void *msg, u32 len)
{
	c->len = len <= sizeof(c->buf) ? len : 0;
	if (c->len)
		memcpy(c->buf, msg, len);
}

/**
 * ist_fault_copies - send a posted SCSI Response again, as it was or for
 *	a tag never sent (fault_dup_rsp, fault_bogus_itt)
 * @ic: the connection
 * @c: its copy, from ist_fault_copy_save() before it was posted
 */
void ist_fault_copies(struct ist_conn *ic, const struct ist_fault_copy *c)
{
	int f;

	if (!c->len || (c->buf[ISER_HDR_LEN] & ISCSI_OPCODE_MASK) != ISCSI_OP_SCSI_CMD_RSP)
		return;
	for (f = IST_FAULT_DUP_RSP; f <= IST_FAULT_BOGUS_ITT; f++) {
		struct rst_tx *copy;
		u8 *cb;

		if (!ist_fault(f))
			continue;
		copy = rst_tx_tryget(ic->rc);
		if (IS_ERR(copy))
			continue;
		cb = rst_tx_buf(copy);
		memcpy(cb, c->buf, c->len);
		if (f == IST_FAULT_BOGUS_ITT) {
			/* libiscsi's task index is the tag's low 12 bits: 0xfff is none */
			cb[ISER_HDR_LEN + 18] |= 0x0f;
			cb[ISER_HDR_LEN + 19] = 0xff;
		}
		rst_tx_post(ic->rc, copy, c->len, NULL, false, 0);
	}
}

/**
 * ist_fault_init - create the switches in rdmastor_isert's debugfs folder
 * @dir: that folder
 */
void ist_fault_init(struct dentry *dir)
{
	int f;

	debugfs_create_atomic_t("fail_rx_hold", 0600, dir, &ist_fail_rx_hold);
	for (f = 0; f < IST_FAULTS; f++)
		debugfs_create_atomic_t(ist_fault_names[f], 0600, dir, &ist_faults[f]);
	debugfs_create_atomic_t("fault_silent", 0600, dir, &ist_silent);
	debugfs_create_atomic_t("stale_write_failed", 0400, dir, &ist_stale_failed);
	debugfs_create_atomic_t("fault_hold_logout", 0600, dir, &ist_hold_logout);
	debugfs_create_atomic_t("logouts_held", 0400, dir, &ist_logouts_held);
}
