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
 */
#include <linux/module.h>
#include <linux/inet.h>
#include <linux/slab.h>
#include <rdmastor/rst.h>
#include <rdmastor/rpcrdma_wire.h>

static char mode[16] = "good";
module_param_string(mode, mode, sizeof(mode), 0644);
MODULE_PARM_DESC(mode, "reply kind: good short badproc zerocred badchunk overlong readlist rdmaerr nomsg");

static ushort port = 20050;
module_param(port, ushort, 0444);
MODULE_PARM_DESC(port, "port to listen on");

/* one listener, and ->recv of a connection is serialized: a test counter */
static ulong evil_replies;
module_param_named(replies, evil_replies, ulong, 0444);
MODULE_PARM_DESC(replies, "replies sent");

#define EVIL_DEPTH	16
#define EVIL_MSG	4096

static struct rst_listener *evil_listener;
static u8 evil_pdata[RPCRDMA_CM_PDATA_LEN];

static bool is_mode(const char *m)
{
	return sysfs_streq(mode, m);
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

static int evil_build(struct rpcrdma_hdr *h, u8 *buf, u32 xid)
{
	int len;

	memset(h, 0, sizeof(*h));
	h->xid = xid;
	h->vers = RPCRDMA_VERSION;
	h->credits = EVIL_DEPTH;
	h->proc = RPCRDMA_MSG;
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

static void evil_recv(struct rst_conn *c, const void *buf, u32 len,
		      bool invalidated, u32 inv_rkey)
{
	struct rpcrdma_hdr *h;
	struct rst_tx *tx;
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
	n = evil_build(h, rst_tx_buf(tx), xid);
	kfree(h);
	if (n < 0) {
		rst_tx_put(c, tx);
		return;
	}
	if (!rst_tx_post(c, tx, n, NULL, false, 0))
		WRITE_ONCE(evil_replies, evil_replies + 1);
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
	return 0;
}

static int __init evil_init(void)
{
	struct rpcrdma_cm_pdata pd = {
		.remote_inv = false, .send_size = EVIL_MSG, .recv_size = EVIL_MSG,
	};
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
		.private_data = evil_pdata,
		.private_len = sizeof(evil_pdata),
		.ops = &evil_ops,
	};
	struct rst_listener *l;

	if (rpcrdma_encode_cm_pdata(evil_pdata, sizeof(evil_pdata), &pd) < 0)
		return -EINVAL;
	l = rst_listen((struct sockaddr *)&sin, &p, evil_accept, NULL);
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
