// SPDX-License-Identifier: GPL-2.0
/*
 * rnic_mgr's sysfs tree:
 *
 *   /sys/kernel/rnic_mgr/devices/<ibdev>/
 *       ibdev          name of the RDMA device
 *       max_mr         MRs the device supports
 *       max_frpl       pages one fast-registration MR can map
 *
 * One directory per device the ib_client currently knows; it appears on
 * device add and goes on device remove.
 */
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "rnic_mgr.h"

static struct kobject *rnic_root_kobj;
static struct kset *rnic_devices_kset;

static struct rnic_dev *to_rnic_dev(struct kobject *kobj)
{
	return container_of(kobj, struct rnic_dev, rd_kobj);
}

static ssize_t ibdev_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", to_rnic_dev(kobj)->rd_name);
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

static struct attribute *rnic_dev_attrs[] = {
	&ibdev_attr.attr,
	&max_mr_attr.attr,
	&max_frpl_attr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rnic_dev);

static void rnic_dev_release(struct kobject *kobj)
{
	kfree(to_rnic_dev(kobj));
}

static const struct kobj_type rnic_dev_ktype = {
	.release = rnic_dev_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = rnic_dev_groups,
};

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
				   rd->rd_name);
	if (err) {
		kobject_put(&rd->rd_kobj);
		return err;
	}
	kobject_uevent(&rd->rd_kobj, KOBJ_ADD);
	return 0;
}

/**
 * rnic_sysfs_del_dev - unpublish a device and drop the creation reference
 * @rd: device added by rnic_sysfs_add_dev(); may be freed on return
 *
 * Context: process, may sleep.
 */
void rnic_sysfs_del_dev(struct rnic_dev *rd)
{
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
