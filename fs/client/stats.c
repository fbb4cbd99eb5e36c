// SPDX-License-Identifier: GPL-2.0
/*
 * What a transport reports, and where.
 *
 * /proc/self/mountstats: the "xprt: rdma" line carries exactly the 27
 * fields of the stock 6.1 transport, in its order, so that nfs-utils'
 * mountstats and other parsers that label fields by position read
 * rdmastor's as they read stock's (Documentation/nfs.rst, "Counters").
 * Counters stock has no equivalent for read 0.
 *
 * /sys/kernel/rdmastor_rpcrdma/xprts/xprt-ID/ (ID: SUNRPC's transport
 * id, as in /sys/kernel/sunrpc/xprt-switches/): "peer" (address and
 * port) and "stats", one "name value" line per counter: the ones stock
 * has and rdmastor's own. World-readable, for exporters.
 */
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/sunrpc/xprt.h>
#include <rdmastor/obj_dir.h>

#include "rsx.h"

static struct kobject *rsx_root_kobj;
static struct kobject *rsx_xprts_kobj;

/* A consistent copy of the transport's and its connection's counters. */
static void rsx_stats_snapshot(struct rsx_xprt *x, struct rsx_stats *s,
			       struct rst_stats *e)
{
	memset(e, 0, sizeof(*e));
	spin_lock(&x->x_lock);
	*s = x->x_stats;
	spin_unlock(&x->x_lock);
	mutex_lock(&x->x_conn_mutex);
	if (x->x_conn)
		rst_conn_stats(x->x_conn, e);
	mutex_unlock(&x->x_conn_mutex);
}

/**
 * rsx_print_stats - SUNRPC's ->print_stats: the mountstats "xprt:" line
 * @xprt: the transport
 * @seq: /proc/self/mountstats
 *
 * Stock 6.1's fields in stock's order: the generic ten, then read,
 * write and reply segments, bytes registered for Read chunks and for
 * Write and Reply chunks, pull-up, fix-up and hardway bytes (rdmastor
 * copies into pre-registered buffers only: 0), failed marshals, bad
 * replies, RDMA_NOMSG calls, recovered and orphaned MRs (0: a flushed
 * MR is destroyed, not recovered), allocated MRs (the most the
 * connection has held at once: idle MRs are freed), replies that
 * needed a LOCAL_INV, empty send-context waits (0) and stock's
 * preserved 0.
 */
void rsx_print_stats(struct rpc_xprt *xprt, struct seq_file *seq)
{
	struct rsx_xprt *x = rsx_of(xprt);
	struct rsx_stats s;
	struct rst_stats e;
	long idle = 0;

	if (xprt_connected(xprt))
		idle = (long)(jiffies - xprt->last_used) / HZ;
	rsx_stats_snapshot(x, &s, &e);
	seq_printf(seq, "\txprt:\trdma 0 %lu %lu %lu %ld %lu %lu %lu %llu %llu ",
		   xprt->stat.bind_count, xprt->stat.connect_count,
		   xprt->stat.connect_time / HZ, idle, xprt->stat.sends,
		   xprt->stat.recvs, xprt->stat.bad_xids, xprt->stat.req_u,
		   xprt->stat.bklog_u);
	seq_printf(seq, "%llu %llu %llu %llu %llu 0 0 0 %llu %llu %llu ",
		   s.read_chunks + s.long_calls, s.write_chunks, s.reply_chunks,
		   s.request_bytes, s.reply_bytes, s.failed_marshal,
		   s.bad_replies, s.long_calls);
	seq_printf(seq, "0 0 %u %llu 0 0\n", e.mrs_peak, s.local_inv_replies);
}

/* A transport's directory (rdmastor/obj_dir.h: allocated apart from it). */
static struct rsx_xprt *rsx_of_kobj(struct kobject *kobj)
{
	return rds_dir_obj(kobj);
}

static ssize_t peer_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	struct rpc_xprt *xprt = &rsx_of_kobj(kobj)->xprt;

	return sysfs_emit(buf, "%s %s\n",
			  xprt->address_strings[RPC_DISPLAY_ADDR] ?: "?",
			  xprt->address_strings[RPC_DISPLAY_PORT] ?: "?");
}

static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct rsx_xprt *x = rsx_of_kobj(kobj);
	struct rsx_stats s;
	struct rst_stats e;

	rsx_stats_snapshot(x, &s, &e);
	return sysfs_emit(buf,
			  "inline_calls %llu\nread_chunks %llu\nlong_calls %llu\n"
			  "inline_replies %llu\nwrite_chunks %llu\nreply_chunks %llu\n"
			  "request_bytes %llu\nreply_bytes %llu\nfailed_marshal %llu\n"
			  "rdma_errors %llu\nbad_replies %llu\nunknown_xids %llu\n"
			  "local_inv_replies %llu\nbc_calls %llu\nbc_dropped %llu\n"
			  "reconnects %llu\nabandoned %llu\n"
			  "mrs %u\nmrs_peak %u\nmr_limit %u\nwindow %u\nregs %llu\n"
			  "remote_inv %llu\nlocal_inv %llu\nfreed_unknown %llu\n"
			  "rdma_sends %llu\nsends_signaled %llu\nmr_entries %u\n",
			  s.inline_calls, s.read_chunks, s.long_calls,
			  s.inline_replies, s.write_chunks, s.reply_chunks,
			  s.request_bytes, s.reply_bytes, s.failed_marshal,
			  s.rdma_errors, s.bad_replies, s.unknown_xids,
			  s.local_inv_replies, s.bc_calls, s.bc_dropped,
			  s.reconnects, s.abandoned,
			  e.mrs, e.mrs_peak, e.mr_limit, e.window, e.regs,
			  e.remote_inv, e.local_inv, e.mr_freed_unknown,
			  e.sends, e.sends_signaled, e.mr_entries);
}

static struct kobj_attribute rsx_peer_attr = __ATTR_RO(peer);
static struct kobj_attribute rsx_stats_attr = __ATTR_RO(stats);

static struct attribute *rsx_xprt_attrs[] = {
	&rsx_peer_attr.attr,
	&rsx_stats_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rsx_xprt);

static struct kobj_type rsx_xprt_ktype = {
	.release = rds_dir_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = rsx_xprt_groups,
};

/**
 * rsx_stats_add - a transport's sysfs directory
 * @x: the transport, set up
 *
 * A transport without one still works: its counters are then only in
 * mountstats (a warning says so).
 */
void rsx_stats_add(struct rsx_xprt *x)
{
	char name[24];

	snprintf(name, sizeof(name), "xprt-%d", x->xprt.id);
	x->x_dir = rds_dir_add(&rsx_xprt_ktype, rsx_xprts_kobj, x, name);
	if (!x->x_dir)
		pr_warn("%s: no sysfs directory for transport %d\n", x->x_name, x->xprt.id);
}

/**
 * rsx_stats_del - remove a transport's sysfs directory, before it is freed
 * @x: the transport
 */
void rsx_stats_del(struct rsx_xprt *x)
{
	rds_dir_del(&x->x_dir);
}

/**
 * rsx_stats_init - /sys/kernel/rdmastor_rpcrdma/xprts/
 *
 * Return: 0 or -ENOMEM.
 */
int rsx_stats_init(void)
{
	rsx_root_kobj = kobject_create_and_add("rdmastor_rpcrdma", kernel_kobj);
	if (!rsx_root_kobj)
		return -ENOMEM;
	rsx_xprts_kobj = kobject_create_and_add("xprts", rsx_root_kobj);
	if (!rsx_xprts_kobj) {
		kobject_put(rsx_root_kobj);
		return -ENOMEM;
	}
	return 0;
}

/**
 * rsx_stats_exit - remove the tree; every transport is gone by then
 */
void rsx_stats_exit(void)
{
	kobject_put(rsx_xprts_kobj);
	kobject_put(rsx_root_kobj);
}
