// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/rdmastor_isert/conns: one line per iSER connection
 * with what tests and operators want to see: the phase, the command
 * window we allow and the MaxCmdSN we last advertised, the engine's
 * MR counters (forced-MR mode), and the receive buffers held for
 * immediate data used in place (rx_held).
 *
 * The fault and hostile-target switches beside it are fault.c's (debug
 * builds only).
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "ist.h"

static LIST_HEAD(ist_conns);
static DEFINE_SPINLOCK(ist_conns_lock);
static struct dentry *ist_dir;

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
	ist_dir = debugfs_create_dir("rdmastor_isert", NULL);
	debugfs_create_file("conns", 0444, ist_dir, NULL, &ist_conns_fops);
	ist_fault_init(ist_dir);
}

/**
 * ist_stats_exit - remove debugfs rdmastor_isert/
 */
void ist_stats_exit(void)
{
	debugfs_remove_recursive(ist_dir);
}
