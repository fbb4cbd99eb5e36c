// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only: commits, as it loads, the one defect its "fault" parameter
 * names, so that the debug lane (make check-debug) can prove it fails a
 * test for each kind of report the debug kernel makes
 * (tests/host/debug_lane.sh):
 *
 *   leak          200 bytes of 0x5a nothing refers to any more (kmemleak)
 *   lock_order    two mutexes taken in both orders, one after the other:
 *                 no deadlock happens, but lockdep sees that one could
 *   sleep_atomic  a function that may sleep called under a spinlock
 *                 (DEBUG_ATOMIC_SLEEP); it does not sleep, which would
 *                 panic the guest (panic_on_warn) and end the body
 *   use_after_free  a read of freed memory (KASAN)
 *
 * Loading it with no fault does nothing. Never built outside the tests.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/kernel.h>

static char *fault = "";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "leak, lock_order, sleep_atomic or use_after_free");

static DEFINE_MUTEX(kernel_faults_a);
static DEFINE_MUTEX(kernel_faults_b);
static DEFINE_SPINLOCK(kernel_faults_spin);

/*
 * Through these (READ_ONCE/WRITE_ONCE) the compiler cannot drop the
 * freed read, nor the leaked buffer's fill (a store to memory that is
 * never read again)
 */
static char kernel_faults_sink;
static char *kernel_faults_last;

static noinline void kernel_faults_leak(void)
{
	char *p = kmalloc(200, GFP_KERNEL);

	if (!p)
		return;
	memset(p, 0x5a, 200);
	/* the only pointer to it is overwritten */
	WRITE_ONCE(kernel_faults_last, p);
	WRITE_ONCE(kernel_faults_last, NULL);
}

static noinline void kernel_faults_lock_order(void)
{
	mutex_lock(&kernel_faults_a);
	mutex_lock(&kernel_faults_b);
	mutex_unlock(&kernel_faults_b);
	mutex_unlock(&kernel_faults_a);

	mutex_lock(&kernel_faults_b);
	mutex_lock(&kernel_faults_a);
	mutex_unlock(&kernel_faults_a);
	mutex_unlock(&kernel_faults_b);
}

static noinline void kernel_faults_sleep_atomic(void)
{
	spin_lock(&kernel_faults_spin);
	might_sleep();
	spin_unlock(&kernel_faults_spin);
}

static noinline void kernel_faults_use_after_free(void)
{
	char *p = kmalloc(64, GFP_KERNEL);

	if (!p)
		return;
	kfree(p);
	WRITE_ONCE(kernel_faults_sink, READ_ONCE(p[8]));
}

static int __init kernel_faults_init(void)
{
	if (!strcmp(fault, "leak"))
		kernel_faults_leak();
	else if (!strcmp(fault, "lock_order"))
		kernel_faults_lock_order();
	else if (!strcmp(fault, "sleep_atomic"))
		kernel_faults_sleep_atomic();
	else if (!strcmp(fault, "use_after_free"))
		kernel_faults_use_after_free();
	else if (*fault)
		return -EINVAL;
	return 0;
}

static void __exit kernel_faults_exit(void)
{
}

module_init(kernel_faults_init);
module_exit(kernel_faults_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdmastor test: one deliberate defect, to prove the debug lane catches it");
