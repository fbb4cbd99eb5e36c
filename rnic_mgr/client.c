// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_client half of rnic_mgr: follows RDMA devices as they are added
 * and removed, and gives each one a struct rnic_dev.
 *
 * Lifetime of a struct rnic_dev: created by rnic_add_one(), which holds
 * the kobject's first reference; every consumer holds one more (taken by
 * rnic_dev_get()), and so does every open sysfs file. rnic_remove_one()
 * tells the consumers, unpublishes the device and drops the first
 * reference; the memory goes with the last one.
 */
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "rnic_int.h"
#include "dev_rules.h"
#include "user/user.h"
#include "trace.h"

static struct ib_client rnic_client;
static DEFINE_MUTEX(rnic_devs_mutex);
static LIST_HEAD(rnic_devs);

/* A live device for which @match is true, with a reference, or NULL. */
static struct rnic_dev *rnic_dev_find(bool (*match)(struct rnic_dev *, const void *),
				      const void *arg)
{
	struct rnic_dev *rd, *found = NULL;

	mutex_lock(&rnic_devs_mutex);
	list_for_each_entry(rd, &rnic_devs, rd_node) {
		if (match(rd, arg)) {
			found = rd;
			kobject_get(&rd->rd_kobj);
			break;
		}
	}
	mutex_unlock(&rnic_devs_mutex);
	return found;
}

/**
 * rnic_visit_devs - call @fn on every live device
 * @fn: called with the device list's mutex held; may sleep, and take a
 *	device's rd_cons_mutex and rd_lock, never the list's mutex
 * @arg: passed to @fn
 */
void rnic_visit_devs(rnic_dev_fn fn, void *arg)
{
	struct rnic_dev *rd;

	mutex_lock(&rnic_devs_mutex);
	list_for_each_entry(rd, &rnic_devs, rd_node)
		fn(rd, arg);
	mutex_unlock(&rnic_devs_mutex);
}

static bool rnic_dev_is(struct rnic_dev *rd, const void *ibdev)
{
	return rd->rd_ibdev == ibdev;
}

static bool rnic_dev_named(struct rnic_dev *rd, const void *name)
{
	return !strcmp(rnic_dev_name(rd).s, name);
}

/**
 * rnic_dev_name_copy - copy a device's name whole (I9)
 * @rd: the device
 * @buf: IB_DEVICE_NAME_MAX bytes
 *
 * Context: any (trace events call it).
 */
void rnic_dev_name_copy(const struct rnic_dev *rd, char *buf)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&rd->rd_name_lock);
		memcpy(buf, rd->rd_name, IB_DEVICE_NAME_MAX);
	} while (read_seqretry(&rd->rd_name_lock, seq));
	buf[IB_DEVICE_NAME_MAX - 1] = '\0';
}

/**
 * rnic_dev_name - a device's name, a copy taken whole (I9)
 * @rd: the device
 *
 * For messages: rnic_dev_name(rd).s lives until the end of the
 * statement that uses it.
 *
 * Return: the copy.
 */
struct rnic_dev_name rnic_dev_name(const struct rnic_dev *rd)
{
	struct rnic_dev_name n;

	rnic_dev_name_copy(rd, n.s);
	return n;
}

/**
 * rnic_dev_get - find a live device's rnic_dev and take a reference
 * @ibdev: the RDMA device
 *
 * Return: the device (drop with kobject_put(&rd->rd_kobj)) or NULL.
 */
struct rnic_dev *rnic_dev_get(struct ib_device *ibdev)
{
	return rnic_dev_find(rnic_dev_is, ibdev);
}

/**
 * rnic_dev_get_by_name - find a live device by its name, with a reference
 * @name: the RDMA device's name, as when it was added
 *
 * Return: the device (drop with kobject_put(&rd->rd_kobj)) or NULL.
 */
struct rnic_dev *rnic_dev_get_by_name(const char *name)
{
	return rnic_dev_find(rnic_dev_named, name);
}

/**
 * rnic_dev_of - a device's rnic_dev, from a call into the device
 * @ibdev: the RDMA device
 *
 * For user/wrap.c's wrappers, which run only while the client data is set
 * (user/wrap.c, U4); takes no reference.
 *
 * Return: the device's rnic_dev.
 */
struct rnic_dev *rnic_dev_of(struct ib_device *ibdev)
{
	return ib_get_client_data(ibdev, &rnic_client);
}

/* A rename's rules apply here: the rename callback cannot sleep long. */
static void rnic_conf_work(struct work_struct *work)
{
	struct rnic_dev *rd = container_of(work, struct rnic_dev, rd_conf_work);

	rnic_dev_conf_apply(rd, "rename");
}

static int rnic_add_one(struct ib_device *ibdev)
{
	struct rnic_dev *rd;
	int err;

	rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return -ENOMEM;
	rd->rd_ibdev = ibdev;
	seqlock_init(&rd->rd_name_lock);
	strscpy(rd->rd_name, dev_name(&ibdev->dev), sizeof(rd->rd_name));
	rd->rd_index = ibdev->index;
	rd->rd_max_mr = ibdev->attrs.max_mr;
	rd->rd_max_frpl = ibdev->attrs.max_fast_reg_page_list_len;
	rnic_dev_init_pool(rd);
	err = rnic_user_init_dev(rd);
	if (err) {
		kfree(rd);
		return err;
	}
	INIT_WORK(&rd->rd_conf_work, rnic_conf_work);

	/*
	 * The client data first: from the moment the directory appears, a
	 * udev rule may turn user charging on, and a wrapper finds its
	 * rnic_dev here (U4).
	 */
	ib_set_client_data(ibdev, &rnic_client, rd);
	err = rnic_sysfs_add_dev(rd);
	if (err) {
		ib_set_client_data(ibdev, &rnic_client, NULL);
		return err;	/* the kobject release already freed rd */
	}
	rnic_fault_dev_added();
	rnic_dev_start(rd);

	mutex_lock(&rnic_devs_mutex);
	list_add_tail(&rd->rd_node, &rnic_devs);
	mutex_unlock(&rnic_devs_mutex);
	rnic_kulp_add_dev(rd);
	/* before any consumer: it registers only once the add returned */
	rnic_dev_conf_apply(rd, "add");
	pr_info("device %s added, budget %llu entries, %llu keys, policy %s, user registrations %s\n",
		rnic_dev_name(rd).s, rd->rd_pool.r[RNP_ENTRIES].budget,
		rd->rd_pool.r[RNP_KEYS].budget, rnp_policy_name(rd->rd_pool.policy),
		rdr_user_name(READ_ONCE(rd->rd_user->ud_mode)));
	return 0;
}

static void rnic_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct rnic_dev *rd = client_data;

	mutex_lock(&rnic_devs_mutex);
	list_del(&rd->rd_node);
	mutex_unlock(&rnic_devs_mutex);
	/* First: waiters in REGISTER-WAIT end as the consumers leave. */
	rnic_dev_removed(rd);
	cancel_work_sync(&rd->rd_conf_work);
	rnic_user_remove_dev(rd);
	rnic_kulp_remove_dev(rd);
	pr_info("device %s removed\n", rnic_dev_name(rd).s);
	rd->rd_ibdev = NULL;
	rnic_sysfs_del_dev(rd);
}

/*
 * rdma-core's udev rules rename devices after they are added (mlx5_0 to
 * rocep1s0f0, say): follow the name in rd_name and sysfs, then apply the
 * devices rules again by the new name, in a work item: ib_core calls
 * this under its devices lock, and a mode change may wait for
 * registrations in REGISTER-WAIT.
 */
static void rnic_rename_one(struct ib_device *ibdev, void *client_data)
{
	struct rnic_dev *rd = client_data;
	char old[IB_DEVICE_NAME_MAX], new[IB_DEVICE_NAME_MAX];
	unsigned long flags;
	int err;

	strscpy(new, dev_name(&ibdev->dev), sizeof(new));
	mutex_lock(&rnic_devs_mutex);
	memcpy(old, rd->rd_name, sizeof(old));
	/* I9: readers elsewhere copy it whole (rnic_dev_name_copy()) */
	write_seqlock_irqsave(&rd->rd_name_lock, flags);
	rnic_fault_name_copy(rd->rd_name, new, sizeof(new));
	write_sequnlock_irqrestore(&rd->rd_name_lock, flags);
	rd->rd_index = ibdev->index;
	mutex_unlock(&rnic_devs_mutex);
	err = kobject_rename(&rd->rd_kobj, new);
	if (err)
		pr_warn("device %s renamed %s: its sysfs directory keeps the old name (%d)\n",
			old, new, err);
	else
		pr_info("device %s renamed %s\n", old, new);
	trace_rnic_dev_rename(rd, old);
	queue_work(system_wq, &rd->rd_conf_work);
}

static struct ib_client rnic_client = {
	.name = "rnic_mgr",
	.add = rnic_add_one,
	.remove = rnic_remove_one,
	.rename = rnic_rename_one,
};

/**
 * rnic_client_init - start following RDMA devices
 *
 * Return: 0 or a negative errno from ib_register_client().
 * Context: process, may sleep; calls rnic_add_one() for each existing
 * device before returning.
 */
int rnic_client_init(void)
{
	return ib_register_client(&rnic_client);
}

/**
 * rnic_client_exit - stop following RDMA devices
 *
 * Context: process, may sleep; calls rnic_remove_one() for each device.
 */
void rnic_client_exit(void)
{
	ib_unregister_client(&rnic_client);
}
