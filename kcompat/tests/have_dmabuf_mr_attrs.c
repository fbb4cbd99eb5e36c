// SPDX-License-Identifier: GPL-2.0
/*
 * Does ib_device_ops.reg_user_mr_dmabuf take the uverbs attribute bundle
 * (6.10 on) rather than the ib_udata?
 */
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

static struct ib_mr *kcompat_reg(struct ib_pd *pd, u64 offset, u64 length,
				 u64 virt_addr, int fd, int access,
				 struct uverbs_attr_bundle *attrs)
{
	return NULL;
}

const struct ib_device_ops kcompat_probe_ops;
const struct ib_device_ops kcompat_probe_ops = {
	.reg_user_mr_dmabuf = kcompat_reg,
};
