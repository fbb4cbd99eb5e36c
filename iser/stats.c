// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/rdmastor_isert/conns: one line per iSER connection
 * with what tests and operators want to see: the phase, the command
 * window we allow and the MaxCmdSN we last advertised, the engine's
 * MR counters (forced-MR mode), and the receive buffers held for
 * immediate data used in place (rx_held).
 *
 * /sys/kernel/debug/rdmastor_isert/fail_rx_hold (tests): the next N
 * commands whose data is all immediate find no receive buffer to hold,
 * as when half the ring is held already.
 *
 * Hostile-target switches, for the initiator's tests (each takes a
 * count: the next N times): fault_wrong_inv (a response invalidates the
 * key of the command received last, if that is another one), fault_dup_rsp (a SCSI Response is sent
 * twice), fault_bogus_itt (and once more for a tag never sent),
 * fault_stale_write (READ data goes to the previous READ's key, which
 * the initiator has invalidated: stale_write_failed counts the ones
 * the initiator's NIC refused); fault_silent (while non-zero, no PDU
 * of the full feature phase is sent: a target that stops answering).
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "ist.h"

static LIST_HEAD(ist_conns);
static DEFINE_SPINLOCK(ist_conns_lock);
static struct dentry *ist_dir;
static atomic_t ist_fail_rx_hold = ATOMIC_INIT(0);
static atomic_t ist_faults[IST_FAULTS];
static atomic_t ist_silent = ATOMIC_INIT(0);
static atomic_t ist_stale_failed = ATOMIC_INIT(0);
static const char * const ist_fault_names[IST_FAULTS] = {
	[IST_FAULT_WRONG_INV] = "fault_wrong_inv",
	[IST_FAULT_DUP_RSP] = "fault_dup_rsp",
	[IST_FAULT_BOGUS_ITT] = "fault_bogus_itt",
	[IST_FAULT_STALE_WRITE] = "fault_stale_write",
};

/**
 * ist_fault - hostile-target switch: misbehave this time?
 * @f: which way
 *
 * Return: true once for each count written to its debugfs file.
 * Context: any.
 */
bool ist_fault(enum ist_fault f)
{
	return atomic_add_unless(&ist_faults[f], -1, 0);
}

/**
 * ist_fault_silent - hostile-target switch: send nothing now?
 *
 * Return: true while debugfs fault_silent is non-zero.
 */
bool ist_fault_silent(void)
{
	return atomic_read(&ist_silent) != 0;
}

/**
 * ist_fault_stale_failed - a stale-key RDMA WRITE was refused
 */
void ist_fault_stale_failed(void)
{
	atomic_inc(&ist_stale_failed);
}

/**
 * ist_fault_rx_hold - fault switch: should this command find no buffer to hold?
 *
 * Return: true once for each count written to fail_rx_hold.
 * Context: any.
 */
bool ist_fault_rx_hold(void)
{
	return atomic_add_unless(&ist_fail_rx_hold, -1, 0);
}

/**
 * ist_stats_add - list a connection in debugfs conns
 * @ic: the new connection
 */
void ist_stats_add(struct ist_conn *ic)
{
	spin_lock(&ist_conns_lock);
	list_add_tail(&ic->all, &ist_conns);
	spin_unlock(&ist_conns_lock);
}

/**
 * ist_stats_del - take a connection out of debugfs conns
 * @ic: the connection, before it is freed
 */
void ist_stats_del(struct ist_conn *ic)
{
	spin_lock(&ist_conns_lock);
	list_del(&ic->all);
	spin_unlock(&ist_conns_lock);
}

static int ist_conns_show(struct seq_file *m, void *v)
{
	struct ist_conn *ic;
	struct rst_stats s;

	spin_lock(&ist_conns_lock);
	list_for_each_entry(ic, &ist_conns, all) {
		u32 win = ist_window(ic);

		rst_conn_stats(ic->rc, &s);
		seq_printf(m, "phase %s mode %s window %u outstanding %d window_adv %u mrs %u mrs_peak %u mr_limit %u regs %llu local_inv %llu shrinks %llu rx_held %u reads_parked %llu reads_waiting %u\n",
			   READ_ONCE(ic->phase) == IST_FULL ? "full" : "login",
			   ic->use_mr ? "mr" : "dma", win == U32_MAX ? 0 : win,
			   atomic_read(&ic->outstanding), READ_ONCE(ic->window_adv),
			   s.mrs, s.mrs_peak, s.mr_limit, s.regs, s.local_inv, s.shrinks,
			   s.rx_held, s.reads_parked, s.reads_waiting);
	}
	spin_unlock(&ist_conns_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ist_conns);

/**
 * ist_stats_init - create debugfs rdmastor_isert/ (conns, fault switches)
 */
void ist_stats_init(void)
{
	int f;

	ist_dir = debugfs_create_dir("rdmastor_isert", NULL);
	debugfs_create_file("conns", 0444, ist_dir, NULL, &ist_conns_fops);
	debugfs_create_atomic_t("fail_rx_hold", 0600, ist_dir, &ist_fail_rx_hold);
	for (f = 0; f < IST_FAULTS; f++)
		debugfs_create_atomic_t(ist_fault_names[f], 0600, ist_dir, &ist_faults[f]);
	debugfs_create_atomic_t("fault_silent", 0600, ist_dir, &ist_silent);
	debugfs_create_atomic_t("stale_write_failed", 0400, ist_dir, &ist_stale_failed);
}

/**
 * ist_stats_exit - remove debugfs rdmastor_isert/
 */
void ist_stats_exit(void)
{
	debugfs_remove_recursive(ist_dir);
}
