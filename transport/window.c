// SPDX-License-Identifier: GPL-2.0
/*
 * The window: how many I/Os a connection may have outstanding, from the
 * peer's credits, our receive ring and the MRs our share covers
 * (rst_window.h). A shrink lowers c_mr_limit, so the
 * window drops at once; I/Os already in flight finish, new ones wait.
 */
#include <linux/module.h>
#include "rst_window.h"

#include "rst_int.h"
#include "trace.h"

static u32 rst_window_locked(struct rst_conn *c)
{
	return rst_window_calc(c->c_peer_credits, c->c_rx_nr,
			       c->c_rc ? c->c_mr_limit : 0);
}

/**
 * rst_window - outstanding I/Os allowed now
 * @c: the connection
 */
u32 rst_window(struct rst_conn *c)
{
	unsigned long flags;
	u32 w;

	spin_lock_irqsave(&c->c_lock, flags);
	w = rst_window_locked(c);
	spin_unlock_irqrestore(&c->c_lock, flags);
	return w;
}
EXPORT_SYMBOL_GPL(rst_window);

/**
 * rst_set_peer_credits - the peer granted this many receive buffers
 * @c: the connection
 * @credits: as the ULP's protocol carries them
 *
 * Context: any (typically ->recv).
 */
void rst_set_peer_credits(struct rst_conn *c, u32 credits)
{
	unsigned long flags;
	bool more;

	spin_lock_irqsave(&c->c_lock, flags);
	more = credits > c->c_peer_credits;
	if (credits != c->c_peer_credits)
		trace_rst_credits(c, c->c_peer_credits, credits);
	c->c_peer_credits = credits;
	spin_unlock_irqrestore(&c->c_lock, flags);
	if (more)
		wake_up_all(&c->c_wq);
}
EXPORT_SYMBOL_GPL(rst_set_peer_credits);

static bool rst_io_may_start(struct rst_conn *c, int *err)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&c->c_lock, flags);
	if (c->c_state == RST_DOWN) {
		*err = -ENOTCONN;
		ok = true;
	} else {
		u32 window = rst_window_locked(c);

		ok = c->c_outstanding < window;
		if (ok) {
			c->c_outstanding++;
			*err = 0;
		} else {
			trace_rst_window_full(c, window);
		}
	}
	spin_unlock_irqrestore(&c->c_lock, flags);
	return ok;
}

/**
 * rst_io_begin - wait for room in the window and take it
 * @c: the connection
 *
 * Return: 0, -ENOTCONN (down) or -EINTR (fatal signal).
 * Context: process, sleeps.
 */
int rst_io_begin(struct rst_conn *c)
{
	int err = 0;

	if (rst_io_may_start(c, &err))
		return err;
	/*
	 * Full. If the MR limit is what binds, free entries may have
	 * appeared since the share was last read: look once more.
	 */
	rst_mr_refresh_limit(c);
	if (wait_event_killable(c->c_wq, rst_io_may_start(c, &err)))
		return -EINTR;
	return err;
}
EXPORT_SYMBOL_GPL(rst_io_begin);

/**
 * rst_io_trybegin - take room in the window if there is some now
 * @c: the connection
 *
 * For a ULP that submits from atomic context (the iSER initiator's
 * xmit_task runs under libiscsi's spinlock): a full window is answered
 * at once and the ULP hands the I/O back to its own queue.
 *
 * Return: 0, -EAGAIN (full) or -ENOTCONN (down).
 * Context: any; never sleeps.
 */
int rst_io_trybegin(struct rst_conn *c)
{
	int err = 0;

	if (rst_io_may_start(c, &err))
		return err;
	return -EAGAIN;
}
EXPORT_SYMBOL_GPL(rst_io_trybegin);

/**
 * rst_io_end - an I/O left the window
 * @c: the connection
 */
void rst_io_end(struct rst_conn *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->c_lock, flags);
	if (!WARN_ON_ONCE(!c->c_outstanding))
		c->c_outstanding--;
	spin_unlock_irqrestore(&c->c_lock, flags);
	wake_up_all(&c->c_wq);
}
EXPORT_SYMBOL_GPL(rst_io_end);
