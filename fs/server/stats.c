// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/rdmastor_svcrdma/conns: one line per connection: its
 * peer, whether nfsd has it, how calls came and replies went, the
 * RDMA_ERRORs and protocol errors, the backchannel, and the engine's
 * counters (MRs of the forced-MR mode, receive buffers held by calls).
 *
 * /sys/kernel/rdmastor_svcrdma/totals: the same counters summed over
 * every connection since the module loaded, gone ones included, so a
 * test (or an exporter) can look after its clients have left; and the
 * pull budget.
 *
 * Both are world-readable: an unprivileged exporter reads them.
 */
#include <linux/module.h>
#include <linux/kobject.h>
#include <rdmastor/sysfs_page.h>

#include "rsv.h"

static LIST_HEAD(rsv_conns);
static DEFINE_SPINLOCK(rsv_conns_lock);
static struct rsv_stats rsv_gone;	/* of connections freed, under the lock */
static u64 rsv_nr_gone;
static struct kobject *rsv_kobj;

/**
 * rsv_stats_add - list a connection in conns
 * @x: the new connection
 */
void rsv_stats_add(struct rsv_xprt *x)
{
	spin_lock_bh(&rsv_conns_lock);
	list_add_tail(&x->x_all, &rsv_conns);
	spin_unlock_bh(&rsv_conns_lock);
}

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
	spin_lock_bh(&rsv_conns_lock);
	list_del(&x->x_all);
	rsv_stats_sum(&rsv_gone, &x->x_stats);
	rsv_nr_gone++;
	spin_unlock_bh(&rsv_conns_lock);
}

static void rsv_stats_print(struct rds_page *p, const struct rsv_stats *s)
{
	rds_page_emit(p, "calls %llu inline_calls %llu data_chunks %llu long_calls %llu inline_replies %llu write_chunks %llu reply_chunks %llu rdma_errors %llu bad_calls %llu send_inv %llu bc_calls %llu bc_replies %llu pull_waits %llu",
		   s->calls, s->inline_calls, s->data_chunks, s->long_calls,
		   s->inline_replies, s->write_chunks, s->reply_chunks,
		   s->rdma_errors, s->bad_calls, s->send_inv, s->bc_calls,
		   s->bc_replies, s->pull_waits);
}

static ssize_t conns_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct rds_page p = { .buf = buf };
	struct sockaddr_storage local, peer;
	struct rsv_stats s;
	struct rst_stats e;
	struct rsv_xprt *x;

	spin_lock_bh(&rsv_conns_lock);
	list_for_each_entry(x, &rsv_conns, x_all) {
		if (!rds_page_room(&p))
			continue;
		rst_conn_stats(x->x_conn, &e);
		rst_conn_addrs(x->x_conn, &local, &peer);
		spin_lock(&x->x_lock);
		s = x->x_stats;
		spin_unlock(&x->x_lock);
		rds_page_emit(&p, "conn %u peer %pISpc nfsd %s down %u mode %s inline_send %u granted %u ",
			      x->x_nr, &peer,
			      x->x_svc_gone ? "gone" : x->x_svc_live ? "yes" : "not-yet",
			      x->x_down, x->x_use_mr ? "mr" : "dma", x->x_inline_send,
			      READ_ONCE(x->x_granted));
		rsv_stats_print(&p, &s);
		rds_page_emit(&p, " mrs %u mrs_peak %u mr_limit %u regs %llu local_inv %llu rx_held %u reads_parked %llu\n",
			      e.mrs, e.mrs_peak, e.mr_limit, e.regs, e.local_inv,
			      e.rx_held, e.reads_parked);
	}
	spin_unlock_bh(&rsv_conns_lock);
	return rds_page_end(&p, "connections");
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
	rds_page_emit(&p, "conns %llu ", n);
	rsv_stats_print(&p, &sum);
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
 * rsv_stats_init - create /sys/kernel/rdmastor_svcrdma/ (conns, totals)
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
	if (err)
		kobject_put(rsv_kobj);
	return err;
}

/**
 * rsv_stats_exit - remove /sys/kernel/rdmastor_svcrdma/
 */
void rsv_stats_exit(void)
{
	kobject_put(rsv_kobj);
}
