// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel ULPs' MRs, counted: every MR that a kernel module other than
 * rdmastor's allocates with ib_alloc_mr() or ib_alloc_mr_integrity() on
 * a device rnic_mgr follows (nvme-rdma's and nvmet-rdma's pools, the
 * stock xprtrdma, ib_iser, ib_srp, SMB Direct...), by the name the
 * module gave its protection domain (KBUILD_MODNAME), with what it holds
 * and the most it held: /sys/kernel/rnic_mgr/devices/DEV/kernel_ulps.
 *
 * The counting listens to ib_core's own tracepoints (rdma_core:mr_alloc,
 * mr_integ_alloc, mr_dereg), so it changes nothing about the
 * allocations and nothing on the device: loading and unloading
 * rnic_mgr leave the device's ops untouched, whatever MRs exist. An MR
 * allocated before rnic_mgr loaded, or before the device was added, is
 * not counted, and its deregistration is ignored.
 *
 * An administrator may cap a ULP's entries on a device (kernel_ulp_caps;
 * cap.c): its allocations beyond the cap wait, bounded, then fail.
 *
 * kernel_ulps=1 (the default) counts; 2 also charges: a work item of the
 * device hands the totals to rnic_dev_kulp_charge(), which lowers the
 * budget rdmastor's consumers share by them, so those consumers shrink
 * to make room; the ULPs are never refused (Documentation/rnic_mgr.rst,
 * "Kernel ULPs"). 0 listens to nothing.
 *
 * The probes run where ib_alloc_mr() and ib_dereg_mr() run, possibly
 * atomic: they take only rnic_kulp_lock and allocate with GFP_ATOMIC
 * (an MR whose record cannot be stored is counted in "unrecorded").
 *
 * Invariants K1-K8: kulp.h.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "kulp.h"
#include "../rnic_int.h"
#include "../trace.h"

DEFINE_SPINLOCK(rnic_kulp_lock);
/* ib_device index -> struct rnic_kulp_dev (K3) */
DEFINE_XARRAY(rnic_kulp_devs);
static struct tracepoint *rnic_tp_alloc, *rnic_tp_integ_alloc, *rnic_tp_dereg;
bool rnic_kulp_registered;

/**
 * rnic_kulp_ours - is this protection domain owner one of rdmastor's?
 * @name: the owner's name (KBUILD_MODNAME)
 *
 * K2: rdmastor's modules are the arbiter's consumers, charged there.
 *
 * Return: true for rdmastor_* and rnic_mgr.
 */
bool rnic_kulp_ours(const char *name)
{
	return !strncmp(name, "rdmastor_", 9) || !strcmp(name, "rnic_mgr");
}

/**
 * rnic_kulp_slot - the slot of a kernel ULP on a device
 * @kd: the device's record
 * @name: the ULP's name
 * @idx: set to the slot's index
 *
 * Takes a free slot for a name not seen yet; once all but the last are
 * taken, the last is shared by the rest, as "other".
 * Context: rnic_kulp_lock held.
 *
 * Return: the slot.
 */
struct rnic_kulp *rnic_kulp_slot(struct rnic_kulp_dev *kd, const char *name,
				 unsigned int *idx)
{
	unsigned int i;

	lockdep_assert_held(&rnic_kulp_lock);
	for (i = 0; i < RNIC_KULP_SLOTS - 1; i++) {
		struct rnic_kulp *k = &kd->kd_slots[i];

		if (!k->name[0])
			strscpy(k->name, name, sizeof(k->name));
		if (!strncmp(k->name, name, sizeof(k->name) - 1))
			break;
	}
	if (i == RNIC_KULP_SLOTS - 1)
		strscpy(kd->kd_slots[i].name, "other", sizeof(kd->kd_slots[i].name));
	*idx = i;
	return &kd->kd_slots[i];
}

static void rnic_kulp_count(const struct ib_mr *mr, u64 entries)
{
	const char *name;
	struct rnic_kulp_dev *kd;
	struct rnic_kulp *k;
	unsigned long flags;
	unsigned int slot;
	void *old;

	if (IS_ERR_OR_NULL(mr) || mr->res.user)
		return;
	name = mr->res.kern_name;
	if (!name || rnic_kulp_ours(name))
		return;
	entries = min_t(u64, entries, U32_MAX);
	spin_lock_irqsave(&rnic_kulp_lock, flags);
	kd = xa_load(&rnic_kulp_devs, mr->device->index);
	if (!kd)
		goto out;
	k = rnic_kulp_slot(kd, name, &slot);
	/* K4: what the cap admitted is counted from now on, not reserved */
	k->reserved -= min(k->reserved, entries);
	old = xa_store(&kd->kd_mrs, mr->res.id,
		       xa_mk_value(entries << RNIC_KULP_SLOT_BITS | slot), GFP_ATOMIC);
	if (xa_is_err(old)) {
		kd->kd_unrecorded++;
		goto out;
	}
	/* an id reused under a record that was never cleared: count it once */
	WARN_ON_ONCE(old);
	k->allocs++;
	k->mrs++;
	k->entries += entries;
	k->peak_mrs = max(k->peak_mrs, k->mrs);
	k->peak_entries = max(k->peak_entries, k->entries);
	trace_rnic_kulp_mr(dev_name(&mr->device->dev), k->name, true, entries, k->entries);
	if (rnic_kulp_mode == RNIC_KULP_CHARGE)
		schedule_work(&kd->kd_charge_work);
out:
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
}

static void rnic_kulp_alloc(void *data, const struct ib_pd *pd, enum ib_mr_type type,
			    u32 max_num_sg, const struct ib_mr *mr)
{
	rnic_kulp_count(mr, max_num_sg);
}

static void rnic_kulp_integ_alloc(void *data, const struct ib_pd *pd, u32 max_num_data_sg,
				  u32 max_num_meta_sg, const struct ib_mr *mr)
{
	rnic_kulp_count(mr, (u64)max_num_data_sg + max_num_meta_sg);
}

static void rnic_kulp_dereg(void *data, const struct ib_mr *mr)
{
	struct rnic_kulp_dev *kd;
	struct rnic_kulp *k;
	unsigned long flags;
	u64 v, entries;

	if (mr->res.user)
		return;
	spin_lock_irqsave(&rnic_kulp_lock, flags);
	kd = xa_load(&rnic_kulp_devs, mr->device->index);
	if (!kd)
		goto out;
	v = xa_to_value(xa_erase(&kd->kd_mrs, mr->res.id) ?: xa_mk_value(0));
	if (!v)
		goto out;	/* never counted: before rnic_mgr, or ours */
	k = &kd->kd_slots[v & (RNIC_KULP_SLOTS - 1)];
	entries = v >> RNIC_KULP_SLOT_BITS;
	if (WARN_ON_ONCE(!k->mrs || k->entries < entries))	/* K1 */
		goto out;
	k->mrs--;
	k->entries -= entries;
	trace_rnic_kulp_mr(dev_name(&mr->device->dev), k->name, false, entries, k->entries);
	/* room under a cap: a waiting allocation of this ULP may fit now */
	if (k->cap)
		wake_up_all(&kd->kd_room);
	if (rnic_kulp_mode == RNIC_KULP_CHARGE)
		schedule_work(&kd->kd_charge_work);
out:
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
}

/* The charge work: the device's totals, to the arbiter (kernel_ulps=2). */
static void rnic_kulp_charge_work(struct work_struct *work)
{
	struct rnic_kulp_dev *kd = container_of(work, struct rnic_kulp_dev, kd_charge_work);
	u64 entries = 0, mrs = 0;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&rnic_kulp_lock, flags);
	for (i = 0; i < RNIC_KULP_SLOTS; i++) {
		entries += kd->kd_slots[i].entries;
		mrs += kd->kd_slots[i].mrs;
	}
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	rnic_dev_kulp_charge(kd->kd_rd, entries, mrs);
}

/**
 * rnic_kulp_add_dev - start counting kernel ULPs' MRs on a device
 * @rd: the device rnic_mgr adds
 *
 * Context: process. Without memory the device is simply not counted.
 */
void rnic_kulp_add_dev(struct rnic_dev *rd)
{
	struct rnic_kulp_dev *kd;
	unsigned long flags;

	if (!rnic_kulp_registered)
		return;
	kd = kzalloc(sizeof(*kd), GFP_KERNEL);
	if (!kd)
		return;
	kd->kd_rd = rd;
	INIT_WORK(&kd->kd_charge_work, rnic_kulp_charge_work);
	xa_init(&kd->kd_mrs);
	init_waitqueue_head(&kd->kd_room);
	spin_lock_irqsave(&rnic_kulp_lock, flags);
	if (xa_is_err(xa_store(&rnic_kulp_devs, rd->rd_index, kd, GFP_ATOMIC))) {
		spin_unlock_irqrestore(&rnic_kulp_lock, flags);
		kfree(kd);
		return;
	}
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
}

static void rnic_kulp_free(struct rnic_kulp_dev *kd)
{
	if (!kd)
		return;
	cancel_work_sync(&kd->kd_charge_work);	/* K3 */
	xa_destroy(&kd->kd_mrs);
	kfree(kd);
}

/**
 * rnic_kulp_remove_dev - stop counting on a device that goes
 * @rd: the device rnic_mgr removes
 *
 * Context: process.
 */
void rnic_kulp_remove_dev(struct rnic_dev *rd)
{
	struct rnic_kulp_dev *kd;
	unsigned long flags;

	mutex_lock(&rnic_kulp_wrap_mutex);
	spin_lock_irqsave(&rnic_kulp_lock, flags);
	kd = xa_load(&rnic_kulp_devs, rd->rd_index);
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	/* K5: the driver's alloc_mr back, and no allocation in ours, first */
	if (kd)
		rnic_kulp_cap_unwrap(kd);
	spin_lock_irqsave(&rnic_kulp_lock, flags);
	kd = xa_erase(&rnic_kulp_devs, rd->rd_index);
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	mutex_unlock(&rnic_kulp_wrap_mutex);
	rnic_kulp_free(kd);	/* K3: no probe holds it now */
}

/**
 * rnic_kulp_show - the kernel ULPs of a device, for sysfs
 * @index: the device's index (struct rnic_dev's rd_index)
 * @buf: a sysfs page
 *
 * One line per ULP seen: NAME mrs N entries E peak_mrs N peak_entries E
 * allocs N; then "unrecorded N" if an MR could not be counted. Nothing
 * when counting is off or nothing was seen.
 *
 * Return: bytes written.
 */
ssize_t rnic_kulp_show(u32 index, char *buf)
{
	struct rnic_kulp_dev *kd;
	unsigned long flags;
	ssize_t n = 0;
	unsigned int i;

	spin_lock_irqsave(&rnic_kulp_lock, flags);
	kd = xa_load(&rnic_kulp_devs, index);
	for (i = 0; kd && i < RNIC_KULP_SLOTS; i++) {
		const struct rnic_kulp *k = &kd->kd_slots[i];

		if (!k->allocs)
			continue;
		n += sysfs_emit_at(buf, n,
				   "%s mrs %llu entries %llu peak_mrs %llu peak_entries %llu allocs %llu\n",
				   k->name, k->mrs, k->entries, k->peak_mrs, k->peak_entries,
				   k->allocs);
	}
	if (kd && kd->kd_unrecorded)
		n += sysfs_emit_at(buf, n, "unrecorded %llu\n", kd->kd_unrecorded);
	spin_unlock_irqrestore(&rnic_kulp_lock, flags);
	return n;
}

/* ib_core's tracepoints, found among its module's */
static int rnic_kulp_find(struct notifier_block *nb, unsigned long val, void *data)
{
	struct tp_module *tp_mod = data;
	struct module *mod = tp_mod->mod;
	unsigned int i;

	if (val != MODULE_STATE_COMING || strcmp(mod->name, "ib_core"))
		return NOTIFY_OK;
	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);

		if (!strcmp(tp->name, "mr_alloc"))
			rnic_tp_alloc = tp;
		else if (!strcmp(tp->name, "mr_integ_alloc"))
			rnic_tp_integ_alloc = tp;
		else if (!strcmp(tp->name, "mr_dereg"))
			rnic_tp_dereg = tp;
	}
	return NOTIFY_OK;
}

static struct notifier_block rnic_kulp_nb = { .notifier_call = rnic_kulp_find };

static void rnic_kulp_unregister(void)
{
	if (rnic_tp_alloc)
		tracepoint_probe_unregister(rnic_tp_alloc, rnic_kulp_alloc, NULL);
	if (rnic_tp_integ_alloc)
		tracepoint_probe_unregister(rnic_tp_integ_alloc, rnic_kulp_integ_alloc, NULL);
	if (rnic_tp_dereg)
		tracepoint_probe_unregister(rnic_tp_dereg, rnic_kulp_dereg, NULL);
	tracepoint_synchronize_unregister();
}

/**
 * rnic_kulp_init - find ib_core's MR tracepoints and listen to them
 *
 * Before rnic_client_init(): devices are added afterwards. Without the
 * tracepoints (a kernel built without them) nothing is counted and the
 * kernel log says so; rnic_mgr works on.
 *
 * Context: process.
 */
void rnic_kulp_init(void)
{
	int err;

	if (rnic_kulp_mode == RNIC_KULP_OFF)
		return;
	/* called at once for every loaded module: ib_core is one of ours */
	err = register_tracepoint_module_notifier(&rnic_kulp_nb);
	if (!err)
		unregister_tracepoint_module_notifier(&rnic_kulp_nb);
	if (err || !rnic_tp_alloc || !rnic_tp_dereg) {
		pr_warn("kernel ULPs' MRs are not counted: ib_core's MR tracepoints not found\n");
		return;
	}
	err = tracepoint_probe_register(rnic_tp_alloc, rnic_kulp_alloc, NULL);
	if (!err && rnic_tp_integ_alloc)
		err = tracepoint_probe_register(rnic_tp_integ_alloc, rnic_kulp_integ_alloc, NULL);
	if (!err)
		err = tracepoint_probe_register(rnic_tp_dereg, rnic_kulp_dereg, NULL);
	if (err) {
		rnic_kulp_unregister();
		pr_warn("kernel ULPs' MRs are not counted: tracepoint probe: %d\n", err);
		return;
	}
	rnic_kulp_registered = true;
}

/**
 * rnic_kulp_exit - stop listening, and free what is left
 *
 * After rnic_client_exit(): every device was removed (K3).
 *
 * Context: process.
 */
void rnic_kulp_exit(void)
{
	struct rnic_kulp_dev *kd;
	unsigned long idx;

	if (rnic_kulp_registered)
		rnic_kulp_unregister();
	rnic_kulp_registered = false;
	xa_for_each(&rnic_kulp_devs, idx, kd)
		rnic_kulp_free(kd);
	xa_destroy(&rnic_kulp_devs);
}
