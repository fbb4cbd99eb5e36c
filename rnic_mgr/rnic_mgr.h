/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rnic_mgr internals shared between its source files.
 *
 * rnic_mgr is an ib_client: the RDMA core tells it about every device as
 * it comes and goes, and it keeps one struct rnic_dev per device, visible
 * as /sys/kernel/rnic_mgr/devices/<ibdev>/.
 */
#ifndef RNIC_MGR_H
#define RNIC_MGR_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <rdma/ib_verbs.h>

/**
 * struct rnic_dev - what rnic_mgr knows of one RDMA device
 * @rd_kobj: sysfs directory; its release frees this structure
 * @rd_ibdev: the device; valid from ib_client add until remove returns
 * @rd_name: device name when it was added (sysfs outlives @rd_ibdev)
 * @rd_max_mr: MRs the device says it supports
 * @rd_max_frpl: pages one fast-registration MR can map on this device
 */
struct rnic_dev {
	struct kobject rd_kobj;
	struct ib_device *rd_ibdev;
	char rd_name[IB_DEVICE_NAME_MAX];
	u32 rd_max_mr;
	u32 rd_max_frpl;
};

int rnic_sysfs_init(void);
void rnic_sysfs_exit(void);
int rnic_sysfs_add_dev(struct rnic_dev *rd);
void rnic_sysfs_del_dev(struct rnic_dev *rd);

int rnic_client_init(void);
void rnic_client_exit(void);

#endif /* RNIC_MGR_H */
