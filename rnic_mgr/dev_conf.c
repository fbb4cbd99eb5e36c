// SPDX-License-Identifier: GPL-2.0
/*
 * Devices' boot configuration: the "devices" parameter (dev_rules.h),
 * applied to each device as rnic_mgr adds it, before any consumer can
 * register on it, and again when rdma-core's udev rules rename it, so
 * that rules match the name the administrator sees.
 *
 *   options rnic_mgr devices="mlx5_*:user=on:entries=2097152 rxe*:user=monitor"
 *
 * A device no rule names keeps the defaults: its user registrations
 * untouched (user=off), the arbiter policy, default_entries and
 * default_keys, and no stock kernel ULP capped (ulps=off). Writing the
 * parameter at run time changes the rules for devices added or renamed
 * from then on; a running device's settings change in its own sysfs
 * directory.
 *
 * "consumer_weights" gives kernel consumers (an NFS mount, an nfsd
 * connection, an iSCSI session, a LIO connection) weights by name glob,
 * at registration and, when it is written, at once for every consumer
 * registered: a consumer no rule matches any more goes back to the
 * weight it registered with. User consumers are weighted by tenant
 * (tenant_weights, user/tenant.c).
 *
 *   options rnic_mgr consumer_weights="nfs-192.0.2.1*=4 iser-ini-*=2"
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "rnic_int.h"
#include "dev_rules.h"
#include "trace.h"

static DEFINE_MUTEX(rnic_dev_rules_mutex);
static struct rdr_rule *rnic_dev_rules;
static u32 rnic_nr_dev_rules;
static char rnic_dev_rules_text[RDR_MAX_LIST];

static int rnic_dev_rules_set(const char *val, const struct kernel_param *kp)
{
	struct rdr_rule *rules;
	u32 nr;
	int err;

	rules = kcalloc(RDR_MAX_RULES, sizeof(*rules), GFP_KERNEL);
	if (!rules)
		return -ENOMEM;
	err = rdr_rules_parse(val, rules, RDR_MAX_RULES, &nr);
	if (err) {
		kfree(rules);
		pr_warn("devices refused (%d): GLOB:KEY=VALUE[:KEY=VALUE...], KEY user (off, monitor, on), policy (arbiter, fcfs, static), entries, keys or ulps (share, off); at most %u rules\n",
			err, RDR_MAX_RULES);
		return err;
	}
	mutex_lock(&rnic_dev_rules_mutex);
	swap(rules, rnic_dev_rules);
	rnic_nr_dev_rules = nr;
	strscpy(rnic_dev_rules_text, val, sizeof(rnic_dev_rules_text));
	strim(rnic_dev_rules_text);
	mutex_unlock(&rnic_dev_rules_mutex);
	kfree(rules);
	return 0;
}

static int rnic_dev_rules_get(char *buf, const struct kernel_param *kp)
{
	int len;

	mutex_lock(&rnic_dev_rules_mutex);
	len = sysfs_emit(buf, "%s\n", rnic_dev_rules_text);
	mutex_unlock(&rnic_dev_rules_mutex);
	return len;
}

static const struct kernel_param_ops rnic_dev_rules_ops = {
	.set = rnic_dev_rules_set,
	.get = rnic_dev_rules_get,
};
module_param_cb(devices, &rnic_dev_rules_ops, NULL, 0644);
MODULE_PARM_DESC(devices,
		 "per-device settings by name glob: GLOB:user=off|monitor|on:policy=P:entries=N:keys=N:ulps=share|off, comma-separated");

/**
 * rnic_dev_conf_apply - apply the devices rules to one device
 * @rd: the device, its client data set
 * @why: "add" or "rename", for the trace and the log
 *
 * Sets what the last matching rule sets for each key, and nothing else:
 * at add the rest are the defaults; at a rename they stay as they were.
 * A value the device refuses (a budget below what its consumers must
 * keep) is logged and skipped.
 * Context: process, may sleep.
 */
void rnic_dev_conf_apply(struct rnic_dev *rd, const char *why)
{
	/* one name throughout, should the device be renamed meanwhile */
	const struct rnic_dev_name name = rnic_dev_name(rd);
	struct rdr_conf c;
	int err;

	mutex_lock(&rnic_dev_rules_mutex);
	rdr_rules_apply(rnic_dev_rules, rnic_nr_dev_rules, name.s, &c);
	mutex_unlock(&rnic_dev_rules_mutex);

	if (c.set & RDR_SET_ENTRIES) {
		err = rnic_dev_set_budget(rd, RNP_ENTRIES, c.entries, RNIC_BUDGET_RULE);
		if (err)
			pr_warn("%s: devices: entries=%llu not applied (%d)\n",
				name.s, c.entries, err);
	}
	if (c.set & RDR_SET_KEYS) {
		err = rnic_dev_set_budget(rd, RNP_KEYS, c.keys, RNIC_BUDGET_RULE);
		if (err)
			pr_warn("%s: devices: keys=%llu not applied (%d)\n",
				name.s, c.keys, err);
	}
	if (c.set & RDR_SET_POLICY) {
		err = rnic_dev_set_policy(rd, c.policy);
		if (err)
			pr_warn("%s: devices: policy=%s not applied (%d)\n",
				name.s, rnp_policy_name(c.policy), err);
	}
	if (c.set & RDR_SET_USER) {
		err = rnic_user_set_mode(rd, c.user, why);
		if (err)
			pr_warn("%s: devices: user=%s not applied (%d)\n",
				name.s, rdr_user_name(c.user), err);
	}
	if (c.set & RDR_SET_ULPS) {
		err = rnic_kulp_cap_store(rd, c.ulps_share ? "* share" : "* 0");
		if (err)
			pr_warn("%s: devices: ulps=%s not applied (%d)\n",
				name.s, c.ulps_share ? "share" : "off", err);
	}
}

static DEFINE_MUTEX(rnic_wrules_mutex);
static struct rdr_wrule *rnic_wrules;
static u32 rnic_nr_wrules;
static char rnic_wrules_text[RDR_MAX_LIST];

/**
 * rnic_conf_weight - a kernel consumer's weight under consumer_weights
 * @name: the consumer's name
 * @dflt: the weight it registered with
 *
 * Return: the last matching rule's weight, else @dflt.
 */
u32 rnic_conf_weight(const char *name, u32 dflt)
{
	u32 w;

	mutex_lock(&rnic_wrules_mutex);
	w = rdr_wrules_weight(rnic_wrules, rnic_nr_wrules, name, dflt);
	mutex_unlock(&rnic_wrules_mutex);
	return w;
}

/* Every kernel consumer of @rd takes the weight the rules give it now. */
static void rnic_dev_reweigh(struct rnic_dev *rd, void *unused)
{
	struct rnic_peer_group *g;
	struct rnic_consumer *c;

	mutex_lock(&rd->rd_cons_mutex);
	list_for_each_entry(c, &rd->rd_consumers, rc_node) {
		if (!c->rc_in_pool || rnic_consumer_is_user(c))
			continue;
		rnic_set_weight(c, rnic_conf_weight(c->rc_name, c->rc_base_weight));
	}
	/* remote peers' groups, by their names (peers:NAME) */
	list_for_each_entry(g, &rd->rd_peer_groups, pg_node)
		rnic_group_set_weight(rd, &g->pg_grp, rnic_conf_weight(g->pg_name, 1),
				      g->pg_name);
	mutex_unlock(&rd->rd_cons_mutex);
}

static int rnic_wrules_set(const char *val, const struct kernel_param *kp)
{
	struct rdr_wrule *rules;
	u32 nr;
	int err;

	rules = kcalloc(RDR_MAX_RULES, sizeof(*rules), GFP_KERNEL);
	if (!rules)
		return -ENOMEM;
	err = rdr_wrules_parse(val, rules, RDR_MAX_RULES, &nr);
	if (err) {
		kfree(rules);
		pr_warn("consumer_weights refused (%d): GLOB=WEIGHT, WEIGHT 1..%u, at most %u rules\n",
			err, RNP_MAX_WEIGHT, RDR_MAX_RULES);
		return err;
	}
	mutex_lock(&rnic_wrules_mutex);
	swap(rules, rnic_wrules);
	rnic_nr_wrules = nr;
	strscpy(rnic_wrules_text, val, sizeof(rnic_wrules_text));
	strim(rnic_wrules_text);
	mutex_unlock(&rnic_wrules_mutex);
	kfree(rules);
	/* at load, before init, there is no device yet */
	rnic_visit_devs(rnic_dev_reweigh, NULL);
	return 0;
}

static int rnic_wrules_get(char *buf, const struct kernel_param *kp)
{
	int len;

	mutex_lock(&rnic_wrules_mutex);
	len = sysfs_emit(buf, "%s\n", rnic_wrules_text);
	mutex_unlock(&rnic_wrules_mutex);
	return len;
}

static const struct kernel_param_ops rnic_wrules_ops = {
	.set = rnic_wrules_set,
	.get = rnic_wrules_get,
};
module_param_cb(consumer_weights, &rnic_wrules_ops, NULL, 0644);
MODULE_PARM_DESC(consumer_weights,
		 "kernel consumers' weights by name glob: GLOB=WEIGHT, comma-separated");

/**
 * rnic_dev_conf_exit - free the rules at unload
 */
void rnic_dev_conf_exit(void)
{
	kfree(rnic_dev_rules);
	rnic_dev_rules = NULL;
	rnic_nr_dev_rules = 0;
	kfree(rnic_wrules);
	rnic_wrules = NULL;
	rnic_nr_wrules = 0;
}
