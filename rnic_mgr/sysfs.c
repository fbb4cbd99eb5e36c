// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_mgr's sysfs tree:
 *
 *   /sys/kernel/rnic_mgr/devices/<ibdev>/
 *       ibdev max_mr max_frpl        what the device reports
 *       budget key_budget            writable: the device's budgets
 *       budget_limit key_budget_limit  the most the device can map
 *       budget_source key_budget_source  where each budget came from
 *       policy                       writable: arbiter, fcfs or static
 *       free key_free reserve granted nr_consumers waiting rebalances
 *       table                        one line per consumer (rnic-top)
 *       tenant_by                    writable: cgroup, uid or process
 *       user_charging                writable: off, monitor or on
 *       user_mrs user_entries user_peak  user MRs counted in monitor mode
 *       tenants                      one line per tenant (user/tenant.c)
 *       consumers/<name>.<id>/       one directory per consumer:
 *           name tenant weight min share held grant peak demand target
 *           key_min key_share key_held key_peak
 *           waits eagain wait_time_us revocations late_revocations
 *           last_reclaim_ms idle_reclaims
 *
 * Values are read under the device's pool lock, so each file is a
 * consistent snapshot; `table` is one for all consumers at once.
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sysfs.h>

#include "rnic_int.h"
#include "user/tenant_rules.h"
#include "dev_rules.h"
#include "user/user.h"

static struct kobject *rnic_root_kobj;
static struct kset *rnic_devices_kset;

static struct rnic_dev *to_rnic_dev(struct kobject *kobj)
{
	return container_of(kobj, struct rnic_dev, rd_kobj);
}

static struct rnic_consumer *to_rnic_consumer(struct kobject *kobj)
{
	return container_of(kobj, struct rnic_consumer, rc_kobj);
}

/* ---- device attributes ---- */

static ssize_t ibdev_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", rnic_dev_name(to_rnic_dev(kobj)).s);
}

static struct kobj_attribute ibdev_attr = __ATTR_RO(ibdev);

static ssize_t max_mr_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%u\n", to_rnic_dev(kobj)->rd_max_mr);
}

static struct kobj_attribute max_mr_attr = __ATTR_RO(max_mr);

static ssize_t max_frpl_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", to_rnic_dev(kobj)->rd_max_frpl);
}

static struct kobj_attribute max_frpl_attr = __ATTR_RO(max_frpl);

enum rnic_dev_field {
	RD_BUDGET, RD_KEY_BUDGET, RD_FREE, RD_KEY_FREE, RD_RESERVE,
	RD_GRANTED, RD_CONSUMERS, RD_WAITING, RD_REBALANCES,
	RD_SHARED, RD_KEY_SHARED, RD_KULP_ENTRIES, RD_KULP_KEYS,
	RD_LIMIT, RD_KEY_LIMIT,
};

static u64 rnic_dev_field(struct rnic_dev *rd, enum rnic_dev_field f)
{
	struct rnp_pool *p = &rd->rd_pool;

	switch (f) {
	/* what the administrator set; shared: what is left for consumers */
	case RD_BUDGET: return rd->rd_conf_budget[RNP_ENTRIES];
	case RD_KEY_BUDGET: return rd->rd_conf_budget[RNP_KEYS];
	case RD_SHARED: return p->r[RNP_ENTRIES].budget;
	case RD_KEY_SHARED: return p->r[RNP_KEYS].budget;
	case RD_KULP_ENTRIES: return rd->rd_kulp_charge[RNP_ENTRIES];
	case RD_KULP_KEYS: return rd->rd_kulp_charge[RNP_KEYS];
	case RD_FREE: return rnp_free(p, RNP_ENTRIES);
	case RD_KEY_FREE: return rnp_free(p, RNP_KEYS);
	case RD_RESERVE: return p->r[RNP_ENTRIES].reserve;
	case RD_GRANTED: return p->r[RNP_ENTRIES].granted;
	case RD_CONSUMERS: return p->nr;
	case RD_WAITING: return atomic_read(&rd->rd_nr_waiting);
	case RD_REBALANCES: return rd->rd_rebalances;
	/* the most the device can map, as it reports it */
	case RD_LIMIT: return rnic_dev_limit(rd, RNP_ENTRIES);
	case RD_KEY_LIMIT: return rnic_dev_limit(rd, RNP_KEYS);
	}
	return 0;
}

struct rnic_dev_attr {
	struct kobj_attribute attr;
	enum rnic_dev_field field;
};

static ssize_t rnic_dev_u64_show(struct kobject *kobj, struct kobj_attribute *attr,
				 char *buf)
{
	struct rnic_dev *rd = to_rnic_dev(kobj);
	struct rnic_dev_attr *da = container_of(attr, struct rnic_dev_attr, attr);
	u64 v;

	spin_lock(&rd->rd_lock);
	v = rnic_dev_field(rd, da->field);
	spin_unlock(&rd->rd_lock);
	return sysfs_emit(buf, "%llu\n", v);
}

static ssize_t rnic_dev_budget_store(struct kobject *kobj, struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	struct rnic_dev_attr *da = container_of(attr, struct rnic_dev_attr, attr);
	u64 v;
	int err;

	err = kstrtou64(buf, 0, &v);
	if (err)
		return err;
	err = rnic_dev_set_budget(to_rnic_dev(kobj),
				  da->field == RD_BUDGET ? RNP_ENTRIES : RNP_KEYS, v,
				  RNIC_BUDGET_WRITTEN);
	return err ? err : count;
}

#define RNIC_DEV_RO(_name, _field) \
	static struct rnic_dev_attr _name##_attr = { \
		.attr = __ATTR(_name, 0444, rnic_dev_u64_show, NULL), \
		.field = _field, \
	}
#define RNIC_DEV_RW(_name, _field) \
	static struct rnic_dev_attr _name##_attr = { \
		.attr = __ATTR(_name, 0644, rnic_dev_u64_show, rnic_dev_budget_store), \
		.field = _field, \
	}

RNIC_DEV_RW(budget, RD_BUDGET);
RNIC_DEV_RW(key_budget, RD_KEY_BUDGET);
RNIC_DEV_RO(free, RD_FREE);
RNIC_DEV_RO(shared_budget, RD_SHARED);
RNIC_DEV_RO(shared_key_budget, RD_KEY_SHARED);
RNIC_DEV_RO(kernel_charged, RD_KULP_ENTRIES);
RNIC_DEV_RO(kernel_charged_keys, RD_KULP_KEYS);
RNIC_DEV_RO(key_free, RD_KEY_FREE);
RNIC_DEV_RO(reserve, RD_RESERVE);
RNIC_DEV_RO(granted, RD_GRANTED);
RNIC_DEV_RO(nr_consumers, RD_CONSUMERS);
RNIC_DEV_RO(waiting, RD_WAITING);
RNIC_DEV_RO(rebalances, RD_REBALANCES);
RNIC_DEV_RO(budget_limit, RD_LIMIT);
RNIC_DEV_RO(key_budget_limit, RD_KEY_LIMIT);

/* Where budget (or key_budget, @r) came from, in one line. */
static ssize_t rnic_budget_source_show(struct rnic_dev *rd, enum rnp_res r, char *buf)
{
	u8 src;

	mutex_lock(&rd->rd_cons_mutex);
	src = rd->rd_budget_src[r];
	mutex_unlock(&rd->rd_cons_mutex);
	switch (src) {
	case RNIC_BUDGET_DEFAULT:
		return sysfs_emit(buf, "%s\n",
				  r == RNP_ENTRIES ? "default_entries" : "default_keys");
	case RNIC_BUDGET_DEVICE:
		if (r == RNP_KEYS)
			return sysfs_emit(buf, "device: max_mr %u\n", rd->rd_max_mr);
		return sysfs_emit(buf, "device: max_mr %u x max_fast_reg_page_list_len %u\n",
				  rd->rd_max_mr, rd->rd_max_frpl);
	case RNIC_BUDGET_RULE:
		return sysfs_emit(buf, "devices\n");
	default:
		return sysfs_emit(buf, "written\n");
	}
}

static ssize_t budget_source_show(struct kobject *kobj, struct kobj_attribute *attr,
				  char *buf)
{
	return rnic_budget_source_show(to_rnic_dev(kobj), RNP_ENTRIES, buf);
}

static ssize_t key_budget_source_show(struct kobject *kobj, struct kobj_attribute *attr,
				      char *buf)
{
	return rnic_budget_source_show(to_rnic_dev(kobj), RNP_KEYS, buf);
}

static struct kobj_attribute budget_source_attr = __ATTR_RO(budget_source);
static struct kobj_attribute key_budget_source_attr = __ATTR_RO(key_budget_source);

static ssize_t policy_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	struct rnic_dev *rd = to_rnic_dev(kobj);
	u32 pol = READ_ONCE(rd->rd_pool.policy);

	return sysfs_emit(buf, "%s\n", rnp_policy_name(pol));
}

static ssize_t policy_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	int pol = rnp_policy_parse(buf);
	int err;

	if (pol < 0)
		return pol;
	err = rnic_dev_set_policy(to_rnic_dev(kobj), pol);
	return err ? err : count;
}

static struct kobj_attribute policy_attr = __ATTR_RW(policy);

/* Longest line of `table`, with room to spare (a tenant's name too). */
#define RNIC_TABLE_LINE	(160 + RNT_MAX_PATH)

static ssize_t table_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct rnic_dev *rd = to_rnic_dev(kobj);
	struct rnic_consumer *c;
	unsigned int nr_left;
	ssize_t len;

	len = sysfs_emit(buf, "%-20s %6s %8s %10s %10s %10s %10s %10s %6s %6s %9s %7s %5s %s\n",
			 "consumer", "weight", "min", "share", "held", "peak",
			 "demand", "target", "keys", "waits", "wait_ms",
			 "revoked", "late", "tenant");
	mutex_lock(&rd->rd_cons_mutex);
	spin_lock(&rd->rd_lock);
	nr_left = 0;
	list_for_each_entry(c, &rd->rd_consumers, rc_node)
		nr_left++;
	list_for_each_entry(c, &rd->rd_consumers, rc_node) {
		const struct rnp_res_state *e = &c->rc_pol.r[RNP_ENTRIES];
		char name[48];

		/* One page: say how many did not fit rather than cut a line. */
		if (len > PAGE_SIZE - 2 * RNIC_TABLE_LINE) {
			len += sysfs_emit_at(buf, len, "... %u more: see consumers/\n",
					     nr_left);
			break;
		}
		nr_left--;

		snprintf(name, sizeof(name), "%s.%llu", c->rc_name, c->rc_id);
		len += sysfs_emit_at(buf, len,
				     "%-20s %6u %8llu %10llu %10llu %10llu %10llu %10lld %6llu %6llu %9llu %7llu %5llu %s\n",
				     name, c->rc_pol.weight, e->min, e->share, e->held,
				     e->peak, e->demand,
				     e->target == RNP_NO_TARGET ? -1LL : (s64)e->target,
				     c->rc_pol.r[RNP_KEYS].held, c->rc_waits,
				     div_u64(c->rc_wait_ns, NSEC_PER_MSEC),
				     c->rc_revocations, c->rc_late,
				     c->rc_tenant ? c->rc_tenant : "-");
	}
	spin_unlock(&rd->rd_lock);
	mutex_unlock(&rd->rd_cons_mutex);
	return len;
}

/* Each consumer's name, tenant and holdings: root's to read (N8). */
static struct kobj_attribute table_attr = __ATTR(table, 0400, table_show, NULL);

static ssize_t tenant_by_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	return rnic_tenant_by_show(to_rnic_dev(kobj), buf);
}

static ssize_t tenant_by_store(struct kobject *kobj, struct kobj_attribute *attr,
			       const char *buf, size_t count)
{
	int err = rnic_tenant_by_store(to_rnic_dev(kobj), buf);

	return err ? err : count;
}

static struct kobj_attribute tenant_by_attr = __ATTR_RW(tenant_by);

static ssize_t tenants_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	return rnic_tenants_show(to_rnic_dev(kobj), buf);
}

/* The tenants' cgroup paths, from the host's root: root's to read. */
static struct kobj_attribute tenants_attr = __ATTR(tenants, 0400, tenants_show, NULL);

static ssize_t user_charging_show(struct kobject *kobj, struct kobj_attribute *attr,
				  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  rdr_user_name(READ_ONCE(to_rnic_dev(kobj)->rd_user->ud_mode)));
}

static ssize_t user_charging_store(struct kobject *kobj, struct kobj_attribute *attr,
				   const char *buf, size_t count)
{
	int mode = rdr_user_parse(buf);
	int err;

	if (mode < 0)
		return mode;
	err = rnic_user_set_mode(to_rnic_dev(kobj), mode, "sysfs");
	return err ? err : count;
}

static struct kobj_attribute user_charging_attr = __ATTR_RW(user_charging);

/* the monitor-mode totals (user/wrap.c, U7) */
static ssize_t rnic_umon_show(char *buf, atomic64_t *v)
{
	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(v));
}

static ssize_t user_mrs_show(struct kobject *kobj, struct kobj_attribute *attr,
			     char *buf)
{
	return rnic_umon_show(buf, &to_rnic_dev(kobj)->rd_user->ud_umon_mrs);
}

static ssize_t user_entries_show(struct kobject *kobj, struct kobj_attribute *attr,
				 char *buf)
{
	return rnic_umon_show(buf, &to_rnic_dev(kobj)->rd_user->ud_umon_entries);
}

static ssize_t user_peak_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	return rnic_umon_show(buf, &to_rnic_dev(kobj)->rd_user->ud_umon_peak);
}

/* kernel ULPs' MRs (kulp/count.c) */
static ssize_t kernel_ulps_show(struct kobject *kobj, struct kobj_attribute *attr,
				char *buf)
{
	return rnic_kulp_show(to_rnic_dev(kobj)->rd_index, buf);
}

static struct kobj_attribute kernel_ulps_attr = __ATTR_RO(kernel_ulps);

/* caps on kernel ULPs' entries (kulp/cap.c): "NAME ENTRIES", 0 lifts */
static ssize_t kernel_ulp_caps_show(struct kobject *kobj, struct kobj_attribute *attr,
				    char *buf)
{
	return rnic_kulp_caps_show(to_rnic_dev(kobj), buf);
}

static ssize_t kernel_ulp_caps_store(struct kobject *kobj, struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	int err = rnic_kulp_cap_store(to_rnic_dev(kobj), buf);

	return err ? err : count;
}

static struct kobj_attribute kernel_ulp_caps_attr = __ATTR_RW(kernel_ulp_caps);
static struct kobj_attribute user_mrs_attr = __ATTR_RO(user_mrs);
static struct kobj_attribute user_entries_attr = __ATTR_RO(user_entries);
static struct kobj_attribute user_peak_attr = __ATTR_RO(user_peak);

static struct attribute *rnic_dev_attrs[] = {
	&ibdev_attr.attr,
	&max_mr_attr.attr,
	&max_frpl_attr.attr,
	&budget_attr.attr.attr,
	&key_budget_attr.attr.attr,
	&budget_source_attr.attr,
	&key_budget_source_attr.attr,
	&budget_limit_attr.attr.attr,
	&key_budget_limit_attr.attr.attr,
	&policy_attr.attr,
	&free_attr.attr.attr,
	&key_free_attr.attr.attr,
	&reserve_attr.attr.attr,
	&granted_attr.attr.attr,
	&nr_consumers_attr.attr.attr,
	&waiting_attr.attr.attr,
	&rebalances_attr.attr.attr,
	&table_attr.attr,
	&tenant_by_attr.attr,
	&tenants_attr.attr,
	&user_charging_attr.attr,
	&user_mrs_attr.attr,
	&user_entries_attr.attr,
	&user_peak_attr.attr,
	&kernel_ulps_attr.attr,
	&kernel_ulp_caps_attr.attr,
	&shared_budget_attr.attr.attr,
	&shared_key_budget_attr.attr.attr,
	&kernel_charged_attr.attr.attr,
	&kernel_charged_keys_attr.attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rnic_dev);

static void rnic_dev_release(struct kobject *kobj)
{
	struct rnic_dev *rd = to_rnic_dev(kobj);

	kvfree(rd->rd_pool.cons);
	kvfree(rd->rd_pool.scratch);
	rnic_user_free_dev(rd);
	kfree(rd);
}

static const struct kobj_type rnic_dev_ktype = {
	.release = rnic_dev_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = rnic_dev_groups,
};

/* ---- consumer attributes ---- */

enum rnic_cons_field {
	RC_WEIGHT, RC_MIN, RC_SHARE, RC_HELD, RC_GRANT, RC_PEAK, RC_DEMAND,
	RC_TARGET, RC_KEY_MIN, RC_KEY_SHARE, RC_KEY_HELD, RC_KEY_PEAK,
	RC_WAITS, RC_EAGAIN, RC_WAIT_US, RC_REVOCATIONS, RC_LATE,
	RC_LAST_RECLAIM_MS, RC_RECLAIMS,
};

static s64 rnic_cons_field(struct rnic_consumer *c, enum rnic_cons_field f)
{
	const struct rnp_res_state *e = &c->rc_pol.r[RNP_ENTRIES];
	const struct rnp_res_state *k = &c->rc_pol.r[RNP_KEYS];

	switch (f) {
	case RC_WEIGHT: return c->rc_pol.weight;
	case RC_MIN: return e->min;
	case RC_SHARE: return max(e->share, e->min);
	case RC_HELD: return e->held;
	case RC_GRANT: return e->grant;
	case RC_PEAK: return e->peak;
	case RC_DEMAND: return e->demand;
	case RC_TARGET:
		return e->target == RNP_NO_TARGET ? -1 : (s64)e->target;
	case RC_KEY_MIN: return k->min;
	case RC_KEY_SHARE: return max(k->share, k->min);
	case RC_KEY_HELD: return k->held;
	case RC_KEY_PEAK: return k->peak;
	case RC_WAITS: return c->rc_waits;
	case RC_EAGAIN: return c->rc_eagain;
	case RC_WAIT_US: return div_u64(c->rc_wait_ns, NSEC_PER_USEC);
	case RC_REVOCATIONS: return c->rc_revocations;
	case RC_LATE: return c->rc_late;
	case RC_LAST_RECLAIM_MS: return c->rc_last_reclaim_ms;
	case RC_RECLAIMS: return c->rc_reclaims;
	}
	return 0;
}

struct rnic_cons_attr {
	struct kobj_attribute attr;
	enum rnic_cons_field field;
};

static ssize_t rnic_cons_show(struct kobject *kobj, struct kobj_attribute *attr,
			      char *buf)
{
	struct rnic_consumer *c = to_rnic_consumer(kobj);
	struct rnic_cons_attr *ca = container_of(attr, struct rnic_cons_attr, attr);
	s64 v;

	spin_lock(&c->rc_dev->rd_lock);
	v = rnic_cons_field(c, ca->field);
	spin_unlock(&c->rc_dev->rd_lock);
	return sysfs_emit(buf, "%lld\n", v);
}

#define RNIC_CONS_RO(_name, _field) \
	static struct rnic_cons_attr cons_##_name##_attr = { \
		.attr = __ATTR(_name, 0444, rnic_cons_show, NULL), \
		.field = _field, \
	}

RNIC_CONS_RO(weight, RC_WEIGHT);
RNIC_CONS_RO(min, RC_MIN);
RNIC_CONS_RO(share, RC_SHARE);
RNIC_CONS_RO(held, RC_HELD);
RNIC_CONS_RO(grant, RC_GRANT);
RNIC_CONS_RO(peak, RC_PEAK);
RNIC_CONS_RO(demand, RC_DEMAND);
RNIC_CONS_RO(target, RC_TARGET);
RNIC_CONS_RO(key_min, RC_KEY_MIN);
RNIC_CONS_RO(key_share, RC_KEY_SHARE);
RNIC_CONS_RO(key_held, RC_KEY_HELD);
RNIC_CONS_RO(key_peak, RC_KEY_PEAK);
RNIC_CONS_RO(waits, RC_WAITS);
RNIC_CONS_RO(eagain, RC_EAGAIN);
RNIC_CONS_RO(wait_time_us, RC_WAIT_US);
RNIC_CONS_RO(revocations, RC_REVOCATIONS);
RNIC_CONS_RO(late_revocations, RC_LATE);
RNIC_CONS_RO(last_reclaim_ms, RC_LAST_RECLAIM_MS);
RNIC_CONS_RO(idle_reclaims, RC_RECLAIMS);

static ssize_t name_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_rnic_consumer(kobj)->rc_name);
}

static struct kobj_attribute cons_name_attr = __ATTR(name, 0400, name_show, NULL);

/*
 * Its tenant's name lives until the consumer unregisters, and
 * unregistering removes this file first (kobject_del() drains readers).
 */
static ssize_t tenant_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	const char *t = to_rnic_consumer(kobj)->rc_tenant;

	return sysfs_emit(buf, "%s\n", t ? t : "-");
}

static struct kobj_attribute cons_tenant_attr = __ATTR(tenant, 0400, tenant_show, NULL);

static struct attribute *rnic_cons_attrs[] = {
	&cons_name_attr.attr,
	&cons_tenant_attr.attr,
	&cons_weight_attr.attr.attr,
	&cons_min_attr.attr.attr,
	&cons_share_attr.attr.attr,
	&cons_held_attr.attr.attr,
	&cons_grant_attr.attr.attr,
	&cons_peak_attr.attr.attr,
	&cons_demand_attr.attr.attr,
	&cons_target_attr.attr.attr,
	&cons_key_min_attr.attr.attr,
	&cons_key_share_attr.attr.attr,
	&cons_key_held_attr.attr.attr,
	&cons_key_peak_attr.attr.attr,
	&cons_waits_attr.attr.attr,
	&cons_eagain_attr.attr.attr,
	&cons_wait_time_us_attr.attr.attr,
	&cons_revocations_attr.attr.attr,
	&cons_late_revocations_attr.attr.attr,
	&cons_last_reclaim_ms_attr.attr.attr,
	&cons_idle_reclaims_attr.attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rnic_cons);

static void rnic_cons_release(struct kobject *kobj)
{
	struct rnic_consumer *c = to_rnic_consumer(kobj);
	struct rnic_dev *rd = c->rc_dev;

	kfree(c);
	kobject_put(&rd->rd_kobj);
}

static const struct kobj_type rnic_cons_ktype = {
	.release = rnic_cons_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = rnic_cons_groups,
};

/**
 * rnic_sysfs_add_consumer - publish a consumer's directory
 * @c: the consumer, registered; ownership passes to its kobject, which
 *	also keeps the device reference taken at register
 *
 * Return: 0 or a negative errno (the consumer still works, unseen).
 * Context: process, under rd_cons_mutex (the device is not dead).
 */
int rnic_sysfs_add_consumer(struct rnic_consumer *c)
{
	lockdep_assert_held(&c->rc_dev->rd_cons_mutex);
	c->rc_kobj.kset = c->rc_dev->rd_cons_kset;
	if (rnic_fault_consumer_sysfs()) {
		/* what a failed kobject_init_and_add() leaves */
		kobject_init(&c->rc_kobj, &rnic_cons_ktype);
		return -ENOMEM;
	}
	return kobject_init_and_add(&c->rc_kobj, &rnic_cons_ktype, NULL, "%s.%llu",
				    c->rc_name, c->rc_id);
}

/**
 * rnic_consumer_release_kobj - unpublish and drop a consumer
 * @c: the consumer, already out of every list; may be freed on return
 */
void rnic_consumer_release_kobj(struct rnic_consumer *c)
{
	/* a failed add already left the kset: never del what was not added */
	if (c->rc_published)
		kobject_del(&c->rc_kobj);
	kobject_put(&c->rc_kobj);
}

static const struct attribute rnic_cons_dir = { .name = "consumers" };

/**
 * rnic_sysfs_add_dev - publish a device's directory
 * @rd: freshly allocated device; ownership passes to its kobject
 *
 * Return: 0, or a negative errno after @rd has been freed.
 * Context: process, may sleep.
 */
int rnic_sysfs_add_dev(struct rnic_dev *rd)
{
	int err;

	rd->rd_kobj.kset = rnic_devices_kset;
	err = kobject_init_and_add(&rd->rd_kobj, &rnic_dev_ktype, NULL, "%s",
				   rnic_dev_name(rd).s);
	if (err)
		goto out_put;
	rd->rd_cons_kset = kset_create_and_add("consumers", NULL, &rd->rd_kobj);
	if (!rd->rd_cons_kset) {
		err = -ENOMEM;
		goto out_del;
	}
	/*
	 * A user consumer's directory is named after its program and pid:
	 * only root lists them (N8), as hidepid would have it. sysfs makes
	 * every directory 0755; its chmod finds any child by name.
	 */
	err = sysfs_chmod_file(&rd->rd_kobj, &rnic_cons_dir, 0700);
	if (err) {
		kset_unregister(rd->rd_cons_kset);
		goto out_del;
	}
	kobject_uevent(&rd->rd_kobj, KOBJ_ADD);
	return 0;

out_del:
	kobject_del(&rd->rd_kobj);
out_put:
	kobject_put(&rd->rd_kobj);
	return err;
}

/**
 * rnic_sysfs_del_dev - unpublish a device and drop the creation reference
 * @rd: device added by rnic_sysfs_add_dev(); may be freed on return
 *
 * Consumers that have not unregistered yet keep their directories (under
 * a directory no longer reachable) and the device's memory.
 * Context: process, may sleep.
 */
void rnic_sysfs_del_dev(struct rnic_dev *rd)
{
	kset_unregister(rd->rd_cons_kset);
	kobject_del(&rd->rd_kobj);
	kobject_put(&rd->rd_kobj);
}

/**
 * rnic_sysfs_init - create /sys/kernel/rnic_mgr/devices
 *
 * Return: 0 or -ENOMEM.
 */
int rnic_sysfs_init(void)
{
	rnic_root_kobj = kobject_create_and_add("rnic_mgr", kernel_kobj);
	if (!rnic_root_kobj)
		return -ENOMEM;
	rnic_devices_kset = kset_create_and_add("devices", NULL, rnic_root_kobj);
	if (!rnic_devices_kset) {
		kobject_put(rnic_root_kobj);
		return -ENOMEM;
	}
	return 0;
}

/**
 * rnic_sysfs_exit - remove the tree; all devices must be gone already
 */
void rnic_sysfs_exit(void)
{
	kset_unregister(rnic_devices_kset);
	kobject_put(rnic_root_kobj);
}
