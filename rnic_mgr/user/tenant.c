// SPDX-License-Identifier: GPL-2.0
/*
 * Tenants: who shares a device's translation entries among user-level
 * programs (Documentation/user-level.rst, "Tenants").
 *
 * A user consumer is one process on one device (wrap.c). Left alone, a
 * process would stand beside the kernel consumers with a weight of its
 * own, and a user who forks 16 processes would get 16 shares. So user
 * consumers are grouped into tenants, chosen per device (tenant_by in
 * its sysfs directory):
 *
 *   cgroup   the process's cgroup v2 (the default) at tenant_depth: a
 *            container, a systemd service, a user's slice (all of that
 *            user's sessions and delegated cgroups), a batch job; or
 *            the cgroup a tenant_weights rule names, for all below it;
 *   uid      its owner: its real uid, or within user namespaces the
 *            uid that made the outermost one;
 *   process  no grouping, each process alone (the behaviour before
 *            tenants, kept for comparison).
 *
 * Making a cgroup or a user namespace is within any user's reach, so
 * neither makes a tenant by itself: a user's cgroups lie below depth 2
 * (systemd delegates user@UID.service, at depth 3), and one owner makes
 * at most tenants_per_uid tenants on a device (root is not counted).
 *
 * A tenant stands at the top level of the device's fair shares like one
 * kernel consumer, with its weight (tenant_weights, or user_weight); its
 * share is divided among its processes by their own weights (struct
 * rnp_group). The process's cgroup and uid are taken when its consumer
 * is made, at its first registration or BIND: a process moved to
 * another cgroup later stays in the tenant it started in.
 *
 * Invariants U13-U15 and U17: user.h.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "../rnic_int.h"
#include "../trace.h"
#include "user.h"
#include "name.h"

static LIST_HEAD(rnic_tenants);
/* tenant_weights: the rules and their text (rnic_user_mutex) */
static struct rnt_rule *rnic_rules;
static u32 rnic_nr_rules;
static char rnic_rules_text[RNT_MAX_LIST];

static u32 rnic_tenant_weight(const struct rnic_tenant *t)
{
	return rnt_rules_weight(rnic_rules, rnic_nr_rules, t->t_by, t->t_uid,
				t->t_path, READ_ONCE(rnic_user_weight));
}

/*
 * Who owns the calling process's claims: its real uid, or inside user
 * namespaces whoever made the outermost one (a user's subordinate uids,
 * 65536 by Debian's default, are one owner), as a uid of the initial
 * namespace.
 */
static u32 rnic_owner_uid(void)
{
	const struct user_namespace *ns = current_user_ns();
	kuid_t uid = current_uid();

	for (; ns != &init_user_ns; ns = ns->parent)
		uid = ns->owner;
	return from_kuid_munged(&init_user_ns, uid);
}

/*
 * The calling process's tenant key on a device grouped by @by: its
 * owner, or the cgroup rnt_tenant_level() picks above its own (@buf,
 * PATH_MAX bytes, holds the path).
 */
static void rnic_tenant_key(struct rnic_tenant *t, u32 by, char *buf)
{
	struct cgroup *cgrp, *anc;
	size_t len = 0;
	int full;
	u32 level;

	t->t_by = by;
	t->t_owner = rnic_owner_uid();
	if (by == RNT_BY_UID) {
		t->t_uid = t->t_owner;
		t->t_key = t->t_uid;
		snprintf(t->t_name, sizeof(t->t_name), "uid:%u", t->t_uid);
		return;
	}
	rcu_read_lock();
	cgrp = task_dfl_cgroup(current);
	full = cgroup_path(cgrp, buf, PATH_MAX);
	if (full >= 0 && full < PATH_MAX) {
		level = rnt_tenant_level(rnic_rules, rnic_nr_rules, buf,
					 READ_ONCE(rnic_tenant_depth));
		len = rnt_prefix_len(buf, level);
	} else {
		/* no path to match rules against: the depth alone */
		level = min_t(u32, READ_ONCE(rnic_tenant_depth) ?: cgrp->level, cgrp->level);
	}
	anc = cgroup_ancestor(cgrp, level) ?: cgrp;
	t->t_key = cgroup_id(anc);
	rcu_read_unlock();
	/* a path cut short still names a tenant: the id keys it */
	if (len && len < sizeof(t->t_path)) {
		memcpy(t->t_path, buf, len);
		t->t_path[len] = '\0';
	} else {
		strscpy(t->t_path, "?", sizeof(t->t_path));
	}
	/* the path as rules match it; shown, without control characters */
	snprintf(t->t_name, sizeof(t->t_name), "cgroup:%s", t->t_path);
	rnic_name_sanitize(t->t_name + strlen("cgroup:"), true);
}

/*
 * The tenant @new's process joins: the one with its key, or @new as a
 * tenant of its own; but once its owner has tenants_per_uid tenants on
 * the device (U17), the owner's oldest, so that making cgroups never
 * buys more shares. NULL for @new.
 */
static struct rnic_tenant *rnic_tenant_find(struct rnic_dev *rd,
					    const struct rnic_tenant *new)
{
	struct rnic_tenant *t, *oldest = NULL;
	u32 owned = 0;

	list_for_each_entry(t, &rnic_tenants, t_node) {
		if (t->t_rd != rd || t->t_by != new->t_by)
			continue;
		if (t->t_key == new->t_key)
			return t;
		if (t->t_owner == new->t_owner && owned++ == 0)
			oldest = t;
	}
	if (!new->t_owner || owned < READ_ONCE(rnic_tenants_per_uid))
		return NULL;
	pr_notice_ratelimited("%s: uid %u has %u tenants (tenants_per_uid): %s joins %s\n",
			      rnic_dev_name(rd).s, new->t_owner, owned, new->t_name,
			      oldest->t_name);
	return oldest;
}

/**
 * rnic_tenant_get - the calling process's tenant on a device
 * @rd: the device
 *
 * Finds or makes the tenant and counts the caller's uproc in it (U13).
 *
 * Return: the tenant; NULL when the device groups by process;
 * ERR_PTR(-ENOMEM).
 * Context: process; rnic_user_mutex held.
 */
struct rnic_tenant *rnic_tenant_get(struct rnic_dev *rd)
{
	u32 by = READ_ONCE(rd->rd_user->ud_tenant_by);
	struct rnic_tenant *t, *new;
	char *buf;

	lockdep_assert_held(&rnic_user_mutex);
	if (by == RNT_BY_PROCESS)
		return NULL;
	new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!new || !buf) {
		kfree(new);
		kfree(buf);
		return ERR_PTR(-ENOMEM);
	}
	rnic_tenant_key(new, by, buf);
	kfree(buf);
	t = rnic_tenant_find(rd, new);
	if (t) {
		kfree(new);
		t->t_procs++;
		trace_rnic_tenant_join(rd, t->t_name, t->t_procs);
		return t;
	}
	new->t_rd = rd;
	new->t_procs = 1;
	new->t_grp.weight = rnic_tenant_weight(new);
	list_add_tail(&new->t_node, &rnic_tenants);
	trace_rnic_tenant_join(rd, new->t_name, new->t_procs);
	return new;
}

/**
 * rnic_tenant_put - a process of the tenant is gone
 * @t: the tenant, or NULL
 *
 * Call only after the process's consumer unregistered (U14). The last
 * process frees the tenant.
 * Context: process; rnic_user_mutex held.
 */
void rnic_tenant_put(struct rnic_tenant *t)
{
	lockdep_assert_held(&rnic_user_mutex);
	if (!t || WARN_ON_ONCE(!t->t_procs))
		return;
	trace_rnic_tenant_leave(t->t_rd, t->t_name, t->t_procs - 1);
	if (--t->t_procs)
		return;
	WARN_ON_ONCE(t->t_grp.members);
	list_del(&t->t_node);
	kfree(t);
}

/**
 * rnic_tenant_by_show - a device's tenant grouping, for sysfs
 * @rd: the device
 * @buf: a sysfs page
 *
 * Return: bytes written.
 */
ssize_t rnic_tenant_by_show(struct rnic_dev *rd, char *buf)
{
	return sysfs_emit(buf, "%s\n", rnt_by_name(READ_ONCE(rd->rd_user->ud_tenant_by)));
}

/**
 * rnic_tenant_by_store - choose how a device groups processes (U15)
 * @rd: the device
 * @buf: "cgroup", "uid" or "process"
 *
 * Return: 0, -EINVAL for another word, -EBUSY while the device has
 * tenants (processes with registrations or bindings).
 */
int rnic_tenant_by_store(struct rnic_dev *rd, const char *buf)
{
	int by = rnt_by_parse(buf);
	int err = 0;

	if (by < 0)
		return by;
	mutex_lock(&rnic_user_mutex);
	/* a file that outlived its process holds no tenant (U18) */
	rnic_ufile_reap_orphans(rd);
	/* every tenant has a process on ud_uprocs (U13) */
	if (!list_empty(&rd->rd_user->ud_uprocs))
		err = -EBUSY;
	else
		WRITE_ONCE(rd->rd_user->ud_tenant_by, by);
	mutex_unlock(&rnic_user_mutex);
	if (err)
		pr_warn("%s: tenant_by stays %s: processes are using the device\n",
			rnic_dev_name(rd).s, rnt_by_name(rd->rd_user->ud_tenant_by));
	return err;
}

/* Longest line of `tenants`, with room to spare. */
#define RNIC_TENANTS_LINE	(RNIC_TENANT_NAME + 96)

/**
 * rnic_tenants_show - a device's tenants and their processes, for sysfs
 * @rd: the device
 * @buf: a sysfs page
 *
 * One line per tenant: its name, weight, share and holdings, then its
 * processes' consumer names. Entries held are read without the
 * consumers' locks: a line is a snapshot of each, not of all at once.
 *
 * Return: bytes written.
 */
ssize_t rnic_tenants_show(struct rnic_dev *rd, char *buf)
{
	struct rnic_tenant *t;
	struct rnic_uproc *up;
	ssize_t len;

	len = sysfs_emit(buf, "%-32s %6s %5s %10s %10s %6s %s\n", "tenant", "weight",
			 "procs", "share", "held", "keys", "processes");
	mutex_lock(&rnic_user_mutex);
	list_for_each_entry(t, &rnic_tenants, t_node) {
		u64 held = 0, keys = 0, share;
		u32 weight;

		if (t->t_rd != rd)
			continue;
		if (len > PAGE_SIZE - 2 * RNIC_TENANTS_LINE) {
			len += sysfs_emit_at(buf, len, "...\n");
			break;
		}
		list_for_each_entry(up, &rd->rd_user->ud_uprocs, up_node) {
			if (up->up_tenant != t)
				continue;
			held += READ_ONCE(up->up_cons->rc_pol.r[RNP_ENTRIES].held);
			keys += READ_ONCE(up->up_cons->rc_pol.r[RNP_KEYS].held);
		}
		spin_lock(&rd->rd_lock);
		share = t->t_grp.members ? t->t_grp.share[RNP_ENTRIES] : 0;
		weight = t->t_grp.weight;
		spin_unlock(&rd->rd_lock);
		len += sysfs_emit_at(buf, len, "%-32s %6u %5u %10llu %10llu %6llu", t->t_name,
				     weight, t->t_procs, share, held, keys);
		list_for_each_entry(up, &rd->rd_user->ud_uprocs, up_node) {
			if (up->up_tenant != t)
				continue;
			if (len > PAGE_SIZE - RNIC_TENANTS_LINE) {
				len += sysfs_emit_at(buf, len, " ...");
				break;
			}
			len += sysfs_emit_at(buf, len, " %s.%llu", up->up_cons->rc_name,
					     up->up_cons->rc_id);
		}
		len += sysfs_emit_at(buf, len, "\n");
	}
	mutex_unlock(&rnic_user_mutex);
	return len;
}

/*
 * tenant_weights: the rules are replaced whole, then every tenant that
 * exists takes its new weight at once (a rebalance of its device).
 */
static int rnic_rules_set(const char *val, const struct kernel_param *kp)
{
	struct rnt_rule *rules;
	struct rnic_tenant *t;
	u32 nr;
	int err;

	rules = kcalloc(RNT_MAX_RULES, sizeof(*rules), GFP_KERNEL);
	if (!rules)
		return -ENOMEM;
	err = rnt_rules_parse(val, rules, RNT_MAX_RULES, &nr);
	if (err) {
		kfree(rules);
		pr_warn("tenant_weights refused (%d): KIND:KEY=WEIGHT, KIND uid or cgroup, WEIGHT 1..%u, at most %u rules\n",
			err, RNP_MAX_WEIGHT, RNT_MAX_RULES);
		return err;
	}
	mutex_lock(&rnic_user_mutex);
	swap(rules, rnic_rules);
	rnic_nr_rules = nr;
	strscpy(rnic_rules_text, val, sizeof(rnic_rules_text));
	strim(rnic_rules_text);
	list_for_each_entry(t, &rnic_tenants, t_node)
		rnic_group_set_weight(t->t_rd, &t->t_grp, rnic_tenant_weight(t), t->t_name);
	mutex_unlock(&rnic_user_mutex);
	kfree(rules);
	return 0;
}

static int rnic_rules_get(char *buf, const struct kernel_param *kp)
{
	int len;

	mutex_lock(&rnic_user_mutex);
	len = sysfs_emit(buf, "%s\n", rnic_rules_text);
	mutex_unlock(&rnic_user_mutex);
	return len;
}

static const struct kernel_param_ops rnic_rules_ops = {
	.set = rnic_rules_set,
	.get = rnic_rules_get,
};
module_param_cb(tenant_weights, &rnic_rules_ops, NULL, 0644);
MODULE_PARM_DESC(tenant_weights,
		 "tenants' weights: uid:N=W or cgroup:/PATH=W, comma-separated (others weigh user_weight)");

/**
 * rnic_tenant_exit - free the weight rules at unload
 *
 * Every tenant is gone by then: each went with its last process, and
 * the module cannot unload while a consumer is registered.
 */
void rnic_tenant_exit(void)
{
	WARN_ON_ONCE(!list_empty(&rnic_tenants));
	kfree(rnic_rules);
	rnic_rules = NULL;
}
