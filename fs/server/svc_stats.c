// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/rdmastor_svcrdma/conns: one line per connection:
 * its peer, whether nfsd has it, how calls came and replies went, the
 * RDMA_ERRORs and protocol errors, the backchannel, and the engine's
 * counters (MRs of the forced-MR mode, receive buffers held by calls).
 *
 * /sys/kernel/debug/rdmastor_svcrdma/totals: the same counters summed
 * over every connection since the module loaded, gone ones included,
 * so a test can look after its clients have left.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "rsv.h"

static LIST_HEAD(rsv_conns);
static DEFINE_SPINLOCK(rsv_conns_lock);
static struct rsv_stats rsv_gone;	/* of connections freed, under the lock */
static u64 rsv_nr_gone;
static struct dentry *rsv_dir;

/**
 * rsv_stats_add - list a connection in debugfs
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
 * rsv_stats_del - take a connection out of debugfs, keeping its counts
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

static void rsv_stats_print(struct seq_file *m, const struct rsv_stats *s)
{
	seq_printf(m, "calls %llu inline_calls %llu data_chunks %llu long_calls %llu inline_replies %llu write_chunks %llu reply_chunks %llu rdma_errors %llu bad_calls %llu send_inv %llu bc_calls %llu bc_replies %llu pull_waits %llu",
		   s->calls, s->inline_calls, s->data_chunks, s->long_calls,
		   s->inline_replies, s->write_chunks, s->reply_chunks,
		   s->rdma_errors, s->bad_calls, s->send_inv, s->bc_calls,
		   s->bc_replies, s->pull_waits);
}

static int rsv_conns_show(struct seq_file *m, void *v)
{
	struct sockaddr_storage local, peer;
	struct rsv_stats s;
	struct rst_stats e;
	struct rsv_xprt *x;

	spin_lock_bh(&rsv_conns_lock);
	list_for_each_entry(x, &rsv_conns, x_all) {
		rst_conn_stats(x->x_conn, &e);
		rst_conn_addrs(x->x_conn, &local, &peer);
		spin_lock(&x->x_lock);
		s = x->x_stats;
		spin_unlock(&x->x_lock);
		seq_printf(m, "conn %u peer %pISpc nfsd %s down %u mode %s inline_send %u granted %u ",
			   x->x_nr, &peer,
			   x->x_svc_gone ? "gone" : x->x_svc_live ? "yes" : "not-yet",
			   x->x_down, x->x_use_mr ? "mr" : "dma", x->x_inline_send,
			   READ_ONCE(x->x_granted));
		rsv_stats_print(m, &s);
		seq_printf(m, " mrs %u mrs_peak %u mr_limit %u regs %llu local_inv %llu rx_held %u reads_parked %llu\n",
			   e.mrs, e.mrs_peak, e.mr_limit, e.regs, e.local_inv,
			   e.rx_held, e.reads_parked);
	}
	spin_unlock_bh(&rsv_conns_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rsv_conns);

static int rsv_totals_show(struct seq_file *m, void *v)
{
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
	seq_printf(m, "conns %llu ", n);
	rsv_stats_print(m, &sum);
	rsv_pull_show(m);
	seq_puts(m, "\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rsv_totals);

/**
 * rsv_stats_init - create debugfs rdmastor_svcrdma/ (conns, totals)
 */
void rsv_stats_init(void)
{
	rsv_dir = debugfs_create_dir("rdmastor_svcrdma", NULL);
	debugfs_create_file("conns", 0444, rsv_dir, NULL, &rsv_conns_fops);
	debugfs_create_file("totals", 0444, rsv_dir, NULL, &rsv_totals_fops);
}

/**
 * rsv_stats_exit - remove debugfs rdmastor_svcrdma/
 */
void rsv_stats_exit(void)
{
	debugfs_remove_recursive(rsv_dir);
}
