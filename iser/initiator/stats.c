// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/rdmastor_iser/nr_conns (world-readable, for exporters):
 * how many connections are bound; connections/NAME/ (NAME: the iSCSI
 * connection's, connectionS:C), one directory per bound connection with
 * no limit on their number: "target" (the portal's address and port)
 * and "stats" (one KEY VALUE line each). /sys/kernel/rdmastor_iser/conns
 * (world-readable): the same, one line per bound connection, at most a
 * page of them (then "... N more connections"), with the target
 * portal's address and port and the engine's view (the window,
 * commands in flight, MRs and what ended their keys), for tests and
 * operators. The fault switches are in debugfs rdmastor_iser/.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/kobject.h>
#include <rdmastor/obj_dir.h>
#include <rdmastor/sysfs_page.h>
#include "ini.h"

static LIST_HEAD(ini_conns);
static DEFINE_SPINLOCK(ini_conns_lock);
static unsigned int ini_nr_conns;	/* on ini_conns, under ini_conns_lock */
static struct dentry *ini_dir;
static struct kobject *ini_kobj;
static struct kobject *ini_conns_kobj;	/* connections/ */

/* One connection's counters, KEY VALUE, @sep after each: ' ' or '\n'. */
static int ini_conn_emit(struct ini_conn *ic, char *buf, size_t size, char sep)
{
	struct rst_stats s;

	rst_conn_stats(ic->rc, &s);
	return scnprintf(buf, size,
			 "window %u%coutstanding %u%cmrs %u%cmrs_peak %u%cmr_limit %u%cregs %llu%cremote_inv %llu%clocal_inv %llu%cmr_freed_unknown %llu%cshrinks %llu\n",
			 s.window, sep, s.outstanding, sep, s.mrs, sep, s.mrs_peak, sep,
			 s.mr_limit, sep, s.regs, sep, s.remote_inv, sep, s.local_inv, sep,
			 s.mr_freed_unknown, sep, s.shrinks);
}

static ssize_t target_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct ini_conn *ic = rds_dir_obj(kobj);

	return rst_conn_peer_show(ic->rc, buf);
}

static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return ini_conn_emit(rds_dir_obj(kobj), buf, PAGE_SIZE, '\n');
}

static struct kobj_attribute ini_target_attr = __ATTR_RO(target);
static struct kobj_attribute ini_stats_attr = __ATTR_RO(stats);

static struct attribute *ini_conn_attrs[] = {
	&ini_target_attr.attr,
	&ini_stats_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(ini_conn);

static struct kobj_type ini_conn_ktype = {
	.release = rds_dir_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = ini_conn_groups,
};

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
	ic->dir = rds_dir_add(&ini_conn_ktype, ini_conns_kobj, ic,
			      dev_name(&ic->iconn->cls_conn->dev));
}

/**
 * ini_stats_del - take a connection off the list, before its rc goes
 * @ic: the connection
 */
void ini_stats_del(struct ini_conn *ic)
{
	rds_dir_del(&ic->dir);
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

	spin_lock(&ini_conns_lock);
	list_for_each_entry(ic, &ini_conns, all) {
		if (!rds_page_room(&p))
			continue;
		rst_conn_addrs(ic->rc, &local, &peer);
		rds_page_emit(&p, "%s target %pISpc ", dev_name(&ic->iconn->cls_conn->dev),
			      (struct sockaddr *)&peer);
		p.len += ini_conn_emit(ic, p.buf + p.len, PAGE_SIZE - p.len, ' ');
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
	ini_conns_kobj = ini_kobj ? kobject_create_and_add("connections", ini_kobj) : NULL;
	if (!ini_conns_kobj)
		pr_warn("no /sys/kernel/rdmastor_iser/connections/\n");
	ini_dir = debugfs_create_dir("rdmastor_iser", NULL);
	ini_fault_init(ini_dir);
}

/**
 * ini_stats_exit - remove what ini_stats_init() made
 */
void ini_stats_exit(void)
{
	debugfs_remove_recursive(ini_dir);
	kobject_put(ini_conns_kobj);
	kobject_put(ini_kobj);
}
