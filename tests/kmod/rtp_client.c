// SPDX-License-Identifier: GPL-2.0
/*
 * rtp client: drives the transport engine as an initiator and measures it.
 *
 *   echo "run IP PORT OP SIZE CREDITS SECONDS THREADS INV" > .../rtp/client_ctl
 *       OP write|read, SIZE bytes (multiple of 8), CREDITS our receive
 *       ring, THREADS I/Os in flight at most, INV remote|local. Returns
 *       when the run ends; client_result has the figures. An optional
 *       IDLE_MS after INV keeps the connection idle that long after the
 *       load and reports the MRs it still holds (mrs_idle).
 *   echo "stale IP PORT SIZE INV" > .../rtp/client_ctl
 *       one RTP_WRITE, then RTP_STALE_WRITE with the same (now dead) key:
 *       the server's write must fail and our buffer must stay unchanged.
 *   echo "inject IP PORT MODE" > .../rtp/client_ctl
 *       test mode: send the server one malformed request (MODE short,
 *       badmagic, badtype or reply), or ignore the credits it granted
 *       and send it 64 requests at once (overrun), and wait for it to
 *       close the connection
 *   cat .../rtp/client_stats     the connection now (during a run)
 *   cat .../rtp/client_result    the last run
 *
 * Each thread runs one I/O at a time through the engine's whole path:
 * window, MR, registration chained to the request, reply, invalidation
 * (remote, checked, or local), and only then checks the data.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/sched/signal.h>
#include <rdmastor/rst.h>

#include "rtp_wire.h"
#include "rtp.h"

#define RTPC_MAX_THREADS	64
#define RTPC_PAGES		(RTP_MAX_IO / PAGE_SIZE)
#define RTPC_REPLY_TIMEOUT_MS	30000
/* how long a run that ended on an I/O's failure waits for ->disconnected */
#define RTPC_DOWN_WAIT_MS	10000
#define RTPC_OVERRUN		64	/* requests "inject overrun" sends */

struct rtpc_thread {
	struct rtpc_run *t_run;
	u32 t_idx;
	u32 t_seq;
	struct task_struct *t_task;
	struct page *t_pages[RTPC_PAGES];
	struct scatterlist t_sg[RTPC_PAGES];
	u32 t_nents;
	/* the outstanding request, under r_lock */
	u32 t_xid;
	bool t_busy;
	bool t_replied;
	struct rtp_msg t_reply;
	bool t_inv;
	u32 t_inv_rkey;
	struct completion t_done;
};

struct rtpc_run {
	struct rst_conn *r_conn;
	spinlock_t r_lock;
	bool r_down;
	int r_down_reason;
	enum rtp_type r_op;
	u32 r_size;
	bool r_remote_inv;
	u32 r_nthreads;
	u64 r_deadline_ns;
	struct rtpc_thread *r_threads;
	atomic_t r_running;
	struct completion r_all_done;
	struct completion r_down_done;	/* ->disconnected ran */
	/* results */
	atomic64_t r_started, r_ops, r_bytes, r_errors, r_verify_errors;
	atomic_t r_ended_by_error;	/* threads an I/O's failure stopped */
	atomic64_t r_proto_errors;
	atomic64_t r_map_ns, r_inv_ns, r_local_invs;	/* registration costs */
	u32 r_window_min;
};

static struct {
	struct mutex lock;		/* one run at a time */
	struct rtpc_run *run;		/* the live one, for client_stats */
	spinlock_t run_lock;
	char result[1024];
} rtpc = {
	.lock = __MUTEX_INITIALIZER(rtpc.lock),
	.run_lock = __SPIN_LOCK_UNLOCKED(rtpc.run_lock),
};

static void rtpc_fill(struct rtpc_thread *t, u32 xid, u32 size)
{
	u32 i;

	for (i = 0; i < size / 8; i++) {
		u64 *p = page_address(t->t_pages[i / (PAGE_SIZE / 8)]);

		p[i % (PAGE_SIZE / 8)] = xid ? rtp_pattern_word(xid, i) : 0;
	}
}

static bool rtpc_check(struct rtpc_thread *t, u32 xid, u32 size)
{
	u32 i;

	for (i = 0; i < size / 8; i++) {
		u64 *p = page_address(t->t_pages[i / (PAGE_SIZE / 8)]);

		if (p[i % (PAGE_SIZE / 8)] != rtp_pattern_word(xid, i))
			return false;
	}
	return true;
}

static void rtpc_recv(struct rst_conn *c, const void *buf, u32 len,
		      bool invalidated, u32 inv_rkey)
{
	struct rtpc_run *r = rst_conn_priv(c);
	struct rtpc_thread *t = NULL;
	struct rtp_msg m;
	unsigned long flags;
	int err;

	err = rtp_decode(buf, len, &m);
	if (!err && m.type != RTP_REPLY)
		err = -EPROTO;
	if (!err && (m.xid >> 24) < r->r_nthreads)
		t = &r->r_threads[m.xid >> 24];
	spin_lock_irqsave(&r->r_lock, flags);
	if (!err && (!t || !t->t_busy || t->t_replied || t->t_xid != m.xid))
		err = -EBADMSG;		/* a reply to nothing we asked */
	if (!err) {
		t->t_reply = m;
		t->t_inv = invalidated;
		t->t_inv_rkey = inv_rkey;
		t->t_replied = true;
	}
	spin_unlock_irqrestore(&r->r_lock, flags);
	if (err) {
		atomic64_inc(&r->r_proto_errors);
		pr_info("rtp client: protocol error %d from the server: closing\n", err);
		rst_disconnect(c, -EPROTO);
		return;
	}
	rst_set_peer_credits(c, m.credits);
	complete(&t->t_done);
}

static void rtpc_disconnected(struct rst_conn *c, int reason)
{
	struct rtpc_run *r = rst_conn_priv(c);
	u32 i;

	spin_lock_irq(&r->r_lock);
	r->r_down = true;
	r->r_down_reason = reason;
	spin_unlock_irq(&r->r_lock);
	/* Everything is flushed: no reply will come. */
	for (i = 0; i < r->r_nthreads; i++)
		complete(&r->r_threads[i].t_done);
	complete_all(&r->r_down_done);
}

static const struct rst_conn_ops rtpc_ops = {
	.recv = rtpc_recv,
	.disconnected = rtpc_disconnected,
};

/*
 * One I/O, start to end. Returns 0, a positive status from the server,
 * or a negative errno (the connection is then down or going down).
 */
static int rtpc_io(struct rtpc_thread *t, enum rtp_type op, u32 size, u32 *xid_out,
		   struct rtp_msg *req_out)
{
	struct rtpc_run *r = t->t_run;
	struct rst_conn *c = r->r_conn;
	struct rtp_msg req = { .type = op, .len = size,
			       .flags = r->r_remote_inv ? RTP_F_REMOTE_INV : 0 };
	enum dma_data_direction dir = op == RTP_READ ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	struct rst_tx *tx;
	struct rst_mr *m;
	bool replied;
	u64 t0;
	int err;

	req.xid = t->t_idx << 24 | (++t->t_seq & 0xffffff);
	err = rst_io_begin(c);
	if (err)
		return err;
	m = rst_mr_get(c);
	if (IS_ERR(m)) {
		rst_io_end(c);
		return PTR_ERR(m);
	}
	/* What the server reads; or zeroes, that its write must replace. */
	rtpc_fill(t, op == RTP_READ ? req.xid : 0, size);
	t0 = ktime_get_ns();
	err = rst_mr_map(m, t->t_sg, t->t_nents, dir, &req.addr, &req.len, &req.rkey);
	atomic64_add(ktime_get_ns() - t0, &r->r_map_ns);
	if (err)
		goto put;
	tx = rst_tx_get(c, RTPC_REPLY_TIMEOUT_MS);
	if (IS_ERR(tx)) {
		err = PTR_ERR(tx);
		goto put;
	}
	rtp_encode(rst_tx_buf(tx), &req);
	spin_lock_irq(&r->r_lock);
	t->t_xid = req.xid;
	t->t_busy = true;
	t->t_replied = false;
	reinit_completion(&t->t_done);
	spin_unlock_irq(&r->r_lock);
	err = rst_tx_post(c, tx, RTP_HDR_LEN, m, false, 0);
	if (!err && !wait_for_completion_timeout(&t->t_done,
						 msecs_to_jiffies(RTPC_REPLY_TIMEOUT_MS))) {
		err = -ETIMEDOUT;
		rst_disconnect(c, err);
	}
	spin_lock_irq(&r->r_lock);
	t->t_busy = false;
	replied = t->t_replied;
	spin_unlock_irq(&r->r_lock);
	if (!err && !replied)
		err = -ENOTCONN;
	if (err)
		goto put;
	/* The reply is here: make sure no one can touch the buffer again. */
	if (t->t_inv) {
		err = rst_mr_remote_invalidated(m, t->t_inv_rkey);
		if (err) {
			atomic64_inc(&r->r_proto_errors);
			pr_info("rtp client: server invalidated key %#x, not ours: closing\n",
				t->t_inv_rkey);
			rst_disconnect(c, -EPROTO);
		}
	} else {
		t0 = ktime_get_ns();
		err = rst_mr_local_invalidate(m);
		atomic64_add(ktime_get_ns() - t0, &r->r_inv_ns);
		atomic64_inc(&r->r_local_invs);
	}
put:
	rst_mr_put(m);
	rst_io_end(c);
	if (xid_out)
		*xid_out = req.xid;
	if (req_out)
		*req_out = req;
	return err ? err : (int)t->t_reply.status;
}

static int rtpc_thread_fn(void *arg)
{
	struct rtpc_thread *t = arg;
	struct rtpc_run *r = t->t_run;
	u32 xid;
	int err;

	allow_signal(SIGKILL);
	while (ktime_get_ns() < r->r_deadline_ns && !kthread_should_stop() &&
	       !fatal_signal_pending(current)) {
		atomic64_inc(&r->r_started);
		err = rtpc_io(t, r->r_op, r->r_size, &xid, NULL);
		if (err < 0) {
			atomic64_inc(&r->r_errors);
			atomic_inc(&r->r_ended_by_error);
			break;
		}
		if (err > 0) {
			atomic64_inc(&r->r_errors);
			continue;
		}
		if (r->r_op == RTP_WRITE && !rtpc_check(t, xid, r->r_size))
			atomic64_inc(&r->r_verify_errors);
		atomic64_inc(&r->r_ops);
		atomic64_add(r->r_size, &r->r_bytes);
		r->r_window_min = min(r->r_window_min, rst_window(r->r_conn));
	}
	if (atomic_dec_and_test(&r->r_running))
		complete(&r->r_all_done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static void rtpc_run_free(struct rtpc_run *r)
{
	u32 i, j;

	for (i = 0; i < r->r_nthreads; i++)
		for (j = 0; j < RTPC_PAGES; j++)
			if (r->r_threads[i].t_pages[j])
				__free_page(r->r_threads[i].t_pages[j]);
	kvfree(r->r_threads);
	kfree(r);
}

static struct rtpc_run *rtpc_run_alloc(u32 nthreads, u32 size)
{
	u32 npages = DIV_ROUND_UP(size, PAGE_SIZE), i, j;
	struct rtpc_run *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->r_threads = kvcalloc(nthreads, sizeof(*r->r_threads), GFP_KERNEL);
	if (!r->r_threads) {
		kfree(r);
		return NULL;
	}
	r->r_nthreads = nthreads;
	r->r_size = size;
	spin_lock_init(&r->r_lock);
	init_completion(&r->r_all_done);
	init_completion(&r->r_down_done);
	r->r_window_min = U32_MAX;
	for (i = 0; i < nthreads; i++) {
		struct rtpc_thread *t = &r->r_threads[i];

		t->t_run = r;
		t->t_idx = i;
		init_completion(&t->t_done);
		sg_init_table(t->t_sg, npages);
		for (j = 0; j < npages; j++) {
			t->t_pages[j] = alloc_page(GFP_KERNEL);
			if (!t->t_pages[j]) {
				rtpc_run_free(r);
				return NULL;
			}
			sg_set_page(&t->t_sg[j], t->t_pages[j],
				    min_t(u32, PAGE_SIZE, size - j * PAGE_SIZE), 0);
		}
		t->t_nents = npages;
	}
	return r;
}

static struct rtp_pdata rtpc_pdata;

static int rtpc_connect(struct rtpc_run *r, const char *ip, u16 port, u32 credits)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct rst_conn_params p = {
		.name = "rtp",
		.weight = 1,
		.recv_depth = credits,
		.send_depth = credits,
		.msg_size = RTP_HDR_LEN,
		.max_io_pages = DIV_ROUND_UP(r->r_size, PAGE_SIZE),
		.private_data = &rtpc_pdata,
		.private_len = sizeof(rtpc_pdata),
		.ops = &rtpc_ops,
		.priv = r,
	};
	const void *pd;
	u16 peer;
	u8 plen;

	if (!in4_pton(ip, -1, (u8 *)&sin.sin_addr.s_addr, -1, NULL))
		return -EINVAL;
	rtp_pdata_encode(&rtpc_pdata, credits);
	r->r_conn = rst_connect(&init_net, (struct sockaddr *)&sin, &p, 5000);
	if (IS_ERR(r->r_conn)) {
		int err = PTR_ERR(r->r_conn);

		r->r_conn = NULL;
		return err;
	}
	pd = rst_conn_peer_pdata(r->r_conn, &plen);
	if (rtp_pdata_decode(pd, plen, &peer)) {
		rst_close(r->r_conn);
		r->r_conn = NULL;
		return -EPROTO;
	}
	rst_set_peer_credits(r->r_conn, peer);
	return 0;
}

static void rtpc_publish(struct rtpc_run *r)
{
	spin_lock(&rtpc.run_lock);
	rtpc.run = r;
	spin_unlock(&rtpc.run_lock);
}

static int rtpc_run(const char *ip, u16 port, enum rtp_type op, u32 size,
		    u32 credits, u32 seconds, u32 nthreads, bool remote_inv,
		    u32 idle_ms)
{
	struct rst_stats st, idle = {};
	struct rtpc_run *r;
	bool down;
	u64 t0, us;
	int err;
	u32 i;

	if (!size || size % 8 || size > RTP_MAX_IO || !credits ||
	    credits > RTP_MAX_CREDITS || !nthreads || nthreads > RTPC_MAX_THREADS ||
	    !seconds)
		return -EINVAL;
	r = rtpc_run_alloc(nthreads, size);
	if (!r)
		return -ENOMEM;
	r->r_op = op;
	r->r_remote_inv = remote_inv;
	err = rtpc_connect(r, ip, port, credits);
	if (err) {
		rtpc_run_free(r);
		return err;
	}
	rtpc_publish(r);
	t0 = ktime_get_ns();
	r->r_deadline_ns = t0 + (u64)seconds * NSEC_PER_SEC;
	atomic_set(&r->r_running, nthreads);
	for (i = 0; i < nthreads; i++) {
		struct task_struct *task;

		task = kthread_run(rtpc_thread_fn, &r->r_threads[i], "rtp/%u", i);
		if (IS_ERR(task)) {
			/* count it as done, stop the others early */
			r->r_deadline_ns = 0;
			if (atomic_dec_and_test(&r->r_running))
				complete(&r->r_all_done);
			continue;
		}
		get_task_struct(task);
		r->r_threads[i].t_task = task;
	}
	/*
	 * A run lasts as long as it was asked to (three times longer on the
	 * debug kernel): wake every 10 s, or the hung-task check, which
	 * flags a task in D state that has not run for 30 s, reports it.
	 */
	while (!wait_for_completion_timeout(&r->r_all_done, 10 * HZ))
		;
	us = div_u64(ktime_get_ns() - t0, NSEC_PER_USEC);
	for (i = 0; i < nthreads; i++) {
		if (r->r_threads[i].t_task) {
			kthread_stop(r->r_threads[i].t_task);
			put_task_struct(r->r_threads[i].t_task);
		}
	}
	rst_conn_stats(r->r_conn, &st);
	if (idle_ms) {
		msleep(idle_ms);
		rst_conn_stats(r->r_conn, &idle);
	}
	rtpc_publish(NULL);
	/*
	 * A thread that found the connection going down (its next I/O
	 * refused) ends before the engine's down work has drained the QP
	 * and called ->disconnected, which it always does after: wait for
	 * it, so that "disconnected" says whether the connection went down
	 * during the run, not whether the drain was quicker than the
	 * threads.
	 */
	if (atomic_read(&r->r_ended_by_error))
		wait_for_completion_timeout(&r->r_down_done,
					    msecs_to_jiffies(RTPC_DOWN_WAIT_MS));
	spin_lock_irq(&r->r_lock);
	down = r->r_down;		/* during the run, not by our close */
	spin_unlock_irq(&r->r_lock);
	rst_close(r->r_conn);
	snprintf(rtpc.result, sizeof(rtpc.result),
		 "started %lld\nops %lld\nbytes %lld\nusec %llu\nMBps %llu\nerrors %lld\n"
		 "verify_errors %lld\nproto_errors %lld\nregs %llu\nremote_inv %llu\n"
		 "local_inv %llu\nmrs_peak %u\nmr_freed_unknown %llu\nwindow_min %u\n"
		 "shrinks %llu\ndisconnected %d\nmrs_idle %d\nmap_ns_per_io %llu\n"
		 "local_inv_ns_per_io %llu\nkicks %llu\n",
		 (long long)atomic64_read(&r->r_started),
		 (long long)atomic64_read(&r->r_ops),
		 (long long)atomic64_read(&r->r_bytes), us,
		 us ? div_u64(atomic64_read(&r->r_bytes), us) : 0,
		 (long long)atomic64_read(&r->r_errors),
		 (long long)atomic64_read(&r->r_verify_errors),
		 (long long)atomic64_read(&r->r_proto_errors),
		 st.regs, st.remote_inv, st.local_inv, st.mrs_peak,
		 st.mr_freed_unknown, r->r_window_min == U32_MAX ? 0 : r->r_window_min,
		 st.shrinks, down, idle_ms ? (int)idle.mrs : -1,
		 div64_u64(atomic64_read(&r->r_map_ns),
			   max_t(u64, 1, atomic64_read(&r->r_started))),
		 div64_u64(atomic64_read(&r->r_inv_ns),
			   max_t(u64, 1, atomic64_read(&r->r_local_invs))), st.kicks);
	rtpc_run_free(r);
	return 0;
}

/*
 * The stale-key check: one good RTP_WRITE, then ask the server to write
 * again with that request's key, which we invalidated before asking.
 */
static int rtpc_stale(const char *ip, u16 port, u32 size, bool remote_inv)
{
	struct rtpc_run *r;
	struct rtpc_thread *t;
	struct rtp_msg req, stale;
	struct rst_tx *tx;
	bool down, unchanged;
	u32 xid;
	int err;

	if (!size || size % 8 || size > RTP_MAX_IO)
		return -EINVAL;
	r = rtpc_run_alloc(1, size);
	if (!r)
		return -ENOMEM;
	r->r_op = RTP_WRITE;
	r->r_remote_inv = remote_inv;
	err = rtpc_connect(r, ip, port, 4);
	if (err) {
		rtpc_run_free(r);
		return err;
	}
	t = &r->r_threads[0];
	err = rtpc_io(t, RTP_WRITE, size, &xid, &req);
	if (err || !rtpc_check(t, xid, size)) {
		snprintf(rtpc.result, sizeof(rtpc.result),
			 "stale: the first write failed (%d)\n", err);
		goto out;
	}
	/* The key in req is dead now. Ask for a write with it. */
	tx = rst_tx_get(r->r_conn, 5000);
	if (IS_ERR(tx)) {
		err = PTR_ERR(tx);
		goto out;
	}
	stale = req;
	stale.type = RTP_STALE_WRITE;
	stale.flags = 0;
	stale.xid = ++t->t_seq & 0xffffff;
	spin_lock_irq(&r->r_lock);
	t->t_xid = stale.xid;
	t->t_busy = true;
	t->t_replied = false;
	reinit_completion(&t->t_done);
	spin_unlock_irq(&r->r_lock);
	rtp_encode(rst_tx_buf(tx), &stale);
	err = rst_tx_post(r->r_conn, tx, RTP_HDR_LEN, NULL, false, 0);
	if (!err)
		wait_for_completion_timeout(&t->t_done, msecs_to_jiffies(10000));
	spin_lock_irq(&r->r_lock);
	t->t_busy = false;
	down = r->r_down;
	spin_unlock_irq(&r->r_lock);
	unchanged = rtpc_check(t, xid, size);
	snprintf(rtpc.result, sizeof(rtpc.result),
		 "stale: key %#x replied %d disconnected %d unchanged %d\n",
		 req.rkey, t->t_replied, down, unchanged);
	err = 0;
out:
	rst_close(r->r_conn);
	rtpc_run_free(r);
	return err;
}

static int rtpc_inject(const char *ip, u16 port, const char *mode)
{
	struct rtp_msg req = { .type = RTP_WRITE, .len = 4096, .addr = 4096, .rkey = 1 };
	struct rtpc_run *r;
	struct rst_tx *tx;
	u32 len = RTP_HDR_LEN;
	bool down;
	u8 *buf;
	int err, i;

	r = rtpc_run_alloc(1, PAGE_SIZE);
	if (!r)
		return -ENOMEM;
	err = rtpc_connect(r, ip, port, RTPC_OVERRUN);
	if (err) {
		rtpc_run_free(r);
		return err;
	}
	/* Beyond any credits the server grants (at most RTPC_OVERRUN - 1). */
	for (i = 0; !strcmp(mode, "overrun") && i < RTPC_OVERRUN; i++) {
		tx = rst_tx_get(r->r_conn, 5000);
		err = IS_ERR(tx) ? PTR_ERR(tx) : 0;
		if (!err) {
			req.xid = i;
			rtp_encode(rst_tx_buf(tx), &req);
			err = rst_tx_post(r->r_conn, tx, RTP_HDR_LEN, NULL, false, 0);
		}
		/* The server may close before we are done: that is the point. */
		if (err == -ENOTCONN)
			goto wait;
		if (err)
			goto out;
	}
	if (!strcmp(mode, "overrun"))
		goto wait;
	tx = rst_tx_get(r->r_conn, 5000);
	if (IS_ERR(tx)) {
		err = PTR_ERR(tx);
		goto out;
	}
	buf = rst_tx_buf(tx);
	if (!strcmp(mode, "reply")) {
		req.type = RTP_REPLY;
		req.credits = 1;
	}
	rtp_encode(buf, &req);
	if (!strcmp(mode, "short"))
		len = 7;
	else if (!strcmp(mode, "badmagic"))
		buf[1] ^= 0x40;
	else if (!strcmp(mode, "badtype"))
		buf[4] = 0xee;
	err = rst_tx_post(r->r_conn, tx, len, NULL, false, 0);
	if (err && err != -ENOTCONN)
		goto out;
wait:
	err = 0;
	/*
	 * Up to 60 s for the server to close: a bound on the emulator's
	 * speed, not on ours (the server posts receives beyond its
	 * credits, so the overrunning message reaches it without retries).
	 */
	for (i = 0; i < 1200 && !READ_ONCE(r->r_down); i++)
		msleep(50);
	spin_lock_irq(&r->r_lock);
	down = r->r_down;
	spin_unlock_irq(&r->r_lock);
	snprintf(rtpc.result, sizeof(rtpc.result), "inject %s disconnected %d\n",
		 mode, down);
out:
	rst_close(r->r_conn);
	rtpc_run_free(r);
	return err;
}

static ssize_t rtpc_ctl_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	char buf[128], ip[20], op[8], inv[8], mode[12];
	u32 port, size, credits, seconds, threads, idle_ms = 0;
	int err = -EINVAL, n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mutex_lock(&rtpc.lock);
	n = sscanf(buf, "run %19s %u %7s %u %u %u %u %7s %u", ip, &port, op, &size,
		   &credits, &seconds, &threads, inv, &idle_ms);
	if ((n == 8 || n == 9) && port < 65536 && idle_ms <= 60000 &&
	    (!strcmp(op, "write") || !strcmp(op, "read")) &&
	    (!strcmp(inv, "remote") || !strcmp(inv, "local"))) {
		err = rtpc_run(ip, port, op[0] == 'w' ? RTP_WRITE : RTP_READ, size,
			       credits, seconds, threads, inv[0] == 'r', idle_ms);
	} else if (sscanf(buf, "stale %19s %u %u %7s", ip, &port, &size, inv) == 4 &&
		   port < 65536 && (!strcmp(inv, "remote") || !strcmp(inv, "local"))) {
		err = rtpc_stale(ip, port, size, inv[0] == 'r');
	} else if (sscanf(buf, "inject %19s %u %11s", ip, &port, mode) == 3 &&
		   port < 65536) {
		err = rtpc_inject(ip, port, mode);
	}
	mutex_unlock(&rtpc.lock);
	return err ? err : len;
}

static int rtpc_stats_show(struct seq_file *m, void *v)
{
	struct rst_stats st;
	struct rtpc_run *r;

	/* rtpc.lock is held by a run; run_lock keeps it from ending under us */
	spin_lock(&rtpc.run_lock);
	r = rtpc.run;
	if (r) {
		rst_conn_stats(r->r_conn, &st);
		seq_printf(m, "running 1\nops %lld\nwindow %u\noutstanding %u\nmrs %u\n"
			   "mr_limit %u\nmrs_peak %u\nshrinks %llu\nreclaims %llu\n",
			   (long long)atomic64_read(&r->r_ops), st.window, st.outstanding,
			   st.mrs, st.mr_limit, st.mrs_peak, st.shrinks, st.reclaims);
	} else {
		seq_puts(m, "running 0\n");
	}
	spin_unlock(&rtpc.run_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rtpc_stats);

static int rtpc_result_show(struct seq_file *m, void *v)
{
	mutex_lock(&rtpc.lock);
	seq_puts(m, rtpc.result);
	mutex_unlock(&rtpc.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rtpc_result);

static const struct file_operations rtpc_ctl_fops = {
	.owner = THIS_MODULE,
	.write = rtpc_ctl_write,
};

int rtp_client_init(struct dentry *dir)
{
	debugfs_create_file("client_ctl", 0200, dir, NULL, &rtpc_ctl_fops);
	debugfs_create_file("client_stats", 0444, dir, NULL, &rtpc_stats_fops);
	debugfs_create_file("client_result", 0444, dir, NULL, &rtpc_result_fops);
	return 0;
}
