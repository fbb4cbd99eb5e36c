// SPDX-License-Identifier: GPL-2.0
/*
 * Does LIO time a whole login per connection (conn->login_timer, 6.5 on),
 * failing it and queueing the connection's login_work itself when the
 * timer fires?
 */
#include <linux/stddef.h>
#include <target/iscsi/iscsi_target_core.h>

int kcompat_probe(void);
int kcompat_probe(void)
{
	return offsetof(struct iscsit_conn, login_timer);
}
