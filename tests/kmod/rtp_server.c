// SPDX-License-Identifier: GPL-2.0
/*
 * rtp server: answers rtp requests (rtp_wire.h) on the transport engine.
 *
 *   echo "listen PORT DEPTH" > /sys/kernel/debug/rtp/server_ctl
 *   echo "stop" > /sys/kernel/debug/rtp/server_ctl
 *   echo "evil MODE" > /sys/kernel/debug/rtp/server_ctl
 *       test mode: the next reply to an RTP_READ is malformed (MODE is
 *       short, badmagic, badtype, zerocredits, wrongxid or wronginv);
 *       the client must close the connection, nothing may crash or leak
 *   echo "evil hold" > /sys/kernel/debug/rtp/server_ctl
 *       test mode: requests are held (up to 30 s) before being served,
 *       so a client that ignores its credits overruns them for sure;
 *       ends at the next protocol error, or when a held request stops
 *       waiting (its 30 s are up or its connection went down)
 *   cat /sys/kernel/debug/rtp/server_stats
 *
 * Each connection grants DEPTH credits and posts twice as many receives,
 * so that a client overrunning its credits is caught by the message
 * beyond them, which lands in a posted buffer, rather than left to its
 * receiver-not-ready retries (under emulation, seconds to minutes). A
 * request is decoded in ->recv, checked (a malformed one, or one beyond
 * the credits granted, is a protocol error: the connection is closed)
 * and served from a work item: RDMA WRITE of the pattern then the reply
 * (RTP_WRITE), or RDMA READ, check, reply (RTP_READ). Data buffers are
 * plain pages referenced by DMA address: the server registers no memory.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/slab.h>
#include <linux/highmem.h>
#include <linux/delay.h>
#include <rdmastor/rst.h>

#include "rtp_wire.h"
#include "rtp.h"

#define RTPS_PAGES	(RTP_MAX_IO / PAGE_SIZE)

struct rtps_req {
	struct list_head r_node;
	struct work_struct r_work;
	struct rtps_conn *r_conn;
	struct rtp_msg r_msg;
	struct page *r_pages[RTPS_PAGES];
	struct scatterlist r_sg[RTPS_PAGES];
};

struct rtps_conn {
	struct rst_conn *sc_conn;
	spinlock_t sc_lock;
	struct list_head sc_free;	/* request slots */
	u32 sc_active;			/* requests not yet replied to */
	u32 sc_queued;			/* work items not yet finished */
	wait_queue_head_t sc_wq;
	u32 sc_depth;
	bool sc_down;
	struct rtps_req *sc_reqs;
	u32 sc_nreqs;
};

static struct {
	struct mutex lock;
	struct rst_listener *listener;
	u32 depth;
	atomic64_t conns, requests, writes, reads, verify_errors, proto_errors;
	atomic64_t stale_attempts, stale_failed, io_errors, flushed_at_close, kicks;
	atomic64_t evil_sent;
	atomic_t active;	/* connections accepted and not yet gone */
	atomic_t evil;		/* enum rtps_evil for the next READ reply */
	atomic_t hold;		/* hold requests before serving them */
} rtps = { .lock = __MUTEX_INITIALIZER(rtps.lock) };

static struct workqueue_struct *rtps_wq;

enum rtps_evil {
	RTPS_SANE, RTPS_SHORT, RTPS_BADMAGIC, RTPS_BADTYPE, RTPS_ZEROCREDITS,
	RTPS_WRONGXID, RTPS_WRONGINV, RTPS_NR_EVIL,
};

static const char * const rtps_evil_names[RTPS_NR_EVIL] = {
	[RTPS_SHORT] = "short", [RTPS_BADMAGIC] = "badmagic",
	[RTPS_BADTYPE] = "badtype", [RTPS_ZEROCREDITS] = "zerocredits",
	[RTPS_WRONGXID] = "wrongxid", [RTPS_WRONGINV] = "wronginv",
};

/* Post a READ's reply, malformed if the test mode asks for it. */
static void rtps_reply(struct rst_conn *c, struct rst_tx *tx, struct rtp_msg *rep,
		       bool inv, u32 rkey)
{
	enum rtps_evil evil = atomic_xchg(&rtps.evil, RTPS_SANE);
	u8 *buf = rst_tx_buf(tx);
	u32 len = RTP_HDR_LEN;

	if (evil == RTPS_ZEROCREDITS)
		rep->credits = 0;
	if (evil == RTPS_WRONGXID)
		rep->xid ^= 0x00800000;
	rtp_encode(buf, rep);
	if (evil == RTPS_SHORT)
		len = RTP_HDR_LEN - 4;
	if (evil == RTPS_BADMAGIC)
		buf[0] ^= 0xff;
	if (evil == RTPS_BADTYPE)
		buf[4] = 99;
	if (evil == RTPS_WRONGINV) {
		inv = true;
		rkey ^= 0x01;		/* same MR, another key */
	}
	if (evil != RTPS_SANE)
		atomic64_inc(&rtps.evil_sent);
	rst_tx_post(c, tx, len, NULL, inv, rkey);
}

static void rtps_fill(struct rtps_req *r, u32 xid, bool stale)
{
	u32 words = r->r_msg.len / 8, i;

	for (i = 0; i < words; i++) {
		u64 *p = page_address(r->r_pages[i / (PAGE_SIZE / 8)]);

		p[i % (PAGE_SIZE / 8)] = stale ? 0x5a5a5a5a5a5a5a5aULL :
					 rtp_pattern_word(xid, i);
	}
}

static bool rtps_check(struct rtps_req *r)
{
	u32 words = r->r_msg.len / 8, i;

	for (i = 0; i < words; i++) {
		u64 *p = page_address(r->r_pages[i / (PAGE_SIZE / 8)]);

		if (p[i % (PAGE_SIZE / 8)] != rtp_pattern_word(r->r_msg.xid, i))
			return false;
	}
	return true;
}

/* Lazily give a slot the pages of a maximum-size request. */
static int rtps_pages(struct rtps_req *r, u32 len, u32 *nents)
{
	u32 n = DIV_ROUND_UP(len, PAGE_SIZE), i;

	sg_init_table(r->r_sg, n);
	for (i = 0; i < n; i++) {
		if (!r->r_pages[i]) {
			r->r_pages[i] = alloc_page(GFP_KERNEL);
			if (!r->r_pages[i])
				return -ENOMEM;
		}
		sg_set_page(&r->r_sg[i], r->r_pages[i],
			    min_t(u32, PAGE_SIZE, len - i * PAGE_SIZE), 0);
	}
	*nents = n;
	return 0;
}

/* The request no longer counts against the credits: a reply is coming. */
static void rtps_replying(struct rtps_conn *sc)
{
	spin_lock_irq(&sc->sc_lock);
	sc->sc_active--;
	spin_unlock_irq(&sc->sc_lock);
}

/*
 * Counted, and said with what tells one cause from another. A reply
 * flushed because the client closed the connection is not the server's
 * failure: RC acknowledges a send only when its ACK is processed, and
 * the client may close once it has the reply, before that (soft-RoCE
 * defers its completer). The client's own checks say whether it had it.
 */
static void rtps_io_error(struct rst_conn *c, struct rtps_req *r,
			  const char *what, int err)
{
	bool closed = rst_conn_closed(c);

	atomic64_inc(closed ? &rtps.flushed_at_close : &rtps.io_errors);
	pr_info_ratelimited("rtp server: %s of xid %#x (%u bytes) failed (%d)%s\n",
			    what, r->r_msg.xid, r->r_msg.len, err,
			    closed ? ": the client had closed the connection" :
			    rst_conn_up(c) ? "" : ", connection down");
}

static void rtps_work(struct work_struct *work)
{
	struct rtps_req *r = container_of(work, struct rtps_req, r_work);
	struct rtps_conn *sc = r->r_conn;
	struct rst_conn *c = sc->sc_conn;
	struct rtp_msg rep = { .type = RTP_REPLY, .xid = r->r_msg.xid,
			       .credits = sc->sc_depth };
	bool inv = r->r_msg.flags & RTP_F_REMOTE_INV;
	struct rst_tx *tx;
	u32 nents = 0, i;
	int err;

	/*
	 * Held until the hold ends (at the protocol error it provokes) or
	 * the connection does; 30 s at most. Not a fixed time: under
	 * emulation the overrunning messages can take seconds to arrive
	 * (receiver-not-ready retries while the ring is reposted).
	 */
	if (atomic_read(&rtps.hold)) {
		for (i = 0; i < 300 && atomic_read(&rtps.hold) && rst_conn_up(c); i++)
			msleep(100);
		/*
		 * One connection's hold: a client connecting after it was
		 * given up on (its 30 s, its connection gone) is served.
		 */
		atomic_set(&rtps.hold, 0);
		if (!rst_conn_up(c)) {
			rtps_replying(sc);
			goto out;
		}
	}
	err = rtps_pages(r, r->r_msg.len, &nents);
	tx = rst_tx_get(c, 10000);
	if (IS_ERR(tx)) {
		rtps_replying(sc);
		goto out;
	}
	if (err) {
		rep.status = -err;
		rtps_replying(sc);
		rtp_encode(rst_tx_buf(tx), &rep);
		rst_tx_post(c, tx, RTP_HDR_LEN, NULL, inv, r->r_msg.rkey);
		goto out;
	}
	switch (r->r_msg.type) {
	case RTP_WRITE:
	case RTP_STALE_WRITE:
		rtps_fill(r, r->r_msg.xid, r->r_msg.type == RTP_STALE_WRITE);
		rtp_encode(rst_tx_buf(tx), &rep);
		rtps_replying(sc);
		if (r->r_msg.type == RTP_STALE_WRITE)
			atomic64_inc(&rtps.stale_attempts);
		else
			atomic64_inc(&rtps.writes);
		err = rst_rw_write_send(c, r->r_sg, nents, r->r_msg.addr,
					r->r_msg.rkey, tx, RTP_HDR_LEN, inv);
		if (err && r->r_msg.type == RTP_STALE_WRITE)
			atomic64_inc(&rtps.stale_failed);
		else if (err)
			rtps_io_error(c, r, "RDMA WRITE and reply", err);
		break;
	default: /* RTP_READ */
		atomic64_inc(&rtps.reads);
		err = rst_rw_read(c, r->r_sg, nents, r->r_msg.addr, r->r_msg.rkey);
		if (err) {
			rtps_io_error(c, r, "RDMA READ", err);
			rtps_replying(sc);
			rst_tx_put(c, tx);
			break;
		}
		if (!rtps_check(r)) {
			atomic64_inc(&rtps.verify_errors);
			rep.status = EILSEQ;
		}
		rtps_replying(sc);
		rtps_reply(c, tx, &rep, inv, r->r_msg.rkey);
		break;
	}
out:
	/* Wake under the lock: the waiter frees sc once it sees zero. */
	spin_lock_irq(&sc->sc_lock);
	list_add(&r->r_node, &sc->sc_free);
	if (!--sc->sc_queued)
		wake_up(&sc->sc_wq);
	spin_unlock_irq(&sc->sc_lock);
}

static void rtps_recv(struct rst_conn *c, const void *buf, u32 len,
		      bool invalidated, u32 inv_rkey)
{
	struct rtps_conn *sc = rst_conn_priv(c);
	struct rtps_req *r = NULL;
	struct rtp_msg m;
	unsigned long flags;
	int err;

	atomic64_inc(&rtps.requests);
	err = rtp_decode(buf, len, &m);
	if (!err && (m.type == RTP_REPLY || invalidated))
		err = -EPROTO;		/* clients send requests, plainly */
	if (!err) {
		spin_lock_irqsave(&sc->sc_lock, flags);
		if (sc->sc_active < sc->sc_depth) {
			r = list_first_entry_or_null(&sc->sc_free, struct rtps_req,
						     r_node);
			if (r) {
				list_del(&r->r_node);
				sc->sc_active++;
				sc->sc_queued++;
			}
		}
		spin_unlock_irqrestore(&sc->sc_lock, flags);
		if (!r)
			err = -EOVERFLOW;	/* beyond the credits granted */
	}
	if (err) {
		atomic64_inc(&rtps.proto_errors);
		pr_info("rtp server: protocol error %d from the client: closing\n", err);
		rst_disconnect(c, -EPROTO);
		/* after the disconnect: held requests must find it down */
		atomic_set(&rtps.hold, 0);
		return;
	}
	r->r_msg = m;
	queue_work(rtps_wq, &r->r_work);
}

static void rtps_conn_free(struct rtps_conn *sc)
{
	u32 i, j;

	for (i = 0; i < sc->sc_nreqs; i++)
		for (j = 0; j < RTPS_PAGES; j++)
			if (sc->sc_reqs[i].r_pages[j])
				__free_page(sc->sc_reqs[i].r_pages[j]);
	kvfree(sc->sc_reqs);
	kfree(sc);
}

static bool rtps_idle(struct rtps_conn *sc)
{
	bool idle;

	spin_lock_irq(&sc->sc_lock);
	idle = !sc->sc_queued;
	spin_unlock_irq(&sc->sc_lock);
	return idle;
}

static void rtps_disconnected(struct rst_conn *c, int reason)
{
	struct rtps_conn *sc = rst_conn_priv(c);
	struct rst_stats st;

	/*
	 * Everything posted is flushed, so work items still running finish
	 * (their waits end with the connection down): let them.
	 */
	wait_event(sc->sc_wq, rtps_idle(sc));
	rst_conn_stats(c, &st);
	atomic64_add(st.kicks, &rtps.kicks);
	rtps_conn_free(sc);
	atomic_dec(&rtps.active);
}

static const struct rst_conn_ops rtps_ops = {
	.recv = rtps_recv,
	.disconnected = rtps_disconnected,
};

static int rtps_accept(struct rst_conn *c, const void *pdata, u8 plen, void *lpriv)
{
	struct rtps_conn *sc;
	u16 credits;
	u32 i;

	if (rtp_pdata_decode(pdata, plen, &credits))
		return -EPROTO;
	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc)
		return -ENOMEM;
	/*
	 * Twice the credits: a slot is still finishing (its send
	 * completing) while the client, already answered, sends anew.
	 */
	sc->sc_nreqs = 2 * rtps.depth;
	sc->sc_reqs = kvcalloc(sc->sc_nreqs, sizeof(*sc->sc_reqs), GFP_KERNEL);
	if (!sc->sc_reqs) {
		kfree(sc);
		return -ENOMEM;
	}
	spin_lock_init(&sc->sc_lock);
	init_waitqueue_head(&sc->sc_wq);
	INIT_LIST_HEAD(&sc->sc_free);
	sc->sc_depth = rtps.depth;
	sc->sc_conn = c;
	for (i = 0; i < sc->sc_nreqs; i++) {
		sc->sc_reqs[i].r_conn = sc;
		INIT_WORK(&sc->sc_reqs[i].r_work, rtps_work);
		list_add_tail(&sc->sc_reqs[i].r_node, &sc->sc_free);
	}
	rst_conn_set_priv(c, sc);
	atomic64_inc(&rtps.conns);
	atomic_inc(&rtps.active);
	return 0;
}

static struct rtp_pdata rtps_pdata;

static int rtps_listen(u16 port, u32 depth)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct rst_conn_params p = {
		.name = "rtp-server",
		.weight = 1,
		.recv_depth = 2 * depth,
		.send_depth = depth,
		.msg_size = RTP_HDR_LEN,
		.max_io_pages = 0,
		.rw_pages = RTPS_PAGES,
		.private_data = &rtps_pdata,
		.private_len = sizeof(rtps_pdata),
		.ops = &rtps_ops,
	};
	struct rst_listener *l;

	if (rtps.listener)
		return -EBUSY;
	if (!depth || depth > RTP_MAX_CREDITS)
		return -EINVAL;
	rtps.depth = depth;
	rtp_pdata_encode(&rtps_pdata, depth);
	l = rst_listen(&init_net, (struct sockaddr *)&sin, &p, rtps_accept, NULL, NULL);
	if (IS_ERR(l))
		return PTR_ERR(l);
	rtps.listener = l;
	return 0;
}

static void rtps_stop(void)
{
	if (!rtps.listener)
		return;
	rst_listener_destroy(rtps.listener);
	rtps.listener = NULL;
}

static ssize_t rtps_ctl_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	char buf[64], mode[16];
	u32 port, depth, i;
	int err = -EINVAL;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mutex_lock(&rtps.lock);
	if (sscanf(buf, "listen %u %u", &port, &depth) == 2 && port < 65536) {
		err = rtps_listen(port, depth);
	} else if (!strncmp(buf, "evil hold", 9)) {
		atomic_set(&rtps.hold, 1);
		err = 0;
	} else if (sscanf(buf, "evil %15s", mode) == 1) {
		for (i = 1; i < RTPS_NR_EVIL; i++) {
			if (!strcmp(mode, rtps_evil_names[i])) {
				atomic_set(&rtps.evil, i);
				err = 0;
			}
		}
	} else if (!strncmp(buf, "stop", 4)) {
		rtps_stop();
		err = 0;
	}
	mutex_unlock(&rtps.lock);
	return err ? err : len;
}

static int rtps_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "active %d\nevil_sent %lld\n", atomic_read(&rtps.active),
		   (long long)atomic64_read(&rtps.evil_sent));
	seq_printf(m, "listening %d\nconns %lld\nrequests %lld\nwrites %lld\nreads %lld\n"
		   "verify_errors %lld\nproto_errors %lld\nstale_attempts %lld\n"
		   "stale_failed %lld\nio_errors %lld\nflushed_at_close %lld\nkicks %lld\n",
		   rtps.listener != NULL,
		   (long long)atomic64_read(&rtps.conns),
		   (long long)atomic64_read(&rtps.requests),
		   (long long)atomic64_read(&rtps.writes),
		   (long long)atomic64_read(&rtps.reads),
		   (long long)atomic64_read(&rtps.verify_errors),
		   (long long)atomic64_read(&rtps.proto_errors),
		   (long long)atomic64_read(&rtps.stale_attempts),
		   (long long)atomic64_read(&rtps.stale_failed),
		   (long long)atomic64_read(&rtps.io_errors),
		   (long long)atomic64_read(&rtps.flushed_at_close),
		   (long long)atomic64_read(&rtps.kicks));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rtps_stats);

static const struct file_operations rtps_ctl_fops = {
	.owner = THIS_MODULE,
	.write = rtps_ctl_write,
};

int rtp_server_init(struct dentry *dir)
{
	/* the engine's teardown (WQ_MEM_RECLAIM) waits for these */
	rtps_wq = alloc_workqueue("rtp_server", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!rtps_wq)
		return -ENOMEM;
	debugfs_create_file("server_ctl", 0200, dir, NULL, &rtps_ctl_fops);
	debugfs_create_file("server_stats", 0444, dir, NULL, &rtps_stats_fops);
	return 0;
}

void rtp_server_exit(void)
{
	mutex_lock(&rtps.lock);
	rtps_stop();
	mutex_unlock(&rtps.lock);
	destroy_workqueue(rtps_wq);
}
