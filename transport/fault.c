// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection for tests, in debugfs (/sys/kernel/debug/rdmastor_transport/):
 * rare error paths made to happen on demand, so that each has a test.
 *
 *   fail_rw_init   the next N rdma_rw_ctx_init() calls (RDMA READ and
 *                  WRITE by DMA address) fail with -EIO, as a DMA
 *                  mapping failure would
 *   mr_busy        the next N forced-MR RDMA READs find the MR share
 *                  lent out when first tried, as after a budget cut or
 *                  another consumer's demand: each waits for an MR
 *   read_post_delay_ms
 *                  every RDMA READ by DMA address asked for where the
 *                  caller may sleep (the NFS server's pull work) sleeps
 *                  this long between its check that the connection is
 *                  up and its post, so that a peer's disconnect lands
 *                  in between (review M4)
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/preempt.h>

#include "rst_int.h"

static struct dentry *rst_fault_dir;
static atomic_t rst_fail_rw_init = ATOMIC_INIT(0);
static atomic_t rst_mr_busy = ATOMIC_INIT(0);
static u32 rst_read_post_delay_ms;

/**
 * rst_fault_rw_init - should this rdma_rw_ctx_init() fail?
 *
 * Return: true once for each count written to fail_rw_init.
 * Context: any.
 */
bool rst_fault_rw_init(void)
{
	return atomic_add_unless(&rst_fail_rw_init, -1, 0);
}

/**
 * rst_fault_mr_busy - should this forced-MR READ find no MR at first?
 *
 * Return: true once for each count written to mr_busy.
 * Context: any.
 */
bool rst_fault_mr_busy(void)
{
	return atomic_add_unless(&rst_mr_busy, -1, 0);
}

/**
 * rst_fault_read_post_delay - sleep read_post_delay_ms, where allowed
 *
 * Context: any; sleeps only where the caller may (preemptible()).
 */
void rst_fault_read_post_delay(void)
{
	u32 ms = READ_ONCE(rst_read_post_delay_ms);

	if (ms && preemptible())
		msleep(ms);
}

/**
 * rst_fault_init - create the debugfs switches (none if debugfs is off)
 */
void rst_fault_init(void)
{
	rst_fault_dir = debugfs_create_dir("rdmastor_transport", NULL);
	debugfs_create_atomic_t("fail_rw_init", 0600, rst_fault_dir, &rst_fail_rw_init);
	debugfs_create_atomic_t("mr_busy", 0600, rst_fault_dir, &rst_mr_busy);
	debugfs_create_u32("read_post_delay_ms", 0600, rst_fault_dir,
			   &rst_read_post_delay_ms);
}

/**
 * rst_fault_exit - remove the debugfs switches
 */
void rst_fault_exit(void)
{
	debugfs_remove_recursive(rst_fault_dir);
}
