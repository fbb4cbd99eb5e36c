// SPDX-License-Identifier: GPL-2.0
/*
 * rtp: test protocol and benchmark on rdmastor's transport engine. One
 * module, both roles, driven through /sys/kernel/debug/rtp/ (see
 * rtp_client.c and rtp_server.c; tests/lib/rtp wraps them).
 */
#include <linux/module.h>
#include <linux/debugfs.h>

#include "rtp.h"

static struct dentry *rtp_dir;

static int __init rtp_init(void)
{
	int err;

	rtp_dir = debugfs_create_dir("rtp", NULL);
	err = rtp_server_init(rtp_dir);
	if (err)
		goto out_dir;
	err = rtp_client_init(rtp_dir);
	if (err)
		goto out_server;
	return 0;
out_server:
	rtp_server_exit();
out_dir:
	debugfs_remove_recursive(rtp_dir);
	return err;
}

static void __exit rtp_exit(void)
{
	/* No client run can be active: it holds the ctl file open. */
	debugfs_remove_recursive(rtp_dir);
	rtp_server_exit();
}

module_init(rtp_init);
module_exit(rtp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdmastor test: rtp protocol client and server on the transport engine");
