// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/rdmastor_isert/nr_conns (world-readable, for exporters):
 * how many iSER connections there are; connections/NR/ (root's), one
 * directory per connection with no limit on their number: "peer" (the
 * initiator's address and port) and "stats" (one KEY VALUE line each).
 * /sys/kernel/rdmastor_isert/conns (root's): the same, one line per
 * connection, at most a page of them (then "... N more connections"),
 * for tests and operators: the initiator's address and port, the phase,
 * the command
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
#include <rdmastor/obj_dir.h>
#include <rdmastor/sysfs_page.h>

#include "ist.h"

static LIST_HEAD(ist_conns);
static DEFINE_SPINLOCK(ist_conns_lock);
static unsigned int ist_nr_conns;	/* on ist_conns, under ist_conns_lock */
static struct dentry *ist_dir;
static struct kobject *ist_kobj;
static struct kobject *ist_conns_kobj;	/* connections/ */

/* One connection's counters, KEY VALUE, @sep after each: ' ' or '\n'. */
static int ist_conn_emit(struct ist_conn *ic, char *buf, size_t size, char sep)
{
	u32 win = ist_window(ic);
	struct rst_stats s;

	rst_conn_stats(ic->rc, &s);
	return scnprintf(buf, size,
			 "phase %s%cmode %s%cwindow %u%coutstanding %d%cwindow_adv %u%cmrs %u%cmrs_peak %u%cmr_limit %u%cregs %llu%clocal_inv %llu%cshrinks %llu%crx_held %u%creads_parked %llu%creads_waiting %u\n",
			 READ_ONCE(ic->phase) == IST_FULL ? "full" : "login", sep,
			 ic->use_mr ? "mr" : "dma", sep, win == U32_MAX ? 0 : win, sep,
			 atomic_read(&ic->outstanding), sep, READ_ONCE(ic->window_adv), sep,
			 s.mrs, sep, s.mrs_peak, sep, s.mr_limit, sep, s.regs, sep,
			 s.local_inv, sep, s.shrinks, sep, s.rx_held, sep, s.reads_parked, sep,
			 s.reads_waiting);
}

static ssize_t peer_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct ist_conn *ic = rds_dir_obj(kobj);

	return rst_conn_peer_show(ic->rc, buf);
}

static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return ist_conn_emit(rds_dir_obj(kobj), buf, PAGE_SIZE, '\n');
}

static struct kobj_attribute ist_peer_attr = __ATTR(peer, 0400, peer_show, NULL);
static struct kobj_attribute ist_stats_attr = __ATTR(stats, 0400, stats_show, NULL);

static struct attribute *ist_conn_attrs[] = {
	&ist_peer_attr.attr,
	&ist_stats_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ist_conn);

static struct kobj_type ist_conn_ktype = {
	.release = rds_dir_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ist_conn_groups,
};

/**
 * ist_stats_add - list a connection in conns
 * @ic: the new connection
 */
void ist_stats_add(struct ist_conn *ic)
{
	char name[16];

	spin_lock(&ist_conns_lock);
	list_add_tail(&ic->all, &ist_conns);
	ist_nr_conns++;
	spin_unlock(&ist_conns_lock);
	snprintf(name, sizeof(name), "%u", ic->nr);
	ic->dir = rds_dir_add(&ist_conn_ktype, ist_conns_kobj, ic, name);
}

/**
 * ist_stats_del - take a connection out of conns
 * @ic: the connection, before it is freed
 */
void ist_stats_del(struct ist_conn *ic)
{
	rds_dir_del(&ic->dir);
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

	spin_lock(&ist_conns_lock);
	list_for_each_entry(ic, &ist_conns, all) {
		if (!rds_page_room(&p))
			continue;
		rst_conn_addrs(ic->rc, &local, &peer);
		rds_page_emit(&p, "peer %pISpc ", (struct sockaddr *)&peer);
		p.len += ist_conn_emit(ic, p.buf + p.len, PAGE_SIZE - p.len, ' ');
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
	ist_conns_kobj = ist_kobj ? kobject_create_and_add("connections", ist_kobj) : NULL;
	if (!ist_conns_kobj)
		pr_warn("no /sys/kernel/rdmastor_isert/connections/\n");
	ist_dir = debugfs_create_dir("rdmastor_isert", NULL);
	ist_fault_init(ist_dir);
}

/**
 * ist_stats_exit - remove what ist_stats_init() made
 */
void ist_stats_exit(void)
{
	debugfs_remove_recursive(ist_dir);
	kobject_put(ist_conns_kobj);
	kobject_put(ist_kobj);
}
