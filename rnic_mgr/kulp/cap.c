// SPDX-License-Identifier: GPL-2.0
/*
 * Caps on kernel ULPs' MRs. A stock kernel ULP (nvme-rdma, nvmet-rdma,
 * the stock xprtrdma or ib_iser...) cannot be asked to shrink, so an
 * administrator may give it a cap of translation entries on a device:
 *
 *   echo "nvme_rdma 65536" > /sys/kernel/rnic_mgr/devices/DEV/kernel_ulp_caps
 *
 * (0 lifts it), or its share: "nvme_rdma share" caps it, at each
 * allocation that finds it holding nothing (a connect, a reconnect), at
 * what a consumer of its weight joining the arbiter's pool then would be
 * given of the device's budget (rnic_dev_newcomer_share(); its weight is
 * consumer_weights' for "kernel:NAME", else 1). So a stock ULP is
 * bounded by the share it had when it allocated, and rdmastor's
 * consumers keep theirs. "* share" makes that the device's default:
 * every ULP without a line of its own is capped at its share from its
 * next allocation that finds it holding nothing ("* 0" ends the default,
 * and the caps it gave; "NAME 0" exempts one ULP). From the first cap
 * on, the device's alloc_mr and alloc_mr_integrity are ours: an
 * allocation that would take the ULP beyond its cap waits for room, up
 * to kernel_ulp_wait_ms and only where it may sleep, and then fails with
 * -ENOMEM, as the device fails an allocation it has no room for. What each ULP then does is its own
 * (Documentation/rnic_mgr.rst, "Kernel ULPs": nvme-rdma's connect
 * fails). rdmastor's own modules are never capped here (K2), nor are
 * ULPs without a cap. The device gets its ops back when it is removed,
 * and so when rnic_mgr unloads.
 *
 * The counting stays count.c's, from ib_core's tracepoints, which fire
 * after the driver's alloc_mr returns: an admitted allocation reserves
 * its entries until its MR is counted.
 *
 * Invariants K4-K8: kulp.h.
 */
#include <linux/ctype.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate_wait.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <rdma/ib_verbs.h>

#include "kulp.h"
#include "../rnic_int.h"
#include "../trace.h"

/* serializes wrapping, unwrapping and cap changes with device removal */
DEFINE_MUTEX(rnic_kulp_wrap_mutex);

/* may @k take @n more entries now? */
static bool rnic_kulp_fits(const struct rnic_kulp *k, u64 n)
{
	return !k->cap || k->entries + k->reserved + n <= k->cap;
}

/* the wait's condition: a hint, rnic_kulp_admit() decides under the lock */
static bool rnic_kulp_room(struct rnic_kulp_dev *kd, unsigned int slot, u64 n)
{
	const struct rnic_kulp *k = &kd->kd_slots[slot];

	return READ_ONCE(kd->kd_closing) || !READ_ONCE(k->cap) ||
	       READ_ONCE(k->entries) + READ_ONCE(k->reserved) + n <= READ_ONCE(k->cap);
}

/* a ULP's weight for its share: consumer_weights' for "kernel:NAME", else 1 (may sleep) */
static u32 rnic_kulp_weight(const char *name)
{
	char cname[40];

	snprintf(cname, sizeof(cname), "kernel:%s", name);
	return rnic_conf_weight(cname, 1);
}

/* the device's default share cap reaches slot @i (K8); rnic_kulp_lock held */
static void rnic_kulp_default_share(struct rnic_kulp_dev *kd, struct rnic_kulp *k,
				    unsigned int i)
{
	lockdep_assert_held(&rnic_kulp_lock);
	if (!kd->kd_default_share || k->own || k->share || i == RNIC_KULP_SLOTS - 1)
		return;
	k->share = true;
	k->share_weight = 1;
}

/*
 * A ULP capped at its share (k->share), by its own line or by the
 * device's default, that holds nothing gets its cap
 * anew, from the share a newcomer of its weight would have now (K7).
 * The weight is looked up where that may sleep (consumer_weights'
 * mutex); elsewhere the last one is kept.
 */
static void rnic_kulp_share_cap(struct rnic_kulp_dev *kd, const char *name, const char *dev)
{
	struct rnic_kulp *k;
	unsigned long flags;
	bool set = false;
	unsigned int i;
	u64 cap;
	u32 w;

	spin_lock_irqsave(&rnic_kulp_lock, flags);
	k = rnic_kulp_slot(kd, name, &i);
	rnic_kulp_default_share(kd, k, i);
	WARN_ON_ONCE(k->share && i == RNIC_KULP_SLOTS - 1);	/* K8 */
	if (!k->share || k->entries || k->reserved) {
		spin_unlock_irqrestore(&rnic_kulp_lock, flags);
		return;
	}
	w = k->share_weight;
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);

	if (preemptible())
		w = rnic_kulp_weight(name);
	cap = max_t(u64, rnic_dev_newcomer_share(kd->kd_rd, w), 1);

	spin_lock_irqsave(&rnic_kulp_lock, flags);
	k = &kd->kd_slots[i];
	if (k->share && !k->entries && !k->reserved) {	/* K7 */
		k->cap = cap;
		k->share_weight = w;
		set = true;
	}
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	if (set)
		trace_rnic_kulp_cap(dev, name, 0, 0, cap, "cap from its share");
}

/*
 * Admit an allocation of @n entries by @pd's owner: reserve them in its
 * slot (*slot set) or, beyond its cap, wait for room (K6), or refuse.
 * Return: 0, or -ENOMEM.
 */
static int rnic_kulp_admit(struct rnic_kulp_dev *kd, const struct ib_pd *pd, u64 n,
			   int *slot)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(READ_ONCE(rnic_kulp_wait_ms));
	const char *name = pd->res.kern_name;
	const char *dev = dev_name(&pd->device->dev);
	bool waited = false, fits, first;
	struct rnic_kulp *k;
	unsigned long flags;
	unsigned int i;
	u64 held, cap;

	*slot = -1;
	if (pd->uobject || !name || rnic_kulp_ours(name))
		return 0;
	rnic_kulp_share_cap(kd, name, dev);
	for (;;) {
		spin_lock_irqsave(&rnic_kulp_lock, flags);
		k = rnic_kulp_slot(kd, name, &i);
		fits = kd->kd_closing || rnic_kulp_fits(k, n);
		if (fits) {
			k->reserved += n;
			*slot = i;
		} else if (!waited) {
			k->waits++;
		}
		held = k->entries + k->reserved;
		cap = k->cap;
		spin_unlock_irqrestore(&rnic_kulp_lock, flags);
		if (fits) {
			if (waited)
				trace_rnic_kulp_cap(dev, name, n, held, cap,
						    "granted after waiting");
			return 0;
		}
		if (!preemptible() || time_after_eq(jiffies, deadline))
			break;
		if (!waited)
			trace_rnic_kulp_cap(dev, name, n, held, cap, "waits");
		waited = true;
		wait_event_timeout(kd->kd_room, rnic_kulp_room(kd, i, n),
				   max_t(long, deadline - jiffies, 1));
	}
	spin_lock_irqsave(&rnic_kulp_lock, flags);
	kd->kd_slots[i].refused++;
	first = !kd->kd_slots[i].refusal_logged;
	kd->kd_slots[i].refusal_logged = true;
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	trace_rnic_kulp_cap(dev, name, n, held, cap, "refused");
	/* the ULP sees only -ENOMEM: say why, once (its refused count goes on) */
	if (first)
		pr_warn("%s: kernel ULP %s: an MR of %llu entries refused at its cap of %llu entries (it holds %llu); later refusals are counted in kernel_ulp_caps\n",
			dev, name, n, cap, held);
	return -ENOMEM;
}

/* after the driver: a failed allocation gives its reservation back (K4) */
static void rnic_kulp_settle(struct rnic_kulp_dev *kd, int slot, u64 n, struct ib_mr *mr)
{
	struct rnic_kulp *k;
	unsigned long flags;

	if (slot < 0 || !IS_ERR_OR_NULL(mr))
		return;
	spin_lock_irqsave(&rnic_kulp_lock, flags);
	k = &kd->kd_slots[slot];
	WARN_ON_ONCE(k->reserved < n);	/* K4 */
	k->reserved -= min(k->reserved, n);
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	wake_up_all(&kd->kd_room);
}

/* the device's record, which outlives every wrapper running on it (K5) */
static struct rnic_kulp_dev *rnic_kulp_dev_of(u32 index)
{
	struct rnic_kulp_dev *kd;
	unsigned long flags;

	spin_lock_irqsave(&rnic_kulp_lock, flags);
	kd = xa_load(&rnic_kulp_devs, index);
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	return kd;
}

/* one allocation through a wrapper: a plain or an integrity MR */
struct rnic_kulp_req {
	bool integrity;
	enum ib_mr_type type;
	u32 max_num_sg;
	u32 max_num_meta_sg;
};

static struct ib_mr *rnic_kulp_alloc(struct ib_pd *pd, const struct rnic_kulp_req *req)
{
	u64 n = (u64)req->max_num_sg + req->max_num_meta_sg;
	struct rnic_kulp_dev *kd;
	struct ib_mr *mr;
	int slot, err;

	/*
	 * Counted in before anything that sleeps: an unwrap's first RCU
	 * Tasks grace period covers the task until here (K5).
	 */
	kd = rnic_kulp_dev_of(pd->device->index);
	if (WARN_ON_ONCE(!kd))	/* K5: unpublished only once unwrapped */
		return ERR_PTR(-ENODEV);
	atomic_inc(&kd->kd_inflight);
	err = rnic_kulp_admit(kd, pd, n, &slot);
	if (err) {
		mr = ERR_PTR(err);
		goto out;
	}
	if (req->integrity)
		mr = kd->kd_alloc_mr_integrity(pd, req->max_num_sg, req->max_num_meta_sg);
	else
		mr = kd->kd_alloc_mr(pd, req->type, req->max_num_sg);
	rnic_kulp_settle(kd, slot, n, mr);
out:
	if (atomic_dec_and_test(&kd->kd_inflight))
		wake_up_var(&kd->kd_inflight);
	return mr;
}

static struct ib_mr *rnic_kulp_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
					u32 max_num_sg)
{
	struct rnic_kulp_req req = { .type = type, .max_num_sg = max_num_sg };

	return rnic_kulp_alloc(pd, &req);
}

static struct ib_mr *rnic_kulp_alloc_mr_integrity(struct ib_pd *pd, u32 max_num_data_sg,
						  u32 max_num_meta_sg)
{
	struct rnic_kulp_req req = { .integrity = true, .max_num_sg = max_num_data_sg,
				     .max_num_meta_sg = max_num_meta_sg };

	return rnic_kulp_alloc(pd, &req);
}

/* the device's MR allocations through the wrappers; rnic_kulp_wrap_mutex held */
static int rnic_kulp_wrap(struct rnic_kulp_dev *kd)
{
	struct ib_device *ibdev = kd->kd_rd->rd_ibdev;

	lockdep_assert_held(&rnic_kulp_wrap_mutex);
	if (kd->kd_wrapped)
		return 0;
	if (!ibdev || !ibdev->ops.alloc_mr)
		return -EOPNOTSUPP;
	kd->kd_alloc_mr = ibdev->ops.alloc_mr;
	kd->kd_alloc_mr_integrity = ibdev->ops.alloc_mr_integrity;
	WRITE_ONCE(kd->kd_closing, false);
	if (kd->kd_alloc_mr_integrity)
		WRITE_ONCE(ibdev->ops.alloc_mr_integrity, rnic_kulp_alloc_mr_integrity);
	WRITE_ONCE(ibdev->ops.alloc_mr, rnic_kulp_alloc_mr);
	kd->kd_wrapped = true;
	return 0;
}

/**
 * rnic_kulp_cap_unwrap - give a device its own MR allocation back
 * @kd: the device's record, still published
 *
 * Restores the driver's alloc_mr and alloc_mr_integrity and returns once
 * no task runs in the wrappers (K5): a waiting allocation stops waiting
 * and goes to the driver uncapped.
 * Context: process, may sleep; rnic_kulp_wrap_mutex held.
 */
void rnic_kulp_cap_unwrap(struct rnic_kulp_dev *kd)
{
	struct ib_device *ibdev = kd->kd_rd->rd_ibdev;

	lockdep_assert_held(&rnic_kulp_wrap_mutex);
	if (!kd->kd_wrapped)
		return;
	WRITE_ONCE(kd->kd_closing, true);
	if (kd->kd_alloc_mr_integrity)
		WRITE_ONCE(ibdev->ops.alloc_mr_integrity, kd->kd_alloc_mr_integrity);
	WRITE_ONCE(ibdev->ops.alloc_mr, kd->kd_alloc_mr);
	wake_up_all(&kd->kd_room);
	synchronize_rcu_tasks();
	wait_var_event(&kd->kd_inflight, !atomic_read(&kd->kd_inflight));
	synchronize_rcu_tasks();
	kd->kd_wrapped = false;
}

/* a ULP's name as ib_core keeps it: a module name */
static bool rnic_kulp_name_ok(const char *name)
{
	size_t i, len = strlen(name);

	if (!len || len >= sizeof(((struct rnic_kulp *)0)->name))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_' && name[i] != '-')
			return false;
	return true;
}

/*
 * "* share" or "* 0": set or end the device's default, a share cap for
 * every ULP without a line of its own (K8). Ending it lifts the caps it
 * gave. rnic_kulp_wrap_mutex held.
 */
static int rnic_kulp_default_store(struct rnic_kulp_dev *kd, bool share)
{
	unsigned long flags;
	unsigned int i;
	int err = 0;

	lockdep_assert_held(&rnic_kulp_wrap_mutex);
	if (share)
		err = rnic_kulp_wrap(kd);
	if (err)
		return err;
	spin_lock_irqsave(&rnic_kulp_lock, flags);
	kd->kd_default_share = share;
	for (i = 0; !share && i < RNIC_KULP_SLOTS; i++) {
		struct rnic_kulp *k = &kd->kd_slots[i];

		if (k->share && !k->own) {
			k->share = false;
			k->cap = 0;
		}
	}
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	trace_rnic_kulp_cap(rnic_dev_name(kd->kd_rd).s, "*", 0, 0, 0,
			    share ? "every ULP capped at its share" : "no default cap");
	wake_up_all(&kd->kd_room);
	return 0;
}

/**
 * rnic_kulp_cap_store - set or lift a kernel ULP's cap on a device
 * @rd: the device
 * @buf: "NAME ENTRIES" (ENTRIES 0 lifts the cap), or "NAME share": its
 *	share now, and again at each allocation that finds it holding
 *	nothing (rnic_kulp_share_cap()); NAME "*" with "share" or 0 sets or
 *	ends the device's default: a share cap for every ULP no line names
 *
 * The first cap wraps the device's MR allocation. A cap below what the
 * ULP holds takes nothing back: its next allocations wait or fail until
 * it is under. A line for a ULP exempts it from the default for good.
 * rdmastor's own modules cannot be capped here.
 * Context: process (sysfs write).
 *
 * Return: 0, -EINVAL for a malformed line or one of rdmastor's names,
 * -ENOSPC when every slot is taken by another name, -EOPNOTSUPP when
 * nothing is counted (kernel_ulps=0, no tracepoints) or the device has
 * no alloc_mr, -ENODEV when the device is going.
 */
int rnic_kulp_cap_store(struct rnic_dev *rd, const char *buf)
{
	char name[32], val[24];
	struct rnic_kulp_dev *kd;
	struct rnic_kulp *k;
	unsigned long flags;
	bool share, every;
	unsigned int i;
	u64 cap, held;
	u32 w = 1;
	int err = 0;

	if (sscanf(buf, "%31s %23s", name, val) != 2)
		return -EINVAL;
	every = !strcmp(name, "*");
	/* "other" is the shared slot's name, not a ULP's (K8) */
	if (!every && (!rnic_kulp_name_ok(name) || rnic_kulp_ours(name) ||
		       !strcmp(name, "other")))
		return -EINVAL;
	share = !strcmp(val, "share");
	if (!share && kstrtou64(val, 10, &cap))
		return -EINVAL;
	if (every && !share && cap)
		return -EINVAL;	/* a default in entries would fit no ULP */
	if (!rnic_kulp_registered)
		return -EOPNOTSUPP;
	if (every) {
		mutex_lock(&rnic_kulp_wrap_mutex);
		kd = rnic_kulp_dev_of(rd->rd_index);
		err = kd ? rnic_kulp_default_store(kd, share) : -ENODEV;
		mutex_unlock(&rnic_kulp_wrap_mutex);
		return err;
	}
	if (share) {
		w = rnic_kulp_weight(name);
		cap = max_t(u64, rnic_dev_newcomer_share(rd, w), 1);
	}
	mutex_lock(&rnic_kulp_wrap_mutex);
	kd = rnic_kulp_dev_of(rd->rd_index);
	if (!kd) {
		err = -ENODEV;
		goto out;
	}
	if (cap) {
		err = rnic_kulp_wrap(kd);
		if (err)
			goto out;
	}
	spin_lock_irqsave(&rnic_kulp_lock, flags);
	k = rnic_kulp_slot(kd, name, &i);
	if (strcmp(k->name, name) && cap) {
		err = -ENOSPC;	/* the shared "other" slot: no cap of one name there */
	} else {
		k->cap = cap;
		k->share = share;
		k->share_weight = w;
		k->own = true;
	}
	held = k->entries + k->reserved;
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	if (!err)
		trace_rnic_kulp_cap(rnic_dev_name(rd).s, name, 0, held, cap,
				    share ? "cap set to its share" : "cap set");
	wake_up_all(&kd->kd_room);
out:
	mutex_unlock(&rnic_kulp_wrap_mutex);
	return err;
}

/**
 * rnic_kulp_caps_show - the caps of a device's kernel ULPs, for sysfs
 * @rd: the device
 * @buf: a sysfs page
 *
 * "* share" first when the device's default is set, then one line per
 * ULP with a cap or a refusal: NAME cap C entries E reserved R waits W
 * refused F, and "share WEIGHT" after a cap from the ULP's share, with
 * "default 1" when that came from the device's default.
 *
 * Return: bytes written.
 */
ssize_t rnic_kulp_caps_show(struct rnic_dev *rd, char *buf)
{
	struct rnic_kulp_dev *kd;
	unsigned long flags;
	ssize_t n = 0;
	unsigned int i;

	spin_lock_irqsave(&rnic_kulp_lock, flags);
	kd = xa_load(&rnic_kulp_devs, rd->rd_index);
	if (kd && kd->kd_default_share)
		n += sysfs_emit_at(buf, n, "* share\n");
	for (i = 0; kd && i < RNIC_KULP_SLOTS; i++) {
		const struct rnic_kulp *k = &kd->kd_slots[i];

		if (!k->cap && !k->refused && !k->waits)
			continue;
		n += sysfs_emit_at(buf, n,
				   "%s cap %llu entries %llu reserved %llu waits %llu refused %llu",
				   k->name, k->cap, k->entries, k->reserved, k->waits, k->refused);
		if (k->share)
			n += sysfs_emit_at(buf, n, " share %u", k->share_weight);
		if (k->share && !k->own)
			n += sysfs_emit_at(buf, n, " default 1");
		n += sysfs_emit_at(buf, n, "\n");
	}
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	return n;
}
