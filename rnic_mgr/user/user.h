/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rnic_mgr's user-registration side, shared by wrap.c (the ops wrappers
 * that charge every user MR) and dev.c (/dev/rnic_mgr, through
 * which a process learns what it may hold and is asked to give back).
 * Documentation/user-level.rst.
 */

/*
 * Invariants of the user side, each with its assertion.
 *
 * The wrappers (wrap.c):
 *  U1. Every wrapper increments its device's ud_inflight before
 *      anything that can sleep and decrements it as the last thing it
 *      does; so once the ops are restored and an RCU Tasks grace period
 *      has passed, every task still inside one of the device's wrappers
 *      is counted, and the unwrap waits for the count to reach zero; a
 *      second grace period then sees every task out of the wrappers'
 *      last instructions, before the device's state (and the module's
 *      text) can go. The count is the device's own: a registration
 *      waiting on one device never holds up the removal of another.
 *      Asserted: rnic_user_unwrap() waits on the count between two
 *      synchronize_rcu_tasks(); rnic_user_exit() warns below zero.
 *  U2. A user MR is charged exactly when ud_umrs holds its record,
 *      under its lkey's index (rnic_umr_add()). dereg erases the record
 *      before the driver frees the MR (so the lkey cannot be reused
 *      under it) and puts it back if the driver refuses. A record
 *      leaves the table only under ud_umrs_lock, and is freed only
 *      after it left (the unwrap too: RELEASE_PLAN may still walk it).
 *      Asserted: a record names its MR, and a lookup that finds another
 *      MR under the lkey warns and charges nothing.
 *  U3. A uproc's up_refs counts its records, the verbs contexts it
 *      owns and the callers using it. It reaches zero only under
 *      rnic_user_mutex, where the uproc leaves ud_uprocs and rnic_mgr;
 *      its memory is freed after an RCU grace period, so a lookup in
 *      rnic_uctx under rcu_read_lock() may try refcount_inc_not_zero()
 *      on it (the registration fast path takes no mutex).
 *      Asserted: refcount_t warns on a count going below zero or from
 *      zero back up.
 *  U4. A device is wrapped only while its client data is set: after
 *      rnic_add_one() sets it, which it does before the device's sysfs
 *      directory appears (a udev rule may turn charging on at once),
 *      and until rnic_remove_one() unwraps.
 *      Asserted: rnic_user_wrap() warns and refuses a device whose
 *      client data is not its rnic_dev; tested by user_charging (a
 *      device whose add is held after its directory appeared).
 *  U5. Only a process that was told is ever killed: user_enforce ends a
 *      late process only if it is bound to /dev/rnic_mgr and a REVOKE
 *      was queued to its file. A plain verbs program's registrations
 *      wait or fail instead. Processes are told apart by struct pid,
 *      never by tgid number (a recycled number is a new process).
 *      Enforced: rnic_uproc_late() asks rnic_ufile_told().
 *  U6. A record is on its uproc's up_umrs exactly while it is in
 *      ud_umrs, and it is counted in the held of the one binding its
 *      context routes to at that moment (dev.c, U12).
 *      Asserted: rnic_umr_link() acts only on a change of membership,
 *      and rnic_ufile_count() warns on a count going below zero.
 *  U7. A device's ops point at the wrappers exactly while its mode
 *      (ud_mode) is monitor or on; off, the driver's own ops serve
 *      and nothing is seen. In monitor mode a registration is never
 *      refused or delayed: it is counted in ud_umon, and in the
 *      rd_umon_* totals exactly while ud_umon holds it. A mode change
 *      applies to registrations made from then on; what was charged or
 *      counted before stays so until it is deregistered.
 *      Asserted: rnic_user_set_mode() warns if the wrapped state and
 *      the mode disagree after a change.
 *
 * The character device (dev.c):
 *  U8. A file is bound to at most one uproc; a uproc has at most
 *      RNIC_BIND_MAX files, at most one of them whole-process and at
 *      most one per context. Links change under rnic_user_mutex and the
 *      uproc's up_lock, and each bound file holds a reference on the
 *      uproc (U3).
 *      Asserted: BIND refuses a second binding of the file, of the
 *      context or of the whole process (-EBUSY), and one too many
 *      (-ENOSPC).
 *  U9. Events are queued whole and read whole: the queue holds encoded
 *      events back to back; one that does not fit is dropped, but its
 *      seq is used, so the reader sees the gap and re-reads the page.
 *      Asserted: rnic_ufile_post() encodes with rnic_ev_encode(), which
 *      refuses a size it did not compute.
 *  U10. The shared page is written only under the file's lock, between
 *      two increments of its seq (odd while writing).
 *      Asserted: rnic_ufile_write_shared(), its only writer, holds the
 *      file's lock (lockdep_assert_held).
 *  U11. An open file holds only its struct; the shared page and the
 *      event queue (20 KiB) are allocated at its first BIND, and all
 *      three are charged to the opener's memory cgroup, so opening the
 *      device a million times costs the opener, not the host.
 *      Enforced: rnic_ufile_bind() allocates them before it takes
 *      rnic_user_mutex (a reclaim must not hold it) and publishes them
 *      under it; mmap and read refuse a file never bound.
 *  U12. Each registration routes to one binding at most: the context
 *      binding of its verbs file if there is one, else the
 *      whole-process binding. Its STALE goes there; a context binding's
 *      held counts exactly its registrations (U6), and the
 *      whole-process binding's held is the rest of what the process is
 *      charged; a REVOKE or RECLAIM is divided by those (bind_split.h),
 *      with each part's victims among that binding's registrations.
 *      Asserted: rnic_ufile_count() warns on a count below zero.
 *
 * Tenants (tenant.c):
 *  U13. A tenant is on rnic_tenants exactly while t_procs > 0, and
 *      t_procs counts the uprocs whose up_tenant it is; both change
 *      only under rnic_user_mutex. Asserted: rnic_tenant_put() warns
 *      on a put of a tenant with no process.
 *  U14. A tenant is freed only once none of its processes' consumers is
 *      in the pool: wrap.c unregisters a consumer before it puts the
 *      tenant, and rnp_leave() takes the consumer out of the group.
 *      Asserted: the free warns if the group still has members.
 *  U15. A device's tenant_by changes only while it has no tenant, so a
 *      device never holds tenants of two kinds. Asserted by
 *      rnic_tenant_by_store() (-EBUSY).
 *
 * Who may bind (access.c):
 *  U16. A file is bound to a device only by a caller that shows an open
 *      uverbs file of that device, from a network namespace that may
 *      use it: whoever cannot use the device through verbs cannot make
 *      the arbiter take entries from others for it.
 *      Enforced: rnic_ufile_bind() calls rnic_user_verbs_check() before
 *      it looks for the uproc (-EBADF, -EINVAL, -EACCES).
 *
 * Tenants per owner (tenant.c):
 *  U17. A tenant is made for an owner other than root only while the
 *      owner has fewer than tenants_per_uid tenants on the device;
 *      past it, the process joins its owner's oldest tenant, so no user
 *      gains shares by making cgroups (lowering the cap later leaves
 *      the tenants that exist). Enforced: rnic_tenant_find() counts the
 *      owner's tenants before rnic_tenant_get() makes one.
 *
 * Files and the processes that bound them (dev.c):
 *  U18. A file stays bound only while the process that bound it lives:
 *      a file passed on or inherited is unbound once that process has
 *      exited, at the next BIND on the device, tenant_by write, or
 *      RESERVE or read on the file, so it keeps no dead process's
 *      consumer, reservations or tenant. Enforced:
 *      rnic_ufile_reap_orphans() and rnic_ufile_orphan_check().
 *
 * Lock order: rnic_user_mutex, then the arbiter's locks (rnic_register
 * and rnic_unregister take rd_cons_mutex). The arbiter's callbacks
 * never take rnic_user_mutex.
 */
#ifndef RNIC_MGR_USER_H
#define RNIC_MGR_USER_H

#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include "../rnic_int.h"
#include "tenant_rules.h"

/**
 * struct rnic_user_dev - one device's user-registration state
 * @ud_orig: a copy of the driver's own ops, made when user
 *	registrations were wrapped (wrap.c); freed when the device goes
 * @ud_wrapped: the device's ops point at wrap.c's wrappers
 * @ud_closing: being unwrapped: wrappers charge nothing more
 * @ud_umrs: hash of the user MRs' charges by lkey (wrap.c, U2), or NULL
 * @ud_umrs_lock: guards @ud_umrs
 * @ud_uprocs: the user consumers (processes) of this device
 * @ud_inflight: tasks inside one of this device's wrappers (wrap.c, U1)
 * @ud_draining: an unwrap of this device waits for @ud_inflight
 * @ud_tenant_by: how its user consumers are grouped into tenants (enum
 *	rnt_by; tenant.c); changes only while it has no tenant (U15)
 * @ud_mode: enum rdr_user: what is done with user registrations
 *	(wrap.c); written under @ud_mode_mutex, read locklessly
 * @ud_mode_mutex: serialises mode changes, and the removal's unwrap
 *	against them
 * @ud_gone: the device is being removed: no mode change wraps it again
 * @ud_umon: user MRs counted in monitor mode: MR pointer -> entries
 *	(an xarray value); an MR is counted exactly while it is here
 * @ud_umon_mrs: how many
 * @ud_umon_entries: their entries in all
 * @ud_umon_peak: the most @ud_umon_entries has been since counting began
 */
struct rnic_user_dev {
	const struct ib_device_ops *ud_orig;
	bool ud_wrapped;
	bool ud_closing;
	struct hlist_head *ud_umrs;
	spinlock_t ud_umrs_lock;
	struct list_head ud_uprocs;
	atomic_t ud_inflight;
	atomic_t ud_draining;
	u32 ud_tenant_by;

	u32 ud_mode;
	struct mutex ud_mode_mutex;	/* mode changes, the removal's unwrap */
	bool ud_gone;
	struct xarray ud_umon;
	atomic64_t ud_umon_mrs;
	atomic64_t ud_umon_entries;
	atomic64_t ud_umon_peak;
};

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
 * @t_owner: the uid that made it (a user namespace's owner for those
 *	within one), for tenants_per_uid (U17)
 * @t_path: the cgroup's path from the root (RNT_BY_CGROUP), for rules
 * @t_name: "cgroup:PATH" or "uid:N", in sysfs and traces
 * @t_procs: uprocs in it (rnic_user_mutex); it is freed at 0 (U13)
 * @t_grp: the policy's group; its weight changes under the pool lock
 */
struct rnic_tenant {
	struct list_head t_node;
	struct rnic_dev *t_rd;
	u32 t_by;
	u64 t_key;
	u32 t_uid;
	u32 t_owner;
	char t_path[RNT_MAX_PATH];
	char t_name[RNIC_TENANT_NAME];
	u32 t_procs;
	struct rnp_group t_grp;
};

/**
 * struct rnic_uproc - one process's consumer on one device
 * @up_node: on ud_uprocs
 * @up_rd: the device
 * @up_tgid: the process
 * @up_tenant: the tenant it belongs to, or NULL (tenant_by process)
 * @up_refs: records + owned verbs contexts + callers holding it (U3)
 * @up_cons: its rnic_mgr consumer
 * @up_pid: the process, to end it (user_enforce)
 * @up_lock: guards @up_files and @up_umrs for callbacks, which cannot
 *	take rnic_user_mutex; taken before a file's lock, never with
 *	ud_umrs_lock
 * @up_files: the /dev/rnic_mgr files bound to it (dev.c, U8)
 * @up_nfiles: how many; read without the lock to skip unbound processes
 * @up_umrs: its records (struct rnic_umr), to walk them without the
 *	device's table
 * @up_resv_entries: entries reserved ahead (RNIC_IOC_RESERVE) and not yet
 *	drawn by a registration; charged to @up_cons (@up_lock)
 * @up_resv_keys: likewise, keys
 * @up_async: asynchronous reservations pending (dev.c)
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
 * @um_hnode: in the device's ud_umrs bucket of @um_lkey
 * @um_proc: charged to
 * @um_key: the verbs file of the context it was made through, compared
 *	with a binding's (never dereferenced)
 * @um_pnode: on @um_proc's up_umrs while it is in ud_umrs (@up_lock)
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

bool rnic_user_charging(struct rnic_dev *rd);
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

const void *rnic_user_verbs_check(int verbs_fd, const char *name,
				  struct ib_device *ibdev);
int rnic_user_dev_init(void);
void rnic_user_dev_exit(void);
void rnic_ufile_publish(struct rnic_uproc *up);
void rnic_ufile_revoke(struct rnic_uproc *up, u64 target, u64 key_target);
void rnic_ufile_grow(struct rnic_uproc *up, u64 entries, u64 keys);
void rnic_ufile_reclaim(struct rnic_uproc *up, u64 entries);
void rnic_ufile_stale(struct rnic_uproc *up, struct rnic_umr *um);
void rnic_ufile_detach(struct rnic_uproc *up);
void rnic_ufile_reap_orphans(struct rnic_dev *rd);
bool rnic_ufile_told(struct rnic_uproc *up);
void rnic_ufile_count(struct rnic_uproc *up, struct rnic_umr *um, bool add);
void rnic_ufile_forget_key(struct rnic_dev *rd, const void *key);

#endif /* RNIC_MGR_USER_H */
