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
 */
#include <linux/debugfs.h>
#include <linux/delay.h>

#include "rsv.h"

static struct dentry *rsv_fault_dir;
static u32 rsv_bc_work_delay_ms;

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
 * rsv_fault_init - create the debugfs switches (none if debugfs is off)
 */
void rsv_fault_init(void)
{
	rsv_fault_dir = debugfs_create_dir("rdmastor_svcrdma", NULL);
	debugfs_create_u32("bc_work_delay_ms", 0600, rsv_fault_dir,
			   &rsv_bc_work_delay_ms);
}

/**
 * rsv_fault_exit - remove the debugfs switches
 */
void rsv_fault_exit(void)
{
	debugfs_remove_recursive(rsv_fault_dir);
}
