// SPDX-License-Identifier: GPL-2.0
/*
 * Who may bind to a device (U16, user.h): a caller that shows an open
 * uverbs file of that very device.
 *
 * /dev/rnic_mgr is open to everyone, and a RESERVE there makes the
 * arbiter revoke kernel consumers and other tenants. The device's own
 * access rules are on its uverbs node: the node's mode and owner (0660
 * to an rdma group on many hosts), the device cgroup, and uverbs' open,
 * which refuses a network namespace the device is not in. Holding an
 * open uverbs file of the device is proof the caller passed them, or
 * was handed the file by one who did, as verbs itself allows.
 *
 * The uverbs file's device is found without uverbs' private structures:
 * the node's cdev hangs under the uverbs class device "uverbsN", whose
 * "ibdev" attribute (Documentation/ABI/stable/sysfs-class-infiniband)
 * names the RDMA device. The uverbs file itself, the file's private
 * data, keys a context binding and is never followed.
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/nsproxy.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

#include "user.h"

/* The "uverbsN" class device whose node @vf was opened from, or NULL. */
static struct device *rnic_uverbs_dev_of(struct file *vf)
{
	struct inode *inode = file_inode(vf);
	struct kobject *parent;

	/* comp channels and async event files are anonymous inodes */
	if (!S_ISCHR(inode->i_mode) || !inode->i_cdev || !vf->private_data)
		return NULL;
	if (!IS_BUILTIN(CONFIG_INFINIBAND_USER_ACCESS) &&
	    (!vf->f_op->owner || strcmp(module_name(vf->f_op->owner), "ib_uverbs")))
		return NULL;
	/* an open file holds its cdev, and the cdev its parent */
	parent = inode->i_cdev->kobj.parent;
	if (!parent || strncmp(kobject_name(parent), "uverbs", 6))
		return NULL;
	return kobj_to_dev(parent);
}

/*
 * Does @udev's "ibdev" attribute say @name? Read as sysfs would, into a
 * page of its own (sysfs_emit() wants one); -ENODEV once the device is
 * gone from under the file.
 */
static int rnic_uverbs_serves(struct device *udev, const char *name)
{
	const struct attribute_group *const *g;
	struct device_attribute *show = NULL;
	struct attribute *const *a;
	ssize_t n;
	char *page;
	int err;

	for (g = udev->groups; g && *g && !show; g++)
		for (a = (*g)->attrs; a && *a; a++)
			if (!strcmp((*a)->name, "ibdev")) {
				show = container_of(*a, struct device_attribute, attr);
				break;
			}
	if (!show || !show->show)
		return -EINVAL;
	page = (char *)__get_free_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	n = show->show(udev, show, page);
	if (n <= 0) {
		err = n ? (int)n : -ENODEV;
	} else {
		page[min_t(ssize_t, n, PAGE_SIZE - 1)] = '\0';
		strim(page);
		err = strcmp(page, name) ? -EACCES : 0;
	}
	free_page((unsigned long)page);
	return err;
}

/**
 * rnic_user_verbs_check - may the caller bind to @ibdev with @verbs_fd?
 * @verbs_fd: the file descriptor the BIND names
 * @name: the device's name the BIND asked for
 * @ibdev: that device
 *
 * Return: the uverbs file, a key for a context binding; or ERR_PTR:
 * -EBADF (no open file), -EINVAL (not a uverbs device file), -EACCES
 * (a uverbs file of another device, or a device the caller's network
 * namespace may not use), -ENODEV (its device is gone).
 * Context: process, may sleep.
 */
const void *rnic_user_verbs_check(int verbs_fd, const char *name,
				  struct ib_device *ibdev)
{
	struct file *vf = fget(verbs_fd);
	const void *key;
	struct device *udev;
	int err;

	if (!vf)
		return ERR_PTR(-EBADF);
	key = vf->private_data;
	udev = rnic_uverbs_dev_of(vf);
	if (!udev)
		err = -EINVAL;
	else
		err = rnic_uverbs_serves(udev, name);
	/* as uverbs' open checks it, for a file passed across namespaces */
	if (!err && !rdma_dev_access_netns(ibdev, current->nsproxy->net_ns))
		err = -EACCES;
	fput(vf);
	return err ? ERR_PTR(err) : key;
}
