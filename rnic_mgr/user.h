/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rnic_mgr's user-registration side, shared by user.c (the ops wrappers
 * that charge every user MR) and user_dev.c (/dev/rnic_mgr, through
 * which a process learns what it may hold and is asked to give back).
 * Documentation/user-level.rst.
 */
#ifndef RNIC_MGR_USER_H
#define RNIC_MGR_USER_H

#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include "rnic_int.h"
#include "tenant_rules.h"

struct rnic_ufile;

/* "cgroup:" and a cgroup path, or "uid:" and a number */
#define RNIC_TENANT_NAME	(8 + RNT_MAX_PATH)

/**
 * struct rnic_tenant - the processes of one cgroup or uid on one device
 * @t_node: on tenant.c's list of every tenant (rnic_user_mutex)
 * @t_rd: the device
 * @t_by: how it was grouped (enum rnt_by)
 * @t_key: the cgroup's id or the uid
 * @t_uid: the uid (RNT_BY_UID), for weight rules
 * @t_path: the cgroup's path from the root (RNT_BY_CGROUP), for rules
 * @t_name: "cgroup:PATH" or "uid:N", in sysfs and traces
 * @t_procs: uprocs in it (rnic_user_mutex); it is freed at 0 (T1)
 * @t_grp: the policy's group; its weight changes under the pool lock
 */
struct rnic_tenant {
	struct list_head t_node;
	struct rnic_dev *t_rd;
	u32 t_by;
	u64 t_key;
	u32 t_uid;
	char t_path[RNT_MAX_PATH];
	char t_name[RNIC_TENANT_NAME];
	u32 t_procs;
	struct rnp_group t_grp;
};

/**
 * struct rnic_uproc - one process's consumer on one device
 * @up_node: on rd_uprocs
 * @up_rd: the device
 * @up_tgid: the process
 * @up_tenant: the tenant it belongs to, or NULL (tenant_by process)
 * @up_refs: records + owned verbs contexts + callers holding it (U3)
 * @up_cons: its rnic_mgr consumer
 * @up_pid: the process, to end it (user_enforce)
 * @up_lock: guards @up_files and @up_umrs for callbacks, which cannot
 *	take rnic_user_mutex; taken before a file's lock, never with
 *	rd_umrs_lock
 * @up_files: the /dev/rnic_mgr files bound to it (user_dev.c, F1)
 * @up_nfiles: how many; read without the lock to skip unbound processes
 * @up_umrs: its records (struct rnic_umr), to walk them without the
 *	device's table
 * @up_resv_entries: entries reserved ahead (RNIC_IOC_RESERVE) and not yet
 *	drawn by a registration; charged to @up_cons (@up_lock)
 * @up_resv_keys: likewise, keys
 * @up_async: asynchronous reservations pending (user_dev.c)
 * @up_rcu: frees it after lock-free lookups (rnic_uctx) are done
 */
struct rnic_uproc {
	struct list_head up_node;
	struct rnic_dev *up_rd;
	pid_t up_tgid;
	struct rnic_tenant *up_tenant;
	refcount_t up_refs;
	struct rnic_consumer *up_cons;
	struct pid *up_pid;
	spinlock_t up_lock;
	struct list_head up_files;
	u32 up_nfiles;
	struct list_head up_umrs;
	u64 up_resv_entries;
	u64 up_resv_keys;
	atomic_t up_async;
	struct rcu_head up_rcu;
};

/**
 * struct rnic_umr - what one user MR was charged
 * @um_mr: the MR
 * @um_lkey: its lkey when recorded (the table's key)
 * @um_hnode: in the device's rd_umrs bucket of @um_lkey
 * @um_proc: charged to
 * @um_key: the verbs file of the context it was made through, compared
 *	with a binding's (never dereferenced)
 * @um_pnode: on @um_proc's up_umrs while it is in rd_umrs (@up_lock)
 * @um_entries: pages spanned
 * @um_addr: the registered range's start (the process's address)
 * @um_len: its length
 * @um_watched: @um_notif is inserted (the process was bound)
 * @um_stale: a STALE event was posted for it
 * @um_notif: follows the range's mapping, for STALE
 */
struct rnic_umr {
	struct ib_mr *um_mr;
	u32 um_lkey;
	struct hlist_node um_hnode;
	struct rnic_uproc *um_proc;
	const void *um_key;
	struct list_head um_pnode;
	u32 um_entries;
	u64 um_addr;
	u64 um_len;
	bool um_watched;
	bool um_stale;
	struct mmu_interval_notifier um_notif;
};

extern struct mutex rnic_user_mutex;

struct rnic_uproc *rnic_uproc_find_or_create(struct rnic_dev *rd);
void rnic_uproc_put(struct rnic_uproc *up);
void rnic_uproc_put_unlocked(struct rnic_uproc *up);
u64 rnic_uproc_plan_entries(struct rnic_uproc *up, const u32 *lkeys, u32 n);
int rnic_uproc_reserve(struct rnic_uproc *up, u64 entries, u32 keys, bool nowait);
u64 rnic_uproc_unreserve(struct rnic_uproc *up);
u64 rnic_uproc_unreserve_some(struct rnic_uproc *up, u64 entries, u64 keys);

struct rnic_tenant *rnic_tenant_get(struct rnic_dev *rd);
void rnic_tenant_put(struct rnic_tenant *t);
void rnic_tenant_exit(void);

int rnic_user_dev_init(void);
void rnic_user_dev_exit(void);
void rnic_ufile_publish(struct rnic_uproc *up);
void rnic_ufile_revoke(struct rnic_uproc *up, u64 target, u64 key_target);
void rnic_ufile_grow(struct rnic_uproc *up, u64 entries, u64 keys);
void rnic_ufile_reclaim(struct rnic_uproc *up, u64 entries);
void rnic_ufile_stale(struct rnic_uproc *up, struct rnic_umr *um);
void rnic_ufile_detach(struct rnic_uproc *up);
bool rnic_ufile_told(struct rnic_uproc *up);
void rnic_ufile_count(struct rnic_uproc *up, struct rnic_umr *um, bool add);
void rnic_ufile_forget_key(struct rnic_dev *rd, const void *key);

#endif /* RNIC_MGR_USER_H */
