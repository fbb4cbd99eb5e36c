/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RPC-over-RDMA version 1 (RFC 8166) transport header and the RFC 8797
 * connection private data, as plain C (see compat.h): the codec builds
 * into the NFS client transport and into user-space tests and fuzzers.
 * Names the kernel's <linux/sunrpc/rpc_rdma.h> also defines carry a
 * WIRE/wire part (RPCRDMA_WIRE_VERSION, enum rpcrdma_wire_proc), so the
 * two headers can meet in one file.
 *
 * Wire format (XDR, big-endian 32-bit words):
 *
 *   xid, vers (1), credits, proc
 *   then, for RDMA_MSG and RDMA_NOMSG:
 *     read list:   { 1, position, handle, length, offset(64) }* 0
 *     write list:  { 1, count, { handle, length, offset(64) }^count }* 0
 *     reply chunk: 0 | 1, count, { handle, length, offset(64) }^count
 *     (RDMA_MSG: the RPC message follows)
 *   or, for RDMA_ERROR:
 *     err (ERR_VERS: vers_low, vers_high | ERR_CHUNK)
 *
 * The decoder never trusts a count from the wire: every loop is bounded
 * by what is left of the buffer and by the limits below.
 */
#ifndef RDMASTOR_RPCRDMA_WIRE_H
#define RDMASTOR_RPCRDMA_WIRE_H

#include "compat.h"

#define RPCRDMA_WIRE_VERSION		1

enum rpcrdma_wire_proc {
	RPCRDMA_MSG = 0,
	RPCRDMA_NOMSG = 1,
	RPCRDMA_MSGP = 2,	/* deprecated by RFC 8166; rejected */
	RPCRDMA_DONE = 3,	/* deprecated by RFC 8166; rejected */
	RPCRDMA_ERROR = 4,
};

enum rpcrdma_wire_err {
	RPCRDMA_ERR_VERS = 1,
	RPCRDMA_ERR_CHUNK = 2,
};

/* What this implementation handles; more on the wire is an error. */
#define RPCRDMA_MAX_READ_SEGS	16
#define RPCRDMA_MAX_WRITE_CHUNKS 4
#define RPCRDMA_MAX_CHUNK_SEGS	16

/* Fixed part: xid, vers, credits, proc. */
#define RPCRDMA_HDR_MIN		16

struct rpcrdma_seg {
	u32 handle;
	u32 length;
	u64 offset;
};

struct rpcrdma_read_seg {
	u32 position;
	struct rpcrdma_seg seg;
};

struct rpcrdma_chunk {
	u32 nr_segs;
	struct rpcrdma_seg segs[RPCRDMA_MAX_CHUNK_SEGS];
};

/**
 * struct rpcrdma_hdr - a decoded transport header
 * @xid: the RPC's xid (raw, as on the wire)
 * @vers: RPCRDMA_WIRE_VERSION
 * @credits: credits requested (calls) or granted (replies)
 * @proc: enum rpcrdma_wire_proc
 * @nr_read: read segments
 * @read: the read list
 * @nr_write: write chunks
 * @write: the write list
 * @has_reply: a reply chunk is present
 * @reply: the reply chunk
 * @err: RDMA_ERROR: enum rpcrdma_wire_err
 * @vers_low: ERR_VERS: lowest version the peer supports
 * @vers_high: ERR_VERS: highest
 * @len: bytes of header; for RDMA_MSG the RPC message starts here
 */
struct rpcrdma_hdr {
	u32 xid;
	u32 vers;
	u32 credits;
	u32 proc;
	u32 nr_read;
	struct rpcrdma_read_seg read[RPCRDMA_MAX_READ_SEGS];
	u32 nr_write;
	struct rpcrdma_chunk write[RPCRDMA_MAX_WRITE_CHUNKS];
	bool has_reply;
	struct rpcrdma_chunk reply;
	u32 err;
	u32 vers_low;
	u32 vers_high;
	u32 len;
};

int rpcrdma_encode_hdr(void *buf, u32 size, const struct rpcrdma_hdr *h);
int rpcrdma_decode_hdr(const void *buf, u32 size, struct rpcrdma_hdr *h);

/* RFC 8797 private data. */
#define RPCRDMA_CM_MAGIC	0xf6ab0e18
#define RPCRDMA_CM_VERSION	1
#define RPCRDMA_CM_F_REMOTE_INV	0x01
#define RPCRDMA_CM_PDATA_LEN	8
/* Inline sizes travel as (size / 1024) - 1: 1 KiB to 256 KiB. */
#define RPCRDMA_CM_MIN_INLINE	1024
#define RPCRDMA_CM_MAX_INLINE	(256 * 1024)

struct rpcrdma_cm_pdata {
	bool remote_inv;
	u32 send_size;	/* inline bytes the sender will send */
	u32 recv_size;	/* inline bytes the sender can receive */
};

int rpcrdma_encode_cm_pdata(void *buf, u32 size, const struct rpcrdma_cm_pdata *p);
int rpcrdma_decode_cm_pdata(const void *buf, u32 size, struct rpcrdma_cm_pdata *p);

#endif /* RDMASTOR_RPCRDMA_WIRE_H */
