// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection for tests, in debugfs (/sys/kernel/debug/rnic_mgr/):
 * rare error paths made to happen on demand, so that each has a test.
 *
 *   fail_consumer_sysfs      the next N consumer directories fail to
 *                            appear (as if kobject_add() had failed)
 *   consumer_sysfs_delay_ms  sleep this long before publishing a new
 *                            consumer's directory: widens the window
 *                            against a concurrent device removal
 *   dev_add_delay_ms         sleep this long once a new device's
 *                            directory appeared, before the add goes on:
 *                            what a udev rule on the directory may
 *                            write meanwhile
 *   rename_byte_delay_ms     a rename writes the device's new name one
 *                            byte at a time, this long apart (busy: the
 *                            write runs with interrupts off, I9): what
 *                            a reader of the name may see meanwhile
 */
#include <linux/debugfs.h>
#include <linux/delay.h>

#include "rnic_int.h"

static struct dentry *rnic_fault_dir;
static atomic_t rnic_fail_consumer_sysfs = ATOMIC_INIT(0);
static u32 rnic_consumer_sysfs_delay_ms;
static u32 rnic_dev_add_delay_ms;
static u32 rnic_rename_byte_delay_ms;

/**
 * rnic_fault_consumer_sysfs - should this consumer's sysfs add fail?
 *
 * Sleeps first if consumer_sysfs_delay_ms is set.
 *
 * Return: true once for each count written to fail_consumer_sysfs.
 * Context: process, may sleep.
 */
bool rnic_fault_consumer_sysfs(void)
{
	u32 delay = READ_ONCE(rnic_consumer_sysfs_delay_ms);

	if (delay)
		msleep(delay);
	return atomic_add_unless(&rnic_fail_consumer_sysfs, -1, 0);
}

/**
 * rnic_fault_dev_added - a new device's directory appeared
 *
 * Sleeps dev_add_delay_ms, if set.
 * Context: process, may sleep.
 */
void rnic_fault_dev_added(void)
{
	u32 delay = READ_ONCE(rnic_dev_add_delay_ms);

	if (delay)
		msleep(delay);
}

/**
 * rnic_fault_name_copy - write a device's new name over its old one
 * @dst: the name being written
 * @src: the new name
 * @len: bytes to copy
 *
 * One byte at a time, rename_byte_delay_ms apart, if set.
 * Context: any; busy-waits.
 */
void rnic_fault_name_copy(char *dst, const char *src, size_t len)
{
	u32 delay = READ_ONCE(rnic_rename_byte_delay_ms);
	size_t i;

	if (!delay) {
		memcpy(dst, src, len);
		return;
	}
	for (i = 0; i < len; i++) {
		WRITE_ONCE(dst[i], src[i]);
		if (src[i])
			mdelay(delay);
	}
}

/**
 * rnic_fault_init - create the debugfs switches (none if debugfs is off)
 */
void rnic_fault_init(void)
{
	rnic_fault_dir = debugfs_create_dir("rnic_mgr", NULL);
	debugfs_create_atomic_t("fail_consumer_sysfs", 0600, rnic_fault_dir,
				&rnic_fail_consumer_sysfs);
	debugfs_create_u32("consumer_sysfs_delay_ms", 0600, rnic_fault_dir,
			   &rnic_consumer_sysfs_delay_ms);
	debugfs_create_u32("dev_add_delay_ms", 0600, rnic_fault_dir,
			   &rnic_dev_add_delay_ms);
	debugfs_create_u32("rename_byte_delay_ms", 0600, rnic_fault_dir,
			   &rnic_rename_byte_delay_ms);
}

/**
 * rnic_fault_exit - remove the debugfs switches
 */
void rnic_fault_exit(void)
{
	debugfs_remove_recursive(rnic_fault_dir);
}
