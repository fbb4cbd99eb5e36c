// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_mgr: the arbiter of RDMA NIC translation resources.
 *
 * Module init only starts the parts in order: sysfs first, so that the
 * ib_client, which registers a directory per device as soon as it is
 * added, has somewhere to put them.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "rnic_int.h"
#include "user/user.h"

/*
 * Writable parameters are bounded: a value outside [min, max] is refused
 * with -EINVAL, at load and at run time (a reaper period of 0 would
 * requeue the reaper with no delay: a busy loop on rd_lock).
 */
struct rnic_uint_param {
	unsigned int *val;
	unsigned int min, max;
};

static int rnic_uint_param_set(const char *buf, const struct kernel_param *kp)
{
	const struct rnic_uint_param *p = kp->arg;
	unsigned int v;
	int err;

	err = kstrtouint(buf, 0, &v);
	if (err)
		return err;
	if (v < p->min || v > p->max)
		return -EINVAL;
	WRITE_ONCE(*p->val, v);
	return 0;
}

static int rnic_uint_param_get(char *buf, const struct kernel_param *kp)
{
	const struct rnic_uint_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*p->val));
}

static const struct kernel_param_ops rnic_uint_param_ops = {
	.set = rnic_uint_param_set,
	.get = rnic_uint_param_get,
};

#define RNIC_UINT_PARAM_PERM(_name, _var, _min, _max, _perm, _desc)	\
	static struct rnic_uint_param _var##_param = {			\
		.val = &(_var), .min = (_min), .max = (_max),		\
	};								\
	module_param_cb(_name, &rnic_uint_param_ops, &_var##_param, _perm); \
	MODULE_PARM_DESC(_name, _desc " (" #_min ".." #_max ")")
#define RNIC_UINT_PARAM(_name, _var, _min, _max, _desc)			\
	RNIC_UINT_PARAM_PERM(_name, _var, _min, _max, 0644, _desc)

/*
 * rxe and most NICs report no useful limit on translation entries, so
 * the default budget is configuration: 256 Ki entries map 1 GiB in 4 KiB
 * pages. Change a device's budget at run time in sysfs.
 */
unsigned int rnic_default_entries = 262144;
RNIC_UINT_PARAM(default_entries, rnic_default_entries, 1, UINT_MAX,
		"budget of translation entries for each new device");

unsigned int rnic_default_keys = 4096;
RNIC_UINT_PARAM(default_keys, rnic_default_keys, 1, UINT_MAX,
		"budget of MR keys for each new device");

unsigned int rnic_revoke_deadline_ms = 1000;
RNIC_UINT_PARAM(revoke_deadline_ms, rnic_revoke_deadline_ms, 1, 3600000,
		"time a consumer has to reach a shrink target before it is counted late");

unsigned int rnic_reap_interval_ms = 100;
RNIC_UINT_PARAM(reap_interval_ms, rnic_reap_interval_ms, 1, 60000,
		"period of the reaper that keeps the free reserve");

/*
 * User registrations (user/wrap.c), on devices whose user_charging is "on"
 * (the devices parameter, dev_conf.c, or sysfs): how long
 * REGISTER-WAIT lasts, and the weight of a tenant (kernel consumers
 * have weight 1; user/tenant.c).
 */
unsigned int rnic_user_wait_ms = 10000;
RNIC_UINT_PARAM(user_wait_ms, rnic_user_wait_ms, 1, 3600000,
		"longest a user registration waits for entries before -ENOMEM");

unsigned int rnic_user_weight = 1;
RNIC_UINT_PARAM(user_weight, rnic_user_weight, 1, 10000,
		"weight of a tenant no tenant_weights rule names, and of each process within its tenant");

/*
 * Where a tenant stands (user/tenant.c): by cgroup, the ancestor at
 * tenant_depth, so that a cgroup a user may make (a delegated subtree
 * lies deeper: user@UID.service is at depth 3 under systemd) is no new
 * tenant; and at most tenants_per_uid tenants per owner on a device.
 */
unsigned int rnic_tenant_depth = 2;
RNIC_UINT_PARAM(tenant_depth, rnic_tenant_depth, 0, 64,
		"a tenant is the cgroup at this depth (2: /user.slice/user-UID.slice, /system.slice/X.service); 0 the leaf");

unsigned int rnic_tenants_per_uid = 4;
RNIC_UINT_PARAM(tenants_per_uid, rnic_tenants_per_uid, 1, 65536,
		"most tenants one owner (uid, or a user namespace's owner) makes on a device; root is not counted");

/*
 * An implicit ODP registration covers the whole address space and maps
 * pages as the NIC touches them: it is charged this many entries
 * (64 MiB of 4 KiB pages), as its use is unknown when it registers.
 */
unsigned int rnic_user_odp_entries = 16384;
RNIC_UINT_PARAM(user_odp_entries, rnic_user_odp_entries, 1, UINT_MAX,
		"entries an implicit on-demand-paging registration is charged");

unsigned int rnic_user_grace_ms = 1000;
RNIC_UINT_PARAM(user_grace_ms, rnic_user_grace_ms, 1, 3600000,
		"T: time a process has to answer a REVOKE (for consumers made from now on)");

unsigned int rnic_user_enforce;
RNIC_UINT_PARAM(user_enforce, rnic_user_enforce, 0, 1,
		"past T: 0 counts and traces a late process, 1 kills it");

/*
 * Other kernel ULPs' MRs (kulp/count.c): ignored, counted, or also charged off
 * the budget. Set at load: a change would have to undo a charge.
 */
unsigned int rnic_kulp_mode = RNIC_KULP_COUNT;
RNIC_UINT_PARAM_PERM(kernel_ulps, rnic_kulp_mode, 0, 2, 0444,
		     "other kernel ULPs' MRs: 0 ignored, 1 counted (kernel_ulps in sysfs), 2 also charged off the budget");

/* how long an allocation beyond a kernel ULP's cap waits for room (kulp/cap.c) */
unsigned int rnic_kulp_wait_ms = 1000;
RNIC_UINT_PARAM(kernel_ulp_wait_ms, rnic_kulp_wait_ms, 0, 60000,
		"ms a kernel ULP's MR allocation beyond its cap waits for room before it fails");

static int __init rnic_mgr_init(void)
{
	int err;

	rnic_fault_init();
	err = rnic_sysfs_init();
	if (err)
		goto out;
	err = rnic_user_dev_init();
	if (err)
		goto out_sysfs;
	rnic_kulp_init();
	err = rnic_client_init();
	if (err)
		goto out_dev;
	pr_info("loaded\n");
	return 0;

out_dev:
	rnic_kulp_exit();
	rnic_user_dev_exit();
out_sysfs:
	rnic_sysfs_exit();
out:
	rnic_fault_exit();
	/* parameters were parsed before init: their rules are ours to free */
	rnic_tenant_exit();
	rnic_dev_conf_exit();
	return err;
}

static void __exit rnic_mgr_exit(void)
{
	rnic_client_exit();
	rnic_kulp_exit();
	rnic_user_dev_exit();
	rnic_tenant_exit();
	rnic_dev_conf_exit();
	rnic_sysfs_exit();
	rnic_fault_exit();
	pr_info("unloaded\n");
}

module_init(rnic_mgr_init);
module_exit(rnic_mgr_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(RDMASTOR_VERSION);
MODULE_AUTHOR("rdmastor developers");
MODULE_DESCRIPTION("rdmastor arbiter of RDMA NIC translation resources");
