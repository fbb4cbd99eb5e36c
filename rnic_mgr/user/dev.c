// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/rnic_mgr: the collaborative half of user-level registration
 * (include/uapi/rdmastor/rnic_user.h, Documentation/user-level.rst).
 *
 * A process binds a file to its consumer on one device (RNIC_IOC_BIND)
 * and then reads events (REVOKE, GROW, STALE) and maps a page with what
 * it may hold and holds. Binding changes nothing about what is charged:
 * wrap.c charges every registration of every process; a bound process
 * only learns of revocations in time to choose its own victims.
 *
 * A process may bind several files to one device, so that each library
 * in it (an MPI's transport, the shim, another cache) hears about its
 * own registrations: a context binding serves the registrations made
 * through one verbs context, the whole-process binding all the others.
 * A registration's context is its ib_ucontext's verbs file, compared as
 * a pointer with the one the binding named and never dereferenced.
 *
 * Invariants U8-U12: user.h.
 */
#include <linux/fs.h>
#include <linux/kfifo.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <rdmastor/kcompat.h>
#include <rdmastor/rnic_user_event.h>

#include "bind_split.h"
#include "../rnic_int.h"
#include "../trace.h"
#include "user.h"

/* Events waiting to be read, per file: 16 KiB is 40 full REVOKEs. */
#define RNIC_UFILE_QUEUE	16384

/* Names each binding to the grant of an asynchronous reservation. */
static atomic64_t rnic_ufile_ids = ATOMIC64_INIT(0);

/**
 * struct rnic_ufile - one open /dev/rnic_mgr
 * @lock: the queue, @seq, @shared and @up for posters
 * @wq: readers and pollers
 * @up: the uproc bound (U8), or NULL
 * @node: on @up's up_files (up_lock)
 * @context: bound with RNIC_BIND_CONTEXT
 * @key: a context binding's verbs file; NULL once that context is gone
 *	(it then matches nothing)
 * @id: names it to an asynchronous reservation's grant
 * @told: a REVOKE was queued to it since it bound (up_lock; U5)
 * @held: entries of a context binding's registrations (U12, up_lock)
 * @keys_held: how many registrations those are
 * @detached: the device went away after the bind: reads end, until a new
 *	BIND
 * @seq: the last event's seq
 * @queue: encoded events (U9); allocated at the first BIND (U11)
 * @shared: the mapped page (U10); allocated at the first BIND (U11), then
 *	kept until the file is released
 */
struct rnic_ufile {
	spinlock_t lock;
	wait_queue_head_t wq;
	struct rnic_uproc *up;
	struct list_head node;
	bool context;
	const void *key;
	u64 id;
	bool told;
	u64 held;
	u64 keys_held;
	bool detached;
	u32 seq;
	struct kfifo queue;
	struct rnic_shared *shared;
};

static u64 rnic_mono_ns(void)
{
	return ktime_get_ns();
}

/* @key's context binding of @up, or NULL. Under up_lock. */
static struct rnic_ufile *rnic_ufile_of_key(struct rnic_uproc *up, const void *key)
{
	struct rnic_ufile *f;

	lockdep_assert_held(&up->up_lock);
	list_for_each_entry(f, &up->up_files, node)
		if (f->context && f->key && f->key == key)
			return f;
	return NULL;
}

/* The binding a registration through @key routes to (U12), or NULL. */
static struct rnic_ufile *rnic_ufile_route(struct rnic_uproc *up, const void *key)
{
	struct rnic_ufile *f = rnic_ufile_of_key(up, key);

	if (f)
		return f;
	list_for_each_entry(f, &up->up_files, node)
		if (!f->context)
			return f;
	return NULL;
}

/**
 * rnic_ufile_count - count a registration in its binding's held (U12)
 * @up: the process; its up_lock held
 * @um: the registration
 * @add: it joins (true) or leaves the process's records
 */
void rnic_ufile_count(struct rnic_uproc *up, struct rnic_umr *um, bool add)
{
	struct rnic_ufile *f;

	lockdep_assert_held(&up->up_lock);
	if (!up->up_nfiles)
		return;
	f = rnic_ufile_of_key(up, um->um_key);
	if (!f)
		return;		/* the whole-process binding's held is derived */
	if (add) {
		f->held += um->um_entries;
		f->keys_held++;
	} else if (!WARN_ON_ONCE(f->held < um->um_entries || !f->keys_held)) {
		f->held -= um->um_entries;
		f->keys_held--;
	}
}

/*
 * What @f's registrations hold (U12): a context binding's are counted; the
 * whole-process binding has the rest of the consumer's charge, which
 * includes what is reserved. Under up_lock.
 */
static void rnic_ufile_held(struct rnic_ufile *f, struct rnic_uproc *up,
			    u64 *entries, u64 *keys)
{
	struct rnic_consumer *c = up->up_cons;
	u64 e = 0, k = 0, ce, ck;
	struct rnic_ufile *g;

	lockdep_assert_held(&up->up_lock);
	if (f->context) {
		*entries = f->held;
		*keys = f->keys_held;
		return;
	}
	list_for_each_entry(g, &up->up_files, node) {
		e += g->held;
		k += g->keys_held;
	}
	ce = READ_ONCE(c->rc_pol.r[RNP_ENTRIES].held);
	ck = READ_ONCE(c->rc_pol.r[RNP_KEYS].held);
	*entries = ce > e ? ce - e : 0;
	*keys = ck > k ? ck - k : 0;
}

/* Write the page under up_lock and the file's lock (U10). */
static void rnic_ufile_write_shared(struct rnic_ufile *f, struct rnic_uproc *up,
				    u64 target, u64 deadline_ns)
{
	struct rnic_shared *s = f->shared;
	u64 ent, keys, held, kheld;

	lockdep_assert_held(&f->lock);
	rnic_may_hold(up->up_cons, &ent, &keys);
	rnic_ufile_held(f, up, &held, &kheld);
	WRITE_ONCE(s->seq, s->seq + 1);
	smp_wmb();	/* odd seq before the fields: pairs with the reader's acquire */
	s->entitlement = ent;
	s->key_entitlement = min_t(u64, keys, U32_MAX);
	s->held = held;
	s->key_held = min_t(u64, kheld, U32_MAX);
	if (target != RNIC_NO_TARGET || !deadline_ns) {
		s->target = target;
		s->deadline_ns = deadline_ns;
	}
	if (s->target != RNIC_NO_TARGET && s->held <= s->target) {
		s->target = RNIC_NO_TARGET;
		s->deadline_ns = 0;
	}
	smp_wmb();	/* the fields before the even seq that says they are whole */
	WRITE_ONCE(s->seq, s->seq + 1);
}

/* Queue one event (U9) and update the page; under the file's lock. */
static void rnic_ufile_post(struct rnic_ufile *f, struct rnic_uproc *up,
			    struct rnic_ev *ev)
{
	u8 buf[sizeof(struct rnic_ev_revoke) + 4 * RNIC_REVOKE_MAX_VICTIMS];
	bool dropped = false;
	int len;

	lockdep_assert_held(&f->lock);
	ev->seq = ++f->seq;
	ev->time_ns = rnic_mono_ns();
	len = rnic_ev_encode(buf, sizeof(buf), ev);
	if (WARN_ON_ONCE(len < 0))
		return;
	if (kfifo_avail(&f->queue) < len)
		dropped = true;
	else
		kfifo_in(&f->queue, buf, len);
	/*
	 * Posted (or lost: the gap tells the reader) before it is
	 * announced: pairs with the library's acquire load (M8).
	 */
	smp_store_release(&f->shared->events_posted, ev->seq);
	trace_rnic_user_event(up->up_cons, ev->type, ev->seq,
			      ev->type == RNIC_EV_REVOKE ? ev->revoke.entries : 0,
			      dropped);
	wake_up_interruptible(&f->wq);
}

/*
 * Post @ev (if not NULL) to @f and with @page rewrite its shared page
 * (with @target and @deadline_ns as rnic_ufile_write_shared() takes
 * them). Under up_lock.
 */
static void rnic_ufile_post_to(struct rnic_ufile *f, struct rnic_uproc *up,
			       struct rnic_ev *ev, bool page, u64 target,
			       u64 deadline_ns)
{
	lockdep_assert_held(&up->up_lock);
	spin_lock(&f->lock);
	if (ev)
		rnic_ufile_post(f, up, ev);
	if (page)
		rnic_ufile_write_shared(f, up, target, deadline_ns);
	spin_unlock(&f->lock);
	if (ev && ev->type == RNIC_EV_REVOKE)
		f->told = true;
}

/* rnic_ufile_post_to() every binding of @up. */
static void rnic_ufile_post_all(struct rnic_uproc *up, struct rnic_ev *ev,
				bool page, u64 target, u64 deadline_ns)
{
	struct rnic_ufile *f;

	spin_lock(&up->up_lock);
	list_for_each_entry(f, &up->up_files, node)
		rnic_ufile_post_to(f, up, ev, page, target, deadline_ns);
	spin_unlock(&up->up_lock);
}

/**
 * rnic_ufile_told - was the process sent a REVOKE it could have read?
 * @up: the process
 *
 * Return: true if a REVOKE was queued to one of its bound files since
 * that file bound (wrap.c, U5).
 */
bool rnic_ufile_told(struct rnic_uproc *up)
{
	struct rnic_ufile *f;
	bool told = false;

	spin_lock(&up->up_lock);
	list_for_each_entry(f, &up->up_files, node)
		told |= f->told;
	spin_unlock(&up->up_lock);
	return told;
}

/**
 * rnic_ufile_publish - refresh a bound process's pages after a change
 * @up: the process
 *
 * Called when its registrations were charged or refunded; a process
 * that did not bind pays one load.
 */
void rnic_ufile_publish(struct rnic_uproc *up)
{
	/* unbound (most programs): nothing to write; a BIND publishes itself */
	if (!READ_ONCE(up->up_nfiles))
		return;
	rnic_ufile_post_all(up, NULL, true, RNIC_NO_TARGET, 1);
}

/*
 * A REVOKE or RECLAIM divided among a process's bindings (U12): each
 * binding's part, and for a REVOKE the victims among its registrations.
 * Allocated per ask: too large for the callback's stack.
 */
struct rnic_split {
	struct rnic_ufile *f[RNIC_BIND_MAX];
	u64 held[RNIC_BIND_MAX], kheld[RNIC_BIND_MAX];
	u64 part[RNIC_BIND_MAX], kpart[RNIC_BIND_MAX];
	u64 covered[RNIC_BIND_MAX];
	u32 nvictims[RNIC_BIND_MAX];
	u32 victims[RNIC_BIND_MAX][RNIC_REVOKE_MAX_VICTIMS];
	u32 n;
};

/* Divide @entries and @keys among @up's bindings. Under up_lock. */
static void rnic_split_ask(struct rnic_split *sp, struct rnic_uproc *up,
			   u64 entries, u64 keys)
{
	struct rnic_ufile *f;

	lockdep_assert_held(&up->up_lock);
	sp->n = 0;
	list_for_each_entry(f, &up->up_files, node) {
		if (WARN_ON_ONCE(sp->n == RNIC_BIND_MAX))
			break;
		sp->f[sp->n] = f;
		rnic_ufile_held(f, up, &sp->held[sp->n], &sp->kheld[sp->n]);
		sp->n++;
	}
	rnic_split_by_held(entries, sp->held, sp->n, sp->part);
	rnic_split_by_held(keys, sp->kheld, sp->n, sp->kpart);
}

/*
 * Suggest each binding's victims in one walk of the process's records,
 * in the order they were made, until each part is covered. The kernel
 * does not see which registrations a process uses; the library chooses
 * its own victims anyway. Under up_lock.
 */
static void rnic_split_victims(struct rnic_split *sp, struct rnic_uproc *up)
{
	u32 i, open = 0;
	struct rnic_umr *um;

	lockdep_assert_held(&up->up_lock);
	for (i = 0; i < sp->n; i++) {
		sp->nvictims[i] = 0;
		sp->covered[i] = 0;
		open += sp->part[i] > 0;
	}
	list_for_each_entry(um, &up->up_umrs, um_pnode) {
		struct rnic_ufile *f = rnic_ufile_route(up, um->um_key);

		if (!open)
			break;
		for (i = 0; i < sp->n && sp->f[i] != f; i++)
			;
		if (i == sp->n || sp->covered[i] >= sp->part[i] ||
		    sp->nvictims[i] == RNIC_REVOKE_MAX_VICTIMS)
			continue;
		sp->victims[i][sp->nvictims[i]++] = um->um_lkey;
		sp->covered[i] += um->um_entries;
		if (sp->covered[i] >= sp->part[i] ||
		    sp->nvictims[i] == RNIC_REVOKE_MAX_VICTIMS)
			open--;
	}
}

/**
 * rnic_ufile_revoke - tell a bound process to come down to a target
 * @up: the process
 * @target: entries it may keep
 * @key_target: keys it may keep
 *
 * Posts REVOKE with the deadline now + T and suggested victims to each
 * binding, asking each for its part (U12).
 * Context: the arbiter's shrink callback (process, no arbiter locks).
 */
void rnic_ufile_revoke(struct rnic_uproc *up, u64 target, u64 key_target)
{
	struct rnic_consumer *c = up->up_cons;
	u64 held = READ_ONCE(c->rc_pol.r[RNP_ENTRIES].held);
	u64 kheld = READ_ONCE(c->rc_pol.r[RNP_KEYS].held);
	u64 deadline = rnic_mono_ns() + (u64)c->rc_deadline_ms * NSEC_PER_MSEC;
	struct rnic_split *sp;
	u32 i;

	if ((held <= target && kheld <= key_target) || !READ_ONCE(up->up_nfiles))
		return;
	sp = kmalloc(sizeof(*sp), GFP_KERNEL);
	if (!sp)
		return;	/* not told: it cannot be killed for it (U5) */
	spin_lock(&up->up_lock);
	rnic_split_ask(sp, up, held > target ? held - target : 0,
		       kheld > key_target ? kheld - key_target : 0);
	rnic_split_victims(sp, up);
	for (i = 0; i < sp->n; i++) {
		struct rnic_ev ev = { .type = RNIC_EV_REVOKE };

		if (!sp->part[i] && !sp->kpart[i])
			continue;
		ev.revoke.entries = sp->part[i];
		ev.revoke.keys = min_t(u64, sp->kpart[i], U32_MAX);
		ev.revoke.deadline_ns = deadline;
		ev.revoke.nvictims = sp->nvictims[i];
		memcpy(ev.revoke.victims, sp->victims[i],
		       sp->nvictims[i] * sizeof(u32));
		rnic_ufile_post_to(sp->f[i], up, &ev, true,
				   sp->held[i] - sp->part[i], deadline);
	}
	spin_unlock(&up->up_lock);
	kfree(sp);
}

/**
 * rnic_ufile_grow - tell a bound process its entitlement grew
 * @up: the process
 * @entries: entries it may now hold
 * @keys: keys it may now hold
 */
void rnic_ufile_grow(struct rnic_uproc *up, u64 entries, u64 keys)
{
	struct rnic_ev ev = { .type = RNIC_EV_GROW };

	ev.grow.entitlement = entries;
	ev.grow.key_entitlement = min_t(u64, keys, U32_MAX);
	rnic_ufile_post_all(up, &ev, true, RNIC_NO_TARGET, 1);
}

/**
 * rnic_ufile_reclaim - ask a bound process for idle cached registrations
 * @up: the process
 * @entries: entries another consumer waits for, at most
 *
 * Each binding is asked for its part (U12). Not a revocation: the shared
 * pages, their targets and deadlines stay.
 */
void rnic_ufile_reclaim(struct rnic_uproc *up, u64 entries)
{
	struct rnic_split *sp;
	u32 i;

	if (!READ_ONCE(up->up_nfiles))
		return;
	sp = kmalloc(sizeof(*sp), GFP_KERNEL);
	if (!sp)
		return;
	spin_lock(&up->up_lock);
	rnic_split_ask(sp, up, entries, 0);
	for (i = 0; i < sp->n; i++) {
		struct rnic_ev ev = { .type = RNIC_EV_RECLAIM };

		if (!sp->part[i])
			continue;
		ev.reclaim.entries = sp->part[i];
		rnic_ufile_post_to(sp->f[i], up, &ev, false, 0, 0);
	}
	spin_unlock(&up->up_lock);
	kfree(sp);
}

/**
 * rnic_ufile_stale - tell a bound process a registration went stale
 * @up: the process
 * @um: the registration whose range was unmapped or cleared
 *
 * Only the binding its context routes to hears of it (U12).
 * Context: an MMU notifier: may not sleep.
 */
void rnic_ufile_stale(struct rnic_uproc *up, struct rnic_umr *um)
{
	struct rnic_ev ev = { .type = RNIC_EV_STALE };
	struct rnic_ufile *f;

	ev.stale.addr = um->um_addr;
	ev.stale.len = um->um_len;
	/* the record's copy: the driver may have freed the MR already (L2) */
	ev.stale.lkey = um->um_lkey;
	spin_lock(&up->up_lock);
	f = rnic_ufile_route(up, um->um_key);
	if (f)
		rnic_ufile_post_to(f, up, &ev, false, 0, 0);
	spin_unlock(&up->up_lock);
}

/* Count a new context binding's registrations (U12). Under up_lock. */
static void rnic_ufile_count_all(struct rnic_ufile *f, struct rnic_uproc *up)
{
	struct rnic_umr *um;

	lockdep_assert_held(&up->up_lock);
	f->held = 0;
	f->keys_held = 0;
	if (!f->context || !f->key)
		return;
	list_for_each_entry(um, &up->up_umrs, um_pnode) {
		if (um->um_key == f->key) {
			f->held += um->um_entries;
			f->keys_held++;
		}
	}
}

/**
 * rnic_ufile_forget_key - a verbs context is gone: stop matching its file
 * @rd: the device it was on
 * @key: its verbs file, about to be freed
 *
 * A binding that named it serves nothing from now on: another context's
 * file allocated at the same address must not route to it.
 * Context: rnic_user_mutex held.
 */
void rnic_ufile_forget_key(struct rnic_dev *rd, const void *key)
{
	struct rnic_uproc *up;
	struct rnic_ufile *f;

	lockdep_assert_held(&rnic_user_mutex);
	list_for_each_entry(up, &rd->rd_user->ud_uprocs, up_node) {
		if (!READ_ONCE(up->up_nfiles))
			continue;
		spin_lock(&up->up_lock);
		f = rnic_ufile_of_key(up, key);
		if (f) {
			f->key = NULL;
			rnic_ufile_count_all(f, up);
		}
		spin_unlock(&up->up_lock);
	}
}

/* Unbind under rnic_user_mutex (U8); drops the file's reference. */
static void rnic_ufile_unbind(struct rnic_ufile *f, bool detached)
{
	struct rnic_uproc *up = f->up;
	bool last;

	lockdep_assert_held(&rnic_user_mutex);
	if (!up)
		return;
	spin_lock(&up->up_lock);
	spin_lock(&f->lock);
	list_del_init(&f->node);
	WRITE_ONCE(up->up_nfiles, up->up_nfiles - 1);
	last = !up->up_nfiles;
	f->told = false;
	f->up = NULL;
	f->detached = detached;
	spin_unlock(&f->lock);
	spin_unlock(&up->up_lock);
	wake_up_interruptible(&f->wq);
	/* reservations are the process's: they go back with its last binding */
	if (last)
		rnic_uproc_unreserve(up);
	else
		rnic_ufile_publish(up);	/* the others' held changed (U12) */
	rnic_uproc_put(up);
}

/**
 * rnic_ufile_detach - the device goes away: unbind the process's files
 * @up: the process; rnic_user_mutex held
 *
 * The files stay open; reads return end of file from now on.
 */
void rnic_ufile_detach(struct rnic_uproc *up)
{
	struct rnic_ufile *f;

	lockdep_assert_held(&rnic_user_mutex);
	refcount_inc(&up->up_refs);	/* its last file may hold the last one */
	for (;;) {
		spin_lock(&up->up_lock);
		f = list_first_entry_or_null(&up->up_files, struct rnic_ufile, node);
		spin_unlock(&up->up_lock);
		if (!f)
			break;
		rnic_ufile_unbind(f, true);
	}
	rnic_uproc_put(up);
}

/*
 * The process that bound @up has exited (a thread group leader left as
 * a zombie counts once its other threads are gone too).
 */
static bool rnic_uproc_gone(struct rnic_uproc *up)
{
	struct task_struct *t;
	bool gone;

	rcu_read_lock();
	t = pid_task(up->up_pid, PIDTYPE_TGID);
	gone = !t || (t->exit_state && thread_group_empty(t));
	rcu_read_unlock();
	return gone;
}

/**
 * rnic_ufile_reap_orphans - unbind the files of processes that exited
 * @rd: the device
 *
 * A bound file passed on (SCM_RIGHTS) or inherited outlives the process
 * that bound it, and would keep its consumer, reservations and tenant
 * (U18). Its files read end of file from then on, as after a removal,
 * until bound again.
 * Context: process; rnic_user_mutex held.
 */
void rnic_ufile_reap_orphans(struct rnic_dev *rd)
{
	struct rnic_uproc *up, *next;

	lockdep_assert_held(&rnic_user_mutex);
	list_for_each_entry_safe(up, next, &rd->rd_user->ud_uprocs, up_node) {
		if (!READ_ONCE(up->up_nfiles) || !rnic_uproc_gone(up))
			continue;
		/* the detach may free @up, never @next: that is another process */
		rnic_ufile_detach(up);
	}
}

/*
 * A file used after the process that bound it exited: unbind it (U18).
 * Return: -ESRCH if it was so, else 0.
 */
static int rnic_ufile_orphan_check(struct rnic_ufile *f)
{
	struct rnic_uproc *up;
	bool gone;
	int err = 0;

	/* the common case without the mutex; a bound file holds its uproc (U8) */
	spin_lock(&f->lock);
	up = f->up;
	gone = up && rnic_uproc_gone(up);
	spin_unlock(&f->lock);
	if (!gone)
		return 0;
	mutex_lock(&rnic_user_mutex);
	if (f->up && rnic_uproc_gone(f->up)) {
		rnic_ufile_detach(f->up);
		err = -ESRCH;
	}
	mutex_unlock(&rnic_user_mutex);
	return err;
}

/* An open file is only its struct until it binds (U11). */
static int rnic_ufile_open(struct inode *inode, struct file *file)
{
	struct rnic_ufile *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	spin_lock_init(&f->lock);
	init_waitqueue_head(&f->wq);
	file->private_data = f;
	return 0;
}

/**
 * struct rnic_ufile_mem - the first BIND's allocations (U11)
 * @page: the shared page, or NULL once published (or never needed)
 * @queue: the event queue
 */
struct rnic_ufile_mem {
	struct rnic_shared *page;
	struct kfifo queue;
};

/*
 * Made before rnic_user_mutex, charged to the caller's memory cgroup: a
 * caller near its limit reclaims here, and under the mutex it would
 * hold up every other process's first registration, BIND and exit.
 */
static int rnic_ufile_mem_alloc(struct rnic_ufile *f, struct rnic_ufile_mem *m)
{
	m->page = NULL;
	if (READ_ONCE(f->shared))
		return 0;	/* bound before: they are there */
	m->page = (void *)get_zeroed_page(GFP_KERNEL_ACCOUNT);
	if (!m->page)
		return -ENOMEM;
	if (kfifo_alloc(&m->queue, RNIC_UFILE_QUEUE, GFP_KERNEL_ACCOUNT)) {
		free_page((unsigned long)m->page);
		m->page = NULL;
		return -ENOMEM;
	}
	m->page->abi_version = RNIC_USER_ABI_VERSION;
	m->page->target = RNIC_NO_TARGET;
	return 0;
}

/*
 * Published under rnic_user_mutex (a BIND racing on the same file keeps
 * its own for rnic_ufile_mem_free()), under the file's lock, and with a
 * release for mmap, which reads @shared without it.
 */
static void rnic_ufile_mem_publish(struct rnic_ufile *f, struct rnic_ufile_mem *m)
{
	lockdep_assert_held(&rnic_user_mutex);
	if (f->shared || !m->page)
		return;
	spin_lock(&f->lock);
	f->queue = m->queue;
	/* the page's contents before its pointer: pairs with mmap's acquire */
	smp_store_release(&f->shared, m->page);
	spin_unlock(&f->lock);
	m->page = NULL;
}

/* What a BIND allocated and did not publish. */
static void rnic_ufile_mem_free(struct rnic_ufile_mem *m)
{
	if (!m->page)
		return;
	kfifo_free(&m->queue);
	free_page((unsigned long)m->page);
}

static int rnic_ufile_release(struct inode *inode, struct file *file)
{
	struct rnic_ufile *f = file->private_data;

	mutex_lock(&rnic_user_mutex);
	rnic_ufile_unbind(f, false);
	mutex_unlock(&rnic_user_mutex);
	kfifo_free(&f->queue);
	free_page((unsigned long)f->shared);
	kfree(f);
	return 0;
}

/* May @f bind to @up (U8)? Under up_lock. */
static int rnic_ufile_may_bind(struct rnic_uproc *up, bool context, const void *key)
{
	struct rnic_ufile *g;

	lockdep_assert_held(&up->up_lock);
	if (up->up_nfiles >= RNIC_BIND_MAX)
		return -ENOSPC;
	list_for_each_entry(g, &up->up_files, node)
		if (g->context == context && (!context || g->key == key))
			return -EBUSY;
	return 0;
}

static long rnic_ufile_bind(struct rnic_ufile *f, void __user *arg)
{
	struct rnic_ufile_mem mem;
	const void *key = NULL;
	struct rnic_uproc *up;
	struct rnic_bind b;
	struct rnic_dev *rd;
	bool context;
	long err = 0;

	if (copy_from_user(&b, arg, sizeof(b)))
		return -EFAULT;
	/* a library built for another interface: say which one this is */
	if (b.abi_version != RNIC_USER_ABI_VERSION) {
		u32 mine = RNIC_USER_ABI_VERSION;

		if (copy_to_user(arg + offsetof(struct rnic_bind, abi_version),
				 &mine, sizeof(mine)))
			return -EFAULT;
		return -EPROTO;
	}
	if ((b.flags & ~RNIC_BIND_CONTEXT) || b.reserved ||
	    memchr(b.ibdev, '\0', sizeof(b.ibdev)) == NULL ||
	    b.weight > READ_ONCE(rnic_user_weight))
		return -EINVAL;
	context = b.flags & RNIC_BIND_CONTEXT;
	rd = rnic_dev_get_by_name(b.ibdev);
	if (!rd)
		return -ENODEV;
	if (rnic_ufile_mem_alloc(f, &mem)) {
		kobject_put(&rd->rd_kobj);
		return -ENOMEM;
	}
	mutex_lock(&rnic_user_mutex);
	rnic_ufile_reap_orphans(rd);
	if (f->up) {
		err = -EBUSY;
		goto out;
	}
	if (!rnic_user_charging(rd)) {
		err = -ENODEV;
		goto out;
	}
	/* U16: its ib_device lives while the mutex is held */
	key = rnic_user_verbs_check(b.verbs_fd, b.ibdev, rd->rd_ibdev);
	if (IS_ERR(key)) {
		err = PTR_ERR(key);
		goto out;
	}
	if (!context)
		key = NULL;
	rnic_ufile_mem_publish(f, &mem);
	up = rnic_uproc_find_or_create(rd);
	if (IS_ERR(up)) {
		err = PTR_ERR(up);
		goto out;
	}
	spin_lock(&up->up_lock);
	err = rnic_ufile_may_bind(up, context, key);
	if (err) {
		spin_unlock(&up->up_lock);
		rnic_uproc_put(up);
		goto out;
	}
	spin_lock(&f->lock);
	f->up = up;
	/* a file whose device went may bind again: it serves the new one */
	f->detached = false;
	f->context = context;
	f->key = key;
	f->id = atomic64_inc_return(&rnic_ufile_ids);
	f->shared->grace_ms = up->up_cons->rc_deadline_ms;
	spin_unlock(&f->lock);
	list_add_tail(&f->node, &up->up_files);
	WRITE_ONCE(up->up_nfiles, up->up_nfiles + 1);
	rnic_ufile_count_all(f, up);
	spin_unlock(&up->up_lock);
	/*
	 * 0 keeps the default; a smaller weight is the process's own choice
	 * and lasts as long as its consumer. Set outside up_lock: the
	 * arbiter's lock is never taken under it.
	 */
	if (b.weight)
		err = rnic_set_weight(up->up_cons, b.weight);
	rnic_ufile_publish(up);

	b.grace_ms = up->up_cons->rc_deadline_ms;
	b.abi_version = RNIC_USER_ABI_VERSION;
	b.consumer_id = up->up_cons->rc_id;
	if (!err && copy_to_user(arg, &b, sizeof(b)))
		err = -EFAULT;	/* bound all the same: closing unbinds */
out:
	mutex_unlock(&rnic_user_mutex);
	rnic_ufile_mem_free(&mem);
	kobject_put(&rd->rd_kobj);
	return err;
}

/*
 * Version 2's BIND, 8 bytes shorter: its ioctl number differs, so it
 * would get -ENOTTY. Answer as a version mismatch instead: -EPROTO,
 * with this interface's version written back where it looks for it.
 */
#define RNIC_BIND_V2_SIZE	offsetof(struct rnic_bind, verbs_fd)
#define RNIC_IOC_BIND_V2	_IOC(_IOC_READ | _IOC_WRITE, RNIC_IOC_MAGIC, 0x20, \
				     RNIC_BIND_V2_SIZE)

static long rnic_ufile_bind_v2(void __user *arg)
{
	u32 mine = RNIC_USER_ABI_VERSION;

	if (copy_to_user(arg + offsetof(struct rnic_bind, abi_version), &mine,
			 sizeof(mine)))
		return -EFAULT;
	return -EPROTO;
}

/*
 * RNIC_RESERVE_ASYNC: the wait happens in rnic_user_wq, on the process's
 * behalf, and its outcome comes as RNIC_EV_GRANT with the ticket (entries
 * 0 if refused). A grant finding no file bound any more is given back:
 * nobody would draw it. Closing the file does not cancel a pending one:
 * it ends within user_wait_ms. At most RNIC_ASYNC_MAX are pending per
 * process (-EBUSY beyond), so a process cannot park kernel work items.
 */
#define RNIC_ASYNC_MAX	8

struct rnic_uasync {
	struct work_struct work;
	struct rnic_uproc *up;
	u64 file_id;
	u64 entries;
	u32 keys;
	u64 ticket;
};

static struct workqueue_struct *rnic_user_wq;
static atomic64_t rnic_user_tickets = ATOMIC64_INIT(0);

static void rnic_ufile_async_work(struct work_struct *work)
{
	struct rnic_uasync *a = container_of(work, struct rnic_uasync, work);
	struct rnic_ev ev = { .type = RNIC_EV_GRANT };
	struct rnic_ufile *f, *to = NULL;
	int err;

	err = rnic_uproc_reserve(a->up, a->entries, a->keys, false);
	ev.grant.ticket = a->ticket;
	ev.grant.entries = err ? 0 : a->entries;
	spin_lock(&a->up->up_lock);
	list_for_each_entry(f, &a->up->up_files, node)
		if (f->id == a->file_id)
			to = f;
	if (to)
		rnic_ufile_post_to(to, a->up, &ev, true, RNIC_NO_TARGET, 1);
	spin_unlock(&a->up->up_lock);
	/* the file that asked is closed: nobody would draw it */
	if (!to && !err)
		rnic_uproc_unreserve_some(a->up, a->entries, a->keys);
	atomic_dec(&a->up->up_async);
	rnic_uproc_put_unlocked(a->up);	/* may be the module's last user */
	kfree(a);
}

/* Takes over the caller's reference to @up. */
static long rnic_ufile_reserve_async(struct rnic_uproc *up, u64 file_id,
				     struct rnic_reserve *r, void __user *arg)
{
	struct rnic_uasync *a;

	if (atomic_inc_return(&up->up_async) > RNIC_ASYNC_MAX) {
		atomic_dec(&up->up_async);
		rnic_uproc_put_unlocked(up);
		return -EBUSY;
	}
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a) {
		atomic_dec(&up->up_async);
		rnic_uproc_put_unlocked(up);
		return -ENOMEM;
	}
	INIT_WORK(&a->work, rnic_ufile_async_work);
	a->up = up;
	a->file_id = file_id;
	a->entries = r->entries;
	a->keys = r->keys;
	a->ticket = atomic64_inc_return(&rnic_user_tickets);
	r->ticket = a->ticket;
	if (copy_to_user(arg, r, sizeof(*r))) {
		atomic_dec(&up->up_async);
		rnic_uproc_put_unlocked(up);
		kfree(a);
		return -EFAULT;
	}
	queue_work(rnic_user_wq, &a->work);
	return 0;
}

static long rnic_ufile_reserve(struct rnic_ufile *f, void __user *arg)
{
	struct rnic_reserve r;
	struct rnic_uproc *up;
	u64 file_id;
	long err;

	if (copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;
	if (r.mode != RNIC_RESERVE_WAIT && r.mode != RNIC_RESERVE_NOWAIT &&
	    r.mode != RNIC_RESERVE_ASYNC)
		return -EINVAL;
	err = rnic_ufile_orphan_check(f);
	if (err)
		return err;
	mutex_lock(&rnic_user_mutex);
	up = f->up;
	file_id = f->id;
	if (up)
		refcount_inc(&up->up_refs);	/* the wait below is outside the mutex */
	mutex_unlock(&rnic_user_mutex);
	if (!up)
		return -ENOTCONN;
	if (r.mode == RNIC_RESERVE_ASYNC)
		return rnic_ufile_reserve_async(up, file_id, &r, arg);
	err = rnic_uproc_reserve(up, r.entries, r.keys, r.mode == RNIC_RESERVE_NOWAIT);
	rnic_uproc_put_unlocked(up);
	return err;
}

static long rnic_ufile_plan(struct rnic_ufile *f, void __user *arg)
{
	struct rnic_release_plan plan;
	u64 covered = 0;
	u32 *lkeys;
	long err;

	if (copy_from_user(&plan, arg, sizeof(plan)))
		return -EFAULT;
	if (plan.nlkeys > RNIC_PLAN_MAX)
		return -EINVAL;
	lkeys = memdup_user(u64_to_user_ptr(plan.lkeys),
			    (size_t)plan.nlkeys * sizeof(*lkeys));
	if (IS_ERR(lkeys))
		return PTR_ERR(lkeys);
	mutex_lock(&rnic_user_mutex);
	if (!f->up) {
		err = -ENOTCONN;
	} else {
		covered = rnic_uproc_plan_entries(f->up, lkeys, plan.nlkeys);
		trace_rnic_user_plan(f->up->up_cons, plan.revoke_seq,
				     plan.nlkeys, covered);
		err = min_t(u64, covered, INT_MAX);
	}
	mutex_unlock(&rnic_user_mutex);
	kfree(lkeys);
	return err;
}

static long rnic_ufile_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	struct rnic_ufile *f = file->private_data;

	switch (cmd) {
	case RNIC_IOC_BIND:
		return rnic_ufile_bind(f, (void __user *)arg);
	case RNIC_IOC_BIND_V2:
		return rnic_ufile_bind_v2((void __user *)arg);
	case RNIC_IOC_RELEASE_PLAN:
		return rnic_ufile_plan(f, (void __user *)arg);
	case RNIC_IOC_RESERVE:
		return rnic_ufile_reserve(f, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

/* Whole events only (U9), as many as fit in @count. */
static ssize_t rnic_ufile_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct rnic_ufile *f = file->private_data;
	size_t room = min_t(size_t, count, RNIC_UFILE_QUEUE);
	struct rnic_event h;
	bool revoke_read = false;
	size_t got = 0;
	u8 *buf;
	int err;

	if (count < sizeof(struct rnic_event))
		return -EINVAL;
	rnic_ufile_orphan_check(f);	/* then end of file, as detached */
	for (;;) {
		spin_lock(&f->lock);
		if (kfifo_is_empty(&f->queue) && !f->detached && !f->up) {
			spin_unlock(&f->lock);
			return -ENOTCONN;	/* never bound: no events will come */
		}
		if (!kfifo_is_empty(&f->queue) || f->detached)
			break;
		spin_unlock(&f->lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		err = wait_event_interruptible(f->wq, !kfifo_is_empty(&f->queue) ||
					       f->detached || !f->up);
		if (err)
			return err;
	}
	spin_unlock(&f->lock);

	buf = kmalloc(room, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	spin_lock(&f->lock);
	while (kfifo_out_peek(&f->queue, (u8 *)&h, sizeof(h)) == sizeof(h) &&
	       got + h.len <= room) {
		revoke_read |= h.type == RNIC_EV_REVOKE;
		got += kfifo_out(&f->queue, buf + got, h.len);
	}
	spin_unlock(&f->lock);
	if (!got && !kfifo_is_empty(&f->queue)) {
		kfree(buf);
		return -EINVAL;		/* @count is smaller than the next event */
	}
	if (got && copy_to_user(ubuf, buf, got))
		got = -EFAULT;
	kfree(buf);
	/* answered, as far as the kernel can tell: it may wait again (I6) */
	if (revoke_read) {
		mutex_lock(&rnic_user_mutex);
		if (f->up)
			rnic_shrink_read(f->up->up_cons);
		mutex_unlock(&rnic_user_mutex);
	}
	return got;
}

static __poll_t rnic_ufile_poll(struct file *file, poll_table *wait)
{
	struct rnic_ufile *f = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &f->wq, wait);
	spin_lock(&f->lock);
	if (!kfifo_is_empty(&f->queue))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (f->detached)
		mask |= EPOLLHUP;
	spin_unlock(&f->lock);
	return mask;
}

/* One read-only page at offset 0, once the file was bound (U11). */
static int rnic_ufile_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct rnic_ufile *f = file->private_data;
	/* the pointer, then the page: pairs with rnic_ufile_mem_publish()'s release */
	struct rnic_shared *page = smp_load_acquire(&f->shared);

	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != PAGE_SIZE ||
	    vma->vm_flags & VM_WRITE)
		return -EINVAL;
	if (!page)
		return -ENOTCONN;	/* never bound: there is no page yet */
	kc_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP, VM_MAYWRITE);
	return remap_pfn_range(vma, vma->vm_start, virt_to_phys(page) >> PAGE_SHIFT,
			       PAGE_SIZE, vma->vm_page_prot);
}

static const struct file_operations rnic_ufile_fops = {
	.owner = THIS_MODULE,
	.open = rnic_ufile_open,
	.release = rnic_ufile_release,
	.unlocked_ioctl = rnic_ufile_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.read = rnic_ufile_read,
	.poll = rnic_ufile_poll,
	.mmap = rnic_ufile_mmap,
	.llseek = noop_llseek,
};

static struct miscdevice rnic_user_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "rnic_mgr",
	.fops = &rnic_ufile_fops,
	.mode = 0666,
};

/**
 * rnic_user_dev_init - create /dev/rnic_mgr
 *
 * Return: 0 or a negative errno from misc_register().
 */
int rnic_user_dev_init(void)
{
	int err;

	rnic_user_wq = alloc_workqueue("rnic_user", WQ_UNBOUND, 0);
	if (!rnic_user_wq)
		return -ENOMEM;
	err = misc_register(&rnic_user_misc);
	if (err)
		destroy_workqueue(rnic_user_wq);
	return err;
}

/**
 * rnic_user_dev_exit - remove /dev/rnic_mgr
 *
 * No file can be open: each holds a module reference. An asynchronous
 * reservation's work may still be returning from its last put: the
 * workqueue's destruction waits for it.
 */
void rnic_user_dev_exit(void)
{
	misc_deregister(&rnic_user_misc);
	destroy_workqueue(rnic_user_wq);
}
