/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rnic_mgr internals shared between its source files.
 *
 * rnic_mgr is an ib_client: the RDMA core tells it about every device as
 * it comes and goes, and it keeps one struct rnic_dev per device, visible
 * as /sys/kernel/rnic_mgr/devices/<ibdev>/, holding the device's pool
 * (the policy's state, rnic_policy.h) and its consumers.
 *
 * Locks, outermost first:
 *   rd_cons_mutex  consumer list changes, callbacks to consumers, budget
 *                  changes; never taken by acquire or release.
 *   rd_lock        the pool: grants, shares, targets, waiter queues.
 *   rc_lock        one consumer's held and grant: the fast path takes
 *                  only this one.
 */

/*
 * Invariants of the arbiter, each with its assertion:
 *  I1. A consumer's held and grant change only under its rc_lock; the
 *      pool's granted, shares and targets only under rd_lock.
 *      Asserted: lockdep_assert_held(rd_lock) in every helper that
 *      changes the pool (rnic_trim_others, rnic_enforce_all,
 *      rnic_rebalance, rnic_serve_waiters, rnic_leave_pool).
 *  I2. Waiters are queued FIFO per consumer and served only by
 *      rnic_serve_waiters() (or refused by rnic_refuse_over_target(),
 *      I6, or ended by rnic_cancel_waits() when a device's user
 *      registrations are unwrapped) under rd_lock; a waiter's status
 *      leaves RNIC_WAITING exactly once, under rd_lock, in
 *      rnic_waiter_finish().
 *      Asserted: rnic_acquire() re-checks w_status under rd_lock before
 *      it unqueues an interrupted waiter itself.
 *  I3. rd_nr_waiting equals the number of queued waiters on the device.
 *      Asserted: rnic_waiter_dequeued() warns if it would go negative.
 *  I4. A consumer in the pool is in rd_pool.cons; a dead one is not, and
 *      holds nothing.
 *      Asserted: rnic_release() warns on releasing more than is held;
 *      rnic_pool_leave() warns on a consumer that leaves holding any.
 *  I5. A consumer is asked to shrink (rc_shrink_ms set) only while it
 *      has a target, and counted late only if it is still above its
 *      share as it stands when the deadline passes: the target is
 *      re-derived from the current share first, raised if the share
 *      grew, cleared (ending the shrink) once it holds no more than
 *      share + hysteresis (than its share while the pool is over its
 *      budget or short of its reserve).
 *      Enforced: rnic_enforce_one(), which the reaper calls at every
 *      tick for a consumer with a pending shrink, after a rebalance,
 *      before it counts it late; tested by test_policy's "follows
 *      share" and user_tenants' sybil (the target clears once the
 *      sybil is gone).
 *  I6. A waiter that reads shrink requests (RNIC_SHRINK_FIRST: a bound
 *      process's REGISTER-WAIT) never waits on an unread shrink
 *      request: from the delivery of a REVOKE until the process reads
 *      it (rc_shrink_told, cleared by rnic_shrink_read()), a request
 *      that would take the consumer past its target is refused
 *      (-EBUSY), queued or new. Queued before the delivery, it is
 *      refused right after it, so the REVOKE is there to be read when
 *      the registration returns. Once read, the process has done what
 *      it can (its library evicted idle registrations) and may wait for
 *      its I/O in flight to end, as before.
 *      Why: the process is blocked in that registration and cannot
 *      answer the REVOKE; it would hold what others are owed until
 *      user_wait_ms ran out (the isolation bench's greedy tenant, 10 s).
 *      Asserted: rnic_refuse_over_target() warns if it runs before the
 *      delivery; tested by user_mrs ("the newcomer gets 1800 within
 *      T + 1 s").
 *  I7. Relief is announced at once: when a consumer leaves or the
 *      budget grows, standing targets follow the shares up and every
 *      consumer whose share grew beyond hysteresis, or that was asked
 *      to shrink and not told of growth since (rc_cut), is told
 *      (->grow, with what it may now hold, borrowing included), before
 *      rnic_pool_leave() or the budget's store returns. Not processes:
 *      they hear of shares as before (see rnic_relieve()). A consumer
 *      without a target is neither trimmed nor asked to shrink by it.
 *      Why: a consumer that shrank sizes itself from what it was told
 *      (the iSER target's window, a ULP's MRs) and does not
 *      ask for more until told; the reaper re-derives shares only under
 *      contention, and a share follows decayed demand, so it might never
 *      have been told.
 *      Enforced: rnic_relieve(), which only announces and follows
 *      (rnp_announce() never trims); tested by rnic_mgr_arbiter ("a
 *      consumer that shrank grows back when the newcomer leaves") and
 *      test_policy's announce checks.
 *  I8. Remote peers weigh as one: the consumers registered with one
 *      peer_group key on a device share one rnic_peer_group, which
 *      lives while any of them is registered or registering (pg_refs,
 *      under rd_cons_mutex) and is freed only after the last left the
 *      pool. A consumer registered with min_later holds no guaranteed
 *      minimum until rnic_claim_min() gives it one under rd_lock, so
 *      connections that never call cannot fill the minimums.
 *      Asserted: rnic_peer_group_put() warns if the group it frees
 *      still has members.
 *  I9. A device's name is read whole: rd_name changes only in
 *      rnic_add_one(), before the device is published, and in
 *      rnic_rename_one() inside rd_name_lock's write side (with
 *      interrupts off, as trace events read it from any context); every
 *      other reader copies it with rnic_dev_name_copy(), which retries
 *      a copy a rename overlapped. Without it a trace event sized the
 *      old name and copied the new one (review 4, N11).
 *      Enforced: rd_name is read nowhere else (grep rd_name).
 * I10. A budget never promises more than the device can map: each of
 *      rd_conf_budget is at most rnic_dev_limit() (max_mr MRs; max_mr x
 *      max_fast_reg_page_list_len entries). The defaults are capped to
 *      it when a device is added, and a larger budget is refused.
 *      Asserted: rnic_apply_budget() warns on a budget above it.
 */
#ifndef RNIC_INT_H
#define RNIC_INT_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include "rnic_policy.h"
#include <rdmastor/rnic_mgr.h>

struct rnic_user_dev;

/**
 * struct rnic_dev - what rnic_mgr knows of one RDMA device
 * @rd_kobj: sysfs directory; its release frees this structure. Each
 *	consumer holds a reference, so a removed device's memory lives
 *	until its last consumer unregisters.
 * @rd_node: on rnic_devs
 * @rd_ibdev: the device; valid from ib_client add until remove returns
 * @rd_name: the device's name, followed at a rename (client.c);
 *	written under rnic_devs_mutex and @rd_name_lock, read whole with
 *	rnic_dev_name() or rnic_dev_name_copy() (I9)
 * @rd_name_lock: makes a read of @rd_name see one name (I9)
 * @rd_index: the device's index in ib_core (kulp/count.c keys its counts by it)
 * @rd_conf_budget: the budgets the administrator set (sysfs, the devices
 *	parameter, the default); the pool's are these less @rd_kulp_charge
 *	(under @rd_cons_mutex); never above rnic_dev_limit()
 * @rd_budget_src: where each of @rd_conf_budget came from (enum
 *	rnic_budget_src; under @rd_cons_mutex)
 * @rd_kulp_charge: entries and keys of other kernel ULPs' MRs, charged
 *	off the budgets when kernel_ulps=2 (kulp/count.c; under @rd_cons_mutex)
 * @rd_max_mr: MRs the device says it supports
 * @rd_max_frpl: pages one fast-registration MR can map on this device
 * @rd_cons_kset: the consumers/ directory
 * @rd_cons_mutex: see the lock order above
 * @rd_consumers: every registered consumer, dead ones included
 * @rd_cons_cap: capacity of rd_pool.cons and (doubled) rd_pool.scratch
 * @rd_lock: the pool
 * @rd_pool: the policy's state
 * @rd_dead: the device was removed
 * @rd_short: the reserve is short: releases return grant at once
 * @rd_nr_waiting: queued waiters, read locklessly by the release path
 * @rd_wq: waiters sleep here
 * @rd_notify_work: delivers shrink and grow callbacks
 * @rd_reap_work: periodic reaper: reserve, deadlines, waiters
 * @rd_next_id: to name consumers uniquely
 * @rd_rebalances: rebalances done
 * @rd_user: its user-registration state (user/user.h), made and freed
 *	by user/wrap.c with the device
 * @rd_peer_groups: groups of remote peers' consumers (register.c;
 *	rd_cons_mutex)
 * @rd_conf_work: applies the devices rules after a rename (client.c)
 */
struct rnic_dev {
	struct kobject rd_kobj;
	struct list_head rd_node;
	struct ib_device *rd_ibdev;
	char rd_name[IB_DEVICE_NAME_MAX];
	seqlock_t rd_name_lock;
	u32 rd_index;
	u32 rd_max_mr;
	u32 rd_max_frpl;
	struct kset *rd_cons_kset;

	struct mutex rd_cons_mutex;
	struct list_head rd_consumers;
	u32 rd_cons_cap;

	spinlock_t rd_lock;
	struct rnp_pool rd_pool;
	bool rd_dead;
	bool rd_short;
	atomic_t rd_nr_waiting;
	wait_queue_head_t rd_wq;
	struct work_struct rd_notify_work;
	struct delayed_work rd_reap_work;
	u64 rd_next_id;
	u64 rd_rebalances;

	struct rnic_user_dev *rd_user;
	struct list_head rd_peer_groups;

	struct work_struct rd_conf_work;
	u64 rd_conf_budget[RNP_NR_RES];
	u8 rd_budget_src[RNP_NR_RES];
	u64 rd_kulp_charge[RNP_NR_RES];
};

/*
 * Where a device's budget came from: the module parameter
 * (default_entries, default_keys), the device's own limit when that
 * parameter is above it, a rule of the devices parameter, or sysfs.
 */
enum rnic_budget_src {
	RNIC_BUDGET_DEFAULT,
	RNIC_BUDGET_DEVICE,
	RNIC_BUDGET_RULE,
	RNIC_BUDGET_WRITTEN,
};

/**
 * struct rnic_consumer - one registered consumer of one device
 * @rc_kobj: sysfs directory devices/<dev>/consumers/<name>.<id>; its
 *	release frees this structure and drops the device reference
 * @rc_dev: the device
 * @rc_node: on rd_consumers
 * @rc_name: from the descriptor
 * @rc_id: unique within the device
 * @rc_ops: callbacks
 * @rc_priv: for the callbacks
 * @rc_lock: see the lock order above
 * @rc_pol: the policy's state of this consumer
 * @rc_waiters: queued rnic_waiters, FIFO (rd_lock)
 * @rc_notify: RNP_NOTIFY_* flags not yet delivered (rd_lock)
 * @rc_in_pool: counted in the pool (false once the device died)
 * @rc_published: its sysfs directory exists (the add succeeded)
 * @rc_shrink_ms: when the pending shrink was asked, or 0 (rd_lock)
 * @rc_late_counted: the pending shrink was already counted late
 * @rc_shrink_told: its latest shrink request was delivered and its
 *	process has not read it yet (rd_lock): a RNIC_SHRINK_FIRST request
 *	past the target fails meanwhile (I6)
 * @rc_cut: it was asked to shrink and not told of growth since (rd_lock):
 *	the next departure tells it (I7)
 * @rc_waits: acquires that had to wait
 * @rc_eagain: acquires refused with -EAGAIN
 * @rc_wait_ns: total time spent waiting
 * @rc_revocations: shrink requests received
 * @rc_late: shrink requests not met within the deadline
 * @rc_last_reclaim_ms: time the last shrink took
 * @rc_deadline_ms: its revocation deadline, or 0 for revoke_deadline_ms
 *	(user consumers get user_grace_ms, the T of their REVOKE events)
 * @rc_tenant: the name of the tenant it belongs to (user/wrap.c), or NULL
 * @rc_reclaim: idle entries asked back and not yet delivered (rd_lock);
 *	requests coalesce here, so a burst of waiters sends one RECLAIM
 * @rc_reclaims: idle reclaims asked of it
 * @rc_base_weight: the weight it registered with, which a
 *	consumer_weights rule replaces while one matches it (kernel
 *	consumers; user ones are weighted by tenant)
 * @rc_peer_group: the remote peers' group it is in, or NULL
 * @rc_min_later: the minimum it asked for at register, with min_later
 * @rc_min_pending: not yet given @rc_min_later (rd_lock)
 */
struct rnic_consumer {
	struct kobject rc_kobj;
	struct rnic_dev *rc_dev;
	struct list_head rc_node;
	char rc_name[32];
	u64 rc_id;
	const struct rnic_consumer_ops *rc_ops;
	void *rc_priv;

	spinlock_t rc_lock;
	struct rnp_cons rc_pol;
	struct list_head rc_waiters;
	unsigned int rc_notify;
	bool rc_in_pool;
	bool rc_published;
	u64 rc_shrink_ms;
	bool rc_late_counted;
	bool rc_shrink_told;
	bool rc_cut;

	u64 rc_waits;
	u64 rc_eagain;
	u64 rc_wait_ns;
	u64 rc_revocations;
	u64 rc_late;
	u64 rc_last_reclaim_ms;
	u32 rc_deadline_ms;
	const char *rc_tenant;
	u64 rc_reclaim;
	u64 rc_reclaims;
	u32 rc_base_weight;
	struct rnic_peer_group *rc_peer_group;
	u64 rc_min_later[RNP_NR_RES];
	bool rc_min_pending;
};

/**
 * struct rnic_peer_group - the consumers of one listener on one device
 * @pg_node: on rd_peer_groups (rd_cons_mutex)
 * @pg_key: the listener
 * @pg_refs: its consumers, registered or registering (rd_cons_mutex);
 *	it is freed at 0, once none is in the pool (I8)
 * @pg_grp: the policy's group
 * @pg_name: "peers:" and the group's name, in sysfs and weight rules
 */
struct rnic_peer_group {
	struct list_head pg_node;
	const void *pg_key;
	u32 pg_refs;
	struct rnp_group pg_grp;
	char pg_name[40];
};

/* A user process's consumer (user/wrap.c names them user:COMM:TGID). */
static inline bool rnic_consumer_is_user(const struct rnic_consumer *c)
{
	return !strncmp(c->rc_name, "user:", 5);
}

/* rc_notify flags beyond the policy's RNP_NOTIFY_* */
#define RNIC_NOTIFY_LATE	0x100
#define RNIC_NOTIFY_RECLAIM	0x200

extern unsigned int rnic_default_entries;
extern unsigned int rnic_default_keys;
extern unsigned int rnic_revoke_deadline_ms;
extern unsigned int rnic_reap_interval_ms;
extern unsigned int rnic_user_wait_ms;
extern unsigned int rnic_user_weight;
extern unsigned int rnic_tenant_depth;
extern unsigned int rnic_tenants_per_uid;
extern unsigned int rnic_user_grace_ms;
extern unsigned int rnic_user_enforce;
extern unsigned int rnic_user_odp_entries;

u64 rnic_now_ms(void);

int rnic_sysfs_init(void);
void rnic_sysfs_exit(void);
int rnic_sysfs_add_dev(struct rnic_dev *rd);
void rnic_sysfs_del_dev(struct rnic_dev *rd);
int rnic_sysfs_add_consumer(struct rnic_consumer *c);

void rnic_dev_init_pool(struct rnic_dev *rd);
void rnic_dev_start(struct rnic_dev *rd);
void rnic_dev_removed(struct rnic_dev *rd);
u64 rnic_dev_limit(const struct rnic_dev *rd, enum rnp_res r);
int rnic_dev_set_budget(struct rnic_dev *rd, enum rnp_res r, u64 budget,
			enum rnic_budget_src src);
void rnic_dev_kulp_charge(struct rnic_dev *rd, u64 entries, u64 keys);
u64 rnic_dev_newcomer_share(struct rnic_dev *rd, u32 weight);
int rnic_dev_set_policy(struct rnic_dev *rd, u32 policy);
int rnic_set_weight(struct rnic_consumer *c, u32 weight);
int rnic_group_set_weight(struct rnic_dev *rd, struct rnp_group *grp,
			  u32 weight, const char *name);
int rnic_pool_join(struct rnic_consumer *c);
void rnic_pool_leave(struct rnic_consumer *c);
void rnic_cancel_waits(struct rnic_consumer *c, int status);
struct rnic_consumer *rnic_register_in(struct ib_device *ibdev,
				       const struct rnic_consumer_desc *desc,
				       struct rnp_group *grp, const char *tenant);
void rnic_may_hold(struct rnic_consumer *c, u64 *entries, u64 *keys);
/*
 * rnic_acquire_timeout() flag: the caller reads shrink requests (a
 * process bound to /dev/rnic_mgr) and may not wait past its target (I6).
 */
#define RNIC_SHRINK_FIRST	0x100

int rnic_acquire_timeout(struct rnic_consumer *c, u32 entries, u32 keys,
			 unsigned int flags, unsigned int timeout_ms);
void rnic_shrink_read(struct rnic_consumer *c);
void rnic_consumer_release_kobj(struct rnic_consumer *c);

int rnic_client_init(void);
void rnic_client_exit(void);
struct rnic_dev *rnic_dev_get(struct ib_device *ibdev);
struct rnic_dev *rnic_dev_of(struct ib_device *ibdev);
struct rnic_dev *rnic_dev_get_by_name(const char *name);

/**
 * struct rnic_dev_name - a copy of a device's name, taken whole (I9)
 * @s: the name
 */
struct rnic_dev_name {
	char s[IB_DEVICE_NAME_MAX];
};

struct rnic_dev_name rnic_dev_name(const struct rnic_dev *rd);
void rnic_dev_name_copy(const struct rnic_dev *rd, char *buf);
typedef void (*rnic_dev_fn)(struct rnic_dev *rd, void *arg);
void rnic_visit_devs(rnic_dev_fn fn, void *arg);

int rnic_user_init_dev(struct rnic_dev *rd);
void rnic_user_free_dev(struct rnic_dev *rd);
int rnic_user_set_mode(struct rnic_dev *rd, u32 mode, const char *why);
void rnic_user_remove_dev(struct rnic_dev *rd);

/* kulp/count.c: kernel ULPs' MRs, counted (kernel_ulps=1) or charged (2) */
enum { RNIC_KULP_OFF, RNIC_KULP_COUNT, RNIC_KULP_CHARGE };
extern unsigned int rnic_kulp_mode;
extern unsigned int rnic_kulp_wait_ms;
void rnic_kulp_init(void);
void rnic_kulp_exit(void);
void rnic_kulp_add_dev(struct rnic_dev *rd);
void rnic_kulp_remove_dev(struct rnic_dev *rd);
ssize_t rnic_kulp_show(u32 index, char *buf);
/* kulp/cap.c: caps on kernel ULPs' entries (sysfs kernel_ulp_caps) */
int rnic_kulp_cap_store(struct rnic_dev *rd, const char *buf);
ssize_t rnic_kulp_caps_show(struct rnic_dev *rd, char *buf);
ssize_t rnic_tenants_show(struct rnic_dev *rd, char *buf);
ssize_t rnic_tenant_by_show(struct rnic_dev *rd, char *buf);
int rnic_tenant_by_store(struct rnic_dev *rd, const char *buf);

/* dev_conf.c: the "devices" and "consumer_weights" parameters */
void rnic_dev_conf_apply(struct rnic_dev *rd, const char *why);
u32 rnic_conf_weight(const char *name, u32 dflt);
void rnic_dev_conf_exit(void);

/* fault.c: fault switches for tests, in debug builds only (RDMASTOR_DEBUG) */
#ifdef RDMASTOR_DEBUG
void rnic_fault_init(void);
void rnic_fault_exit(void);
bool rnic_fault_consumer_sysfs(void);
void rnic_fault_dev_added(void);
void rnic_fault_name_copy(char *dst, const char *src, size_t len);
#else
static inline void rnic_fault_init(void) { }
static inline void rnic_fault_exit(void) { }
static inline bool rnic_fault_consumer_sysfs(void) { return false; }
static inline void rnic_fault_dev_added(void) { }
static inline void rnic_fault_name_copy(char *dst, const char *src, size_t len)
{
	memcpy(dst, src, len);
}
#endif

#endif /* RNIC_INT_H */
