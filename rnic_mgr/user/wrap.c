// SPDX-License-Identifier: GPL-2.0
/*
 * User-level registrations under the arbiter (Documentation/user-level.rst).
 *
 * A verbs program registers memory through ib_uverbs, which calls the
 * device driver's ops directly: there is no upstream hook. rnic_mgr
 * therefore puts wrappers in a managed device's struct ib_device_ops for
 * the calls that create and destroy user MRs (reg_user_mr,
 * reg_user_mr_dmabuf, rereg_user_mr, dereg_mr) and for dealloc_ucontext.
 * ib_uverbs reads these pointers at every call, so a wrapper sees every
 * user registration made after the device was wrapped, whether or not
 * the program knows about rdmastor. Each one is charged (pages spanned,
 * one key) to a consumer per process and device, named user:COMM:TGID,
 * before the driver sees it; a registration the policy cannot grant
 * waits (REGISTER-WAIT, killable, at most user_wait_ms) and then fails
 * with -ENOMEM, as it would when a NIC's table is full.
 *
 * Kernel MRs pass through untouched: a kernel caller of reg_user_mr has
 * no udata, and dereg_mr finds no record for an MR it did not charge.
 *
 * Invariants U1-U7 and the lock order: user.h.
 */
#include <linux/hash.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdmastor/kcompat.h>

#include "../rnic_int.h"
#include "../trace.h"
#include "user.h"
#include "span.h"
#include "name.h"
#include "../dev_rules.h"

/* What a wrapper charged before calling the driver, if anything. */
struct rnic_ucharge {
	struct rnic_uproc *proc;
	u32 entries;
	u32 mon;		/* monitor mode: entries to count, not charge */
	const void *key;	/* the verbs file of the context (struct rnic_umr) */
};

DEFINE_MUTEX(rnic_user_mutex);
/* verbs context -> the uproc that owns it (written under rnic_user_mutex) */
static DEFINE_XARRAY(rnic_uctx);
static const struct rnic_consumer_ops rnic_uproc_ops;

/*
 * A wrapper runs only while its device is wrapped or within the RCU
 * Tasks grace period of its unwrap, when the client data is still set
 * (U4): the device's rnic_dev is there to count it (U1).
 */
static struct rnic_dev *rnic_user_enter(struct ib_device *ibdev)
{
	struct rnic_dev *rd = rnic_dev_of(ibdev);

	atomic_inc(&rd->rd_user->ud_inflight);	/* before anything that sleeps: U1 */
	return rd;
}

static void rnic_user_exit(struct rnic_dev *rd)
{
	int left = atomic_dec_return(&rd->rd_user->ud_inflight);

	WARN_ON_ONCE(left < 0);
	/*
	 * The decrement is a full barrier, as is the unwrap's between its
	 * increment of ud_draining and its test of the count: one
	 * of the two sees the other's store, so no wakeup is lost. The
	 * unwrap's second grace period keeps rd valid until we are out.
	 */
	if (!left && atomic_read(&rd->rd_user->ud_draining))
		wake_up_var(&rd->rd_user->ud_inflight);
}

/* Entries a registration of [start, start + length) is charged (L4). */
static u64 rnic_span(u64 start, u64 length, int access)
{
	return rnic_user_span(start, length, access & IB_ACCESS_ON_DEMAND,
			      READ_ONCE(rnic_user_odp_entries), PAGE_SHIFT);
}

static struct rnic_uproc *rnic_uproc_create(struct rnic_dev *rd)
{
	struct rnic_consumer_desc desc = {
		.weight = READ_ONCE(rnic_user_weight),
		.ops = &rnic_uproc_ops,
	};
	struct rnic_tenant *t;
	struct rnic_uproc *up;
	char name[32], comm[TASK_COMM_LEN];

	up = kzalloc(sizeof(*up), GFP_KERNEL);
	if (!up)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&up->up_lock);
	INIT_LIST_HEAD(&up->up_files);
	INIT_LIST_HEAD(&up->up_umrs);
	t = rnic_tenant_get(rd);
	if (IS_ERR(t)) {
		kfree(up);
		return ERR_CAST(t);
	}
	/*
	 * The program's name is its user's choice: no '/' (sysfs), no
	 * control character or blank (the administrator's terminal).
	 */
	get_task_comm(comm, current);
	rnic_name_sanitize(comm, false);
	snprintf(name, sizeof(name), "user:%s:%d", comm, current->tgid);
	desc.name = name;
	desc.priv = up;
	up->up_cons = rnic_register_in(rd->rd_ibdev, &desc, t ? &t->t_grp : NULL,
				       t ? t->t_name : NULL);
	if (IS_ERR(up->up_cons)) {
		int err = PTR_ERR(up->up_cons);

		rnic_tenant_put(t);
		kfree(up);
		return ERR_PTR(err);
	}
	up->up_tenant = t;
	/* its REVOKE events give it user_grace_ms: so does the reaper */
	up->up_cons->rc_deadline_ms = READ_ONCE(rnic_user_grace_ms);
	up->up_rd = rd;
	up->up_tgid = current->tgid;
	up->up_pid = get_task_pid(current, PIDTYPE_TGID);
	list_add_tail(&up->up_node, &rd->rd_user->ud_uprocs);
	return up;
}

/**
 * rnic_user_charging - does the device charge user registrations now?
 * @rd: the device
 *
 * While it does, its ib_device is alive: a removal or a mode change
 * closes the device (ud_closing) and then takes rnic_user_mutex before
 * it lets the device go.
 *
 * Return: true if it is wrapped, not closing and in mode on.
 * Context: under rnic_user_mutex.
 */
bool rnic_user_charging(struct rnic_dev *rd)
{
	lockdep_assert_held(&rnic_user_mutex);
	return rd->rd_user->ud_wrapped && !READ_ONCE(rd->rd_user->ud_closing) &&
	       READ_ONCE(rd->rd_user->ud_mode) == RDR_USER_ON;
}

/**
 * rnic_uproc_find_or_create - the calling process's consumer on a device
 * @rd: the device
 *
 * Takes a reference (U3) for the caller, who drops it with
 * rnic_uproc_put().
 *
 * Return: the uproc, or ERR_PTR: -ENODEV (the device is going away or
 * its user registrations are not charged), -ENOMEM.
 * Context: process; rnic_user_mutex held.
 */
struct rnic_uproc *rnic_uproc_find_or_create(struct rnic_dev *rd)
{
	struct rnic_uproc *up;

	if (!rnic_user_charging(rd))
		return ERR_PTR(-ENODEV);
	list_for_each_entry(up, &rd->rd_user->ud_uprocs, up_node) {
		/* by struct pid: a recycled tgid number is another process */
		if (up->up_pid == task_tgid(current)) {
			refcount_inc(&up->up_refs);	/* > 0 under the mutex (U3) */
			return up;
		}
	}
	up = rnic_uproc_create(rd);
	if (!IS_ERR(up))
		refcount_set(&up->up_refs, 1);
	return up;
}

/* rnic_uproc_get()'s first registration through @ctx. */
static struct rnic_uproc *rnic_uproc_get_locked(struct rnic_dev *rd,
						struct ib_ucontext *ctx)
{
	struct rnic_uproc *up;
	int err;

	lockdep_assert_held(&rnic_user_mutex);
	up = xa_load(&rnic_uctx, (unsigned long)ctx);
	if (up) {
		refcount_inc(&up->up_refs);
		return up;
	}
	up = rnic_uproc_find_or_create(rd);
	if (IS_ERR(up))
		return up;
	err = xa_err(xa_store(&rnic_uctx, (unsigned long)ctx, up, GFP_KERNEL));
	if (err) {
		rnic_uproc_put(up);
		return ERR_PTR(err);
	}
	refcount_inc(&up->up_refs);	/* the context's; the caller has its own */
	return up;
}

/*
 * The uproc a registration through @ctx is charged to, with one more
 * reference: the context's owner if it has one (a child that inherited
 * the context registers for its parent's verbs context), else the
 * calling process, which then owns the context.
 */
static struct rnic_uproc *rnic_uproc_get(struct rnic_dev *rd,
					 struct ib_ucontext *ctx)
{
	struct rnic_uproc *up;

	/* every registration after a context's first: no mutex (U3) */
	rcu_read_lock();
	up = xa_load(&rnic_uctx, (unsigned long)ctx);
	if (up && !refcount_inc_not_zero(&up->up_refs))
		up = NULL;
	rcu_read_unlock();
	if (up)
		return up;

	mutex_lock(&rnic_user_mutex);
	up = rnic_uproc_get_locked(rd, ctx);
	mutex_unlock(&rnic_user_mutex);
	return up;
}

/* The last reference went, under rnic_user_mutex (U3). */
static void rnic_uproc_release(struct rnic_uproc *up)
{
	lockdep_assert_held(&rnic_user_mutex);
	list_del(&up->up_node);
	rnic_uproc_unreserve(up);
	rnic_unregister(up->up_cons);
	rnic_tenant_put(up->up_tenant);	/* after the consumer left the pool: U14 */
	put_pid(up->up_pid);
	wake_up_var(&up->up_rd->rd_user->ud_uprocs);	/* an unwrap may wait for the list */
	kfree_rcu(up, up_rcu);
}

/**
 * rnic_uproc_put - drop a reference to a process's consumer (U3)
 * @up: the uproc
 *
 * The last one unregisters the consumer and frees @up.
 * Context: process; rnic_user_mutex held.
 */
void rnic_uproc_put(struct rnic_uproc *up)
{
	lockdep_assert_held(&rnic_user_mutex);
	if (refcount_dec_and_test(&up->up_refs))
		rnic_uproc_release(up);
}

/**
 * rnic_uproc_put_unlocked - rnic_uproc_put() without rnic_user_mutex held
 * @up: the uproc
 *
 * Takes the mutex only for the last reference (U3).
 * Context: process.
 */
void rnic_uproc_put_unlocked(struct rnic_uproc *up)
{
	if (refcount_dec_and_mutex_lock(&up->up_refs, &rnic_user_mutex)) {
		rnic_uproc_release(up);
		mutex_unlock(&rnic_user_mutex);
	}
}

/*
 * Charge a registration of @entries pages through @pd before the driver
 * sees it. Return: 0 with ch->proc set (charged) or NULL (not ours: a
 * kernel caller, or the device is being unwrapped); -ENOMEM when the
 * policy refused or REGISTER-WAIT gave up; -EINTR on a fatal signal.
 */
/* A registration drawn from what the process reserved ahead, if enough. */
static bool rnic_uproc_draw_reserved(struct rnic_uproc *up, u64 entries)
{
	bool drawn = false;

	/* most processes never reserve: no lock for them */
	if (!READ_ONCE(up->up_resv_entries))
		return false;
	spin_lock(&up->up_lock);
	if (up->up_resv_entries >= entries && up->up_resv_keys >= 1) {
		WRITE_ONCE(up->up_resv_entries, up->up_resv_entries - entries);
		up->up_resv_keys--;
		drawn = true;
	}
	spin_unlock(&up->up_lock);
	return drawn;
}

/*
 * A bound process reads REVOKE events: its registrations may not wait
 * for its own shrink (arbiter.c, I6), for it cannot answer while blocked
 * in one. An unbound program never hears of a shrink: it waits as before.
 */
static unsigned int rnic_uproc_shrink_first(const struct rnic_uproc *up)
{
	return READ_ONCE(up->up_nfiles) ? RNIC_SHRINK_FIRST : 0;
}

/**
 * rnic_uproc_reserve - charge entries and keys ahead of registrations
 * @up: the process (a reference held by the caller)
 * @entries: entries its coming registrations will span
 * @keys: keys they will use (one per registration)
 * @nowait: fail with -EAGAIN rather than wait
 *
 * REGISTER-WAIT ahead of time: the wait happens here, and registrations
 * that fit in what was reserved draw from it without waiting. What is
 * not drawn goes back when the process is asked to shrink, when its file
 * closes, and when it leaves.
 *
 * Return: 0; -EAGAIN (@nowait, nothing free); -ENOMEM (user_wait_ms
 * passed, more than the budget, or asked to shrink first and it would
 * take the process past its target); -EINTR; -ENODEV.
 * Context: process, may sleep unless @nowait.
 */
int rnic_uproc_reserve(struct rnic_uproc *up, u64 entries, u32 keys, bool nowait)
{
	int err;

	if (entries > U32_MAX)
		return -ENOMEM;
	if (nowait)
		err = rnic_acquire(up->up_cons, entries, keys, RNIC_NOWAIT);
	else
		err = rnic_acquire_timeout(up->up_cons, entries, keys,
					   rnic_uproc_shrink_first(up),
					   READ_ONCE(rnic_user_wait_ms));
	trace_rnic_user_reg(up->up_cons, entries, err);
	if (err == -ECANCELED)
		return -ENODEV;		/* charging was turned off meanwhile */
	if (err)
		return err == -ETIMEDOUT || err == -EINVAL || err == -EBUSY ? -ENOMEM : err;
	spin_lock(&up->up_lock);
	WRITE_ONCE(up->up_resv_entries, up->up_resv_entries + entries);
	up->up_resv_keys += keys;
	spin_unlock(&up->up_lock);
	rnic_ufile_publish(up);
	return 0;
}

/**
 * rnic_uproc_unreserve - give back what was reserved and not drawn
 * @up: the process
 *
 * Return: the entries given back.
 * Context: any that may take a spinlock.
 */
u64 rnic_uproc_unreserve(struct rnic_uproc *up)
{
	return rnic_uproc_unreserve_some(up, U64_MAX, U64_MAX);
}

/**
 * rnic_uproc_unreserve_some - give back part of what was reserved
 * @up: the process
 * @entries: at most this many entries
 * @keys: at most this many keys
 *
 * Return: the entries given back.
 * Context: any that may take a spinlock.
 */
u64 rnic_uproc_unreserve_some(struct rnic_uproc *up, u64 entries, u64 keys)
{
	u64 e, k, given;

	spin_lock(&up->up_lock);
	e = min(up->up_resv_entries, entries);
	k = min(up->up_resv_keys, keys);
	WRITE_ONCE(up->up_resv_entries, up->up_resv_entries - e);
	up->up_resv_keys -= k;
	spin_unlock(&up->up_lock);
	given = e;
	/* reservations add up past 2^32: release in pieces rnic_release() takes */
	while (e || k) {
		u32 ce = min_t(u64, e, U32_MAX), ck = min_t(u64, k, U32_MAX);

		rnic_release(up->up_cons, ce, ck);
		e -= ce;
		k -= ck;
	}
	return given;
}

/*
 * A registration of an unmodified program was refused: one ratelimited
 * line naming the process (its consumer's name), the device, what it
 * asked, what it holds and the device's budget, so that an
 * administrator sees why a program got ENOMEM (the trace event
 * rnic_user_reg has every one).
 */
static void rnic_user_log_refusal(struct rnic_uproc *up, u64 entries, int err)
{
	struct rnic_consumer *c = up->up_cons;
	struct rnic_dev *rd = c->rc_dev;
	u64 held, budget;

	spin_lock(&rd->rd_lock);
	held = c->rc_pol.r[RNP_ENTRIES].held;
	budget = rd->rd_pool.r[RNP_ENTRIES].budget;
	spin_unlock(&rd->rd_lock);
	pr_warn_ratelimited("%s: %s: a registration of %llu pages refused (%s): it holds %llu, the device's budget is %llu entries\n",
			    rnic_dev_name(rd).s, c->rc_name, entries,
			    err == -ETIMEDOUT ? "no entries within user_wait_ms" :
			    err == -EINVAL ? "more than the budget" :
			    err == -EBUSY ? "asked to shrink first: its REVOKE is unanswered" :
			    "more than the policy grants it now",
			    held, budget);
}

/* A registration that waited this long for entries is logged (delayed). */
#define RNIC_USER_DELAY_LOG_MS	100

/*
 * REGISTER-WAIT under the arbiter. A registration that was served only
 * after waiting RNIC_USER_DELAY_LOG_MS or more logs one ratelimited line,
 * as a refusal does: the program did not fail, but it was slowed.
 */
static int rnic_user_acquire_waiting(struct rnic_uproc *up, u64 entries)
{
	struct rnic_consumer *c = up->up_cons;
	unsigned long t0 = jiffies;
	unsigned int ms;
	int err;

	err = rnic_acquire_timeout(c, entries, 1, rnic_uproc_shrink_first(up),
				   READ_ONCE(rnic_user_wait_ms));
	ms = jiffies_to_msecs(jiffies - t0);
	if (!err && ms >= RNIC_USER_DELAY_LOG_MS)
		pr_info_ratelimited("%s: %s: a registration of %llu pages waited %u ms for entries (REGISTER-WAIT), the device's budget is %llu entries\n",
				    rnic_dev_name(c->rc_dev).s, c->rc_name, entries, ms,
				    READ_ONCE(c->rc_dev->rd_pool.r[RNP_ENTRIES].budget));
	return err;
}

static int rnic_user_charge(struct rnic_dev *rd, struct ib_pd *pd,
			    struct ib_udata *udata, u64 entries,
			    struct rnic_ucharge *ch)
{
	struct rnic_uproc *up;
	int err;

	ch->proc = NULL;
	ch->mon = 0;
	if (!udata || !pd->uobject || READ_ONCE(rd->rd_user->ud_closing))
		return 0;
	/* monitor mode: never refused, never delayed, only counted */
	if (READ_ONCE(rd->rd_user->ud_mode) == RDR_USER_MONITOR) {
		ch->mon = min_t(u64, entries, U32_MAX);
		return 0;
	}
	if (entries > U32_MAX)
		return -ENOMEM;
	up = rnic_uproc_get(rd, pd->uobject->context);
	if (IS_ERR(up))
		return PTR_ERR(up) == -ENODEV ? 0 : PTR_ERR(up);

	/* The comparison policies refuse at once, as a full NIC table does. */
	if (rnic_uproc_draw_reserved(up, entries))
		err = 0;
	else if (READ_ONCE(rd->rd_pool.policy) != RNP_POL_ARBITER)
		err = rnic_acquire(up->up_cons, entries, 1, RNIC_NOWAIT);
	else
		err = rnic_user_acquire_waiting(up, entries);
	trace_rnic_user_reg(up->up_cons, entries, err);
	if (err == -ECANCELED) {
		/*
		 * Charging was turned off while it waited (a removal ends
		 * waits with -ENODEV): as if made after the change.
		 */
		rnic_uproc_put_unlocked(up);
		return 0;
	}
	if (err) {
		if (err != -EINTR && err != -ENODEV)
			rnic_user_log_refusal(up, entries, err);
		rnic_uproc_put_unlocked(up);
		return err == -EINTR ? -EINTR : -ENOMEM;
	}
	ch->proc = up;
	ch->entries = entries;
	ch->key = pd->uobject->context->ufile;
	/* published once recorded: a binding's held counts records (U12) */
	return 0;
}

static void rnic_user_refund(struct rnic_ucharge *ch)
{
	if (!ch->proc)
		return;
	rnic_release(ch->proc->up_cons, ch->entries, 1);
	rnic_ufile_publish(ch->proc);
	rnic_uproc_put_unlocked(ch->proc);
}

/*
 * The registered range's mapping changed. Only an unmap or a cleared
 * mapping makes the registration stale (its pages are no longer what
 * the process sees there); protection changes, as fork's copy-on-write
 * makes, do not.
 */
static bool rnic_umr_invalidate(struct mmu_interval_notifier *mni,
				const struct mmu_notifier_range *range,
				unsigned long cur_seq)
{
	struct rnic_umr *um = container_of(mni, struct rnic_umr, um_notif);

	mmu_interval_set_seq(mni, cur_seq);
	if (range->event != MMU_NOTIFY_UNMAP && range->event != MMU_NOTIFY_CLEAR)
		return true;
	if (!xchg(&um->um_stale, true))
		rnic_ufile_stale(um->um_proc, um);
	return true;
}

static const struct mmu_interval_notifier_ops rnic_umr_mni_ops = {
	.invalidate = rnic_umr_invalidate,
};

/*
 * A bound process (a library that reads STALE events) has its ranges
 * followed; an unbound one is not, so unmodified programs pay nothing.
 */
static void rnic_umr_watch(struct rnic_umr *um)
{
	struct rnic_uproc *up = um->um_proc;

	if (!READ_ONCE(up->up_nfiles))	/* unbound, the common case */
		return;
	if (!um->um_len || !current->mm ||
	    up->up_pid != task_tgid(current))
		return;
	um->um_watched = !mmu_interval_notifier_insert(&um->um_notif, current->mm,
							um->um_addr, um->um_len,
							&rnic_umr_mni_ops);
}

/*
 * ud_umrs is a fixed hash of RNIC_UMR_BUCKETS lists under ud_umrs_lock,
 * allocated when the device is wrapped: recording and forgetting a
 * charge allocate nothing. (An xarray keyed by lkey allocated a path of
 * nodes for almost every registration and freed it through RCU at
 * deregistration, a third of the cost this file added to registering
 * one page.) Chains average live MRs / 4096.
 */
#define RNIC_UMR_HASH_BITS	12
#define RNIC_UMR_BUCKETS	(1U << RNIC_UMR_HASH_BITS)

static struct hlist_head *rnic_umr_bucket(struct rnic_dev *rd, u32 lkey)
{
	return &rd->rd_user->ud_umrs[hash_32(lkey, RNIC_UMR_HASH_BITS)];
}

/* The record of @lkey, or NULL. Under ud_umrs_lock. */
static struct rnic_umr *rnic_umr_find(struct rnic_dev *rd, u32 lkey)
{
	struct rnic_umr *um;

	lockdep_assert_held(&rd->rd_user->ud_umrs_lock);
	hlist_for_each_entry(um, rnic_umr_bucket(rd, lkey), um_hnode)
		if (um->um_lkey == lkey)
			return um;
	return NULL;
}

/*
 * The process's list of records and its bindings' counts follow the
 * table (U6): @um joins them when it enters ud_umrs and leaves them when
 * it leaves, so a rereg's change of entries while it is out is counted.
 */
static void rnic_umr_link(struct rnic_umr *um, bool add)
{
	struct rnic_uproc *up = um->um_proc;

	spin_lock(&up->up_lock);
	if (add == list_empty(&um->um_pnode)) {
		if (add)
			list_add_tail(&um->um_pnode, &up->up_umrs);
		else
			list_del_init(&um->um_pnode);
		rnic_ufile_count(up, um, add);
	}
	spin_unlock(&up->up_lock);
}

/* Record @um under @lkey (U2). Return: 0, or -EEXIST. */
static int rnic_umr_add(struct rnic_dev *rd, struct rnic_umr *um, u32 lkey)
{
	int err = 0;

	spin_lock(&rd->rd_user->ud_umrs_lock);
	if (rnic_umr_find(rd, lkey)) {
		err = -EEXIST;
	} else {
		um->um_lkey = lkey;
		hlist_add_head(&um->um_hnode, rnic_umr_bucket(rd, lkey));
	}
	spin_unlock(&rd->rd_user->ud_umrs_lock);
	if (!err)
		rnic_umr_link(um, true);
	return err;
}

/*
 * Monitor mode (U7): count @mr's @entries. An MR that cannot be
 * recorded is simply not counted: monitoring never refuses.
 */
static void rnic_umon_count(struct rnic_dev *rd, struct ib_mr *mr, u32 entries)
{
	s64 now, peak;

	if (xa_err(xa_store(&rd->rd_user->ud_umon, (unsigned long)mr,
			    xa_mk_value(entries), GFP_KERNEL)))
		return;
	atomic64_inc(&rd->rd_user->ud_umon_mrs);
	now = atomic64_add_return(entries, &rd->rd_user->ud_umon_entries);
	peak = atomic64_read(&rd->rd_user->ud_umon_peak);
	while (now > peak && !atomic64_try_cmpxchg(&rd->rd_user->ud_umon_peak, &peak, now))
		;
}

static void rnic_umon_uncount(struct rnic_dev *rd, u32 entries)
{
	atomic64_dec(&rd->rd_user->ud_umon_mrs);
	atomic64_sub(entries, &rd->rd_user->ud_umon_entries);
}

/*
 * The driver made @mr: record the charge under its lkey (U2). If the
 * record cannot be kept, the MR is destroyed again rather than left
 * uncharged.
 */
static struct ib_mr *rnic_user_commit(struct rnic_dev *rd, struct rnic_ucharge *ch,
				      struct ib_mr *mr, u64 addr, u64 len,
				      struct ib_udata *udata)
{
	struct rnic_umr *um;
	int err;

	if (ch->mon) {
		if (!IS_ERR_OR_NULL(mr))
			rnic_umon_count(rd, mr, ch->mon);
		return mr;
	}
	if (!ch->proc || IS_ERR_OR_NULL(mr)) {
		rnic_user_refund(ch);
		return mr;
	}
	um = kzalloc(sizeof(*um), GFP_KERNEL);
	err = um ? 0 : -ENOMEM;
	if (um) {
		um->um_mr = mr;
		um->um_proc = ch->proc;
		um->um_key = ch->key;
		INIT_LIST_HEAD(&um->um_pnode);
		um->um_entries = ch->entries;
		um->um_addr = addr;
		um->um_len = len;
		rnic_umr_watch(um);
		err = rnic_umr_add(rd, um, mr->lkey);
	}
	if (!err) {
		rnic_ufile_publish(ch->proc);
		return mr;
	}
	if (um && um->um_watched)
		mmu_interval_notifier_remove(&um->um_notif);
	kfree(um);
	rd->rd_user->ud_orig->dereg_mr(mr, udata);
	rnic_user_refund(ch);
	return ERR_PTR(-ENOMEM);
}

static struct ib_mr *rnic_user_reg_mr(struct ib_pd *pd, u64 start, u64 length,
				      u64 virt_addr, int access,
				      struct ib_udata *udata)
{
	struct rnic_dev *rd = rnic_user_enter(pd->device);
	struct rnic_ucharge ch;
	struct ib_mr *mr;
	int err;

	err = rnic_user_charge(rd, pd, udata, rnic_span(start, length, access), &ch);
	if (err) {
		mr = ERR_PTR(err);
	} else {
		mr = rd->rd_user->ud_orig->reg_user_mr(pd, start, length, virt_addr,
						  access, udata);
		mr = rnic_user_commit(rd, &ch, mr, start, length, udata);
	}
	rnic_user_exit(rd);
	return mr;
}

static struct ib_mr *rnic_user_reg_mr_dmabuf(struct ib_pd *pd, u64 offset,
					     u64 length, u64 virt_addr, int fd,
					     int access, KC_DMABUF_ARG *arg)
{
	struct rnic_dev *rd = rnic_user_enter(pd->device);
	struct ib_udata *udata = kc_dmabuf_udata(arg);
	struct rnic_ucharge ch;
	struct ib_mr *mr;
	int err;

	err = rnic_user_charge(rd, pd, udata, rnic_span(offset, length, access), &ch);
	if (err) {
		mr = ERR_PTR(err);
	} else {
		mr = rd->rd_user->ud_orig->reg_user_mr_dmabuf(pd, offset, length,
							 virt_addr, fd, access,
							 arg);
		/* a dma-buf is not the process's memory: nothing to watch */
		mr = rnic_user_commit(rd, &ch, mr, 0, 0, udata);
	}
	rnic_user_exit(rd);
	return mr;
}

/**
 * rnic_uproc_plan_entries - entries a release plan covers
 * @up: the process
 * @lkeys: the registrations it says it will deregister
 * @n: how many
 *
 * Return: the entries charged to @up under those lkeys; lkeys that are
 * not its own registrations count nothing.
 */
u64 rnic_uproc_plan_entries(struct rnic_uproc *up, const u32 *lkeys, u32 n)
{
	struct rnic_dev *rd = up->up_rd;
	u64 covered = 0;
	u32 i;

	spin_lock(&rd->rd_user->ud_umrs_lock);
	for (i = 0; i < n; i++) {
		struct rnic_umr *um = rnic_umr_find(rd, lkeys[i]);

		if (um && um->um_proc == up)
			covered += um->um_entries;
	}
	spin_unlock(&rd->rd_user->ud_umrs_lock);
	return covered;
}

/* Take @mr's record out (U2); NULL if it was not charged. */
static struct rnic_umr *rnic_umr_take(struct rnic_dev *rd, struct ib_mr *mr)
{
	struct rnic_umr *um;

	spin_lock(&rd->rd_user->ud_umrs_lock);
	um = rnic_umr_find(rd, mr->lkey);
	if (um && WARN_ON_ONCE(um->um_mr != mr))
		um = NULL;
	if (um)
		hlist_del_init(&um->um_hnode);
	spin_unlock(&rd->rd_user->ud_umrs_lock);
	if (um)
		rnic_umr_link(um, false);
	return um;
}

static void rnic_umr_free(struct rnic_umr *um)
{
	struct rnic_uproc *up = um->um_proc;

	rnic_umr_link(um, false);	/* the unwrap empties the table at once */
	/* waits for a running invalidate: none can touch um after this */
	if (um->um_watched)
		mmu_interval_notifier_remove(&um->um_notif);
	rnic_release(up->up_cons, um->um_entries, 1);
	rnic_ufile_publish(up);
	trace_rnic_user_dereg(up->up_cons, um->um_entries, 0);
	rnic_uproc_put_unlocked(up);
	kfree(um);
}

/*
 * A rereg may change the translation in place or make a new MR (then
 * ib_uverbs destroys the old one through dereg_mr, which refunds it).
 * The new span is charged up front; what turns out unused is refunded.
 */
static struct ib_mr *rnic_user_rereg_mr(struct ib_mr *mr, int flags, u64 start,
					u64 length, u64 virt_addr, int access,
					struct ib_pd *pd, struct ib_udata *udata)
{
	struct rnic_dev *rd = rnic_user_enter(mr->device);
	struct rnic_ucharge ch = {};
	struct rnic_umr *um;
	struct ib_mr *new_mr;
	u64 entries;
	int err = 0;

	spin_lock(&rd->rd_user->ud_umrs_lock);
	um = rnic_umr_find(rd, mr->lkey);
	spin_unlock(&rd->rd_user->ud_umrs_lock);
	if (um && um->um_mr == mr) {
		entries = flags & IB_MR_REREG_TRANS ? rnic_span(start, length, access) :
			  um->um_entries;
		err = rnic_user_charge(rd, mr->pd, udata, entries, &ch);
	}
	if (err) {
		new_mr = ERR_PTR(err);
		goto out;
	}
	um = ch.proc ? rnic_umr_take(rd, mr) : NULL;
	new_mr = rd->rd_user->ud_orig->rereg_user_mr(mr, flags, start, length,
						virt_addr, access, pd, udata);
	if (!um) {
		rnic_user_refund(&ch);
		goto out;
	}
	if (IS_ERR(new_mr)) {
		/* the old MR is unchanged: its record goes back */
		WARN_ON_ONCE(rnic_umr_add(rd, um, mr->lkey));
		rnic_user_refund(&ch);
	} else if (new_mr) {
		/* the old MR stays until ib_uverbs destroys it */
		WARN_ON_ONCE(rnic_umr_add(rd, um, mr->lkey));
		new_mr = rnic_user_commit(rd, &ch, new_mr, start, length, udata);
	} else {
		/* in place, possibly under a new lkey: the new charge replaces the old */
		swap(um->um_entries, ch.entries);
		rnic_user_refund(&ch);
		if (rnic_umr_add(rd, um, mr->lkey))
			rnic_umr_free(um);
	}
out:
	rnic_user_exit(rd);
	return new_mr;
}

static int rnic_user_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	struct rnic_dev *rd = rnic_user_enter(mr->device);
	struct rnic_umr *um = rnic_umr_take(rd, mr);
	void *mon = um ? NULL : xa_erase(&rd->rd_user->ud_umon, (unsigned long)mr);
	int err;

	err = rd->rd_user->ud_orig->dereg_mr(mr, udata);
	if (um && err) {
		if (rnic_umr_add(rd, um, mr->lkey))
			rnic_umr_free(um);
	} else if (um) {
		rnic_umr_free(um);
	} else if (mon && !err) {
		rnic_umon_uncount(rd, xa_to_value(mon));
	} else if (mon && xa_err(xa_store(&rd->rd_user->ud_umon, (unsigned long)mr, mon,
					  GFP_KERNEL))) {
		/* still registered, but no longer counted */
		rnic_umon_uncount(rd, xa_to_value(mon));
	}
	rnic_user_exit(rd);
	return err;
}

static void rnic_user_dealloc_ucontext(struct ib_ucontext *ctx)
{
	struct rnic_dev *rd = rnic_user_enter(ctx->device);
	struct rnic_uproc *up;

	rd->rd_user->ud_orig->dealloc_ucontext(ctx);
	mutex_lock(&rnic_user_mutex);
	/* its file is freed next: a binding naming it must not match another */
	rnic_ufile_forget_key(rd, ctx->ufile);
	up = xa_erase(&rnic_uctx, (unsigned long)ctx);
	if (up)
		rnic_uproc_put(up);
	mutex_unlock(&rnic_user_mutex);
	rnic_user_exit(rd);
}

/* The arbiter asks the process to come down: a REVOKE, if it listens. */
static void rnic_uproc_shrink(struct rnic_consumer *c, u64 entries, u64 keys,
			      void *priv)
{
	/* reserved and not yet registered: nobody's data, give it back first */
	rnic_uproc_unreserve(priv);
	rnic_ufile_revoke(priv, entries, keys);
}

static void rnic_uproc_grow(struct rnic_consumer *c, u64 entries, u64 keys,
			    void *priv)
{
	rnic_ufile_grow(priv, entries, keys);
}

/*
 * Another consumer waits while this process may keep registrations
 * cached and idle: a bound process's library gives back idle ones (a
 * RECLAIM event). A process that is not bound keeps no cache we know
 * of: nothing to ask.
 */
static void rnic_uproc_reclaim(struct rnic_consumer *c, u64 entries, void *priv)
{
	rnic_ufile_reclaim(priv, entries);
}

/*
 * Past T and still above its (current) share: it is counted
 * (late_revocations) and traced, and its new registrations wait while
 * it is above target. With user_enforce=1 a process that is bound to
 * /dev/rnic_mgr and was sent the REVOKE (rnic_ufile_revoke()) ends as
 * the OOM killer would end it: closing its verbs context frees its
 * registrations. A process that never bound was never told: it is never
 * killed (U5).
 */
static void rnic_uproc_late(struct rnic_consumer *c, void *priv)
{
	struct rnic_uproc *up = priv;
	bool told = rnic_ufile_told(up);

	if (!READ_ONCE(rnic_user_enforce)) {
		trace_rnic_user_late(c, "counted");
		return;
	}
	if (!told) {
		trace_rnic_user_late(c, "counted, never told");
		return;
	}
	trace_rnic_user_late(c, "killed");
	pr_warn("%s: killing process %d (%s): still above its share %u ms after a revocation it was sent\n",
		rnic_dev_name(c->rc_dev).s, up->up_tgid, c->rc_name, c->rc_deadline_ms);
	kill_pid(up->up_pid, SIGKILL, 1);
}

static const struct rnic_consumer_ops rnic_uproc_ops = {
	.shrink = rnic_uproc_shrink,
	.grow = rnic_uproc_grow,
	.late = rnic_uproc_late,
	.reclaim = rnic_uproc_reclaim,
};

/**
 * rnic_user_init_dev - a new device's user-registration state, all off
 * @rd: the device, not yet visible to anyone
 *
 * Return: 0 or -ENOMEM.
 */
int rnic_user_init_dev(struct rnic_dev *rd)
{
	struct rnic_user_dev *ud = kzalloc(sizeof(*ud), GFP_KERNEL);

	if (!ud)
		return -ENOMEM;
	spin_lock_init(&ud->ud_umrs_lock);
	INIT_LIST_HEAD(&ud->ud_uprocs);
	mutex_init(&ud->ud_mode_mutex);
	xa_init(&ud->ud_umon);
	ud->ud_mode = RDR_USER_OFF;
	rd->rd_user = ud;
	return 0;
}

/**
 * rnic_user_free_dev - free a device's user-registration state
 * @rd: the device, being freed: its last reference is gone, so no
 *	process, tenant or wrapper refers to it (U1, U3)
 */
void rnic_user_free_dev(struct rnic_dev *rd)
{
	kfree(rd->rd_user);
}

/*
 * Put the device's user registrations under the wrappers. Module unload
 * removes every device first, and the removal unwraps
 * (rnic_user_unwrap()), so no pointer into the module outlives it.
 * Called under ud_mode_mutex, the device's client data set (U4).
 */
static int rnic_user_wrap(struct rnic_dev *rd)
{
	struct ib_device *ibdev = rd->rd_ibdev;

	lockdep_assert_held(&rd->rd_user->ud_mode_mutex);
	if (WARN_ON_ONCE(rnic_dev_of(ibdev) != rd))	/* U4 */
		return -ENODEV;
	if (!ibdev->ops.reg_user_mr)
		return -EOPNOTSUPP;
	rd->rd_user->ud_umrs = kvcalloc(RNIC_UMR_BUCKETS, sizeof(*rd->rd_user->ud_umrs), GFP_KERNEL);
	rd->rd_user->ud_orig = kmemdup(&ibdev->ops, sizeof(ibdev->ops), GFP_KERNEL);
	if (!rd->rd_user->ud_orig || !rd->rd_user->ud_umrs) {
		kfree(rd->rd_user->ud_orig);
		rd->rd_user->ud_orig = NULL;
		kvfree(rd->rd_user->ud_umrs);
		rd->rd_user->ud_umrs = NULL;
		return -ENOMEM;
	}
	WRITE_ONCE(rd->rd_user->ud_closing, false);
	WRITE_ONCE(ibdev->ops.dereg_mr, rnic_user_dereg_mr);
	WRITE_ONCE(ibdev->ops.dealloc_ucontext, rnic_user_dealloc_ucontext);
	if (ibdev->ops.rereg_user_mr)
		WRITE_ONCE(ibdev->ops.rereg_user_mr, rnic_user_rereg_mr);
	if (ibdev->ops.reg_user_mr_dmabuf)
		WRITE_ONCE(ibdev->ops.reg_user_mr_dmabuf, rnic_user_reg_mr_dmabuf);
	/* last: the others must be in place before anything is charged */
	WRITE_ONCE(ibdev->ops.reg_user_mr, rnic_user_reg_mr);
	rd->rd_user->ud_wrapped = true;
	return 0;
}

/*
 * Give a device its own ops back and forget its charges and counts:
 * restores the driver's ops, waits (U1) until no task can be in a
 * wrapper (a registration in REGISTER-WAIT ends first, within
 * user_wait_ms), and then forgets every user MR record, monitored MR
 * and user consumer of the device: MRs registered before return are
 * destroyed later by ib_uverbs straight through the driver.
 * Context: process, may sleep (RCU Tasks grace period);
 * ud_mode_mutex held.
 */
/* End the queued acquires of the device's processes (unwrap only). */
static void rnic_user_cancel_waits(struct rnic_dev *rd)
{
	struct rnic_uproc *up;

	mutex_lock(&rnic_user_mutex);
	list_for_each_entry(up, &rd->rd_user->ud_uprocs, up_node)
		rnic_cancel_waits(up->up_cons, -ECANCELED);
	mutex_unlock(&rnic_user_mutex);
}

static void rnic_user_unwrap(struct rnic_dev *rd)
{
	const struct ib_device_ops *orig = rd->rd_user->ud_orig;
	struct ib_device *ibdev = rd->rd_ibdev;
	struct rnic_uproc *up, *tmp;
	struct hlist_node *ntmp;
	HLIST_HEAD(gone);
	struct rnic_umr *um;
	unsigned long idx;
	u32 b, tries;

	if (!rd->rd_user->ud_wrapped)
		return;
	WRITE_ONCE(rd->rd_user->ud_closing, true);
	WRITE_ONCE(ibdev->ops.reg_user_mr, orig->reg_user_mr);
	WRITE_ONCE(ibdev->ops.reg_user_mr_dmabuf, orig->reg_user_mr_dmabuf);
	WRITE_ONCE(ibdev->ops.rereg_user_mr, orig->rereg_user_mr);
	WRITE_ONCE(ibdev->ops.dealloc_ucontext, orig->dealloc_ucontext);
	WRITE_ONCE(ibdev->ops.dereg_mr, orig->dereg_mr);
	atomic_inc(&rd->rd_user->ud_draining);
	smp_mb__after_atomic();	/* pairs with rnic_user_exit()'s decrement */
	synchronize_rcu_tasks();
	/*
	 * Registrations in REGISTER-WAIT, and RESERVEs, end now (a removal
	 * ended them already): whatever user_wait_ms says, a mode change
	 * does not wait for them. Again until none is left: one that found
	 * the device not yet closing may queue after a round.
	 */
	do {
		rnic_user_cancel_waits(rd);
	} while (!wait_var_event_timeout(&rd->rd_user->ud_inflight,
					 !atomic_read(&rd->rd_user->ud_inflight), HZ / 10));
	/* a task that just decremented is still in a wrapper's last lines */
	synchronize_rcu_tasks();
	atomic_dec(&rd->rd_user->ud_draining);
	rd->rd_user->ud_wrapped = false;

	/*
	 * No wrapper runs any more, but a bound file's RELEASE_PLAN and a
	 * REVOKE's choice of victims still walk the table under
	 * ud_umrs_lock until the files are detached below: take each
	 * record out under the lock, then free it outside (U2).
	 */
	for (b = 0; b < RNIC_UMR_BUCKETS; b++) {
		spin_lock(&rd->rd_user->ud_umrs_lock);
		hlist_move_list(&rd->rd_user->ud_umrs[b], &gone);
		spin_unlock(&rd->rd_user->ud_umrs_lock);
		hlist_for_each_entry_safe(um, ntmp, &gone, um_hnode) {
			hlist_del_init(&um->um_hnode);
			rnic_umr_free(um);
		}
	}
	mutex_lock(&rnic_user_mutex);
	list_for_each_entry_safe(up, tmp, &rd->rd_user->ud_uprocs, up_node) {
		struct rnic_uproc *u;

		xa_for_each(&rnic_uctx, idx, u) {
			if (u == up) {
				xa_erase(&rnic_uctx, idx);
				rnic_uproc_put(up);
			}
		}
	}
	/* a bound file stays open, unbound: it reads end of file */
	list_for_each_entry_safe(up, tmp, &rd->rd_user->ud_uprocs, up_node)
		rnic_ufile_detach(up);
	mutex_unlock(&rnic_user_mutex);
	/*
	 * What is left is held only for a moment: a RESERVE (waiting or
	 * asynchronous) whose wait ended with -ENODEV when the consumers
	 * were told of the removal, and is about to put its reference.
	 */
	for (tries = 0; tries < 300; tries++) {
		rnic_user_cancel_waits(rd);
		if (wait_var_event_timeout(&rd->rd_user->ud_uprocs,
					   list_empty_careful(&rd->rd_user->ud_uprocs),
					   HZ / 10))
			break;
	}
	WARN_ON_ONCE(tries == 300);
	kvfree(rd->rd_user->ud_umrs);
	rd->rd_user->ud_umrs = NULL;
	kfree(orig);
	rd->rd_user->ud_orig = NULL;
	xa_destroy(&rd->rd_user->ud_umon);
	atomic64_set(&rd->rd_user->ud_umon_mrs, 0);
	atomic64_set(&rd->rd_user->ud_umon_entries, 0);
}

/**
 * rnic_user_set_mode - what a device does with user registrations (U7)
 * @rd: the device
 * @mode: enum rdr_user
 * @why: who asked, for the trace ("boot", "sysfs", "rename")
 *
 * Off wraps nothing; monitor and on wrap the device's ops, monitor only
 * counting. Turning a device off waits for registrations in
 * REGISTER-WAIT (at most user_wait_ms), detaches bound /dev/rnic_mgr
 * files (they read end of file) and forgets what was charged: MRs
 * registered until then stay registered, uncharged.
 *
 * Return: 0, -EINVAL for an unknown mode, -ENODEV once the device is
 * being removed, -EOPNOTSUPP for a device with no user MRs, -ENOMEM.
 * Context: process, may sleep.
 */
int rnic_user_set_mode(struct rnic_dev *rd, u32 mode, const char *why)
{
	u32 old;
	int err = 0;

	if (mode >= RDR_NR_USER)
		return -EINVAL;
	mutex_lock(&rd->rd_user->ud_mode_mutex);
	if (rd->rd_user->ud_gone) {
		err = -ENODEV;
		goto out;
	}
	old = rd->rd_user->ud_mode;
	if (old == mode)
		goto out;
	if (mode == RDR_USER_OFF) {
		rnic_user_unwrap(rd);
	} else if (old == RDR_USER_OFF) {
		/* the first wrapped call already sees the new mode */
		WRITE_ONCE(rd->rd_user->ud_mode, mode);
		err = rnic_user_wrap(rd);
		if (err) {
			WRITE_ONCE(rd->rd_user->ud_mode, old);
			pr_warn("%s: user memory registrations stay %s: error %d\n",
				rnic_dev_name(rd).s, rdr_user_name(old), err);
			goto out;
		}
	}
	WRITE_ONCE(rd->rd_user->ud_mode, mode);
	WARN_ON_ONCE(rd->rd_user->ud_wrapped != (mode != RDR_USER_OFF));
	trace_rnic_user_mode(rd, old, mode, why);
	pr_info("%s: user memory registrations %s (%s)\n", rnic_dev_name(rd).s,
		mode == RDR_USER_ON ? "charged" :
		mode == RDR_USER_MONITOR ? "counted, never refused" :
		"not seen", why);
out:
	mutex_unlock(&rd->rd_user->ud_mode_mutex);
	return err;
}

/**
 * rnic_user_remove_dev - a device is going: unwrap it for good
 * @rd: the device; its consumers were told of the removal
 *
 * No mode change can wrap it again afterwards.
 * Context: process, may sleep.
 */
void rnic_user_remove_dev(struct rnic_dev *rd)
{
	mutex_lock(&rd->rd_user->ud_mode_mutex);
	rd->rd_user->ud_gone = true;
	rnic_user_unwrap(rd);
	WRITE_ONCE(rd->rd_user->ud_mode, RDR_USER_OFF);
	mutex_unlock(&rd->rd_user->ud_mode_mutex);
}
