// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only consumer of rnic_mgr, driven through debugfs. Each test
 * consumer registers with rnic_mgr and runs kernel threads that acquire
 * and release with a chosen pattern:
 *
 *   saturate  threads acquire CHUNK after CHUNK (waiting when refused)
 *             and keep it; chunks are "idle MRs", so a shrink request
 *             releases them down to the target, at once or, with
 *             DELAY_MS, later (as if waiting for I/Os to finish)
 *   probe     one thread: ROUNDS times acquire AMOUNT (waiting), record
 *             how long it took, hold HOLD_MS, release, pause GAP_MS and
 *             then until saturating consumers stop growing (at most
 *             5 s), so every probe meets a full device and has to
 *             reclaim, however slow the machine
 *   random    threads do ROUNDS random acquires and releases of 1..CHUNK
 *             entries and a key each, then release everything
 *   hold      one thread takes AMOUNT in CHUNKs (never waiting) and keeps
 *             them idle, as a ULP keeps its MRs: a shrink request gives
 *             chunks back down to the target, and it takes more only
 *             when told it may (->grow), up to AMOUNT and what it was
 *             told; "grows" in stats counts those calls
 *   pairs     benchmark: threads each time ROUNDS acquire(AMOUNT entries,
 *             one key, RNIC_NOWAIT) + release pairs; stats report the
 *             mean cost of a pair (after one untimed warm-up pair, so
 *             the grant is in place and the fast path is what is timed)
 *
 *   echo "start NAME DEV PATTERN WEIGHT MIN CHUNK THREADS ROUNDS AMOUNT HOLD_MS GAP_MS DELAY_MS" \
 *       > /sys/kernel/debug/rnic_test/ctl
 *   echo "stop NAME" > .../ctl     (or "stopall")
 *   cat /sys/kernel/debug/rnic_test/stats
 *
 * After device removal rnic_mgr has forgotten what a consumer held, so
 * its later releases are no-ops; the consumer is stopped as usual.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/delay.h>
#include <linux/sched/signal.h>
#include <rdma/ib_verbs.h>
#include <rdmastor/rnic_mgr.h>

#define TC_MAX_THREADS	16
#define TC_MAX_SAMPLES	4096
#define TC_RANDOM_SLOTS	64

enum tc_pattern { TC_SATURATE, TC_PROBE, TC_RANDOM, TC_PAIRS, TC_HOLD };

struct tc {
	struct list_head node;
	char name[32];
	enum tc_pattern pattern;
	struct rnic_consumer *rc;
	u32 chunk, threads, rounds, amount, hold_ms, gap_ms, delay_ms;
	struct task_struct *tasks[TC_MAX_THREADS];

	spinlock_t lock;
	u64 idle_chunks;	/* saturate: chunks held, all idle */
	u64 target;		/* from the last shrink request (or grow: hold) */
	atomic64_t held;	/* entries held, all patterns */
	struct delayed_work shrink_work;

	atomic64_t grants, errors, eagain, ops, grows;
	atomic64_t pair_ns;	/* pairs: time spent in timed pairs */
	atomic_t done_threads;
	bool removed;		/* ->removed was called */
	u32 lat_us[TC_MAX_SAMPLES];
	u32 nlat;
};

static LIST_HEAD(tc_list);
/* Grants to every saturating consumer: a probe waits for it to stand still. */
static atomic64_t tc_saturate_grants = ATOMIC64_INIT(0);
static DEFINE_MUTEX(tc_mutex);
static struct dentry *tc_dir;

/* Release idle chunks down to the target (saturate). */
static void tc_trim(struct tc *t)
{
	u64 n = 0;

	spin_lock(&t->lock);
	while (t->idle_chunks && t->idle_chunks * t->chunk > t->target) {
		t->idle_chunks--;
		n++;
	}
	spin_unlock(&t->lock);
	if (n) {
		atomic64_sub(n * t->chunk, &t->held);
		rnic_release(t->rc, n * t->chunk, 0);
	}
}

static void tc_shrink_work(struct work_struct *work)
{
	tc_trim(container_of(to_delayed_work(work), struct tc, shrink_work));
}

static void tc_shrink(struct rnic_consumer *rc, u64 entries, u64 keys, void *priv)
{
	struct tc *t = priv;

	spin_lock(&t->lock);
	t->target = entries;
	spin_unlock(&t->lock);
	if (t->pattern != TC_SATURATE && t->pattern != TC_HOLD)
		return;		/* the threads see the target */
	if (t->delay_ms)
		mod_delayed_work(system_wq, &t->shrink_work,
				 msecs_to_jiffies(t->delay_ms));
	else
		tc_trim(t);
}

/* hold: it may hold up to @entries again (the thread takes them) */
static void tc_grow(struct rnic_consumer *rc, u64 entries, u64 keys, void *priv)
{
	struct tc *t = priv;

	atomic64_inc(&t->grows);
	spin_lock(&t->lock);
	t->target = entries;
	spin_unlock(&t->lock);
}

/* The device is going away: what we hold died with it. */
static void tc_removed(struct rnic_consumer *rc, void *priv)
{
	struct tc *t = priv;

	spin_lock(&t->lock);
	t->removed = true;
	spin_unlock(&t->lock);
}

static const struct rnic_consumer_ops tc_ops = {
	.shrink = tc_shrink,
	.grow = tc_grow,
	.removed = tc_removed,
};

static int tc_saturate_thread(void *arg)
{
	struct tc *t = arg;
	int err;

	allow_signal(SIGKILL);
	while (!kthread_should_stop()) {
		err = rnic_acquire(t->rc, t->chunk, 0, 0);
		atomic64_inc(&t->ops);
		if (err) {
			if (!fatal_signal_pending(current))
				atomic64_inc(&t->errors);
			if (kthread_should_stop() || fatal_signal_pending(current))
				break;
			schedule_timeout_killable(msecs_to_jiffies(10));
			continue;
		}
		atomic64_inc(&t->grants);
		atomic64_inc(&tc_saturate_grants);
		atomic64_add(t->chunk, &t->held);
		spin_lock(&t->lock);
		t->idle_chunks++;
		spin_unlock(&t->lock);
		if (t->hold_ms)
			msleep(t->hold_ms);
		cond_resched();
	}
	atomic_inc(&t->done_threads);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static int tc_hold_thread(void *arg)
{
	struct tc *t = arg;

	allow_signal(SIGKILL);
	while (!kthread_should_stop() && !fatal_signal_pending(current)) {
		bool more;

		spin_lock(&t->lock);
		more = (t->idle_chunks + 1) * t->chunk <= min_t(u64, t->amount, t->target);
		spin_unlock(&t->lock);
		/* never queued: only ->grow may tell it to take more */
		if (!more || rnic_acquire(t->rc, t->chunk, 0, RNIC_NOWAIT)) {
			if (more)
				atomic64_inc(&t->eagain);
			schedule_timeout_killable(msecs_to_jiffies(10));
			continue;
		}
		atomic64_inc(&t->grants);
		atomic64_add(t->chunk, &t->held);
		spin_lock(&t->lock);
		t->idle_chunks++;
		spin_unlock(&t->lock);
	}
	atomic_inc(&t->done_threads);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

/*
 * Wait until no saturating consumer has been granted anything for 100 ms
 * (they have taken back what the last probe freed), at most 5 s.
 */
static void tc_wait_saturated(void)
{
	unsigned long end = jiffies + 5 * HZ;
	s64 last = atomic64_read(&tc_saturate_grants);

	while (time_before(jiffies, end) && !kthread_should_stop()) {
		s64 now;

		msleep(100);
		now = atomic64_read(&tc_saturate_grants);
		if (now == last)
			return;
		last = now;
	}
}

static int tc_probe_thread(void *arg)
{
	struct tc *t = arg;
	u32 i;

	allow_signal(SIGKILL);
	for (i = 0; i < t->rounds && !kthread_should_stop(); i++) {
		u64 t0;
		int err;

		tc_wait_saturated();
		t0 = ktime_get_ns();
		err = rnic_acquire(t->rc, t->amount, 0, 0);
		atomic64_inc(&t->ops);
		if (err) {
			atomic64_inc(&t->errors);
			break;
		}
		atomic64_inc(&t->grants);
		atomic64_add(t->amount, &t->held);
		spin_lock(&t->lock);
		if (t->nlat < TC_MAX_SAMPLES)
			t->lat_us[t->nlat++] = div_u64(ktime_get_ns() - t0, NSEC_PER_USEC);
		spin_unlock(&t->lock);
		msleep(t->hold_ms);
		atomic64_sub(t->amount, &t->held);
		rnic_release(t->rc, t->amount, 0);
		msleep(t->gap_ms);
	}
	atomic_inc(&t->done_threads);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static int tc_random_thread(void *arg)
{
	struct tc *t = arg;
	u32 slots[TC_RANDOM_SLOTS], nslots = 0, i;
	u64 mine = 0;

	allow_signal(SIGKILL);
	for (i = 0; i < t->rounds && !kthread_should_stop(); i++) {
		bool over;
		u32 r = get_random_u32();

		spin_lock(&t->lock);
		over = (u64)atomic64_read(&t->held) > t->target;
		spin_unlock(&t->lock);
		atomic64_inc(&t->ops);
		if (nslots && (over || nslots == TC_RANDOM_SLOTS || (r & 1))) {
			u32 k = (r >> 1) % nslots;
			u32 n = slots[k];

			slots[k] = slots[--nslots];
			mine -= n;
			atomic64_sub(n, &t->held);
			rnic_release(t->rc, n, 1);
		} else {
			u32 n = 1 + (r >> 8) % t->chunk;
			/* Wait only with empty hands, so waiters never deadlock. */
			int err = rnic_acquire(t->rc, n, 1, nslots ? RNIC_NOWAIT : 0);

			if (err && err != -EAGAIN) {
				atomic64_inc(&t->errors);
				break;
			}
			if (err) {
				atomic64_inc(&t->eagain);
			} else {
				atomic64_inc(&t->grants);
				slots[nslots++] = n;
				mine += n;
				atomic64_add(n, &t->held);
			}
		}
		if ((i & 255) == 0)
			cond_resched();
	}
	while (nslots) {
		u32 n = slots[--nslots];

		atomic64_sub(n, &t->held);
		rnic_release(t->rc, n, 1);
	}
	atomic_inc(&t->done_threads);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static int tc_pairs_thread(void *arg)
{
	struct tc *t = arg;
	u64 t0, pairs = 0;
	u32 i;

	allow_signal(SIGKILL);
	if (rnic_acquire(t->rc, t->amount, 1, 0)) {
		atomic64_inc(&t->errors);
		goto out;
	}
	rnic_release(t->rc, t->amount, 1);
	t0 = ktime_get_ns();
	for (i = 0; i < t->rounds && !kthread_should_stop(); i++) {
		int err = rnic_acquire(t->rc, t->amount, 1, RNIC_NOWAIT);

		if (err == -EAGAIN) {
			atomic64_inc(&t->eagain);
			continue;
		}
		if (err) {
			atomic64_inc(&t->errors);
			break;
		}
		rnic_release(t->rc, t->amount, 1);
		pairs++;
		/* Yield now and then without a timed sleep in the loop. */
		if ((i & 4095) == 4095)
			cond_resched();
	}
	atomic64_add(ktime_get_ns() - t0, &t->pair_ns);
	atomic64_add(pairs, &t->grants);
	atomic64_add(i, &t->ops);
out:
	atomic_inc(&t->done_threads);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static void tc_stop(struct tc *t)
{
	u32 i;

	for (i = 0; i < t->threads; i++) {
		if (!t->tasks[i])
			continue;
		send_sig(SIGKILL, t->tasks[i], 1);
		kthread_stop(t->tasks[i]);
		put_task_struct(t->tasks[i]);
	}
	cancel_delayed_work_sync(&t->shrink_work);
	spin_lock(&t->lock);
	t->target = 0;
	spin_unlock(&t->lock);
	if (t->pattern == TC_SATURATE || t->pattern == TC_HOLD)
		tc_trim(t);
	WARN(atomic64_read(&t->held), "rnic_test: %s still holds %lld\n", t->name,
	     (long long)atomic64_read(&t->held));
	rnic_unregister(t->rc);
	list_del(&t->node);
	kfree(t);
}

static struct ib_device *tc_find_dev(const char *name)
{
	return ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
}

static int tc_start(char *args)
{
	char name[32], dev[IB_DEVICE_NAME_MAX], pattern[16];
	struct rnic_consumer_desc desc = { .ops = &tc_ops };
	u32 weight, min, i;
	struct ib_device *ibdev;
	struct tc *t;
	int n;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	n = sscanf(args, "%31s %63s %15s %u %u %u %u %u %u %u %u %u", name, dev,
		   pattern, &weight, &min, &t->chunk, &t->threads, &t->rounds,
		   &t->amount, &t->hold_ms, &t->gap_ms, &t->delay_ms);
	if (n != 12 || !t->chunk || !t->threads || t->threads > TC_MAX_THREADS)
		goto inval;
	if (!strcmp(pattern, "saturate"))
		t->pattern = TC_SATURATE;
	else if (!strcmp(pattern, "probe"))
		t->pattern = TC_PROBE;
	else if (!strcmp(pattern, "random"))
		t->pattern = TC_RANDOM;
	else if (!strcmp(pattern, "pairs"))
		t->pattern = TC_PAIRS;
	else if (!strcmp(pattern, "hold"))
		t->pattern = TC_HOLD;
	else
		goto inval;
	if (t->pattern == TC_PROBE || t->pattern == TC_HOLD)
		t->threads = 1;
	strscpy(t->name, name, sizeof(t->name));
	spin_lock_init(&t->lock);
	t->target = U64_MAX;
	INIT_DELAYED_WORK(&t->shrink_work, tc_shrink_work);

	ibdev = tc_find_dev(dev);
	if (!ibdev) {
		kfree(t);
		return -ENODEV;
	}
	desc.name = t->name;
	desc.weight = weight;
	desc.min_entries = min;
	desc.min_keys = t->pattern == TC_PAIRS ? t->threads :
			t->pattern == TC_RANDOM ? 1 : 0;
	desc.priv = t;
	t->rc = rnic_register(ibdev, &desc);
	ib_device_put(ibdev);
	if (IS_ERR(t->rc)) {
		n = PTR_ERR(t->rc);
		kfree(t);
		return n;
	}
	list_add_tail(&t->node, &tc_list);
	for (i = 0; i < t->threads; i++) {
		static int (* const fns[])(void *) = {
			[TC_SATURATE] = tc_saturate_thread,
			[TC_PROBE] = tc_probe_thread,
			[TC_RANDOM] = tc_random_thread,
			[TC_PAIRS] = tc_pairs_thread,
			[TC_HOLD] = tc_hold_thread,
		};
		int (*fn)(void *) = fns[t->pattern];
		struct task_struct *task = kthread_run(fn, t, "rnic_tc/%s/%u", t->name, i);

		if (IS_ERR(task)) {
			tc_stop(t);
			return PTR_ERR(task);
		}
		get_task_struct(task);
		t->tasks[i] = task;
	}
	return 0;
inval:
	kfree(t);
	return -EINVAL;
}

static ssize_t tc_ctl_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[256], *cmd, *args;
	struct tc *t, *tmp;
	int err = -EINVAL;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	args = strim(buf);
	cmd = strsep(&args, " ");

	mutex_lock(&tc_mutex);
	if (!strcmp(cmd, "start") && args) {
		err = tc_start(args);
	} else if (!strcmp(cmd, "stop") && args) {
		err = -ENOENT;
		list_for_each_entry_safe(t, tmp, &tc_list, node) {
			if (!strcmp(t->name, strim(args))) {
				tc_stop(t);
				err = 0;
				break;
			}
		}
	} else if (!strcmp(cmd, "stopall")) {
		list_for_each_entry_safe(t, tmp, &tc_list, node)
			tc_stop(t);
		err = 0;
	}
	mutex_unlock(&tc_mutex);
	return err ? err : len;
}

static int tc_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int tc_stats_show(struct seq_file *m, void *v)
{
	struct tc *t;
	static u32 tmp[TC_MAX_SAMPLES];

	seq_puts(m, "name held grants errors eagain ops done samples p50_us p99_us max_us removed pair_ns grows\n");
	mutex_lock(&tc_mutex);
	list_for_each_entry(t, &tc_list, node) {
		u32 n, p50 = 0, p99 = 0, mx = 0;
		u64 pairs = atomic64_read(&t->grants);

		spin_lock(&t->lock);
		n = t->nlat;
		memcpy(tmp, t->lat_us, n * sizeof(u32));
		spin_unlock(&t->lock);
		if (n) {
			sort(tmp, n, sizeof(u32), tc_cmp_u32, NULL);
			p50 = tmp[(n - 1) / 2];
			p99 = tmp[(n - 1) * 99 / 100];
			mx = tmp[n - 1];
		}
		seq_printf(m, "%s %lld %lld %lld %lld %lld %d %u %u %u %u %d %llu %lld\n", t->name,
			   (long long)atomic64_read(&t->held),
			   (long long)atomic64_read(&t->grants),
			   (long long)atomic64_read(&t->errors),
			   (long long)atomic64_read(&t->eagain),
			   (long long)atomic64_read(&t->ops),
			   atomic_read(&t->done_threads) == t->threads, n, p50, p99, mx,
			   t->removed,
			   t->pattern == TC_PAIRS && pairs ?
			   div64_u64(atomic64_read(&t->pair_ns), pairs) : 0ULL,
			   (long long)atomic64_read(&t->grows));
	}
	mutex_unlock(&tc_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tc_stats);

static const struct file_operations tc_ctl_fops = {
	.owner = THIS_MODULE,
	.write = tc_ctl_write,
};

static int __init tc_init(void)
{
	tc_dir = debugfs_create_dir("rnic_test", NULL);
	debugfs_create_file("ctl", 0200, tc_dir, NULL, &tc_ctl_fops);
	debugfs_create_file("stats", 0444, tc_dir, NULL, &tc_stats_fops);
	return 0;
}

static void __exit tc_exit(void)
{
	struct tc *t, *tmp;

	debugfs_remove_recursive(tc_dir);
	mutex_lock(&tc_mutex);
	list_for_each_entry_safe(t, tmp, &tc_list, node)
		tc_stop(t);
	mutex_unlock(&tc_mutex);
}

module_init(tc_init);
module_exit(tc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdmastor test: rnic_mgr consumers with chosen demand patterns");
