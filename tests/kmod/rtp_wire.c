// SPDX-License-Identifier: GPL-2.0
/*
 * rtp wire encoder and decoder: plain C, built into the test modules and
 * into a user-space unit test and fuzzer. The decoder trusts nothing:
 * length first, then every field against the protocol's limits.
 */
#include "rtp_wire.h"

void rtp_encode(void *buf, const struct rtp_msg *m)
{
	struct rtp_hdr h = {
		.magic = cpu_to_be32(RTP_MAGIC),
		.type = (u8)m->type,
		.flags = m->flags,
		.credits = cpu_to_be16(m->credits),
		.xid = cpu_to_be32(m->xid),
		.status = cpu_to_be32(m->status),
		.addr = cpu_to_be64(m->addr),
		.rkey = cpu_to_be32(m->rkey),
		.len = cpu_to_be32(m->len),
	};

	memcpy(buf, &h, RTP_HDR_LEN);
}

/**
 * rtp_decode - check and decode a message
 * @buf: as received
 * @len: bytes received
 * @m: out
 *
 * Return: 0; -EMSGSIZE (wrong length), -EPROTO (bad magic, type, flags),
 * -EINVAL (a field out of range).
 */
int rtp_decode(const void *buf, u32 len, struct rtp_msg *m)
{
	struct rtp_hdr h;

	if (len != RTP_HDR_LEN)
		return -EMSGSIZE;
	memcpy(&h, buf, RTP_HDR_LEN);
	if (be32_to_cpu(h.magic) != RTP_MAGIC)
		return -EPROTO;
	if (h.type < RTP_WRITE || h.type > RTP_TYPE_MAX || h.flags & ~RTP_F_ALL)
		return -EPROTO;
	m->type = h.type;
	m->flags = h.flags;
	m->credits = be16_to_cpu(h.credits);
	m->xid = be32_to_cpu(h.xid);
	m->status = be32_to_cpu(h.status);
	m->addr = be64_to_cpu(h.addr);
	m->rkey = be32_to_cpu(h.rkey);
	m->len = be32_to_cpu(h.len);
	if (m->type == RTP_REPLY) {
		if (m->credits == 0 || m->credits > RTP_MAX_CREDITS || m->status > 4095)
			return -EINVAL;
		return 0;
	}
	if (m->len == 0 || m->len > RTP_MAX_IO || m->addr + m->len < m->addr)
		return -EINVAL;
	return 0;
}

void rtp_pdata_encode(struct rtp_pdata *p, u16 credits)
{
	p->magic = cpu_to_be32(RTP_MAGIC);
	p->version = cpu_to_be16(RTP_VERSION);
	p->credits = cpu_to_be16(credits);
}

int rtp_pdata_decode(const void *buf, u32 len, u16 *credits)
{
	struct rtp_pdata p;

	if (!buf || len < sizeof(p))
		return -EMSGSIZE;
	memcpy(&p, buf, sizeof(p));
	if (be32_to_cpu(p.magic) != RTP_MAGIC || be16_to_cpu(p.version) != RTP_VERSION)
		return -EPROTO;
	*credits = be16_to_cpu(p.credits);
	if (*credits == 0 || *credits > RTP_MAX_CREDITS)
		return -EINVAL;
	return 0;
}
