// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/rdmastor_iser/nr_conns (world-readable, for exporters):
 * how many connections are bound. /sys/kernel/rdmastor_iser/conns
 * (world-readable): one line per bound connection, at most a page of
 * them (then "... N more connections"), with the target portal's
 * address and port and the engine's view (the window,
 * commands in flight, MRs and what ended their keys), for tests and
 * operators. The fault switches are in debugfs rdmastor_iser/.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/kobject.h>
#include <rdmastor/sysfs_page.h>
#include "ini.h"

static LIST_HEAD(ini_conns);
static DEFINE_SPINLOCK(ini_conns_lock);
static unsigned int ini_nr_conns;	/* on ini_conns, under ini_conns_lock */
static struct dentry *ini_dir;
static struct kobject *ini_kobj;

/**
 * ini_stats_add - list a connection bound to an RDMA connection
 * @ic: the connection, its rc set
 */
void ini_stats_add(struct ini_conn *ic)
{
	spin_lock(&ini_conns_lock);
	list_add_tail(&ic->all, &ini_conns);
	ini_nr_conns++;
	spin_unlock(&ini_conns_lock);
}

/**
 * ini_stats_del - take a connection off the list, before its rc goes
 * @ic: the connection
 */
void ini_stats_del(struct ini_conn *ic)
{
	spin_lock(&ini_conns_lock);
	if (!list_empty(&ic->all)) {	/* released before it was bound */
		list_del_init(&ic->all);
		ini_nr_conns--;
	}
	spin_unlock(&ini_conns_lock);
}

static ssize_t conns_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct sockaddr_storage local, peer;
	struct rds_page p = { .buf = buf };
	struct ini_conn *ic;
	struct rst_stats s;

	spin_lock(&ini_conns_lock);
	list_for_each_entry(ic, &ini_conns, all) {
		if (!rds_page_room(&p))
			continue;
		rst_conn_stats(ic->rc, &s);
		rst_conn_addrs(ic->rc, &local, &peer);
		rds_page_emit(&p, "%s target %pISpc window %u outstanding %u mrs %u mrs_peak %u mr_limit %u regs %llu remote_inv %llu local_inv %llu mr_freed_unknown %llu shrinks %llu\n",
			      dev_name(&ic->iconn->cls_conn->dev), (struct sockaddr *)&peer,
			      s.window, s.outstanding,
			      s.mrs, s.mrs_peak, s.mr_limit, s.regs, s.remote_inv,
			      s.local_inv, s.mr_freed_unknown, s.shrinks);
	}
	spin_unlock(&ini_conns_lock);
	return rds_page_end(&p, "connections");
}

static struct kobj_attribute ini_conns_attr = __ATTR_RO(conns);

static ssize_t nr_conns_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return rds_count_show(&ini_conns_lock, &ini_nr_conns, buf);
}

static struct kobj_attribute ini_nr_conns_attr = __ATTR_RO(nr_conns);

/**
 * ini_stats_init - create /sys/kernel/rdmastor_iser/conns and debugfs
 * rdmastor_iser/ (fault switches)
 *
 * A missing sysfs file is logged; the initiator works without it.
 */
void ini_stats_init(void)
{
	ini_kobj = kobject_create_and_add("rdmastor_iser", kernel_kobj);
	if (!ini_kobj || sysfs_create_file(ini_kobj, &ini_conns_attr.attr) ||
	    sysfs_create_file(ini_kobj, &ini_nr_conns_attr.attr))
		pr_warn("no /sys/kernel/rdmastor_iser/conns or nr_conns\n");
	ini_dir = debugfs_create_dir("rdmastor_iser", NULL);
	ini_fault_init(ini_dir);
}

/**
 * ini_stats_exit - remove what ini_stats_init() made
 */
void ini_stats_exit(void)
{
	debugfs_remove_recursive(ini_dir);
	kobject_put(ini_kobj);
}
