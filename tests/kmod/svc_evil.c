// SPDX-License-Identifier: GPL-2.0
/*
 * svc_evil: a test-only RPC-over-RDMA "client" that sends an NFS server
 * transport malformed calls, to drive rdmastor_svcrdma's (or the stock
 * svcrdma's) error paths. It connects with RFC 8797 private data and
 * sends what its mode names; replies and the connection's end are
 * counted.
 *
 *   insmod svc_evil.ko server=192.0.2.1 port=20049
 *   echo MODE > /sys/module/svc_evil/parameters/send
 *   cat /sys/module/svc_evil/parameters/{state,replies,last}
 *
 * Modes (each on a connection of its own, opened if none is up):
 *   null       a well-formed NFSv3 NULL call, inline
 *   badvers    transport version 2                 (ERR_VERS)
 *   badproc    procedure 7                         (ERR_CHUNK)
 *   badbool    a list discriminator of 2           (ERR_CHUNK)
 *   manysegs   a Read list of 17 segments          (ERR_CHUNK)
 *   twochunks  Read chunks at two positions        (ERR_CHUNK)
 *   pastpos    a Read chunk past the message       (ERR_CHUNK)
 *   oddpos     a Read chunk off an XDR word        (ERR_CHUNK)
 *   hugechunk  a Read chunk of 16 MiB              (ERR_CHUNK)
 *   wrapchunk  segment lengths that wrap 32 bits   (ERR_CHUNK)
 *   nomsg      RDMA_NOMSG without a Read chunk     (ERR_CHUNK)
 *   empty      RDMA_MSG without a message          (ERR_CHUNK)
 *   short      3 bytes: no xid                     (disconnect)
 *   rdmaerr    an RDMA_ERROR                       (disconnect)
 *   bcreply    a reply to a callback never sent    (disconnect)
 *   bcflood    EVIL_OVERRUN such replies back to back: more than the
 *              server lets wait for its process context (disconnect)
 *   badkey     a Read chunk with a key never given (the server's READ
 *              fails: disconnect)
 *   zeroseg    the same behind a first segment of length zero (the
 *              server skips it; disconnect)
 *   dropmid    badkey's call, then the connection closed 200 ms later,
 *              while the server is about to pull the chunk (with the
 *              engine's read_post_delay_ms): the READ must not be posted
 *              after the server's drain (review M4)
 *   bighead    on a connection of its own with 16 KiB messages, a NULL
 *              call followed by 8 KiB of inline bytes and then a Read
 *              chunk of one page this module registered: a data-chunk
 *              call with more inline bytes than one page (answered)
 *   overrun    EVIL_OVERRUN NULL calls back to back, far over the
 *              credits granted (all answered, or disconnect)
 *   flood      EVIL_FLOOD connections opened and left idle, then closed
 *   hold       hold_conns connections opened and kept idle, never
 *              calling (flood_up counts those up, flood_end is how the
 *              first refused connect failed, 0 if none); "free" closes
 *              them. With force_mr, each is a consumer of the server's
 *              (review 4, N5)
 *   stopflood  in the background, connections opened one after another,
 *              the last EVIL_STOP_RING of them kept up, until one is refused
 *              (the server stopped listening) or EVIL_STOP_SECS pass:
 *              to be sent while nfsd stops, so that requests reach the
 *              listener after nfsd's last accept; flood_up counts them,
 *              flood_end is how the last connect failed (-ETIME: none
 *              failed within the time)
 *   pullflood  EVIL_PULL_CONNS connections, each keeping EVIL_PULL_CALLS
 *              NFS NULL calls in flight for EVIL_PULL_SECS, then waiting
 *              for the answers while they keep coming; each call's
 *              RPC message in a 1 MiB Read chunk (RDMA_NOMSG) that this
 *              module registered: the server pulls the chunks before
 *              nfsd has seen any call (review 3, M2); result in
 *              pull_result: "conns N sent S replies R down D"; the
 *              chunk size is parameter pull_chunk_kb (4 KiB: what the
 *              same flood costs without the chunks' bytes)
 *   close      close the connection
 *
 * state: "up", "down N" (the reason the engine gave), "none".
 * replies: replies received, on every connection; last: the last one
 * on the current connection, "msg" or "error N" (1 ERR_VERS, 2
 * ERR_CHUNK).
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/inet.h>
#include <linux/slab.h>
#include <rdmastor/rst.h>
#include <rdmastor/rpcrdma_wire.h>
/* the codec is built into this module, as in rpcrdma_evil.c */
#include "../../common/rpcrdma_wire.c"

#define EVIL_MSG	4096
#define EVIL_DEPTH	512
#define EVIL_OVERRUN	400
#define EVIL_FLOOD	100
#define EVIL_STOP_RING	16
#define EVIL_STOP_SECS	120
#define EVIL_BIG_MSG	16384
#define EVIL_BIG_FILL	8192

static char server[48] = "192.0.2.1";
module_param_string(server, server, sizeof(server), 0444);
MODULE_PARM_DESC(server, "the server's IPv4 address");

static ushort port = 20049;
module_param(port, ushort, 0444);
MODULE_PARM_DESC(port, "the server's port");

static char state[24] = "none";
module_param_string(state, state, sizeof(state), 0444);
MODULE_PARM_DESC(state, "up, down N, or none");

static ulong evil_replies;
module_param_named(replies, evil_replies, ulong, 0444);
MODULE_PARM_DESC(replies, "replies received, on every connection");

static char last[24] = "none";
module_param_string(last, last, sizeof(last), 0444);
MODULE_PARM_DESC(last, "the last reply: msg, or error N");

static ulong evil_flood_up;
module_param_named(flood_up, evil_flood_up, ulong, 0444);
MODULE_PARM_DESC(flood_up, "connections the last flood got up");

static int evil_flood_end;
module_param_named(flood_end, evil_flood_end, int, 0444);
MODULE_PARM_DESC(flood_end, "stopflood: how its last connect failed (-errno; 0 while it runs)");

static char pull_result[64] = "none";
module_param_string(pull_result, pull_result, sizeof(pull_result), 0444);
MODULE_PARM_DESC(pull_result, "what the last pullflood did");

#define EVIL_PULL_CONNS	16
#define EVIL_PULL_CALLS	32	/* 512 MiB in flight: 16 times the test's budget */
#define EVIL_PULL_PAGES	256	/* 1 MiB chunks */
#define EVIL_PULL_SECS	5
/*
 * The answers to what is in flight at the end take as long as the
 * server needs to pull it through its budget, which under TCG differs
 * 2x between machines: wait for them as long as they keep coming.
 */
#define EVIL_PULL_STALL_SECS	15

static uint pull_chunk_kb = 1024;
module_param(pull_chunk_kb, uint, 0644);
MODULE_PARM_DESC(pull_chunk_kb, "pullflood: KiB of each call's Read chunk (4..1024)");

/* pullflood: one connection, its MR over the shared chunk, its counts */
struct evil_puller {
	struct rst_conn *c;
	struct rst_mr *m;
	u64 addr;
	u32 rkey;
	u32 sent;
	atomic_t replies;
	bool down;
};

static DEFINE_MUTEX(evil_lock);	/* evil_conn and the modes */
static struct rst_conn *evil_conn;
static u8 evil_pdata[RPCRDMA_CM_PDATA_LEN];
static u32 evil_xid = 0x5e000000;

static void evil_recv(struct rst_conn *c, const void *buf, u32 len,
		      bool invalidated, u32 inv_rkey)
{
	struct evil_puller *pl = rst_conn_priv(c);
	struct rpcrdma_hdr *h;

	if (pl) {
		atomic_inc(&pl->replies);
		return;
	}
	h = kmalloc(sizeof(*h), GFP_ATOMIC);
	if (!h)
		return;
	if (rpcrdma_decode_hdr(buf, len, h))
		snprintf(last, sizeof(last), "undecodable");
	else if (h->proc == RPCRDMA_ERROR)
		snprintf(last, sizeof(last), "error %u", h->err);
	else
		snprintf(last, sizeof(last), "msg");
	kfree(h);
	WRITE_ONCE(evil_replies, evil_replies + 1);
}

static void evil_disconnected(struct rst_conn *c, int reason)
{
	struct evil_puller *pl = rst_conn_priv(c);

	if (pl) {
		WRITE_ONCE(pl->down, true);
		return;
	}
	if (c == READ_ONCE(evil_conn))
		snprintf(state, sizeof(state), "down %d", reason);
}

static const struct rst_conn_ops evil_ops = {
	.recv = evil_recv,
	.disconnected = evil_disconnected,
};

/*
 * A connection with messages of @msg bytes, @depth deep, registering
 * I/Os of up to @io_pages pages (0: none); @priv for the callbacks.
 * The server may invalidate our keys with its replies unless @priv is
 * a pullflood connection's (its one key serves every call).
 */
static struct rst_conn *evil_connect_sized(u32 msg, u32 depth, u32 io_pages,
					   void *priv)
{
	struct rpcrdma_cm_pdata pd = {
		.remote_inv = !priv, .send_size = msg, .recv_size = msg,
	};
	struct rst_conn_params p = {
		.name = "svc-evil",
		.weight = 1,
		.recv_depth = depth,
		.send_depth = depth,
		.msg_size = msg,
		.max_io_pages = io_pages,
		.ops = &evil_ops,
		.priv = priv,
		.private_data = evil_pdata,
		.private_len = sizeof(evil_pdata),
	};
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };

	if (!in4_pton(server, -1, (u8 *)&sin.sin_addr, -1, NULL))
		return ERR_PTR(-EINVAL);
	if (rpcrdma_encode_cm_pdata(evil_pdata, sizeof(evil_pdata), &pd) < 0)
		return ERR_PTR(-EINVAL);
	return rst_connect(&init_net, (struct sockaddr *)&sin, &p, 10000);
}

static struct rst_conn *evil_connect(void)
{
	return evil_connect_sized(EVIL_MSG, EVIL_DEPTH, 0, NULL);
}

static void evil_close(void)
{
	if (!evil_conn)
		return;
	rst_close(evil_conn);
	evil_conn = NULL;
	snprintf(state, sizeof(state), "none");
}

/* A connection that is up: the current one, or a new one. */
static int evil_up(void)
{
	struct rst_conn *c;

	if (evil_conn && rst_conn_up(evil_conn))
		return 0;
	evil_close();
	c = evil_connect();
	if (IS_ERR(c))
		return PTR_ERR(c);
	snprintf(last, sizeof(last), "none");
	snprintf(state, sizeof(state), "up");
	WRITE_ONCE(evil_conn, c);
	return 0;
}

static u8 *put32(u8 *p, u32 v)
{
	__be32 be = cpu_to_be32(v);

	memcpy(p, &be, 4);
	return p + 4;
}

/* An NFSv3 NULL call with AUTH_NONE: 40 bytes. */
static u8 *evil_null_call(u8 *p, u32 xid)
{
	static const u32 w[] = { 0, 2, 100003, 3, 0, 0, 0, 0, 0 };
	unsigned int i;

	p = put32(p, xid);
	for (i = 0; i < ARRAY_SIZE(w); i++)
		p = put32(p, w[i]);
	return p;
}

static int evil_post(const void *msg, u32 len)
{
	struct rst_tx *tx = rst_tx_get(evil_conn, 1000);

	if (IS_ERR(tx))
		return PTR_ERR(tx);
	memcpy(rst_tx_buf(tx), msg, len);
	return rst_tx_post(evil_conn, tx, len, NULL, false, 0);
}

/* A call with a Read list of @nr segments at @pos (@pos2 for the rest) */
static int evil_read_call(u8 *b, u32 proc, u32 nr, u32 pos, u32 pos2,
			  u32 seglen, u32 handle, bool msg)
{
	u8 *p = b;
	u32 xid = ++evil_xid, i;

	p = put32(p, xid);
	p = put32(p, 1);
	p = put32(p, 32);
	p = put32(p, proc);
	for (i = 0; i < nr; i++) {
		p = put32(p, 1);
		p = put32(p, i ? pos2 : pos);
		p = put32(p, handle);
		p = put32(p, seglen);
		p = put32(p, 0);
		p = put32(p, 0x10000 * (i + 1));
	}
	p = put32(p, 0);	/* end of read list */
	p = put32(p, 0);	/* no write list */
	p = put32(p, 0);	/* no reply chunk */
	if (msg)
		p = evil_null_call(p, xid);
	return p - b;
}

/* The fixed header, then @rest. */
static int evil_hdr_call(u8 *b, u32 vers, u32 proc, bool with_msg)
{
	u8 *p = b;
	u32 xid = ++evil_xid;

	p = put32(p, xid);
	p = put32(p, vers);
	p = put32(p, 32);
	p = put32(p, proc);
	p = put32(p, 0);
	p = put32(p, 0);
	p = put32(p, 0);
	if (with_msg)
		p = evil_null_call(p, xid);
	return p - b;
}

/*
 * bighead: a NULL call, EVIL_BIG_FILL inline bytes after it, then a Read
 * chunk of one page at that position, on a 16 KiB connection of its
 * own (the others' buffers stay 4 KiB). Waits up to 10 s for the answer
 * ("last").
 */
static int evil_bighead(void)
{
	struct scatterlist sg;
	struct rst_conn *c;
	struct page *page;
	struct rst_mr *m;
	struct rst_tx *tx;
	ulong r0 = READ_ONCE(evil_replies);
	u32 len, rkey, xid = ++evil_xid;
	int err, i;
	u64 addr;
	u8 *p, *b;

	c = evil_connect_sized(EVIL_BIG_MSG, 8, 1, NULL);
	if (IS_ERR(c))
		return PTR_ERR(c);
	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	m = page ? rst_mr_get(c) : ERR_PTR(-ENOMEM);
	if (IS_ERR(m)) {
		err = PTR_ERR(m);
		goto out;
	}
	sg_init_table(&sg, 1);
	sg_set_page(&sg, page, PAGE_SIZE, 0);
	err = rst_mr_map(m, &sg, 1, DMA_TO_DEVICE, &addr, &len, &rkey);
	if (err)
		goto put;
	tx = rst_tx_get(c, 1000);
	if (IS_ERR(tx)) {
		err = PTR_ERR(tx);
		goto put;
	}
	b = rst_tx_buf(tx);
	p = put32(b, xid);
	p = put32(p, 1);
	p = put32(p, 32);
	p = put32(p, RPCRDMA_MSG);
	p = put32(p, 1);				/* one Read segment */
	p = put32(p, 40 + EVIL_BIG_FILL);		/* behind the filler */
	p = put32(p, rkey);
	p = put32(p, len);
	p = put32(p, upper_32_bits(addr));
	p = put32(p, lower_32_bits(addr));
	p = put32(p, 0);	/* end of read list */
	p = put32(p, 0);	/* no write list */
	p = put32(p, 0);	/* no reply chunk */
	p = evil_null_call(p, xid);
	memset(p, 0, EVIL_BIG_FILL);
	p += EVIL_BIG_FILL;
	err = rst_tx_post(c, tx, p - b, m, false, 0);
	for (i = 0; !err && i < 200 && READ_ONCE(evil_replies) == r0; i++)
		msleep(50);
	if (!err && READ_ONCE(evil_replies) == r0)
		err = -ETIMEDOUT;
	rst_mr_local_invalidate(m);
put:
	rst_mr_put(m);
out:
	rst_close(c);
	if (page)
		__free_page(page);
	return err;
}

static int evil_flood(void)
{
	struct rst_conn **cs;
	unsigned int i, up = 0;

	cs = kcalloc(EVIL_FLOOD, sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return -ENOMEM;
	for (i = 0; i < EVIL_FLOOD; i++) {
		cs[i] = evil_connect();
		if (!IS_ERR(cs[i]))
			up++;
	}
	WRITE_ONCE(evil_flood_up, up);
	for (i = 0; i < EVIL_FLOOD; i++)
		if (!IS_ERR(cs[i]))
			rst_close(cs[i]);
	kfree(cs);
	return 0;
}

static uint hold_conns = 250;
module_param(hold_conns, uint, 0644);
MODULE_PARM_DESC(hold_conns, "connections \"hold\" opens");

static struct rst_conn **evil_held;
static unsigned int evil_nr_held;

static void evil_free_held(void)
{
	unsigned int i;

	for (i = 0; i < evil_nr_held; i++)
		rst_close(evil_held[i]);
	kfree(evil_held);
	evil_held = NULL;
	evil_nr_held = 0;
}

static int evil_hold(void)
{
	unsigned int i;

	evil_free_held();
	evil_held = kcalloc(hold_conns, sizeof(*evil_held), GFP_KERNEL);
	if (!evil_held)
		return -ENOMEM;
	WRITE_ONCE(evil_flood_end, 0);
	for (i = 0; i < hold_conns; i++) {
		struct rst_conn *c = evil_connect();

		if (IS_ERR(c)) {
			if (!evil_flood_end)
				WRITE_ONCE(evil_flood_end, (int)PTR_ERR(c));
			continue;
		}
		evil_held[evil_nr_held++] = c;
	}
	WRITE_ONCE(evil_flood_up, evil_nr_held);
	return 0;
}

/*
 * stopflood: connect until the server refuses, the last EVIL_STOP_RING
 * connections kept up. It runs in a work item, not in the parameter's
 * store: sysfs holds the module's parameter lock across a store, and
 * flood_up and flood_end must be readable while it runs, so that a test
 * can stop nfsd once the flood is under way, whatever the machine's
 * speed, and then wait for it to end.
 */
static bool evil_stop_quit;

static void evil_stopflood(struct work_struct *work)
{
	struct rst_conn *ring[EVIL_STOP_RING] = {};
	unsigned long deadline = jiffies + EVIL_STOP_SECS * HZ;
	unsigned int i = 0, up = 0;
	struct rst_conn *c;
	int end = -ETIME;	/* the time limit: a connect's own timeout is -ETIMEDOUT */

	while (time_before(jiffies, deadline) && !READ_ONCE(evil_stop_quit)) {
		c = evil_connect();
		if (IS_ERR(c)) {
			end = PTR_ERR(c);
			break;
		}
		WRITE_ONCE(evil_flood_up, ++up);
		if (ring[i])
			rst_close(ring[i]);
		ring[i] = c;
		i = (i + 1) % EVIL_STOP_RING;
	}
	for (i = 0; i < EVIL_STOP_RING; i++)
		if (ring[i])
			rst_close(ring[i]);
	WRITE_ONCE(evil_flood_end, end);
}

static DECLARE_WORK(evil_stop_work, evil_stopflood);

static int evil_stopflood_start(void)
{
	if (work_busy(&evil_stop_work))
		return -EBUSY;
	WRITE_ONCE(evil_flood_up, 0);
	WRITE_ONCE(evil_flood_end, 0);
	queue_work(system_long_wq, &evil_stop_work);
	return 0;
}

/* pullflood: a NULL call whose whole message is @pl's 1 MiB chunk. */
static int evil_pull_call(struct evil_puller *pl, struct rst_mr *m)
{
	struct rst_tx *tx = rst_tx_get(pl->c, 1000);
	u8 *b, *p;

	if (IS_ERR(tx))
		return PTR_ERR(tx);
	b = rst_tx_buf(tx);
	p = put32(b, ++evil_xid);
	p = put32(p, 1);
	p = put32(p, EVIL_PULL_CALLS);
	p = put32(p, RPCRDMA_NOMSG);
	p = put32(p, 1);		/* one Read segment, at position 0 */
	p = put32(p, 0);
	p = put32(p, pl->rkey);
	p = put32(p, clamp(pull_chunk_kb, 4U, 1024U) * 1024);
	p = put32(p, upper_32_bits(pl->addr));
	p = put32(p, lower_32_bits(pl->addr));
	p = put32(p, 0);		/* end of read list */
	p = put32(p, 0);		/* no write list */
	p = put32(p, 0);		/* no reply chunk */
	pl->sent++;
	return rst_tx_post(pl->c, tx, p - b, m, false, 0);
}

/* pullflood: connect @pl and register the chunk for it. */
static int evil_pull_setup(struct evil_puller *pl, struct scatterlist *sg)
{
	u32 len;
	int err;

	pl->c = evil_connect_sized(EVIL_MSG, 2 * EVIL_PULL_CALLS, EVIL_PULL_PAGES, pl);
	if (IS_ERR(pl->c)) {
		err = PTR_ERR(pl->c);
		pl->c = NULL;
		return err;
	}
	pl->m = rst_mr_get(pl->c);
	if (IS_ERR(pl->m)) {
		err = PTR_ERR(pl->m);
		pl->m = NULL;
		return err;
	}
	err = rst_mr_map(pl->m, sg, EVIL_PULL_PAGES, DMA_TO_DEVICE, &pl->addr,
			 &len, &pl->rkey);
	if (err)
		return err;
	/* the first call carries the registration */
	return evil_pull_call(pl, pl->m);
}

static void evil_pull_teardown(struct evil_puller *pl)
{
	if (pl->m) {
		rst_mr_local_invalidate(pl->m);
		rst_mr_put(pl->m);
	}
	if (pl->c)
		rst_close(pl->c);
}

/* pullflood: the replies so far, on every connection */
static u64 evil_pull_replies(struct evil_puller *pls)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < EVIL_PULL_CONNS; i++)
		n += atomic_read(&pls[i].replies);
	return n;
}

/* pullflood: whether a live connection still waits for an answer */
static bool evil_pull_pending(struct evil_puller *pls)
{
	unsigned int i;

	for (i = 0; i < EVIL_PULL_CONNS; i++)
		if (pls[i].c && !READ_ONCE(pls[i].down) &&
		    atomic_read(&pls[i].replies) < pls[i].sent)
			return true;
	return false;
}

/*
 * pullflood: EVIL_PULL_CONNS connections, each keeping EVIL_PULL_CALLS
 * calls with 1 MiB Read chunks in flight for EVIL_PULL_SECS, then the
 * answers for as long as they keep coming. Every chunk is the same registered 1 MiB,
 * which starts with an NFSv3 NULL call.
 */
static int evil_pullflood(void)
{
	unsigned int i, conns = 0, down = 0;
	struct evil_puller *pls;
	struct scatterlist *sg;
	struct page **pages;
	unsigned long end;
	u64 sent = 0, replies = 0;
	int err = -ENOMEM;

	pls = kcalloc(EVIL_PULL_CONNS, sizeof(*pls), GFP_KERNEL);
	pages = kcalloc(EVIL_PULL_PAGES, sizeof(*pages), GFP_KERNEL);
	sg = kcalloc(EVIL_PULL_PAGES, sizeof(*sg), GFP_KERNEL);
	if (!pls || !pages || !sg)
		goto out;
	sg_init_table(sg, EVIL_PULL_PAGES);
	for (i = 0; i < EVIL_PULL_PAGES; i++) {
		pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!pages[i])
			goto out;
		sg_set_page(&sg[i], pages[i], PAGE_SIZE, 0);
	}
	evil_null_call(page_address(pages[0]), 1);
	for (i = 0; i < EVIL_PULL_CONNS; i++) {
		atomic_set(&pls[i].replies, 0);
		if (!evil_pull_setup(&pls[i], sg))
			conns++;
	}
	end = jiffies + EVIL_PULL_SECS * HZ;
	while (time_before(jiffies, end)) {
		for (i = 0; i < EVIL_PULL_CONNS; i++) {
			struct evil_puller *pl = &pls[i];

			while (pl->c && pl->m && !READ_ONCE(pl->down) &&
			       pl->sent - atomic_read(&pl->replies) < EVIL_PULL_CALLS)
				if (evil_pull_call(pl, NULL))
					break;
		}
		msleep(20);
	}
	/* the answers to what is still in flight, while they keep coming */
	end = jiffies + EVIL_PULL_STALL_SECS * HZ;
	replies = evil_pull_replies(pls);
	while (evil_pull_pending(pls) && time_before(jiffies, end)) {
		msleep(50);
		if (evil_pull_replies(pls) != replies) {
			replies = evil_pull_replies(pls);
			end = jiffies + EVIL_PULL_STALL_SECS * HZ;
		}
	}
	replies = 0;
	for (i = 0; i < EVIL_PULL_CONNS; i++) {
		sent += pls[i].sent;
		replies += atomic_read(&pls[i].replies);
		down += READ_ONCE(pls[i].down);
	}
	snprintf(pull_result, sizeof(pull_result), "conns %u sent %llu replies %llu down %u",
		 conns, sent, replies, down);
	err = 0;
out:
	for (i = 0; pls && i < EVIL_PULL_CONNS; i++)
		evil_pull_teardown(&pls[i]);
	for (i = 0; pages && i < EVIL_PULL_PAGES; i++)
		if (pages[i])
			__free_page(pages[i]);
	kfree(sg);
	kfree(pages);
	kfree(pls);
	return err;
}

static int evil_send(const char *m)
{
	u8 *b;
	int n = 0, err, i;

	if (!strcmp(m, "close")) {
		evil_close();
		return 0;
	}
	if (!strcmp(m, "flood"))
		return evil_flood();
	if (!strcmp(m, "hold"))
		return evil_hold();
	if (!strcmp(m, "free")) {
		evil_free_held();
		return 0;
	}
	if (!strcmp(m, "stopflood"))
		return evil_stopflood_start();
	if (!strcmp(m, "bighead"))
		return evil_bighead();
	if (!strcmp(m, "pullflood"))
		return evil_pullflood();
	err = evil_up();
	if (err)
		return err;
	b = kzalloc(EVIL_MSG, GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	if (!strcmp(m, "overrun")) {
		for (i = 0; i < EVIL_OVERRUN && !err; i++) {
			n = evil_hdr_call(b, 1, RPCRDMA_MSG, true);
			err = evil_post(b, n);
		}
		kfree(b);
		/* the server may end the connection under the flood */
		return err == -ENOTCONN ? 0 : err;
	}
	if (!strcmp(m, "bcflood")) {
		for (i = 0; i < EVIL_OVERRUN && !err; i++) {
			n = evil_hdr_call(b, 1, RPCRDMA_MSG, true);
			put32(b + 28 + 4, 1);	/* msg_type REPLY */
			err = evil_post(b, n);
		}
		kfree(b);
		/* the server ends the connection under the flood */
		return err == -ENOTCONN ? 0 : err;
	}
	if (!strcmp(m, "dropmid")) {
		n = evil_read_call(b, RPCRDMA_NOMSG, 1, 0, 0, 40, 0xdead00, false);
		err = evil_post(b, n);
		kfree(b);
		if (!err) {
			msleep(200);
			evil_close();
		}
		return err;
	}
	if (!strcmp(m, "null")) {
		n = evil_hdr_call(b, 1, RPCRDMA_MSG, true);
	} else if (!strcmp(m, "badvers")) {
		n = evil_hdr_call(b, 2, RPCRDMA_MSG, true);
	} else if (!strcmp(m, "badproc")) {
		n = evil_hdr_call(b, 1, 7, true);
	} else if (!strcmp(m, "badbool")) {
		n = evil_hdr_call(b, 1, RPCRDMA_MSG, true);
		put32(b + 16, 2);
	} else if (!strcmp(m, "manysegs")) {
		n = evil_read_call(b, RPCRDMA_MSG, 17, 8, 8, 64, 0x1234, true);
	} else if (!strcmp(m, "twochunks")) {
		n = evil_read_call(b, RPCRDMA_MSG, 2, 8, 16, 64, 0x1234, true);
	} else if (!strcmp(m, "pastpos")) {
		n = evil_read_call(b, RPCRDMA_MSG, 1, 4000, 4000, 64, 0x1234, true);
	} else if (!strcmp(m, "oddpos")) {
		n = evil_read_call(b, RPCRDMA_MSG, 1, 10, 10, 64, 0x1234, true);
	} else if (!strcmp(m, "hugechunk")) {
		n = evil_read_call(b, RPCRDMA_NOMSG, 1, 0, 0, 16 << 20, 0x1234, false);
	} else if (!strcmp(m, "wrapchunk")) {
		n = evil_read_call(b, RPCRDMA_NOMSG, 3, 0, 0, 0x80000000u, 0x1234, false);
	} else if (!strcmp(m, "nomsg")) {
		n = evil_hdr_call(b, 1, RPCRDMA_NOMSG, false);
	} else if (!strcmp(m, "empty")) {
		n = evil_hdr_call(b, 1, RPCRDMA_MSG, false);
	} else if (!strcmp(m, "short")) {
		n = 3;
	} else if (!strcmp(m, "rdmaerr")) {
		n = evil_hdr_call(b, 1, RPCRDMA_ERROR, false);
		put32(b + 16, RPCRDMA_ERR_CHUNK);
		n = 20;
	} else if (!strcmp(m, "bcreply")) {
		n = evil_hdr_call(b, 1, RPCRDMA_MSG, true);
		put32(b + 28 + 4, 1);	/* msg_type REPLY */
	} else if (!strcmp(m, "zeroseg")) {
		n = evil_read_call(b, RPCRDMA_NOMSG, 2, 0, 0, 40, 0xdead00, false);
		put32(b + 16 + 12, 0);	/* the first segment's length */
	} else if (!strcmp(m, "badkey")) {
		/* a long call whose whole message is behind a key never given */
		n = evil_read_call(b, RPCRDMA_NOMSG, 1, 0, 0, 40, 0xdead00, false);
	} else {
		kfree(b);
		return -EINVAL;
	}
	err = evil_post(b, n);
	kfree(b);
	return err;
}

static int evil_send_set(const char *val, const struct kernel_param *kp)
{
	char m[16];
	int err;

	strscpy(m, val, sizeof(m));
	strim(m);
	mutex_lock(&evil_lock);
	err = evil_send(strim(m));
	mutex_unlock(&evil_lock);
	return err;
}

static const struct kernel_param_ops evil_send_ops = {
	.set = evil_send_set,
};
module_param_cb(send, &evil_send_ops, NULL, 0200);
MODULE_PARM_DESC(send, "what to send (see the source)");

static int __init evil_init(void)
{
	return 0;
}

static void __exit evil_exit(void)
{
	WRITE_ONCE(evil_stop_quit, true);
	flush_work(&evil_stop_work);
	mutex_lock(&evil_lock);
	evil_close();
	evil_free_held();
	mutex_unlock(&evil_lock);
}

module_init(evil_init);
module_exit(evil_exit);
MODULE_DESCRIPTION("rdmastor test: an RPC-over-RDMA client that sends malformed calls");
MODULE_LICENSE("GPL");
