// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/rnic_mgr: the collaborative half of user-level registration
 * (include/uapi/rdmastor/rnic_user.h, Documentation/user-level.rst).
 *
 * A process binds a file to its consumer on one device (RNIC_IOC_BIND)
 * and then reads events (REVOKE, GROW, STALE) and maps a page with what
 * it may hold and holds. Binding changes nothing about what is charged:
 * user.c charges every registration of every process; a bound process
 * only learns of revocations in time to choose its own victims.
 *
 * Invariants:
 *  F1. A file is bound to at most one uproc and a uproc to at most one
 *      file; both links change together under rnic_user_mutex and the
 *      uproc's up_lock, and the file holds a reference on the uproc
 *      (U3) while bound.
 *      Asserted: BIND refuses a second binding of either side (-EBUSY).
 *  F2. Events are queued whole and read whole: the queue holds encoded
 *      events back to back; one that does not fit is dropped, but its
 *      seq is used, so the reader sees the gap and re-reads the page.
 *      Asserted: rnic_ufile_post() encodes with rnic_ev_encode(), which
 *      refuses a size it did not compute.
 *  F3. The shared page is written only under the file's lock, between
 *      two increments of its seq (odd while writing).
 *  F4. An open file holds only its struct; the shared page and the
 *      event queue (20 KiB) are allocated at its first BIND, and all
 *      three are charged to the opener's memory cgroup, so opening the
 *      device a million times costs the opener, not the host.
 *      Enforced: rnic_ufile_bind() calls rnic_ufile_alloc() under
 *      rnic_user_mutex; mmap and read refuse a file never bound.
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
#include <rdmastor/rnic_user_event.h>

#include "rnic_int.h"
#include "trace.h"
#include "user.h"

/* Events waiting to be read, per file: 16 KiB is 40 full REVOKEs. */
#define RNIC_UFILE_QUEUE	16384

/**
 * struct rnic_ufile - one open /dev/rnic_mgr
 * @lock: the queue, @seq, @shared and @up for posters
 * @wq: readers and pollers
 * @up: the uproc bound (F1), or NULL
 * @detached: the device went away after the bind: reads end
 * @seq: the last event's seq
 * @queue: encoded events (F2); allocated at the first BIND (F4)
 * @shared: the mapped page (F3); allocated at the first BIND (F4), then
 *	kept until the file is released
 */
struct rnic_ufile {
	spinlock_t lock;
	wait_queue_head_t wq;
	struct rnic_uproc *up;
	bool detached;
	u32 seq;
	DECLARE_KFIFO_PTR(queue, u8);
	struct rnic_shared *shared;
};

static u64 rnic_mono_ns(void)
{
	return ktime_get_ns();
}

/* Write the page under the file's lock (F3). */
static void rnic_ufile_write_shared(struct rnic_ufile *f, struct rnic_uproc *up,
				    u64 target, u64 deadline_ns)
{
	struct rnic_shared *s = f->shared;
	struct rnic_consumer *c = up->up_cons;
	u64 ent, keys;

	lockdep_assert_held(&f->lock);
	rnic_may_hold(c, &ent, &keys);
	WRITE_ONCE(s->seq, s->seq + 1);
	smp_wmb();	/* odd seq before the fields: pairs with the reader's acquire */
	s->entitlement = ent;
	s->key_entitlement = min_t(u64, keys, U32_MAX);
	s->held = READ_ONCE(c->rc_pol.r[RNP_ENTRIES].held);
	s->key_held = min_t(u64, READ_ONCE(c->rc_pol.r[RNP_KEYS].held), U32_MAX);
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

/* Queue one event (F2) and update the page; under the file's lock. */
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
 * Post @ev to the file bound to @up, if any, and with @page rewrite its
 * shared page (with @target and @deadline_ns as rnic_ufile_write_shared()
 * takes them). Return: whether a file was bound.
 */
static bool rnic_ufile_post_bound(struct rnic_uproc *up, struct rnic_ev *ev,
				  bool page, u64 target, u64 deadline_ns)
{
	struct rnic_ufile *f;

	spin_lock(&up->up_lock);
	f = up->up_file;
	if (f) {
		spin_lock(&f->lock);
		rnic_ufile_post(f, up, ev);
		if (page)
			rnic_ufile_write_shared(f, up, target, deadline_ns);
		spin_unlock(&f->lock);
		if (ev->type == RNIC_EV_REVOKE)
			up->up_told = true;
	}
	spin_unlock(&up->up_lock);
	return f;
}

/**
 * rnic_ufile_told - was the process sent a REVOKE it could have read?
 * @up: the process
 *
 * Return: true if it is bound to /dev/rnic_mgr and a REVOKE was queued
 * to that file since it bound (user.c, U5).
 */
bool rnic_ufile_told(struct rnic_uproc *up)
{
	bool told;

	spin_lock(&up->up_lock);
	told = up->up_file && up->up_told;
	spin_unlock(&up->up_lock);
	return told;
}

/**
 * rnic_ufile_publish - refresh a bound process's page after a change
 * @up: the process
 *
 * Called when its registrations were charged or refunded; a process
 * that did not bind pays one load.
 */
void rnic_ufile_publish(struct rnic_uproc *up)
{
	struct rnic_ufile *f;

	/* unbound (most programs): nothing to write; a BIND publishes itself */
	if (!READ_ONCE(up->up_file))
		return;
	spin_lock(&up->up_lock);
	f = up->up_file;
	if (f) {
		spin_lock(&f->lock);
		rnic_ufile_write_shared(f, up, RNIC_NO_TARGET, 1);
		spin_unlock(&f->lock);
	}
	spin_unlock(&up->up_lock);
}

/**
 * rnic_ufile_revoke - tell a bound process to come down to a target
 * @up: the process
 * @target: entries it may keep
 * @key_target: keys it may keep
 *
 * Posts REVOKE with the deadline now + T and suggested victims.
 * Context: the arbiter's shrink callback (process, no arbiter locks).
 */
void rnic_ufile_revoke(struct rnic_uproc *up, u64 target, u64 key_target)
{
	struct rnic_consumer *c = up->up_cons;
	struct rnic_ev ev = { .type = RNIC_EV_REVOKE };
	u64 held = READ_ONCE(c->rc_pol.r[RNP_ENTRIES].held);
	u64 kheld = READ_ONCE(c->rc_pol.r[RNP_KEYS].held);

	if (held <= target && kheld <= key_target)
		return;
	ev.revoke.entries = held > target ? held - target : 0;
	ev.revoke.keys = kheld > key_target ? min_t(u64, kheld - key_target, U32_MAX) : 0;
	ev.revoke.deadline_ns = rnic_mono_ns() +
				(u64)c->rc_deadline_ms * NSEC_PER_MSEC;
	/* outside the file's lock: it takes the device's record table lock */
	ev.revoke.nvictims = rnic_uproc_victims(up, ev.revoke.entries,
						ev.revoke.victims,
						RNIC_REVOKE_MAX_VICTIMS);
	rnic_ufile_post_bound(up, &ev, true, target, ev.revoke.deadline_ns);
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
	rnic_ufile_post_bound(up, &ev, true, RNIC_NO_TARGET, 1);
}

/**
 * rnic_ufile_reclaim - ask a bound process for idle cached registrations
 * @up: the process
 * @entries: entries another consumer waits for, at most
 *
 * Not a revocation: the shared page, its target and its deadline stay.
 */
void rnic_ufile_reclaim(struct rnic_uproc *up, u64 entries)
{
	struct rnic_ev ev = { .type = RNIC_EV_RECLAIM };

	ev.reclaim.entries = entries;
	rnic_ufile_post_bound(up, &ev, false, 0, 0);
}

/**
 * rnic_ufile_stale - tell a bound process a registration went stale
 * @up: the process
 * @um: the registration whose range was unmapped or cleared
 *
 * Context: an MMU notifier: may not sleep.
 */
void rnic_ufile_stale(struct rnic_uproc *up, struct rnic_umr *um)
{
	struct rnic_ev ev = { .type = RNIC_EV_STALE };

	ev.stale.addr = um->um_addr;
	ev.stale.len = um->um_len;
	/* the record's copy: the driver may have freed the MR already (L2) */
	ev.stale.lkey = um->um_lkey;
	rnic_ufile_post_bound(up, &ev, false, 0, 0);
}

/* Unbind under rnic_user_mutex (F1); drops the file's reference. */
static void rnic_ufile_unbind(struct rnic_ufile *f, bool detached)
{
	struct rnic_uproc *up = f->up;

	lockdep_assert_held(&rnic_user_mutex);
	if (!up)
		return;
	spin_lock(&up->up_lock);
	spin_lock(&f->lock);
	WRITE_ONCE(up->up_file, NULL);
	up->up_told = false;
	f->up = NULL;
	f->detached = detached;
	spin_unlock(&f->lock);
	spin_unlock(&up->up_lock);
	wake_up_interruptible(&f->wq);
	rnic_uproc_unreserve(up);
	rnic_uproc_put(up);
}

/**
 * rnic_ufile_detach - the device goes away: unbind the process's file
 * @up: the process; rnic_user_mutex held
 *
 * The file stays open; reads return end of file from now on.
 */
void rnic_ufile_detach(struct rnic_uproc *up)
{
	struct rnic_ufile *f;

	lockdep_assert_held(&rnic_user_mutex);
	spin_lock(&up->up_lock);
	f = up->up_file;
	spin_unlock(&up->up_lock);
	if (f)
		rnic_ufile_unbind(f, true);
}

/* An open file is only its struct until it binds (F4). */
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

/*
 * The first BIND's allocations (F4), charged to the caller's memory
 * cgroup; published under the file's lock, and with a release for
 * mmap, which reads @shared without it. Called with rnic_user_mutex.
 */
static int rnic_ufile_alloc(struct rnic_ufile *f)
{
	struct rnic_shared *page;
	typeof(f->queue) queue;

	lockdep_assert_held(&rnic_user_mutex);
	if (f->shared)
		return 0;
	page = (void *)get_zeroed_page(GFP_KERNEL_ACCOUNT);
	if (!page)
		return -ENOMEM;
	if (kfifo_alloc(&queue, RNIC_UFILE_QUEUE, GFP_KERNEL_ACCOUNT)) {
		free_page((unsigned long)page);
		return -ENOMEM;
	}
	page->abi_version = RNIC_USER_ABI_VERSION;
	page->target = RNIC_NO_TARGET;
	spin_lock(&f->lock);
	f->queue = queue;
	/* the page's contents before its pointer: pairs with mmap's acquire */
	smp_store_release(&f->shared, page);
	spin_unlock(&f->lock);
	return 0;
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

static long rnic_ufile_bind(struct rnic_ufile *f, void __user *arg)
{
	struct rnic_bind b;
	struct rnic_uproc *up;
	struct rnic_dev *rd;
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
	if (b.flags || memchr(b.ibdev, '\0', sizeof(b.ibdev)) == NULL ||
	    b.weight > READ_ONCE(rnic_user_weight))
		return -EINVAL;
	rd = rnic_dev_get_by_name(b.ibdev);
	if (!rd)
		return -ENODEV;
	mutex_lock(&rnic_user_mutex);
	if (f->up) {
		err = -EBUSY;
		goto out;
	}
	err = rnic_ufile_alloc(f);
	if (err)
		goto out;
	up = rnic_uproc_find_or_create(rd);
	if (IS_ERR(up)) {
		err = PTR_ERR(up);
		goto out;
	}
	spin_lock(&up->up_lock);
	if (up->up_file) {
		spin_unlock(&up->up_lock);
		rnic_uproc_put(up);
		err = -EBUSY;
		goto out;
	}
	spin_lock(&f->lock);
	WRITE_ONCE(up->up_file, f);
	f->up = up;
	f->shared->grace_ms = up->up_cons->rc_deadline_ms;
	spin_unlock(&f->lock);
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
	kobject_put(&rd->rd_kobj);
	return err;
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
	int err;

	err = rnic_uproc_reserve(a->up, a->entries, a->keys, false);
	ev.grant.ticket = a->ticket;
	ev.grant.entries = err ? 0 : a->entries;
	if (!rnic_ufile_post_bound(a->up, &ev, true, RNIC_NO_TARGET, 1) && !err)
		rnic_uproc_unreserve(a->up);
	atomic_dec(&a->up->up_async);
	rnic_uproc_put_unlocked(a->up);	/* may be the module's last user */
	kfree(a);
}

/* Takes over the caller's reference to @up. */
static long rnic_ufile_reserve_async(struct rnic_uproc *up, struct rnic_reserve *r,
				     void __user *arg)
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
	long err;

	if (copy_from_user(&r, arg, sizeof(r)))
		return -EFAULT;
	if (r.mode != RNIC_RESERVE_WAIT && r.mode != RNIC_RESERVE_NOWAIT &&
	    r.mode != RNIC_RESERVE_ASYNC)
		return -EINVAL;
	mutex_lock(&rnic_user_mutex);
	up = f->up;
	if (up)
		refcount_inc(&up->up_refs);	/* the wait below is outside the mutex */
	mutex_unlock(&rnic_user_mutex);
	if (!up)
		return -ENOTCONN;
	if (r.mode == RNIC_RESERVE_ASYNC)
		return rnic_ufile_reserve_async(up, &r, arg);
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
	case RNIC_IOC_RELEASE_PLAN:
		return rnic_ufile_plan(f, (void __user *)arg);
	case RNIC_IOC_RESERVE:
		return rnic_ufile_reserve(f, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

/* Whole events only (F2), as many as fit in @count. */
static ssize_t rnic_ufile_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct rnic_ufile *f = file->private_data;
	size_t room = min_t(size_t, count, RNIC_UFILE_QUEUE);
	struct rnic_event h;
	size_t got = 0;
	u8 *buf;
	int err;

	if (count < sizeof(struct rnic_event))
		return -EINVAL;
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

/* One read-only page at offset 0, once the file was bound (F4). */
static int rnic_ufile_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct rnic_ufile *f = file->private_data;
	/* the pointer, then the page: pairs with rnic_ufile_alloc()'s release */
	struct rnic_shared *page = smp_load_acquire(&f->shared);

	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != PAGE_SIZE ||
	    vma->vm_flags & VM_WRITE)
		return -EINVAL;
	if (!page)
		return -ENOTCONN;	/* never bound: there is no page yet */
	vma->vm_flags &= ~VM_MAYWRITE;
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
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
