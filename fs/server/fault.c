// SPDX-License-Identifier: GPL-2.0
/*
 * Fault switches for tests, in debugfs (/sys/kernel/debug/rdmastor_svcrdma/),
 * debug builds only (RDMASTOR_DEBUG): rare paths made to happen on demand.
 *
 *   bc_work_delay_ms
 *		the work that completes callbacks' replies sleeps this long
 *		before it looks at them, so that replies a hostile client
 *		sends back to back fill every slot and the next one is
 *		refused ("more replies than callbacks": svcrdma_malformed's
 *		bcflood). Without it the work ends the connection at the
 *		first stray reply, before the slots fill.
 *
 *   fail_rx_hold
 *		a count: the next N messages that would hold their receive
 *		buffer (a call in ->recv, a callback's reply in
 *		rsv_bc_queue()) find none to hold, as when a client keeps
 *		more in flight than the ring has room for (S1); each ends
 *		the connection as a protocol error.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>

#include "rsv.h"

static struct dentry *rsv_fault_dir;
static u32 rsv_bc_work_delay_ms;
static atomic_t rsv_fail_rx_hold = ATOMIC_INIT(0);

/**
 * rsv_fault_bc_work_delay - sleep bc_work_delay_ms
 *
 * Context: process (the callback reply work).
 */
void rsv_fault_bc_work_delay(void)
{
	u32 ms = READ_ONCE(rsv_bc_work_delay_ms);

	if (ms)
		msleep(ms);
}

/**
 * rsv_fault_rx_hold - should this message find no receive buffer to hold?
 *
 * Return: true once for each count written to fail_rx_hold.
 * Context: any (->recv may run in softirq).
 */
bool rsv_fault_rx_hold(void)
{
	return atomic_add_unless(&rsv_fail_rx_hold, -1, 0);
}

/**
 * rsv_fault_init - create the debugfs switches (none if debugfs is off)
 */
void rsv_fault_init(void)
{
	rsv_fault_dir = debugfs_create_dir("rdmastor_svcrdma", NULL);
	debugfs_create_u32("bc_work_delay_ms", 0600, rsv_fault_dir,
			   &rsv_bc_work_delay_ms);
	debugfs_create_atomic_t("fail_rx_hold", 0600, rsv_fault_dir,
				&rsv_fail_rx_hold);
}

/**
 * rsv_fault_exit - remove the debugfs switches
 */
void rsv_fault_exit(void)
{
	debugfs_remove_recursive(rsv_fault_dir);
}
