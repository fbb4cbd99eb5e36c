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
#ifndef RNIC_INT_H
#define RNIC_INT_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include "rnic_policy.h"
#include <rdmastor/rnic_mgr.h>

/**
 * struct rnic_dev - what rnic_mgr knows of one RDMA device
 * @rd_kobj: sysfs directory; its release frees this structure. Each
 *	consumer holds a reference, so a removed device's memory lives
 *	until its last consumer unregisters.
 * @rd_node: on rnic_devs
 * @rd_ibdev: the device; valid from ib_client add until remove returns
 * @rd_name: device name when it was added
 * @rd_index: the device's index in ib_core (kulp.c keys its counts by it)
 * @rd_conf_budget: the budgets the administrator set (sysfs, the devices
 *	parameter, the default); the pool's are these less @rd_kulp_charge
 *	(under @rd_cons_mutex)
 * @rd_kulp_charge: entries and keys of other kernel ULPs' MRs, charged
 *	off the budgets when kernel_ulps=2 (kulp.c; under @rd_cons_mutex)
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
 * @rd_user_orig: a copy of the driver's own ops, made when user
 *	registrations were wrapped (user.c); freed when the device goes
 * @rd_user_wrapped: the device's ops point at user.c's wrappers
 * @rd_user_closing: being unwrapped: wrappers charge nothing more
 * @rd_umrs: hash of the user MRs' charges by lkey (user.c, U2), or NULL
 * @rd_umrs_lock: guards @rd_umrs
 * @rd_uprocs: the user consumers (processes) of this device
 * @rd_user_inflight: tasks inside one of this device's wrappers (user.c, U1)
 * @rd_user_draining: an unwrap of this device waits for @rd_user_inflight
 * @rd_tenant_by: how its user consumers are grouped into tenants (enum
 *	rnt_by; tenant.c); changes only while it has no tenant (T3)
 * @rd_user_mode: enum rdr_user: what is done with user registrations
 *	(user.c); written under @rd_user_mode_mutex, read locklessly
 * @rd_user_mode_mutex: serialises mode changes, and the removal's unwrap
 *	against them
 * @rd_user_gone: the device is being removed: no mode change wraps it again
 * @rd_umon: user MRs counted in monitor mode: MR pointer -> entries
 *	(an xarray value); an MR is counted exactly while it is here
 * @rd_umon_mrs: how many
 * @rd_umon_entries: their entries in all
 * @rd_umon_peak: the most @rd_umon_entries has been since counting began
 * @rd_conf_work: applies the devices rules after a rename (client.c)
 */
struct rnic_dev {
	struct kobject rd_kobj;
	struct list_head rd_node;
	struct ib_device *rd_ibdev;
	char rd_name[IB_DEVICE_NAME_MAX];
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

	const struct ib_device_ops *rd_user_orig;
	bool rd_user_wrapped;
	bool rd_user_closing;
	struct hlist_head *rd_umrs;
	spinlock_t rd_umrs_lock;
	struct list_head rd_uprocs;
	atomic_t rd_user_inflight;
	atomic_t rd_user_draining;
	u32 rd_tenant_by;

	u32 rd_user_mode;
	struct mutex rd_user_mode_mutex;	/* mode changes, the removal's unwrap */
	bool rd_user_gone;
	struct xarray rd_umon;
	atomic64_t rd_umon_mrs;
	atomic64_t rd_umon_entries;
	atomic64_t rd_umon_peak;
	struct work_struct rd_conf_work;
	u64 rd_conf_budget[RNP_NR_RES];
	u64 rd_kulp_charge[RNP_NR_RES];
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
 * @rc_tenant: the name of the tenant it belongs to (user.c), or NULL
 * @rc_reclaim: idle entries asked back and not yet delivered (rd_lock);
 *	requests coalesce here, so a burst of waiters sends one RECLAIM
 * @rc_reclaims: idle reclaims asked of it
 * @rc_base_weight: the weight it registered with, which a
 *	consumer_weights rule replaces while one matches it (kernel
 *	consumers; user ones are weighted by tenant)
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
};

/* A user process's consumer (user.c names them user:COMM:TGID). */
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
int rnic_dev_set_budget(struct rnic_dev *rd, enum rnp_res r, u64 budget);
void rnic_dev_kulp_charge(struct rnic_dev *rd, u64 entries, u64 keys);
u64 rnic_dev_newcomer_share(struct rnic_dev *rd, u32 weight);
int rnic_dev_set_policy(struct rnic_dev *rd, u32 policy);
int rnic_set_weight(struct rnic_consumer *c, u32 weight);
int rnic_group_set_weight(struct rnic_dev *rd, struct rnp_group *grp,
			  u32 weight, const char *name);
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
typedef void (*rnic_dev_fn)(struct rnic_dev *rd, void *arg);
void rnic_visit_devs(rnic_dev_fn fn, void *arg);

void rnic_user_init_dev(struct rnic_dev *rd);
int rnic_user_set_mode(struct rnic_dev *rd, u32 mode, const char *why);
void rnic_user_remove_dev(struct rnic_dev *rd);

/* kulp.c: kernel ULPs' MRs, counted (kernel_ulps=1) or charged (2) */
enum { RNIC_KULP_OFF, RNIC_KULP_COUNT, RNIC_KULP_CHARGE };
extern unsigned int rnic_kulp_mode;
extern unsigned int rnic_kulp_wait_ms;
void rnic_kulp_init(void);
void rnic_kulp_exit(void);
void rnic_kulp_add_dev(struct rnic_dev *rd);
void rnic_kulp_remove_dev(struct rnic_dev *rd);
ssize_t rnic_kulp_show(u32 index, char *buf);
/* kulp_cap.c: caps on kernel ULPs' entries (sysfs kernel_ulp_caps) */
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
#else
static inline void rnic_fault_init(void) { }
static inline void rnic_fault_exit(void) { }
static inline bool rnic_fault_consumer_sysfs(void) { return false; }
#endif

#endif /* RNIC_INT_H */
