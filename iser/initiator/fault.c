// SPDX-License-Identifier: GPL-2.0
/*
 * Fault switches of rdmastor_iser, for tests; built only with
 * RDMASTOR_DEBUG (make check), a product build has the stubs in ini.h.
 * In debugfs, beside conns (/sys/kernel/debug/rdmastor_iser/):
 *
 *   inv_delay_ms   while non-zero, a command answered without
 *                  Send-with-Invalidate waits this long after our
 *                  LOCAL_INV of its key completed before it is treated
 *                  as complete: a slow LOCAL_INV, so that a task
 *                  management response can arrive meanwhile (review L1)
 *   send_pdu_delay_ms  while non-zero, a Text request sent for iscsiadm
 *                  returns to it this much later, so that the target's
 *                  response would come before the request's netlink
 *                  reply if the request were posted at once (H7)
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/workqueue.h>

#include "ini.h"

static u32 ini_inv_delay_ms;
static u32 ini_send_pdu_delay_ms;

/* The delayed completion: as if the LOCAL_INV completed only now. */
static void ini_fault_inv_work(struct work_struct *work)
{
	struct ini_task *it = container_of(to_delayed_work(work), struct ini_task,
					   inv_work);

	ini_inv_done(it->inv_task, it->inv_status);
}

static void ini_fault_inv_later(void *arg, int status)
{
	struct iscsi_task *task = arg;
	struct ini_task *it = task->dd_data;

	it->inv_task = task;
	it->inv_status = status;
	INIT_DELAYED_WORK(&it->inv_work, ini_fault_inv_work);
	schedule_delayed_work(&it->inv_work,
			      msecs_to_jiffies(READ_ONCE(ini_inv_delay_ms)));
}

/**
 * ini_fault_inv_done - the callback for a command's LOCAL_INV
 *
 * Return: ini_inv_done(), or with inv_delay_ms set a callback that runs
 * it that much later (the task's reference, held for the LOCAL_INV,
 * keeps it meanwhile).
 */
rst_mr_inv_fn ini_fault_inv_done(void)
{
	return READ_ONCE(ini_inv_delay_ms) ? ini_fault_inv_later : ini_inv_done;
}

/**
 * ini_fault_send_pdu_delay - a slow return from send_pdu (send_pdu_delay_ms)
 * @opcode: the PDU's opcode; Text requests only
 *
 * Context: process, after the PDU was handed on; sleeps.
 */
void ini_fault_send_pdu_delay(u8 opcode)
{
	u32 ms = READ_ONCE(ini_send_pdu_delay_ms);

	if (ms && opcode == ISCSI_OP_TEXT)
		msleep(ms);
}

/**
 * ini_fault_init - create the switches
 * @dir: rdmastor_iser's debugfs directory
 */
void ini_fault_init(struct dentry *dir)
{
	debugfs_create_u32("inv_delay_ms", 0600, dir, &ini_inv_delay_ms);
	debugfs_create_u32("send_pdu_delay_ms", 0600, dir, &ini_send_pdu_delay_ms);
}
