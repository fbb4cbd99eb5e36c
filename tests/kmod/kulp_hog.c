// SPDX-License-Identifier: GPL-2.0
/*
 * kulp_hog: a stand-in for a stock kernel ULP in the tests of the kernel
 * ULPs' caps (rnic_mgr/kulp/). Not one of rdmastor's modules, so rnic_mgr
 * counts and caps its MRs as it does nvme-rdma's or rds_rdma's (K2).
 *
 *   echo "start DEV ENTRIES" > /sys/kernel/debug/kulp_hog/ctl
 *       two threads each allocate one fast-registration MR of ENTRIES
 *       pages on DEV and free it, again and again, until stopped: beyond
 *       a cap each allocation waits kernel_ulp_wait_ms, then fails; two,
 *       so that one is always inside an allocation
 *   echo stop > /sys/kernel/debug/kulp_hog/ctl
 *   cat /sys/kernel/debug/kulp_hog/stats
 *       running 0|1 allocs N refused N
 *
 * The threads hold a reference on DEV while they run, so DEV cannot be
 * removed under it; other devices can.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

#define HOG_THREADS	2

static struct {
	struct mutex lock;	/* start and stop */
	struct task_struct *thread[HOG_THREADS];
	struct ib_device *dev;
	u32 entries;
	atomic64_t allocs, refused;
	struct dentry *dir;
} hog = { .lock = __MUTEX_INITIALIZER(hog.lock) };

static int hog_thread(void *arg)
{
	struct ib_pd *pd = ib_alloc_pd(hog.dev, 0);

	if (IS_ERR(pd)) {
		pr_warn("kulp_hog: no PD on %s: %ld\n", dev_name(&hog.dev->dev), PTR_ERR(pd));
		/* kthread_stop() is to find this thread still there */
		while (!kthread_should_stop())
			schedule_timeout_interruptible(HZ / 10);
		return PTR_ERR(pd);
	}
	while (!kthread_should_stop()) {
		struct ib_mr *mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, hog.entries);

		if (IS_ERR(mr)) {
			atomic64_inc(&hog.refused);
		} else {
			atomic64_inc(&hog.allocs);
			ib_dereg_mr(mr);
		}
		cond_resched();
	}
	ib_dealloc_pd(pd);
	return 0;
}

static void hog_stop(void)
{
	int i;

	lockdep_assert_held(&hog.lock);
	if (!hog.dev)
		return;
	for (i = 0; i < HOG_THREADS; i++) {
		if (hog.thread[i])
			kthread_stop(hog.thread[i]);
		hog.thread[i] = NULL;
	}
	ib_device_put(hog.dev);
	hog.dev = NULL;
}

static int hog_start(const char *name, u32 entries)
{
	struct task_struct *t;
	int i;

	lockdep_assert_held(&hog.lock);
	if (hog.dev)
		return -EBUSY;
	if (!entries)
		return -EINVAL;
	hog.dev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!hog.dev)
		return -ENODEV;
	hog.entries = entries;
	for (i = 0; i < HOG_THREADS; i++) {
		t = kthread_run(hog_thread, NULL, "kulp_hog/%d", i);
		if (IS_ERR(t)) {
			hog_stop();
			return PTR_ERR(t);
		}
		hog.thread[i] = t;
	}
	return 0;
}

static ssize_t hog_ctl_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char name[IB_DEVICE_NAME_MAX], *buf;
	u32 entries;
	int err = -EINVAL;

	if (len >= 64)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&hog.lock);
	if (sscanf(buf, "start %63s %u", name, &entries) == 2) {
		err = hog_start(name, entries);
	} else if (!strncmp(buf, "stop", 4)) {
		hog_stop();
		err = 0;
	}
	mutex_unlock(&hog.lock);
	kfree(buf);
	return err ?: len;
}

static const struct file_operations hog_ctl_fops = {
	.owner = THIS_MODULE,
	.write = hog_ctl_write,
};

static int hog_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "running %d allocs %lld refused %lld\n", !!READ_ONCE(hog.dev),
		   (long long)atomic64_read(&hog.allocs),
		   (long long)atomic64_read(&hog.refused));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hog_stats);

static int __init hog_init(void)
{
	hog.dir = debugfs_create_dir("kulp_hog", NULL);
	debugfs_create_file("ctl", 0200, hog.dir, NULL, &hog_ctl_fops);
	debugfs_create_file("stats", 0444, hog.dir, NULL, &hog_stats_fops);
	return 0;
}

static void __exit hog_exit(void)
{
	debugfs_remove_recursive(hog.dir);
	mutex_lock(&hog.lock);
	hog_stop();
	mutex_unlock(&hog.lock);
}

module_init(hog_init);
module_exit(hog_exit);
MODULE_DESCRIPTION("rdmastor test: a kernel ULP that allocates MRs in a loop");
MODULE_LICENSE("GPL");
