// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA version 1 header and RFC 8797 private data: encoder and
 * decoder (see include/rdmastor/rpcrdma_wire.h). Plain C, no allocation.
 */
#include <rdmastor/rpcrdma_wire.h>

/* A cursor over a buffer of big-endian 32-bit words. */
struct rpcrdma_xdr {
	u8 *p;
	u32 left;
};

static bool xdr_put(struct rpcrdma_xdr *x, u32 v)
{
	__be32 be = cpu_to_be32(v);

	if (x->left < 4)
		return false;
	memcpy(x->p, &be, 4);
	x->p += 4;
	x->left -= 4;
	return true;
}

static bool xdr_put64(struct rpcrdma_xdr *x, u64 v)
{
	return xdr_put(x, (u32)(v >> 32)) && xdr_put(x, (u32)v);
}

static bool xdr_get(struct rpcrdma_xdr *x, u32 *v)
{
	__be32 be;

	if (x->left < 4)
		return false;
	memcpy(&be, x->p, 4);
	*v = be32_to_cpu(be);
	x->p += 4;
	x->left -= 4;
	return true;
}

static bool xdr_get64(struct rpcrdma_xdr *x, u64 *v)
{
	u32 hi, lo;

	if (!xdr_get(x, &hi) || !xdr_get(x, &lo))
		return false;
	*v = (u64)hi << 32 | lo;
	return true;
}

static bool put_seg(struct rpcrdma_xdr *x, const struct rpcrdma_seg *s)
{
	return xdr_put(x, s->handle) && xdr_put(x, s->length) &&
	       xdr_put64(x, s->offset);
}

static bool put_chunk(struct rpcrdma_xdr *x, const struct rpcrdma_chunk *c)
{
	u32 i;

	if (!xdr_put(x, c->nr_segs))
		return false;
	for (i = 0; i < c->nr_segs; i++)
		if (!put_seg(x, &c->segs[i]))
			return false;
	return true;
}

/**
 * rpcrdma_encode_hdr - write a transport header
 * @buf: where
 * @size: room in @buf
 * @h: what; counts must be within the RPCRDMA_MAX_* limits
 *
 * Return: bytes written, -EMSGSIZE if @buf is too small, -EINVAL if @h
 * is not encodable.
 */
int rpcrdma_encode_hdr(void *buf, u32 size, const struct rpcrdma_hdr *h)
{
	struct rpcrdma_xdr x = { .p = buf, .left = size };
	u32 i;

	if (h->nr_read > RPCRDMA_MAX_READ_SEGS || h->nr_write > RPCRDMA_MAX_WRITE_CHUNKS)
		return -EINVAL;
	for (i = 0; i < h->nr_write; i++)
		if (!h->write[i].nr_segs || h->write[i].nr_segs > RPCRDMA_MAX_CHUNK_SEGS)
			return -EINVAL;
	if (h->has_reply &&
	    (!h->reply.nr_segs || h->reply.nr_segs > RPCRDMA_MAX_CHUNK_SEGS))
		return -EINVAL;
	if (!xdr_put(&x, h->xid) || !xdr_put(&x, h->vers) ||
	    !xdr_put(&x, h->credits) || !xdr_put(&x, h->proc))
		return -EMSGSIZE;
	switch (h->proc) {
	case RPCRDMA_MSG:
	case RPCRDMA_NOMSG:
		for (i = 0; i < h->nr_read; i++)
			if (!xdr_put(&x, 1) || !xdr_put(&x, h->read[i].position) ||
			    !put_seg(&x, &h->read[i].seg))
				return -EMSGSIZE;
		if (!xdr_put(&x, 0))
			return -EMSGSIZE;
		for (i = 0; i < h->nr_write; i++)
			if (!xdr_put(&x, 1) || !put_chunk(&x, &h->write[i]))
				return -EMSGSIZE;
		if (!xdr_put(&x, 0))
			return -EMSGSIZE;
		if (!xdr_put(&x, h->has_reply) ||
		    (h->has_reply && !put_chunk(&x, &h->reply)))
			return -EMSGSIZE;
		break;
	case RPCRDMA_ERROR:
		if (!xdr_put(&x, h->err))
			return -EMSGSIZE;
		if (h->err == RPCRDMA_ERR_VERS &&
		    (!xdr_put(&x, h->vers_low) || !xdr_put(&x, h->vers_high)))
			return -EMSGSIZE;
		if (h->err != RPCRDMA_ERR_VERS && h->err != RPCRDMA_ERR_CHUNK)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	return (int)(size - x.left);
}

/* An XDR optional-data discriminator: 0 or 1, anything else is garbage. */
static int get_bool(struct rpcrdma_xdr *x, bool *b)
{
	u32 v;

	if (!xdr_get(x, &v))
		return -EMSGSIZE;
	if (v > 1)
		return -EINVAL;
	*b = v;
	return 0;
}

static int get_seg(struct rpcrdma_xdr *x, struct rpcrdma_seg *s)
{
	if (!xdr_get(x, &s->handle) || !xdr_get(x, &s->length) ||
	    !xdr_get64(x, &s->offset))
		return -EMSGSIZE;
	return 0;
}

static int get_chunk(struct rpcrdma_xdr *x, struct rpcrdma_chunk *c)
{
	u32 i, n;
	int err;

	if (!xdr_get(x, &n))
		return -EMSGSIZE;
	if (!n)
		return -EINVAL;		/* a chunk has at least one segment */
	if (n > RPCRDMA_MAX_CHUNK_SEGS)
		return -E2BIG;
	/* n is bounded above, and each segment is checked against x->left */
	for (i = 0; i < n; i++) {
		err = get_seg(x, &c->segs[i]);
		if (err)
			return err;
	}
	c->nr_segs = n;
	return 0;
}

/**
 * rpcrdma_decode_hdr - check and decode a transport header
 * @buf: as received
 * @size: bytes received
 * @h: out; h->len is where an RDMA_MSG's RPC message starts
 *
 * Return: 0; -EMSGSIZE (truncated), -EPROTO (wrong version: answer
 * ERR_VERS), -EINVAL (bad discriminator, procedure or error code),
 * -E2BIG (more segments or chunks than supported).
 */
int rpcrdma_decode_hdr(const void *buf, u32 size, struct rpcrdma_hdr *h)
{
	struct rpcrdma_xdr x = { .p = (u8 *)buf, .left = size };
	bool more;
	int err;

	h->nr_read = 0;
	h->nr_write = 0;
	h->has_reply = false;
	if (!xdr_get(&x, &h->xid) || !xdr_get(&x, &h->vers) ||
	    !xdr_get(&x, &h->credits) || !xdr_get(&x, &h->proc))
		return -EMSGSIZE;
	if (h->vers != RPCRDMA_WIRE_VERSION)
		return -EPROTO;
	switch (h->proc) {
	case RPCRDMA_MSG:
	case RPCRDMA_NOMSG:
		for (;;) {
			err = get_bool(&x, &more);
			if (err)
				return err;
			if (!more)
				break;
			if (h->nr_read == RPCRDMA_MAX_READ_SEGS)
				return -E2BIG;
			if (!xdr_get(&x, &h->read[h->nr_read].position))
				return -EMSGSIZE;
			err = get_seg(&x, &h->read[h->nr_read].seg);
			if (err)
				return err;
			h->nr_read++;
		}
		for (;;) {
			err = get_bool(&x, &more);
			if (err)
				return err;
			if (!more)
				break;
			if (h->nr_write == RPCRDMA_MAX_WRITE_CHUNKS)
				return -E2BIG;
			err = get_chunk(&x, &h->write[h->nr_write]);
			if (err)
				return err;
			h->nr_write++;
		}
		err = get_bool(&x, &h->has_reply);
		if (err)
			return err;
		if (h->has_reply) {
			err = get_chunk(&x, &h->reply);
			if (err)
				return err;
		}
		break;
	case RPCRDMA_ERROR:
		if (!xdr_get(&x, &h->err))
			return -EMSGSIZE;
		if (h->err == RPCRDMA_ERR_VERS) {
			if (!xdr_get(&x, &h->vers_low) || !xdr_get(&x, &h->vers_high))
				return -EMSGSIZE;
		} else if (h->err != RPCRDMA_ERR_CHUNK) {
			return -EINVAL;
		}
		break;
	default:
		return -EINVAL;		/* including the deprecated MSGP and DONE */
	}
	h->len = size - x.left;
	return 0;
}

static u8 inline_code(u32 size)
{
	return (u8)(size / 1024 - 1);
}

/**
 * rpcrdma_encode_cm_pdata - RFC 8797 private data
 * @buf: where
 * @size: room (at least RPCRDMA_CM_PDATA_LEN)
 * @p: what; inline sizes are rounded down to a KiB, within 1..256 KiB
 *
 * Return: RPCRDMA_CM_PDATA_LEN, or -EMSGSIZE, -EINVAL.
 */
int rpcrdma_encode_cm_pdata(void *buf, u32 size, const struct rpcrdma_cm_pdata *p)
{
	__be32 magic = cpu_to_be32(RPCRDMA_CM_MAGIC);
	u8 *b = buf;

	if (size < RPCRDMA_CM_PDATA_LEN)
		return -EMSGSIZE;
	if (p->send_size < RPCRDMA_CM_MIN_INLINE || p->send_size > RPCRDMA_CM_MAX_INLINE ||
	    p->recv_size < RPCRDMA_CM_MIN_INLINE || p->recv_size > RPCRDMA_CM_MAX_INLINE)
		return -EINVAL;
	memcpy(b, &magic, 4);
	b[4] = RPCRDMA_CM_VERSION;
	b[5] = p->remote_inv ? RPCRDMA_CM_F_REMOTE_INV : 0;
	b[6] = inline_code(p->send_size);
	b[7] = inline_code(p->recv_size);
	return RPCRDMA_CM_PDATA_LEN;
}

/**
 * rpcrdma_decode_cm_pdata - read a peer's RFC 8797 private data
 * @buf: the private data (may be longer: the rest is padding)
 * @size: its length
 * @p: out
 *
 * Return: 0; -ENODATA when it is not RFC 8797 data (the peer then uses
 * the RFC 8166 defaults, 1 KiB inline, no remote invalidation);
 * -EPROTO for an unknown version.
 */
int rpcrdma_decode_cm_pdata(const void *buf, u32 size, struct rpcrdma_cm_pdata *p)
{
	const u8 *b = buf;
	__be32 magic;

	if (!buf || size < RPCRDMA_CM_PDATA_LEN)
		return -ENODATA;
	memcpy(&magic, b, 4);
	if (be32_to_cpu(magic) != RPCRDMA_CM_MAGIC)
		return -ENODATA;
	if (b[4] != RPCRDMA_CM_VERSION)
		return -EPROTO;
	p->remote_inv = b[5] & RPCRDMA_CM_F_REMOTE_INV;
	p->send_size = ((u32)b[6] + 1) * 1024;
	p->recv_size = ((u32)b[7] + 1) * 1024;
	return 0;
}

