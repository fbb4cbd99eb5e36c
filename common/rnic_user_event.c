// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The /dev/rnic_mgr event codec (include/rdmastor/rnic_user_event.h).
 * Events are in host byte order (a local interface) and may sit at any
 * offset of a read buffer, so fields are copied with memcpy, never
 * through a cast pointer.
 */
#include <rdmastor/rnic_user_event.h>

#define EV_HDR		sizeof(struct rnic_event)
#define EV_ALIGN8(x)	(((x) + 7) & ~(size_t)7)
#define EV_LEN_MAX	0xffffu		/* the header's len is 16 bits */

static size_t ev_body_size(u16 type, u32 nvictims)
{
	switch (type) {
	case RNIC_EV_REVOKE:
		return sizeof(struct rnic_ev_revoke) +
		       EV_ALIGN8(nvictims * sizeof(u32));
	case RNIC_EV_GROW:
		return sizeof(struct rnic_ev_grow);
	case RNIC_EV_GRANT:
		return sizeof(struct rnic_ev_grant);
	case RNIC_EV_STALE:
		return sizeof(struct rnic_ev_stale);
	case RNIC_EV_RECLAIM:
		return sizeof(struct rnic_ev_reclaim);
	}
	return 0;
}

/**
 * rnic_ev_size - bytes @ev takes encoded
 * @ev: a known type
 *
 * Return: the size, a multiple of 8; 0 for an unknown type or too many
 * victims.
 */
size_t rnic_ev_size(const struct rnic_ev *ev)
{
	if (ev->type == RNIC_EV_REVOKE && ev->revoke.nvictims > RNIC_REVOKE_MAX_VICTIMS)
		return 0;
	return ev_body_size(ev->type, ev->type == RNIC_EV_REVOKE ? ev->revoke.nvictims : 0);
}

#define PUT(p, off, v) do { typeof(v) v_ = (v); memcpy((u8 *)(p) + (off), &v_, sizeof(v_)); } while (0)
#define GET(p, off, v) memcpy(&(v), (const u8 *)(p) + (off), sizeof(v))
#define OFF(type, field) offsetof(struct type, field)

/**
 * rnic_ev_encode - write @ev into @buf
 * @buf: where
 * @room: bytes there
 * @ev: the event
 *
 * Return: bytes written, -ENOSPC if they do not fit, -EINVAL for an
 * event that cannot be encoded.
 */
int rnic_ev_encode(void *buf, size_t room, const struct rnic_ev *ev)
{
	size_t size = rnic_ev_size(ev);
	u32 i;

	if (!size || size > EV_LEN_MAX)
		return -EINVAL;
	if (ev->type == RNIC_EV_STALE && ev->stale.addr + ev->stale.len < ev->stale.addr)
		return -EINVAL;
	if (size > room)
		return -ENOSPC;
	memset(buf, 0, size);
	PUT(buf, OFF(rnic_event, type), (u16)ev->type);
	PUT(buf, OFF(rnic_event, len), (u16)size);
	PUT(buf, OFF(rnic_event, seq), (u32)ev->seq);
	PUT(buf, OFF(rnic_event, time_ns), (u64)ev->time_ns);
	switch (ev->type) {
	case RNIC_EV_REVOKE:
		PUT(buf, OFF(rnic_ev_revoke, entries), (u64)ev->revoke.entries);
		PUT(buf, OFF(rnic_ev_revoke, deadline_ns), (u64)ev->revoke.deadline_ns);
		PUT(buf, OFF(rnic_ev_revoke, keys), (u32)ev->revoke.keys);
		PUT(buf, OFF(rnic_ev_revoke, nvictims), (u32)ev->revoke.nvictims);
		for (i = 0; i < ev->revoke.nvictims; i++)
			PUT(buf, sizeof(struct rnic_ev_revoke) + i * sizeof(u32),
			    (u32)ev->revoke.victims[i]);
		break;
	case RNIC_EV_GROW:
		PUT(buf, OFF(rnic_ev_grow, entitlement), (u64)ev->grow.entitlement);
		PUT(buf, OFF(rnic_ev_grow, key_entitlement), (u32)ev->grow.key_entitlement);
		break;
	case RNIC_EV_GRANT:
		PUT(buf, OFF(rnic_ev_grant, ticket), (u64)ev->grant.ticket);
		PUT(buf, OFF(rnic_ev_grant, entries), (u64)ev->grant.entries);
		break;
	case RNIC_EV_STALE:
		PUT(buf, OFF(rnic_ev_stale, addr), (u64)ev->stale.addr);
		PUT(buf, OFF(rnic_ev_stale, len), (u64)ev->stale.len);
		PUT(buf, OFF(rnic_ev_stale, lkey), (u32)ev->stale.lkey);
		break;
	case RNIC_EV_RECLAIM:
		PUT(buf, OFF(rnic_ev_reclaim, entries), (u64)ev->reclaim.entries);
		break;
	}
	return (int)size;
}

/* are the @n bytes at @off of @buf all zero */
static bool ev_zero(const void *buf, size_t off, size_t n)
{
	const u8 *p = (const u8 *)buf + off;

	while (n--)
		if (*p++)
			return false;
	return true;
}

/**
 * rnic_ev_decode - read the first event of @buf
 * @buf: bytes as read() returned them
 * @len: how many
 * @ev: the event, filled on success
 *
 * Return: bytes the event took (skip them to reach the next); -EAGAIN
 * if @buf holds less than one whole event; -EPROTO if it is malformed
 * (the stream cannot be trusted past it).
 */
int rnic_ev_decode(const void *buf, size_t len, struct rnic_ev *ev)
{
	u16 type, size;
	size_t need;
	u32 i, nv = 0;

	if (len < EV_HDR)
		return -EAGAIN;
	GET(buf, OFF(rnic_event, type), type);
	GET(buf, OFF(rnic_event, len), size);
	if (size < EV_HDR || size % 8)
		return -EPROTO;
	if (size > len)
		return -EAGAIN;
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	GET(buf, OFF(rnic_event, seq), ev->seq);
	GET(buf, OFF(rnic_event, time_ns), ev->time_ns);
	if (type == RNIC_EV_REVOKE) {
		if (size < sizeof(struct rnic_ev_revoke))
			return -EPROTO;
		GET(buf, OFF(rnic_ev_revoke, nvictims), nv);
		if (nv > RNIC_REVOKE_MAX_VICTIMS)
			return -EPROTO;
	}
	need = ev_body_size(type, nv);
	if (!need)	/* a type this code does not know: skip it whole */
		return size;
	if (size != need)
		return -EPROTO;
	switch (type) {
	case RNIC_EV_REVOKE:
		GET(buf, OFF(rnic_ev_revoke, entries), ev->revoke.entries);
		GET(buf, OFF(rnic_ev_revoke, deadline_ns), ev->revoke.deadline_ns);
		GET(buf, OFF(rnic_ev_revoke, keys), ev->revoke.keys);
		ev->revoke.nvictims = nv;
		for (i = 0; i < nv; i++)
			GET(buf, sizeof(struct rnic_ev_revoke) + i * sizeof(u32),
			    ev->revoke.victims[i]);
		if (!ev_zero(buf, sizeof(struct rnic_ev_revoke) + nv * sizeof(u32),
			     size - sizeof(struct rnic_ev_revoke) - nv * sizeof(u32)))
			return -EPROTO;
		break;
	case RNIC_EV_GROW:
		GET(buf, OFF(rnic_ev_grow, entitlement), ev->grow.entitlement);
		GET(buf, OFF(rnic_ev_grow, key_entitlement), ev->grow.key_entitlement);
		if (!ev_zero(buf, OFF(rnic_ev_grow, pad), sizeof(u32)))
			return -EPROTO;
		break;
	case RNIC_EV_GRANT:
		GET(buf, OFF(rnic_ev_grant, ticket), ev->grant.ticket);
		GET(buf, OFF(rnic_ev_grant, entries), ev->grant.entries);
		break;
	case RNIC_EV_STALE:
		GET(buf, OFF(rnic_ev_stale, addr), ev->stale.addr);
		GET(buf, OFF(rnic_ev_stale, len), ev->stale.len);
		GET(buf, OFF(rnic_ev_stale, lkey), ev->stale.lkey);
		if (!ev_zero(buf, OFF(rnic_ev_stale, pad), sizeof(u32)) ||
		    !ev->stale.len || ev->stale.addr + ev->stale.len < ev->stale.addr)
			return -EPROTO;
		break;
	case RNIC_EV_RECLAIM:
		GET(buf, OFF(rnic_ev_reclaim, entries), ev->reclaim.entries);
		break;
	}
	return size;
}

/**
 * rnic_ev_seq_next - account for an event's sequence number
 * @expect: the seq the next event should carry (start at 1)
 * @seq: the one it carries
 *
 * Return: how many events were lost before it (0 normally); -EPROTO if
 * @seq goes backwards or repeats.
 */
s64 rnic_ev_seq_next(u32 *expect, u32 seq)
{
	u32 lost = seq - *expect;

	/* serial arithmetic: behind (or equal to an old one) is an error */
	if ((s32)lost < 0)
		return -EPROTO;
	*expect = seq + 1;
	return lost;
}
