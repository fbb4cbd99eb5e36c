// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/rdmastor_svcrdma/conns: one line per connection: its
 * peer, whether nfsd has it, how calls came and replies went, the
 * RDMA_ERRORs and protocol errors, the backchannel, and the engine's
 * counters (MRs of the forced-MR mode, receive buffers held by calls).
 *
 * The page holds 15 to 20 such lines, then "... N more connections";
 * connections/NR/ (NR the engine's connection id) has no limit: one
 * directory per connection until it is down, with "peer" (the client's
 * address and port) and "stats" (the same counters, a KEY VALUE line
 * each).
 *
 * /sys/kernel/rdmastor_svcrdma/totals: the same counters summed over
 * every connection since the module loaded, gone ones included, so a
 * test (or an exporter) can look after its clients have left; and the
 * pull budget.
 *
 * totals is world-readable: an unprivileged exporter reads it. A
 * connection's line and directory are root's, as nfsd's clients/ are.
 */
#include <linux/module.h>
#include <linux/kobject.h>
#include <rdmastor/obj_dir.h>
#include <rdmastor/sysfs_page.h>

#include "rsv.h"

static LIST_HEAD(rsv_conns);
static DEFINE_SPINLOCK(rsv_conns_lock);
static struct rsv_stats rsv_gone;	/* of connections freed, under the lock */
static u64 rsv_nr_gone;
static struct kobject *rsv_kobj;
static struct kobject *rsv_conns_kobj;	/* connections/ */

static void rsv_stats_sum(struct rsv_stats *to, const struct rsv_stats *s)
{
	const u64 *from = (const u64 *)s;
	u64 *sum = (u64 *)to;
	unsigned int i;

	for (i = 0; i < sizeof(*s) / sizeof(u64); i++)
		sum[i] += from[i];
}

/**
 * rsv_stats_del - take a connection out of conns, keeping its counts
 * @x: the connection, before it is freed
 */
void rsv_stats_del(struct rsv_xprt *x)
{
	rds_dir_del(&x->x_dir);		/* if ->disconnected did not */
	spin_lock_bh(&rsv_conns_lock);
	list_del(&x->x_all);
	rsv_stats_sum(&rsv_gone, &x->x_stats);
	rsv_nr_gone++;
	spin_unlock_bh(&rsv_conns_lock);
}

/* struct rsv_stats's counters, in its order */
static const char *const rsv_stat_names[] = {
	"calls", "inline_calls", "data_chunks", "long_calls",
	"inline_replies", "write_chunks", "reply_chunks", "rdma_errors",
	"bad_calls", "send_inv", "bc_calls", "bc_replies",
	"pull_waits",
};

/* The counters as KEY VALUE, @sep before each. */
static void rsv_stats_print(struct rds_page *p, const struct rsv_stats *s, char sep)
{
	const u64 *v = (const u64 *)s;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(rsv_stat_names) != sizeof(*s) / sizeof(u64));
	for (i = 0; i < ARRAY_SIZE(rsv_stat_names); i++)
		rds_page_emit(p, "%c%s %llu", sep, rsv_stat_names[i], v[i]);
}

/* One connection's state and counters, KEY VALUE, @sep between, a newline after. */
static void rsv_conn_emit(struct rds_page *p, struct rsv_xprt *x, char sep)
{
	struct rsv_stats s;
	struct rst_stats e;

	rst_conn_stats(x->x_conn, &e);
	spin_lock_bh(&x->x_lock);
	s = x->x_stats;
	spin_unlock_bh(&x->x_lock);
	rds_page_emit(p, "nfsd %s%cdown %u%cmode %s%cinline_send %u%cgranted %u",
		      x->x_svc_gone ? "gone" : x->x_svc_live ? "yes" : "not-yet", sep,
		      x->x_down, sep, x->x_use_mr ? "mr" : "dma", sep, x->x_inline_send,
		      sep, READ_ONCE(x->x_granted));
	rsv_stats_print(p, &s, sep);
	rds_page_emit(p, "%cmrs %u%cmrs_peak %u%cmr_limit %u%cregs %llu%clocal_inv %llu%crx_held %u%creads_parked %llu\n",
		      sep, e.mrs, sep, e.mrs_peak, sep, e.mr_limit, sep, e.regs, sep,
		      e.local_inv, sep, e.rx_held, sep, e.reads_parked);
}

static ssize_t conns_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct rds_page p = { .buf = buf };
	struct sockaddr_storage local, peer;
	struct rsv_xprt *x;

	spin_lock_bh(&rsv_conns_lock);
	list_for_each_entry(x, &rsv_conns, x_all) {
		if (!rds_page_room(&p))
			continue;
		rst_conn_addrs(x->x_conn, &local, &peer);
		rds_page_emit(&p, "conn %u peer %pISpc ", x->x_nr, &peer);
		rsv_conn_emit(&p, x, ' ');
	}
	spin_unlock_bh(&rsv_conns_lock);
	return rds_page_end(&p, "connections");
}

/* connections/NR/: valid in a show, as rds_dir_del() drains the readers */
static ssize_t peer_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct rsv_xprt *x = rds_dir_obj(kobj);

	return rst_conn_peer_show(x->x_conn, buf);
}

static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	struct rds_page p = { .buf = buf };

	rsv_conn_emit(&p, rds_dir_obj(kobj), '\n');
	return p.len;
}

static struct kobj_attribute rsv_peer_attr = __ATTR(peer, 0400, peer_show, NULL);
static struct kobj_attribute rsv_stats_attr = __ATTR(stats, 0400, stats_show, NULL);

static struct attribute *rsv_conn_attrs[] = {
	&rsv_peer_attr.attr,
	&rsv_stats_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rsv_conn);

static const struct kobj_type rsv_conn_ktype = {
	.release = rds_dir_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = rsv_conn_groups,
};

/**
 * rsv_stats_add - list a connection in conns
 * @x: the new connection
 */
void rsv_stats_add(struct rsv_xprt *x)
{
	char name[16];

	spin_lock_bh(&rsv_conns_lock);
	list_add_tail(&x->x_all, &rsv_conns);
	spin_unlock_bh(&rsv_conns_lock);
	snprintf(name, sizeof(name), "%u", x->x_nr);
	x->x_dir = rds_dir_add(&rsv_conn_ktype, rsv_conns_kobj, x, name);
}

/**
 * rsv_stats_unpublish - remove a connection's directory once it is down
 * @x: the connection
 *
 * Context: process; waits for the directory's readers.
 */
void rsv_stats_unpublish(struct rsv_xprt *x)
{
	rds_dir_del(&x->x_dir);
}

static ssize_t totals_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct rds_page p = { .buf = buf };
	struct rsv_stats sum;
	struct rsv_xprt *x;
	u64 n;

	spin_lock_bh(&rsv_conns_lock);
	sum = rsv_gone;
	n = rsv_nr_gone;
	list_for_each_entry(x, &rsv_conns, x_all) {
		spin_lock(&x->x_lock);
		rsv_stats_sum(&sum, &x->x_stats);
		spin_unlock(&x->x_lock);
		n++;
	}
	spin_unlock_bh(&rsv_conns_lock);
	rds_page_emit(&p, "conns %llu", n);
	rsv_stats_print(&p, &sum, ' ');
	rsv_pull_show(&p);
	rds_page_emit(&p, "\n");
	return p.len;
}

/* Each client's address and counters: root's, as nfsd's clients/ are. */
static struct kobj_attribute rsv_conns_attr = __ATTR(conns, 0400, conns_show, NULL);
static struct kobj_attribute rsv_totals_attr = __ATTR_RO(totals);

static struct attribute *rsv_stats_attrs[] = {
	&rsv_conns_attr.attr,
	&rsv_totals_attr.attr,
	NULL,
};

static const struct attribute_group rsv_stats_group = {
	.attrs = rsv_stats_attrs,
};

/**
 * rsv_stats_init - create /sys/kernel/rdmastor_svcrdma/ (conns, totals, connections/)
 *
 * Return: 0 or a negative errno.
 */
int rsv_stats_init(void)
{
	int err;

	rsv_kobj = kobject_create_and_add("rdmastor_svcrdma", kernel_kobj);
	if (!rsv_kobj)
		return -ENOMEM;
	err = sysfs_create_group(rsv_kobj, &rsv_stats_group);
	if (err) {
		kobject_put(rsv_kobj);
		return err;
	}
	rsv_conns_kobj = kobject_create_and_add("connections", rsv_kobj);
	if (!rsv_conns_kobj)
		pr_warn("no /sys/kernel/rdmastor_svcrdma/connections/\n");
	return 0;
}

/**
 * rsv_stats_exit - remove /sys/kernel/rdmastor_svcrdma/
 */
void rsv_stats_exit(void)
{
	kobject_put(rsv_conns_kobj);
	kobject_put(rsv_kobj);
}
