// SPDX-License-Identifier: GPL-2.0
/*
 * The responder's checks of an RPC-over-RDMA call and the chunk lists
 * of its reply (see include/rdmastor/rpcrdma_call.h). Plain C, no
 * allocation. Every length from the wire is summed in 64 bits and
 * bounded before it is believed.
 */
#include <rdmastor/rpcrdma_call.h>

/* The sum of a chunk's segment lengths, capped (no u32 wrap). */
static u64 chunk_room(const struct rpcrdma_chunk *c)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < c->nr_segs; i++)
		sum += c->segs[i].length;
	return sum;
}

static u32 cap32(u64 v)
{
	return v > U32_MAX ? U32_MAX : (u32)v;
}

/**
 * rpcrdma_plan_call - check a decoded call and say how to assemble it
 * @h: from rpcrdma_decode_hdr() of the same bytes
 * @received: bytes the Send carried (transport header included)
 * @max_chunk: most bytes a Read chunk may bring
 * @p: out
 *
 * Return: 0; -EINVAL for a call that contradicts RFC 8166 or its own
 * lengths; -E2BIG for a chunk larger than @max_chunk or a shape this
 * responder does not serve (several Read chunks). Both are answered
 * with ERR_CHUNK. -EPROTO for a message that is not a call at all
 * (RDMA_ERROR, or a header longer than what arrived).
 */
int rpcrdma_plan_call(const struct rpcrdma_hdr *h, u32 received, u32 max_chunk,
		      struct rpcrdma_call_plan *p)
{
	u64 chunk = 0;
	u32 i, pos;

	memset(p, 0, sizeof(*p));
	if (h->proc != RPCRDMA_MSG && h->proc != RPCRDMA_NOMSG)
		return -EPROTO;
	if (h->len > received)
		return -EPROTO;
	p->inline_len = received - h->len;
	for (i = 0; i < h->nr_write; i++)
		p->write_len[i] = cap32(chunk_room(&h->write[i]));
	if (h->has_reply)
		p->reply_len = cap32(chunk_room(&h->reply));

	if (!h->nr_read) {
		/* RDMA_NOMSG needs the message somewhere: a position-zero chunk */
		if (h->proc == RPCRDMA_NOMSG || !p->inline_len)
			return -EINVAL;
		p->kind = RPCRDMA_CALL_INLINE;
		p->msg_len = p->inline_len;
		return 0;
	}
	/* One Read chunk: every segment at the same position. */
	pos = h->read[0].position;
	for (i = 0; i < h->nr_read; i++) {
		if (h->read[i].position != pos)
			return -E2BIG;
		chunk += h->read[i].seg.length;
	}
	if (!chunk)
		return -EINVAL;
	if (chunk > max_chunk)
		return -E2BIG;
	p->chunk_len = (u32)chunk;
	p->position = pos;
	if (pos == 0) {
		/* a long call: RDMA_NOMSG, nothing inline (RFC 8166 3.5.3.1) */
		if (h->proc != RPCRDMA_NOMSG || p->inline_len)
			return -EINVAL;
		p->kind = RPCRDMA_CALL_LONG;
		p->msg_len = p->chunk_len;
		return 0;
	}
	if (h->proc != RPCRDMA_MSG || pos > p->inline_len || (pos & 3))
		return -EINVAL;
	p->kind = RPCRDMA_CALL_DATA_CHUNK;
	/* the requester leaves the chunk's XDR pad out (RFC 8166 3.4.5.2) */
	p->msg_len = p->inline_len + ((p->chunk_len + 3) & ~3U);
	return 0;
}

/**
 * rpcrdma_fill_chunk - the chunk to return for @len bytes written into it
 * @offered: the chunk as the requester offered it
 * @len: bytes written, in segment order
 * @used: out: the same segments, each with the bytes written into it
 *	(zero for those past the data)
 *
 * Return: 0, or -E2BIG if @len is more than the chunk holds.
 */
int rpcrdma_fill_chunk(const struct rpcrdma_chunk *offered, u32 len,
		       struct rpcrdma_chunk *used)
{
	u32 i, n;

	if (len > chunk_room(offered))
		return -E2BIG;
	used->nr_segs = offered->nr_segs;
	for (i = 0; i < offered->nr_segs; i++) {
		n = min(len, offered->segs[i].length);
		used->segs[i] = offered->segs[i];
		used->segs[i].length = n;
		len -= n;
	}
	return 0;
}

static bool same_handle(u32 *handle, bool *seen, u32 h)
{
	if (*seen && *handle != h)
		return false;
	*handle = h;
	*seen = true;
	return true;
}

/**
 * rpcrdma_call_one_handle - the one key a call's chunks all use
 * @h: the call
 * @handle: out: that key
 *
 * A Send can invalidate one key (RFC 8797 section 2, remote
 * invalidation): the reply invalidates the requester's memory only if
 * every segment of the call names the same one.
 *
 * Return: true if there are segments and they all name one key.
 */
bool rpcrdma_call_one_handle(const struct rpcrdma_hdr *h, u32 *handle)
{
	bool seen = false;
	u32 i, j;

	for (i = 0; i < h->nr_read; i++)
		if (!same_handle(handle, &seen, h->read[i].seg.handle))
			return false;
	for (i = 0; i < h->nr_write; i++)
		for (j = 0; j < h->write[i].nr_segs; j++)
			if (!same_handle(handle, &seen, h->write[i].segs[j].handle))
				return false;
	if (h->has_reply)
		for (j = 0; j < h->reply.nr_segs; j++)
			if (!same_handle(handle, &seen, h->reply.segs[j].handle))
				return false;
	return seen;
}

/**
 * rpcrdma_is_bc_reply - is this message a reply to a backchannel call?
 * @h: its transport header
 * @msg: the RPC message after the header
 * @len: its length
 *
 * A backchannel reply (RFC 8167) comes inline, RDMA_MSG without chunks,
 * and its RPC message is a REPLY (msg_type 1, the second word).
 *
 * Return: true if it is one.
 */
bool rpcrdma_is_bc_reply(const struct rpcrdma_hdr *h, const void *msg, u32 len)
{
	const u8 *m = msg;

	if (h->proc != RPCRDMA_MSG || h->nr_read || h->nr_write || h->has_reply)
		return false;
	if (len < 8)
		return false;
	return m[4] == 0 && m[5] == 0 && m[6] == 0 && m[7] == 1;
}
