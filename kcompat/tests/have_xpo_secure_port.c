// SPDX-License-Identifier: GPL-2.0
/*
 * Does svc_xprt_ops still have ->xpo_secure_port (removed in 6.9: the
 * transport sets RQ_SECURE in its own recvfrom)?
 */
#include <linux/stddef.h>
#include <linux/sunrpc/svc_xprt.h>

int kcompat_probe(void);
/**
 * kcompat_probe - compiles only where ->xpo_secure_port exists
 *
 * Return: the member's offset.
 */
int kcompat_probe(void)
{
	return offsetof(struct svc_xprt_ops, xpo_secure_port);
}
