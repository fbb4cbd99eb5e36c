/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel ULPs' MRs, shared by kulp.c (counting, from ib_core's
 * tracepoints) and kulp_cap.c (caps, a wrapper of the device's
 * alloc_mr). Everything here is under rnic_kulp_lock unless it says.
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
 * @cap: the most entries it may hold, 0 for no cap (kulp_cap.c)
 * @reserved: entries of allocations admitted under the cap whose MR is
 *	not counted yet (the count takes them over, C1)
 * @waits: allocations that waited for room under the cap
 * @refused: allocations refused: no room under the cap in time
 * @share: @cap is the ULP's share, set again at each allocation that
 *	finds it holding nothing (kulp_cap.c)
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
 * @kd_wrapped: the device's alloc_mr is kulp_cap.c's (under
 *	rnic_kulp_wrap_mutex)
 * @kd_closing: the device goes: waiters stop waiting, nothing is capped
 * @kd_default_share: every ULP without a line of its own is capped at
 *	its share ("* share", kulp_cap.c C5)
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
