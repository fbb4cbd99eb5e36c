/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The responder's view of an RPC-over-RDMA version 1 call (RFC 8166
 * sections 3.5 and 4.4): which shapes of chunk lists the NFS server
 * transport serves, checked against what arrived, and the chunk lists
 * of its reply. Plain C (see compat.h): it builds into the server
 * module and into user-space tests and fuzzers.
 *
 * A call travels in one of three ways:
 *   inline      RDMA_MSG, no Read list: the whole RPC message is in
 *               the Send.
 *   data chunk  RDMA_MSG and one Read chunk at a position inside the
 *               inline message (NFS WRITE data): the message is the
 *               inline bytes up to the position, the chunk's data (plus
 *               the XDR pad the requester left out), then the rest.
 *   long call   RDMA_NOMSG and one Read chunk at position zero: the
 *               whole message is in the chunk, nothing inline.
 * Anything else (several Read chunks, a position past the message or
 * not on an XDR word, RDMA_NOMSG without a position-zero chunk or with
 * inline bytes) is answered with ERR_CHUNK.
 */
#ifndef RDMASTOR_RPCRDMA_CALL_H
#define RDMASTOR_RPCRDMA_CALL_H

#include "rpcrdma_wire.h"

enum rpcrdma_call_kind {
	RPCRDMA_CALL_INLINE,
	RPCRDMA_CALL_DATA_CHUNK,
	RPCRDMA_CALL_LONG,
};

/**
 * struct rpcrdma_call_plan - how to put a checked call together
 * @kind: enum rpcrdma_call_kind
 * @inline_len: bytes of RPC message in the Send, after the header
 * @position: RPCRDMA_CALL_DATA_CHUNK: where the chunk's data goes in
 *	the message (a multiple of 4, at most @inline_len)
 * @chunk_len: bytes of the Read chunk (sum of its segments), else 0
 * @msg_len: bytes of the whole RPC message, the chunk's XDR pad
 *	included
 * @write_len: each Write chunk's room (sum of its segments)
 * @reply_len: the Reply chunk's room, 0 without one
 */
struct rpcrdma_call_plan {
	enum rpcrdma_call_kind kind;
	u32 inline_len;
	u32 position;
	u32 chunk_len;
	u32 msg_len;
	u32 write_len[RPCRDMA_MAX_WRITE_CHUNKS];
	u32 reply_len;
};

int rpcrdma_plan_call(const struct rpcrdma_hdr *h, u32 received, u32 max_chunk,
		      struct rpcrdma_call_plan *p);
int rpcrdma_fill_chunk(const struct rpcrdma_chunk *offered, u32 len,
		       struct rpcrdma_chunk *used);
bool rpcrdma_call_one_handle(const struct rpcrdma_hdr *h, u32 *handle);
bool rpcrdma_is_bc_reply(const struct rpcrdma_hdr *h, const void *msg, u32 len);

#endif /* RDMASTOR_RPCRDMA_CALL_H */
