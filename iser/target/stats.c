// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/rdmastor_isert/nr_conns (world-readable, for exporters):
 * how many iSER connections there are. /sys/kernel/rdmastor_isert/conns
 * (root's): one line per connection, at most a page of them (then "...
 * N more connections"), for tests and operators: the initiator's
 * address and port, the phase, the command
 * window we allow and the MaxCmdSN we last advertised, the engine's
 * MR counters (forced-MR mode), and the receive buffers held for
 * immediate data used in place (rx_held).
 *
 * The fault and hostile-target switches are fault.c's, in debugfs
 * rdmastor_isert/ (debug builds only).
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/kobject.h>
#include <rdmastor/sysfs_page.h>

#include "ist.h"

static LIST_HEAD(ist_conns);
static DEFINE_SPINLOCK(ist_conns_lock);
static unsigned int ist_nr_conns;	/* on ist_conns, under ist_conns_lock */
static struct dentry *ist_dir;
static struct kobject *ist_kobj;

/**
 * ist_stats_add - list a connection in conns
 * @ic: the new connection
 */
void ist_stats_add(struct ist_conn *ic)
{
	spin_lock(&ist_conns_lock);
	list_add_tail(&ic->all, &ist_conns);
	ist_nr_conns++;
	spin_unlock(&ist_conns_lock);
}

/**
 * ist_stats_del - take a connection out of conns
 * @ic: the connection, before it is freed
 */
void ist_stats_del(struct ist_conn *ic)
{
	spin_lock(&ist_conns_lock);
	list_del(&ic->all);
	ist_nr_conns--;
	spin_unlock(&ist_conns_lock);
}

static ssize_t conns_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct sockaddr_storage local, peer;
	struct rds_page p = { .buf = buf };
	struct ist_conn *ic;
	struct rst_stats s;

	spin_lock(&ist_conns_lock);
	list_for_each_entry(ic, &ist_conns, all) {
		u32 win = ist_window(ic);

		if (!rds_page_room(&p))
			continue;
		rst_conn_stats(ic->rc, &s);
		rst_conn_addrs(ic->rc, &local, &peer);
		rds_page_emit(&p, "peer %pISpc phase %s mode %s window %u outstanding %d window_adv %u mrs %u mrs_peak %u mr_limit %u regs %llu local_inv %llu shrinks %llu rx_held %u reads_parked %llu reads_waiting %u\n",
			      (struct sockaddr *)&peer,
			      READ_ONCE(ic->phase) == IST_FULL ? "full" : "login",
			      ic->use_mr ? "mr" : "dma", win == U32_MAX ? 0 : win,
			      atomic_read(&ic->outstanding), READ_ONCE(ic->window_adv),
			      s.mrs, s.mrs_peak, s.mr_limit, s.regs, s.local_inv, s.shrinks,
			      s.rx_held, s.reads_parked, s.reads_waiting);
	}
	spin_unlock(&ist_conns_lock);
	return rds_page_end(&p, "connections");
}

/* Each session's counters: root's to read, as the NFS server's are. */
static struct kobj_attribute ist_conns_attr = __ATTR(conns, 0400, conns_show, NULL);

static ssize_t nr_conns_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return rds_count_show(&ist_conns_lock, &ist_nr_conns, buf);
}

static struct kobj_attribute ist_nr_conns_attr = __ATTR_RO(nr_conns);

/**
 * ist_stats_init - create /sys/kernel/rdmastor_isert/conns and debugfs
 * rdmastor_isert/ (fault switches)
 *
 * A missing sysfs file is logged; the target works without it.
 */
void ist_stats_init(void)
{
	ist_kobj = kobject_create_and_add("rdmastor_isert", kernel_kobj);
	if (!ist_kobj || sysfs_create_file(ist_kobj, &ist_conns_attr.attr) ||
	    sysfs_create_file(ist_kobj, &ist_nr_conns_attr.attr))
		pr_warn("no /sys/kernel/rdmastor_isert/conns or nr_conns\n");
	ist_dir = debugfs_create_dir("rdmastor_isert", NULL);
	ist_fault_init(ist_dir);
}

/**
 * ist_stats_exit - remove what ist_stats_init() made
 */
void ist_stats_exit(void)
{
	debugfs_remove_recursive(ist_dir);
	kobject_put(ist_kobj);
}
