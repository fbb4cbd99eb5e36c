// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/rdmastor_iser/conns: one line per bound connection
 * with the engine's view (the window, commands in flight, MRs and what
 * ended their keys), for tests and operators.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include "ini.h"

static LIST_HEAD(ini_conns);
static DEFINE_SPINLOCK(ini_conns_lock);
static struct dentry *ini_dir;

/**
 * ini_stats_add - list a connection bound to an RDMA connection
 * @ic: the connection, its rc set
 */
void ini_stats_add(struct ini_conn *ic)
{
	spin_lock(&ini_conns_lock);
	list_add_tail(&ic->all, &ini_conns);
	spin_unlock(&ini_conns_lock);
}

/**
 * ini_stats_del - take a connection off the list, before its rc goes
 * @ic: the connection
 */
void ini_stats_del(struct ini_conn *ic)
{
	spin_lock(&ini_conns_lock);
	list_del_init(&ic->all);
	spin_unlock(&ini_conns_lock);
}

static int ini_conns_show(struct seq_file *m, void *v)
{
	struct ini_conn *ic;
	struct rst_stats s;

	spin_lock(&ini_conns_lock);
	list_for_each_entry(ic, &ini_conns, all) {
		rst_conn_stats(ic->rc, &s);
		seq_printf(m, "%s window %u outstanding %u mrs %u mrs_peak %u mr_limit %u regs %llu remote_inv %llu local_inv %llu mr_freed_unknown %llu shrinks %llu\n",
			   dev_name(&ic->iconn->cls_conn->dev), s.window, s.outstanding,
			   s.mrs, s.mrs_peak, s.mr_limit, s.regs, s.remote_inv,
			   s.local_inv, s.mr_freed_unknown, s.shrinks);
	}
	spin_unlock(&ini_conns_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ini_conns);

/**
 * ini_stats_init - create debugfs rdmastor_iser/conns
 */
void ini_stats_init(void)
{
	ini_dir = debugfs_create_dir("rdmastor_iser", NULL);
	debugfs_create_file("conns", 0444, ini_dir, NULL, &ini_conns_fops);
	ini_fault_init(ini_dir);
}

/**
 * ini_stats_exit - remove debugfs rdmastor_iser/
 */
void ini_stats_exit(void)
{
	debugfs_remove_recursive(ini_dir);
}
