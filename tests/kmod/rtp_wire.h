/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtp: the test protocol on top of the transport engine. A client sends
 * requests naming a buffer it registered (address, length, key); the
 * server RDMA-WRITEs a pattern into it (RTP_WRITE) or RDMA-READs it and
 * checks the pattern (RTP_READ), then replies, with Send-with-Invalidate
 * of the key if the request asks for it. RTP_STALE_WRITE is a test mode:
 * the server writes with the key and address the client names, which the
 * client sends only after the key was invalidated: it must fail.
 *
 * Every message is one fixed-size header, big-endian. A new field means
 * a new version in the connection private data.
 */
#ifndef RDMASTOR_RTP_WIRE_H
#define RDMASTOR_RTP_WIRE_H

#include <rdmastor/compat.h>

#define RTP_MAGIC		0x52545031	/* "RTP1" */
#define RTP_VERSION		1
#define RTP_MAX_IO		(1U << 20)	/* bytes per request */
#define RTP_MAX_CREDITS		256

enum rtp_type {
	RTP_WRITE = 1,		/* server writes the pattern to the client */
	RTP_READ = 2,		/* server reads the client's pattern */
	RTP_REPLY = 3,
	RTP_STALE_WRITE = 4,	/* test: server writes with a dead key */
	RTP_TYPE_MAX = RTP_STALE_WRITE,
};

#define RTP_F_REMOTE_INV	0x01	/* reply with Send-with-Invalidate */
#define RTP_F_ALL		RTP_F_REMOTE_INV

/* On the wire. */
struct rtp_hdr {
	__be32 magic;
	u8 type;
	u8 flags;
	__be16 credits;		/* replies: requests the client may have out */
	__be32 xid;
	__be32 status;		/* replies: 0 or a positive errno */
	__be64 addr;
	__be32 rkey;
	__be32 len;
};

#define RTP_HDR_LEN		32

/* Connection private data, both directions. */
struct rtp_pdata {
	__be32 magic;
	__be16 version;
	__be16 credits;		/* receive buffers the sender posted */
};

/* Decoded. */
struct rtp_msg {
	enum rtp_type type;
	u8 flags;
	u16 credits;
	u32 xid;
	u32 status;
	u64 addr;
	u32 rkey;
	u32 len;
};

void rtp_encode(void *buf, const struct rtp_msg *m);
int rtp_decode(const void *buf, u32 len, struct rtp_msg *m);
void rtp_pdata_encode(struct rtp_pdata *p, u16 credits);
int rtp_pdata_decode(const void *buf, u32 len, u16 *credits);

/* The data pattern: 64-bit words that name the request and the offset. */
static inline u64 rtp_pattern_word(u32 xid, u64 index)
{
	return (((u64)xid << 32) | index) ^ 0x9e3779b97f4a7c15ULL;
}

#endif /* RDMASTOR_RTP_WIRE_H */
