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
 * default_keys. Writing the parameter at run time changes the rules for
 * devices added or renamed from then on; a running device's settings
 * change in its own sysfs directory.
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
		pr_warn("devices refused (%d): GLOB:KEY=VALUE[:KEY=VALUE...], KEY user (off, monitor, on), policy (arbiter, fcfs, static), entries or keys; at most %u rules\n",
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
		 "per-device settings by name glob: GLOB:user=off|monitor|on:policy=P:entries=N:keys=N, comma-separated");

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
	struct rdr_conf c;
	int err;

	mutex_lock(&rnic_dev_rules_mutex);
	rdr_rules_apply(rnic_dev_rules, rnic_nr_dev_rules, rd->rd_name, &c);
	mutex_unlock(&rnic_dev_rules_mutex);

	if (c.set & RDR_SET_ENTRIES) {
		err = rnic_dev_set_budget(rd, RNP_ENTRIES, c.entries);
		if (err)
			pr_warn("%s: devices: entries=%llu not applied (%d)\n",
				rd->rd_name, c.entries, err);
	}
	if (c.set & RDR_SET_KEYS) {
		err = rnic_dev_set_budget(rd, RNP_KEYS, c.keys);
		if (err)
			pr_warn("%s: devices: keys=%llu not applied (%d)\n",
				rd->rd_name, c.keys, err);
	}
	if (c.set & RDR_SET_POLICY) {
		err = rnic_dev_set_policy(rd, c.policy);
		if (err)
			pr_warn("%s: devices: policy=%s not applied (%d)\n",
				rd->rd_name, rnp_policy_name(c.policy), err);
	}
	if (c.set & RDR_SET_USER) {
		err = rnic_user_set_mode(rd, c.user, why);
		if (err)
			pr_warn("%s: devices: user=%s not applied (%d)\n",
				rd->rd_name, rdr_user_name(c.user), err);
	}
}

/**
 * rnic_dev_conf_exit - free the rules at unload
 */
void rnic_dev_conf_exit(void)
{
	kfree(rnic_dev_rules);
	rnic_dev_rules = NULL;
	rnic_nr_dev_rules = 0;
}
