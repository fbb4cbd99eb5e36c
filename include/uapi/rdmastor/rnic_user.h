/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR Linux-OpenIB) */
/*
 * rnic_mgr's interface to user-level RDMA libraries: the character device
 * /dev/rnic_mgr (Documentation/user-level.rst).
 *
 * A process opens the device and binds the file to its rnic_mgr consumer
 * on one RDMA device (RNIC_IOC_BIND): the consumer the kernel charges for
 * every memory registration the process makes there, whether or not it
 * uses this interface. Through the file it then learns what it may hold
 * and what it is asked to give back:
 *
 *  - read() returns events, each a struct rnic_event header followed by
 *    its type's body, 8-byte aligned, never split across reads; poll()
 *    says POLLIN while events wait; before RNIC_IOC_BIND read() fails
 *    with ENOTCONN, and after the device went away it returns 0;
 *  - mmap() of offset 0 maps one read-only page, struct rnic_shared,
 *    with the consumer's entitlement, what it holds and the target a
 *    REVOKE asked for, updated by the kernel under a sequence count.
 *
 * A REVOKE gives a deadline (now + the grace period T): the process
 * deregisters memory covering the asked entries before it, choosing its
 * own victims if it likes (the suggested ones are the kernel's guess,
 * least recently used first), and may say which with
 * RNIC_IOC_RELEASE_PLAN. What happens past the deadline is the
 * administrator's choice (count it, or end the process).
 */
#ifndef _UAPI_RDMASTOR_RNIC_USER_H
#define _UAPI_RDMASTOR_RNIC_USER_H

#include <linux/types.h>
#include <linux/ioctl.h>

/*
 * The interface's version: BIND carries the library's, and the kernel
 * refuses another (-EPROTO) and writes back its own. 2: the ioctl magic
 * moved out of random.h's range, BIND checks the version, the shared
 * page has events_posted. 3: several bindings per process and device,
 * each serving one verbs context (RNIC_BIND_CONTEXT, @verbs_fd); a
 * version-2 BIND is refused with -EPROTO all the same. 4: every BIND
 * shows a uverbs file of its device (@verbs_fd).
 */
#define RNIC_USER_ABI_VERSION	4
#define RNIC_IBDEV_NAME_MAX	64

/*
 * RNIC_IOC_BIND flags. Without RNIC_BIND_CONTEXT the binding serves the
 * whole process: every registration no other binding claims. With it,
 * the binding serves the registrations made through one verbs context
 * (the ibv_context whose cmd_fd is @verbs_fd): their STALE events, their
 * part of a REVOKE or RECLAIM, and its page counts what they hold. A
 * process may hold one whole-process binding and up to
 * RNIC_BIND_MAX - 1 context bindings per device, one per context.
 */
#define RNIC_BIND_CONTEXT	(1U << 0)
#define RNIC_BIND_MAX		16

/**
 * struct rnic_bind - RNIC_IOC_BIND: attach this file to the process's
 *	consumer on one device
 * @ibdev: in: the device's name, NUL terminated
 * @weight: in: the consumer's weight, 1..the administrator's cap (0:
 *	unchanged). The weight is the process's, whichever binding sets it
 * @flags: in: 0 or RNIC_BIND_CONTEXT
 * @grace_ms: out: T, the time a REVOKE gives
 * @abi_version: in: RNIC_USER_ABI_VERSION as the library was built;
 *	out: the kernel's. A library of another version is refused with
 *	-EPROTO (and learns the kernel's version here)
 * @consumer_id: out: the consumer's id, as in its sysfs name
 * @verbs_fd: in: an open uverbs file of @ibdev, which shows that the
 *	caller may use the device (its node's mode, the device cgroup,
 *	the network namespace); with RNIC_BIND_CONTEXT, the verbs context's
 *	file (struct ibv_context's cmd_fd), without it any open
 *	/dev/infiniband/uverbsN of the device. -EBADF if it is not an open
 *	file, -EINVAL if not a uverbs device file, -EACCES if one of
 *	another device or of a device the caller's network namespace may
 *	not use (version 4; version 3 took it with RNIC_BIND_CONTEXT only)
 * @reserved: in: 0
 *
 * Errors: -EBUSY if the file is bound already, or the process has a
 * binding for the same context (or a whole-process one); -ENOSPC beyond
 * RNIC_BIND_MAX bindings; -EPROTO for another interface version.
 */
struct rnic_bind {
	char ibdev[RNIC_IBDEV_NAME_MAX];
	__u32 weight;
	__u32 flags;
	__u32 grace_ms;
	__u32 abi_version;
	__u64 consumer_id;
	__s32 verbs_fd;
	__u32 reserved;
};

/* how RNIC_IOC_RESERVE waits */
#define RNIC_RESERVE_WAIT	0	/* sleep until granted (killable, bounded) */
#define RNIC_RESERVE_NOWAIT	1	/* -EAGAIN at once if not */
#define RNIC_RESERVE_ASYNC	2	/* a ticket now, RNIC_EV_GRANT later */

/**
 * struct rnic_reserve - RNIC_IOC_RESERVE: entries and keys for
 *	registrations about to be made (REGISTER-WAIT ahead of time);
 *	registrations draw from the reservation (one key each) while it
 *	lasts, and what is not drawn goes back on a REVOKE, when the file
 *	closes, or when the process leaves. Errors: -EAGAIN (NOWAIT),
 *	-ENOMEM (the wait ran out, or more than the budget), -ENOTCONN
 *	(not bound). ASYNC returns at once; the kernel waits on the
 *	process's behalf and posts RNIC_EV_GRANT with the outcome (0
 *	entries: refused); a grant that finds the file closed is given back;
 *	-EBUSY with 8 already pending
 * @entries: in: pages
 * @keys: in: memory keys
 * @mode: in: RNIC_RESERVE_*
 * @ticket: out: for RNIC_RESERVE_ASYNC, named again by its GRANT
 */
struct rnic_reserve {
	__u64 entries;
	__u32 keys;
	__u32 mode;
	__u64 ticket;
};

/**
 * struct rnic_release_plan - RNIC_IOC_RELEASE_PLAN: the registrations
 *	the process will deregister to answer a REVOKE ("consider
 *	alternative": its choice instead of the suggested victims)
 * @lkeys: in: user pointer to @nlkeys __u32 lkeys
 * @nlkeys: in: how many, at most RNIC_PLAN_MAX
 * @revoke_seq: in: the seq of the REVOKE this answers
 */
struct rnic_release_plan {
	__u64 lkeys;
	__u32 nlkeys;
	__u32 revoke_seq;
};

#define RNIC_PLAN_MAX		1024

/*
 * 0xBE, numbers 0x20-0x2F: a code Documentation/userspace-api/ioctl/
 * ioctl-number.rst (6.1) leaves unassigned ('R' 0x00-0x1F, the first
 * choice, is random.h's).
 */
#define RNIC_IOC_MAGIC		0xBE
#define RNIC_IOC_BIND		_IOWR(RNIC_IOC_MAGIC, 0x20, struct rnic_bind)
#define RNIC_IOC_RESERVE	_IOWR(RNIC_IOC_MAGIC, 0x21, struct rnic_reserve)
#define RNIC_IOC_RELEASE_PLAN	_IOW(RNIC_IOC_MAGIC, 0x22, struct rnic_release_plan)

/**
 * struct rnic_shared - the mapped page (read-only)
 * @seq: even when the fields below are consistent; read it, the
 *	fields, then it again, and retry if it changed or is odd
 * @abi_version: RNIC_USER_ABI_VERSION
 * @grace_ms: T
 * @entitlement: entries the consumer may hold now (its share, or more
 *	while others leave entries idle)
 * @held: entries its registrations cover now: a context binding's
 *	(RNIC_BIND_CONTEXT) those made through its context, a
 *	whole-process binding's all the others and what is reserved
 * @target: entries a pending REVOKE asks this binding to get down to;
 *	RNIC_NO_TARGET if none
 * @key_entitlement: keys it may hold
 * @key_held: keys held, counted as @held
 * @deadline_ns: when the pending REVOKE ends (CLOCK_MONOTONIC), or 0
 * @events_posted: the seq of the last event queued to the file, set
 *	after the event is in the queue and outside @seq's protocol (read
 *	it alone, with acquire ordering). A library compares it with the
 *	last event it read before it serves a cached registration: a STALE
 *	posted by munmap() is visible here by the time munmap() returns,
 *	so a hit is never served for a range the kernel reported stale
 */
struct rnic_shared {
	__u64 seq;
	__u32 abi_version;
	__u32 grace_ms;
	__u64 entitlement;
	__u64 held;
	__u64 target;
	__u32 key_entitlement;
	__u32 key_held;
	__u64 deadline_ns;
	__u64 events_posted;
};

#define RNIC_NO_TARGET		(~(__u64)0)

/* event types */
#define RNIC_EV_REVOKE		1	/* give back entries before a deadline */
#define RNIC_EV_GROW		2	/* the entitlement grew */
#define RNIC_EV_GRANT		3	/* an RNIC_RESERVE_ASYNC was granted */
#define RNIC_EV_STALE		4	/* a registered range was unmapped or changed */
#define RNIC_EV_RECLAIM		5	/* give back idle cached registrations */

/**
 * struct rnic_event - the header of every event
 * @type: RNIC_EV_*
 * @len: bytes of the event, this header included; a multiple of 8
 * @seq: per file, from 1, one more for each event: a gap means lost
 *	events (the queue overflowed: re-read the shared page)
 * @time_ns: when it was posted (CLOCK_MONOTONIC)
 */
struct rnic_event {
	__u16 type;
	__u16 len;
	__u32 seq;
	__u64 time_ns;
};

#define RNIC_REVOKE_MAX_VICTIMS	64

/**
 * struct rnic_ev_revoke - RNIC_EV_REVOKE
 * @h: header
 * @entries: entries to give back
 * @deadline_ns: by when (CLOCK_MONOTONIC)
 * @keys: keys to give back
 * @nvictims: suggested registrations (lkeys) that follow, at most
 *	RNIC_REVOKE_MAX_VICTIMS; padded to 8 bytes
 * @victims: the suggestions, least recently used first
 */
struct rnic_ev_revoke {
	struct rnic_event h;
	__u64 entries;
	__u64 deadline_ns;
	__u32 keys;
	__u32 nvictims;
	__u32 victims[];
};

/**
 * struct rnic_ev_grow - RNIC_EV_GROW
 * @h: header
 * @entitlement: entries the consumer may now hold
 * @key_entitlement: keys it may now hold
 * @pad: zero
 */
struct rnic_ev_grow {
	struct rnic_event h;
	__u64 entitlement;
	__u32 key_entitlement;
	__u32 pad;
};

/**
 * struct rnic_ev_reclaim - RNIC_EV_RECLAIM: another tenant's registration
 *	waits for entries while this process keeps registrations cached
 *	and idle. Not a revocation: no deadline, no target, nothing is
 *	enforced and the entitlement stands; deregister idle cached
 *	registrations covering up to @entries, and none in use
 * @h: header
 * @entries: entries wanted
 */
struct rnic_ev_reclaim {
	struct rnic_event h;
	__u64 entries;
};

/**
 * struct rnic_ev_grant - RNIC_EV_GRANT
 * @h: header
 * @ticket: the RNIC_IOC_RESERVE it answers
 * @entries: entries granted: all that were asked, or 0 if refused
 */
struct rnic_ev_grant {
	struct rnic_event h;
	__u64 ticket;
	__u64 entries;
};

/**
 * struct rnic_ev_stale - RNIC_EV_STALE
 * @h: header
 * @addr: start of the range whose mapping changed
 * @len: its bytes
 * @lkey: the registration that covers it
 * @pad: zero
 */
struct rnic_ev_stale {
	struct rnic_event h;
	__u64 addr;
	__u64 len;
	__u32 lkey;
	__u32 pad;
};

#endif /* _UAPI_RDMASTOR_RNIC_USER_H */
