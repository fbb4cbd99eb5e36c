// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma_evil: a test-only RPC-over-RDMA "server" that answers every
 * call with a reply of the kind its mode names, to drive the rdmastor
 * NFS client's error paths. It speaks just enough: RFC 8797 private data
 * on accept, and a reply per call with the call's xid.
 *
 *   insmod rpcrdma_evil.ko port=20050
 *   echo MODE > /sys/module/rpcrdma_evil/parameters/mode
 *
 * Modes:
 *   good       a well-formed RDMA_MSG reply: RPC accepted, success, no
 *              results (right for NULL, wrong for anything else)
 *   short      10 bytes: no whole transport header
 *   badproc    procedure 7
 *   zerocred   credits of zero
 *   badchunk   a Write list the call never offered
 *   overlong   an inline reply longer than any RPC's receive buffer
 *   readlist   a Read list in a reply
 *   rdmaerr    RDMA_ERROR (ERR_CHUNK)
 *   nomsg      RDMA_NOMSG without a Reply chunk
 *   big        a correct server whose every reply is EVIL_BIG bytes: inline
 *              if that fits the send size it advertised, else through the
 *              call's Reply chunk (RDMA WRITE, then RDMA_NOMSG), else
 *              ERR_CHUNK, as RFC 8166 section 3.3.3 has a server do
 *
 * Switches (read at each accept or reply):
 *   send_size  the inline send size advertised in the private data
 *   no_pdata   accept with no private data (the client must assume 1 KiB)
 *   dup        send every reply twice, back to back
 *
 * It is also a caller: writing 1 or 2 to `call` makes one RPC of a test
 * program through the kernel's RPC client over proto=rdma (rdmastor's
 * client when it is loaded) to this server, and `call_result` says how
 * it ended ("ok", or "error -N"). Procedure 1 ("mid") has room for a
 * reply of EVIL_MID bytes (more than 1 KiB, less than 4 KiB); procedure
 * 2 ("large") for EVIL_LARGE bytes, more than any inline size here.
 */
#include <linux/module.h>
#include <linux/inet.h>
#include <linux/slab.h>
#include <linux/sunrpc/clnt.h>
#include <rdmastor/rst.h>
#include <rdmastor/rpcrdma_wire.h>
/*
 * The codec is built into this module (the product module exports
 * nothing that only tests use): loading this one loads no product
 * module beside the engine.
 */
#include "../../common/rpcrdma_wire.c"

static char mode[16] = "good";
module_param_string(mode, mode, sizeof(mode), 0644);
MODULE_PARM_DESC(mode, "reply kind: good short badproc zerocred badchunk overlong readlist rdmaerr nomsg big");

static ushort port = 20050;
module_param(port, ushort, 0444);
MODULE_PARM_DESC(port, "port to listen on");

static uint send_size = 4096;
module_param(send_size, uint, 0644);
MODULE_PARM_DESC(send_size, "inline send size advertised (1024..4096)");

static bool no_pdata;
module_param(no_pdata, bool, 0644);
MODULE_PARM_DESC(no_pdata, "accept without RFC 8797 private data");

static bool dup;
module_param(dup, bool, 0644);
MODULE_PARM_DESC(dup, "send every reply twice");

/* one listener, and ->recv of a connection is serialized: test counters */
static ulong evil_replies;
module_param_named(replies, evil_replies, ulong, 0444);
MODULE_PARM_DESC(replies, "replies sent");

static ulong evil_chunk_replies;
module_param_named(chunk_replies, evil_chunk_replies, ulong, 0444);
MODULE_PARM_DESC(chunk_replies, "big replies sent through a Reply chunk");

static ulong evil_err_chunk;
module_param_named(err_chunk, evil_err_chunk, ulong, 0444);
MODULE_PARM_DESC(err_chunk, "ERR_CHUNK sent because a big reply had nowhere to go");

#define EVIL_DEPTH	16
#define EVIL_MSG	4096
/* "big" replies, and the reply room of the caller's two procedures */
#define EVIL_BIG	2000
#define EVIL_MID	2800
#define EVIL_LARGE	8192

static struct rst_listener *evil_listener;
static u8 evil_pdata[RPCRDMA_CM_PDATA_LEN];

static bool is_mode(const char *m)
{
	return sysfs_streq(mode, m);
}

/* The payload byte at @i of a big reply's results (after 24 bytes). */
static u8 evil_pattern(u32 i)
{
	return (u8)(i * 7 + 3);
}

/* A well-formed accepted-success RPC reply with no results: 24 bytes. */
static u32 evil_rpc_reply(u8 *p, u32 xid)
{
	__be32 w[6] = {
		cpu_to_be32(xid), cpu_to_be32(1), 0, 0, 0, 0,
	};

	memcpy(p, w, sizeof(w));
	return sizeof(w);
}

/* An accepted-success reply with EVIL_BIG - 24 bytes of results. */
static void evil_big_body(u8 *p, u32 xid)
{
	u32 i, n = evil_rpc_reply(p, xid);

	for (i = 0; i < EVIL_BIG - n; i++)
		p[n + i] = evil_pattern(i);
}

static void evil_hdr(struct rpcrdma_hdr *h, u32 xid)
{
	memset(h, 0, sizeof(*h));
	h->xid = xid;
	h->vers = RPCRDMA_WIRE_VERSION;
	h->credits = EVIL_DEPTH;
	h->proc = RPCRDMA_MSG;
}

static int evil_build(struct rpcrdma_hdr *h, u8 *buf, u32 xid)
{
	int len;

	evil_hdr(h, xid);
	if (is_mode("short"))
		return 10;	/* whatever the buffer holds: too short anyway */
	if (is_mode("zerocred"))
		h->credits = 0;
	if (is_mode("badchunk")) {
		h->nr_write = 1;
		h->write[0].nr_segs = 1;
		h->write[0].segs[0] = (struct rpcrdma_seg){ 0x1234, 4096, 0x10000 };
	}
	if (is_mode("readlist")) {
		h->nr_read = 1;
		h->read[0].seg = (struct rpcrdma_seg){ 0x1234, 4096, 0x10000 };
	}
	if (is_mode("rdmaerr")) {
		h->proc = RPCRDMA_ERROR;
		h->err = RPCRDMA_ERR_CHUNK;
	}
	if (is_mode("nomsg"))
		h->proc = RPCRDMA_NOMSG;
	len = rpcrdma_encode_hdr(buf, EVIL_MSG, h);
	if (len < 0)
		return len;
	if (is_mode("badproc"))
		*(__be32 *)(buf + 12) = cpu_to_be32(7);
	if (h->proc != RPCRDMA_MSG)
		return len;
	len += evil_rpc_reply(buf + len, xid);
	if (is_mode("overlong")) {
		memset(buf + len, 0, EVIL_MSG - len);
		len = EVIL_MSG;
	}
	return len;
}

/* The send size this server promised (what it may send inline). */
static u32 evil_send_size(void)
{
	if (READ_ONCE(no_pdata))
		return RPCRDMA_CM_MIN_INLINE;
	return clamp_t(u32, READ_ONCE(send_size), RPCRDMA_CM_MIN_INLINE, EVIL_MSG);
}

/* A big reply's body goes into the Reply chunk; freed after the send. */
struct evil_chunk_reply {
	struct scatterlist sg;
	u8 *body;
	struct rpcrdma_seg seg;		/* the call's Reply chunk */
};

static void evil_chunk_reply_done(void *arg, int status)
{
	struct evil_chunk_reply *cr = arg;

	kfree(cr->body);
	kfree(cr);
}

/*
 * "big": what a correct server does with a reply of EVIL_BIG bytes. The
 * header is built in @h (the decoded call, reused); the transport header
 * and, if inline, the reply go to @buf. Return: bytes to send, or
 * -errno; *@cr is set when the body must be RDMA-written first.
 */
static int evil_build_big(struct rpcrdma_hdr *h, u8 *buf, u32 xid,
			  struct evil_chunk_reply **cr)
{
	struct rpcrdma_seg seg = h->reply.segs[0];
	bool chunk = h->has_reply && h->reply.nr_segs == 1 && seg.length >= EVIL_BIG;
	int len;

	*cr = NULL;
	evil_hdr(h, xid);
	if (RPCRDMA_HDR_MIN + 12 + EVIL_BIG <= evil_send_size()) {
		len = rpcrdma_encode_hdr(buf, EVIL_MSG, h);
		if (len < 0)
			return len;
		evil_big_body(buf + len, xid);
		return len + EVIL_BIG;
	}
	if (!chunk) {
		h->proc = RPCRDMA_ERROR;
		h->err = RPCRDMA_ERR_CHUNK;
		evil_err_chunk++;
		return rpcrdma_encode_hdr(buf, EVIL_MSG, h);
	}
	*cr = kzalloc(sizeof(**cr), GFP_ATOMIC);
	if (!*cr)
		return -ENOMEM;
	(*cr)->body = kmalloc(PAGE_SIZE, GFP_ATOMIC);	/* one page: one sge */
	if (!(*cr)->body) {
		kfree(*cr);
		return -ENOMEM;
	}
	evil_big_body((*cr)->body, xid);
	sg_init_one(&(*cr)->sg, (*cr)->body, EVIL_BIG);
	(*cr)->seg = seg;
	h->proc = RPCRDMA_NOMSG;
	h->has_reply = true;
	h->reply.nr_segs = 1;
	h->reply.segs[0] = seg;
	h->reply.segs[0].length = EVIL_BIG;
	evil_chunk_replies++;
	return rpcrdma_encode_hdr(buf, EVIL_MSG, h);
}

/* Send @len bytes of @src once more, as a plain Send ("dup"). */
static void evil_send_copy(struct rst_conn *c, const void *src, u32 len)
{
	struct rst_tx *tx = rst_tx_get(c, 0);

	if (IS_ERR(tx))
		return;
	memcpy(rst_tx_buf(tx), src, len);
	if (!rst_tx_post(c, tx, len, NULL, false, 0))
		WRITE_ONCE(evil_replies, evil_replies + 1);
}

static void evil_recv(struct rst_conn *c, const void *buf, u32 len,
		      bool invalidated, u32 inv_rkey)
{
	struct evil_chunk_reply *cr = NULL;
	struct rpcrdma_hdr *h;
	struct rst_tx *tx;
	u8 *copy = NULL;
	u32 xid;
	int n;

	if (len < 4) {
		rst_disconnect(c, -EPROTO);
		return;
	}
	xid = be32_to_cpup(buf);
	h = kmalloc(sizeof(*h), GFP_ATOMIC);
	if (!h)
		return;
	tx = rst_tx_get(c, 0);
	if (IS_ERR(tx)) {
		kfree(h);
		return;
	}
	if (is_mode("big")) {
		n = rpcrdma_decode_hdr(buf, len, h);
		if (!n)
			n = evil_build_big(h, rst_tx_buf(tx), xid, &cr);
	} else {
		n = evil_build(h, rst_tx_buf(tx), xid);
	}
	kfree(h);
	if (n < 0) {
		rst_tx_put(c, tx);
		return;
	}
	if (READ_ONCE(dup))
		copy = kmemdup(rst_tx_buf(tx), n, GFP_ATOMIC);
	if (cr) {
		/* the body first, by RDMA WRITE; RC ordering puts it before the send */
		rst_tx_on_done(tx, evil_chunk_reply_done, cr);
		if (!rst_rw_write_send_async(c, &cr->sg, 1, cr->seg.offset,
					     cr->seg.handle, tx, n, false))
			WRITE_ONCE(evil_replies, evil_replies + 1);
	} else if (!rst_tx_post(c, tx, n, NULL, false, 0)) {
		WRITE_ONCE(evil_replies, evil_replies + 1);
	}
	if (copy)
		evil_send_copy(c, copy, n);
	kfree(copy);
}

static void evil_disconnected(struct rst_conn *c, int reason)
{
}

static const struct rst_conn_ops evil_ops = {
	.recv = evil_recv,
	.disconnected = evil_disconnected,
};

static int evil_accept(struct rst_conn *c, const void *pdata, u8 plen, void *lpriv)
{
	struct rpcrdma_cm_pdata pd = {
		.remote_inv = false, .send_size = evil_send_size(), .recv_size = EVIL_MSG,
	};

	if (READ_ONCE(no_pdata)) {
		rst_conn_set_accept_pdata(c, NULL, 0);
		return 0;
	}
	/* connections are accepted one at a time: one buffer will do */
	if (rpcrdma_encode_cm_pdata(evil_pdata, sizeof(evil_pdata), &pd) < 0)
		return -EINVAL;
	rst_conn_set_accept_pdata(c, evil_pdata, sizeof(evil_pdata));
	return 0;
}

/* The caller: one RPC of a test program to this server, over proto=rdma. */

#define EVIL_PROG	0x20000099	/* in the transient range */

static char call_result[32] = "none";
module_param_string(call_result, call_result, sizeof(call_result), 0444);
MODULE_PARM_DESC(call_result, "how the last call ended: ok, or error -N");

/* One word of arguments: the RPC client wants some. */
static void evil_enc_word(struct rpc_rqst *req, struct xdr_stream *xdr,
			  const void *obj)
{
	xdr_stream_encode_u32(xdr, 0);
}

/* The results of a big reply, byte for byte. */
static int evil_dec_big(struct rpc_rqst *req, struct xdr_stream *xdr, void *obj)
{
	u32 i, n = EVIL_BIG - 24;
	u8 *p = (u8 *)xdr_inline_decode(xdr, n);

	if (!p)
		return -EIO;
	for (i = 0; i < n; i++)
		if (p[i] != evil_pattern(i))
			return -EBADMSG;
	return 0;
}

static const struct rpc_procinfo evil_procs[] = {
	[1] = { .p_proc = 1, .p_encode = evil_enc_word, .p_arglen = 1, .p_decode = evil_dec_big,
		.p_replen = EVIL_MID / 4, .p_statidx = 1, .p_name = "mid" },
	[2] = { .p_proc = 2, .p_encode = evil_enc_word, .p_arglen = 1, .p_decode = evil_dec_big,
		.p_replen = EVIL_LARGE / 4, .p_statidx = 2, .p_name = "large" },
};

static unsigned int evil_counts[ARRAY_SIZE(evil_procs)];

static const struct rpc_version evil_v1 = {
	.number = 1,
	.nrprocs = ARRAY_SIZE(evil_procs),
	.procs = evil_procs,
	.counts = evil_counts,
};

static const struct rpc_version *evil_versions[] = { NULL, &evil_v1 };
static struct rpc_stat evil_stat;

static const struct rpc_program evil_program = {
	.name = "rdmastor_evil",
	.number = EVIL_PROG,
	.nrvers = ARRAY_SIZE(evil_versions),
	.version = evil_versions,
	.stats = &evil_stat,
};

static const struct rpc_timeout evil_timeout = {
	.to_initval = 10 * HZ,
	.to_maxval = 10 * HZ,
	.to_retries = 1,
};

static int evil_call(u32 proc)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct rpc_create_args args = {
		.net = &init_net,
		.protocol = XPRT_TRANSPORT_RDMA,
		.address = (struct sockaddr *)&sin,
		.addrsize = sizeof(sin),
		.timeout = &evil_timeout,
		.servername = "rpcrdma-evil",
		.program = &evil_program,
		.version = 1,
		.authflavor = RPC_AUTH_NULL,
		.flags = RPC_CLNT_CREATE_NOPING,
	};
	struct rpc_message msg = { .rpc_proc = &evil_procs[proc] };
	struct rpc_clnt *clnt;
	int err;

	if (proc < 1 || proc >= ARRAY_SIZE(evil_procs))
		return -EINVAL;
	sin.sin_addr.s_addr = htonl(0xc0000201);	/* 192.0.2.1: the guest's own */
	clnt = rpc_create(&args);
	if (IS_ERR(clnt)) {
		snprintf(call_result, sizeof(call_result), "error %ld", PTR_ERR(clnt));
		return 0;
	}
	err = rpc_call_sync(clnt, &msg, RPC_TASK_SOFT | RPC_TASK_SOFTCONN);
	rpc_shutdown_client(clnt);
	if (err)
		snprintf(call_result, sizeof(call_result), "error %d", err);
	else
		snprintf(call_result, sizeof(call_result), "ok");
	return 0;
}

static int evil_call_set(const char *val, const struct kernel_param *kp)
{
	u32 proc;
	int err = kstrtou32(val, 0, &proc);

	return err ? err : evil_call(proc);
}

static const struct kernel_param_ops evil_call_ops = {
	.set = evil_call_set,
};
module_param_cb(call, &evil_call_ops, NULL, 0200);
MODULE_PARM_DESC(call, "write 1 (mid) or 2 (large): make one RPC to this server");

static int __init evil_init(void)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct rst_conn_params p = {
		.name = "rpcrdma-evil",
		.weight = 1,
		.recv_depth = EVIL_DEPTH,
		.send_depth = EVIL_DEPTH,
		.msg_size = EVIL_MSG,
		.rw_pages = 1,		/* a big reply's body, by RDMA WRITE */
		.ops = &evil_ops,
	};
	struct rst_listener *l;

	l = rst_listen(&init_net, (struct sockaddr *)&sin, &p, evil_accept, NULL, NULL);
	if (IS_ERR(l))
		return PTR_ERR(l);
	evil_listener = l;
	return 0;
}

static void __exit evil_exit(void)
{
	rst_listener_destroy(evil_listener);
}

module_init(evil_init);
module_exit(evil_exit);
MODULE_DESCRIPTION("rdmastor test: an RPC-over-RDMA server that sends malformed replies");
MODULE_LICENSE("GPL");
