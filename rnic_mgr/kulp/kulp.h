/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel ULPs' MRs, shared by count.c (counting, from ib_core's
 * tracepoints) and cap.c (caps, a wrapper of the device's
 * alloc_mr). Everything here is under rnic_kulp_lock unless it says.
 */

/*
 * Invariants of the kernel ULPs' side, each with its assertion.
 *
 * Counting (count.c):
 *  K1. An MR is counted exactly while its restrack id is in its
 *      device's kd_mrs, whose value names its slot and its entries; a
 *      slot's mrs and entries are the sums over the MRs recorded in it.
 *      Asserted: rnic_kulp_dereg() warns if a slot would go below zero.
 *  K2. rdmastor's own modules (rdmastor_*, rnic_mgr) are never counted
 *      here: they are consumers of the arbiter, charged there.
 *      Enforced: rnic_kulp_ours().
 *  K3. A device's record is created when rnic_mgr adds the device and
 *      freed when it removes it, both under rnic_kulp_lock, which every
 *      probe holds while it uses the record: a probe never sees freed
 *      memory. After rnic_kulp_exit() unregisters the probes and waits
 *      (tracepoint_synchronize_unregister()), none runs. The record's
 *      charge work is cancelled after it is unpublished and before it
 *      is freed, while its rnic_dev still lives.
 *      Asserted: rnic_kulp_slot(), through which every probe reaches a
 *      record's slots, holds rnic_kulp_lock (lockdep_assert_held);
 *      rnic_kulp_free() cancels the charge work before the kfree().
 *
 * Caps (cap.c):
 *  K4. A slot's entries + reserved stay within its cap for every
 *      allocation admitted while the cap is set; reserved is the sum of
 *      the admitted allocations whose MR is neither counted nor failed.
 *      Asserted: rnic_kulp_settle() warns if reserved would go below
 *      zero; the count takes over an MR's entries (rnic_kulp_count()).
 *  K5. Once rnic_kulp_cap_unwrap() returns, no task runs in
 *      rnic_kulp_alloc_mr() or rnic_kulp_alloc_mr_integrity(), and the
 *      device's ops are the driver's again; it waits for no other
 *      device's allocations. Enforced: the ops are restored, then an RCU
 *      Tasks grace period (a task between reading the pointer and
 *      counting itself in), then the device's own kd_inflight is awaited
 *      (a waiter is woken by kd_closing), then a second grace period for
 *      the wrapper's last instructions. Tested by rnic_mgr_kulp_removal
 *      (a device removed while another's allocations wait in a loop).
 *  K6. A wrapper never sleeps unless preemptible(), and never longer
 *      than kernel_ulp_wait_ms. Enforced: rnic_kulp_admit().
 *  K7. A share cap is set only while its ULP holds and reserves
 *      nothing: it bounds what the ULP takes from then on, and never
 *      turns what it holds into a debt. Enforced: rnic_kulp_share_cap()
 *      checks it under rnic_kulp_lock before it writes the cap.
 *  K8. No cap lands on the shared "other" slot, whose many ULPs have no
 *      one weight or share, and the device's default share cap ("*
 *      share") applies only to a ULP no administrator's line names.
 *      Enforced: rnic_kulp_cap_store() refuses the name "other" and a
 *      slot that is not the name's own; rnic_kulp_default_share()
 *      skips the shared slot and named ULPs, under rnic_kulp_lock.
 *      Asserted in rnic_kulp_share_cap().
 */
#ifndef RNIC_KULP_H
#define RNIC_KULP_H

#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

/* kernel ULPs told apart per device; more share the last slot, "other" */
#define RNIC_KULP_SLOTS		16
#define RNIC_KULP_SLOT_BITS	4

/**
 * struct rnic_kulp - one kernel ULP's MRs on one device
 * @name: its protection domain's owner (KBUILD_MODNAME), "" if unused
 * @mrs: MRs it holds
 * @entries: their translation entries (pages they can map)
 * @peak_mrs: the most @mrs has been
 * @peak_entries: the most @entries has been
 * @allocs: MRs it allocated in all
 * @cap: the most entries it may hold, 0 for no cap (cap.c)
 * @reserved: entries of allocations admitted under the cap whose MR is
 *	not counted yet (the count takes them over, K4)
 * @waits: allocations that waited for room under the cap
 * @refused: allocations refused: no room under the cap in time
 * @refusal_logged: the first refusal was logged (once per ULP and device)
 * @share: @cap is the ULP's share, set again at each allocation that
 *	finds it holding nothing (cap.c)
 * @share_weight: the weight that share was computed for
 * @own: an administrator wrote a line for this ULP (a cap, its share or
 *	0): the device's default (@kd_default_share) is not applied to it
 */
struct rnic_kulp {
	char name[32];
	u64 mrs;
	u64 entries;
	u64 peak_mrs;
	u64 peak_entries;
	u64 allocs;
	u64 cap;
	u64 reserved;
	u64 waits;
	u64 refused;
	bool refusal_logged;
	bool share;
	u32 share_weight;
	bool own;
};

/**
 * struct rnic_kulp_dev - the kernel ULPs of one device
 * @kd_rd: the device's rnic_dev (outlives this record)
 * @kd_charge_work: hands the totals to rnic_dev_kulp_charge()
 * @kd_mrs: restrack id of each counted MR -> xa_mk_value(entries << 4 | slot)
 * @kd_unrecorded: MRs not counted: no memory for their record
 * @kd_slots: the ULPs
 * @kd_room: allocations waiting for room under a cap
 * @kd_wrapped: the device's alloc_mr is cap.c's (under
 *	rnic_kulp_wrap_mutex)
 * @kd_closing: the device goes: waiters stop waiting, nothing is capped
 * @kd_inflight: tasks in this device's wrappers (K5): the device's own,
 *	so that one device's waiting allocations never hold up another's
 *	removal
 * @kd_default_share: every ULP without a line of its own is capped at
 *	its share ("* share", cap.c K8)
 * @kd_alloc_mr: the driver's own alloc_mr, while wrapped
 * @kd_alloc_mr_integrity: the driver's own alloc_mr_integrity, while
 *	wrapped
 */
struct rnic_kulp_dev {
	struct rnic_dev *kd_rd;
	struct work_struct kd_charge_work;
	struct xarray kd_mrs;
	u64 kd_unrecorded;
	struct rnic_kulp kd_slots[RNIC_KULP_SLOTS];
	wait_queue_head_t kd_room;
	bool kd_wrapped;
	bool kd_closing;
	atomic_t kd_inflight;
	bool kd_default_share;
	struct ib_mr *(*kd_alloc_mr)(struct ib_pd *pd, enum ib_mr_type type, u32 max_num_sg);
	struct ib_mr *(*kd_alloc_mr_integrity)(struct ib_pd *pd, u32 max_num_data_sg,
					       u32 max_num_meta_sg);
};

extern spinlock_t rnic_kulp_lock;
extern struct xarray rnic_kulp_devs;
extern struct mutex rnic_kulp_wrap_mutex;
extern bool rnic_kulp_registered;

bool rnic_kulp_ours(const char *name);
struct rnic_kulp *rnic_kulp_slot(struct rnic_kulp_dev *kd, const char *name, unsigned int *idx);
void rnic_kulp_cap_unwrap(struct rnic_kulp_dev *kd);

#endif /* RNIC_KULP_H */
