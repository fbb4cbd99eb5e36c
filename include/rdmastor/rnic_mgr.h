/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rnic_mgr consumer API: how a kernel subsystem gets its share of an RDMA
 * device's translation entries (pages its MRs can map) and MR keys.
 *
 * A consumer registers once per device with a name, a weight and the
 * amount one maximum-size I/O needs (guaranteed, so it never
 * deadlocks), then brackets every MR allocation or registration with
 * rnic_acquire() and rnic_release(). An allocated fast-reg MR is charged
 * its full capacity until it is freed.
 *
 * When others need what it holds, rnic_mgr calls ->shrink: the consumer
 * lowers its window at once, frees idle MRs now and busy ones as their
 * I/Os complete, releasing as it goes, and must reach the target within
 * the revocation deadline (module parameter revoke_deadline_ms).
 */
#ifndef RDMASTOR_RNIC_MGR_H
#define RDMASTOR_RNIC_MGR_H

#include <linux/types.h>

struct ib_device;
struct rnic_consumer;

/**
 * struct rnic_consumer_ops - callbacks from rnic_mgr
 * @shrink: get down to at most @entries and @keys. Process context, may
 *	sleep; called from rnic_mgr's workqueue, never with its locks held,
 *	so it may call rnic_release() (but not rnic_unregister()).
 * @grow: optional: it may hold more, up to @entries and @keys (its share
 *	and what it may borrow: rnic_entitlement()'s figures): its share
 *	grew, or a consumer it shrank for left. Same context as @shrink.
 * @late: optional: the consumer is still above its shrink target past
 *	its revocation deadline. Same context as @shrink; called once per
 *	late revocation.
 * @reclaim: optional: another consumer waits for entries while this one
 *	may keep some cached and idle: give back idle ones covering up to
 *	@entries, none in use. Not a shrink: no target, no deadline, the
 *	share stands. Same context as @shrink.
 * @removed: the device is going away. When it returns, rnic_mgr forgets
 *	everything the consumer held; later acquires fail with -ENODEV. The
 *	consumer still calls rnic_unregister().
 */
struct rnic_consumer_ops {
	void (*shrink)(struct rnic_consumer *c, u64 entries, u64 keys, void *priv);
	void (*grow)(struct rnic_consumer *c, u64 entries, u64 keys, void *priv);
	void (*late)(struct rnic_consumer *c, void *priv);
	void (*removed)(struct rnic_consumer *c, void *priv);
	void (*reclaim)(struct rnic_consumer *c, u64 entries, void *priv);
};

/**
 * struct rnic_consumer_desc - what a consumer tells rnic_mgr at register
 * @name: shown in sysfs and traces (truncated to 31 characters)
 * @weight: relative weight, 1..10000
 * @min_entries: entries of one maximum-size I/O, guaranteed
 * @min_keys: keys of one maximum-size I/O, guaranteed
 * @ops: callbacks
 * @priv: passed back to the callbacks
 * @peer_group: NULL, or a key (a listener) whose consumers share one
 *	place at the top level of the device's fair shares, as a tenant's
 *	processes do: remote peers, however many connect, weigh as one
 * @group_name: that group's name, for sysfs and consumer_weights
 * @min_later: admit it with no minimum; rnic_claim_min() asks for
 *	@min_entries and @min_keys later (a remote peer's connection,
 *	once it has called)
 */
struct rnic_consumer_desc {
	const char *name;
	u32 weight;
	u32 min_entries;
	u32 min_keys;
	const struct rnic_consumer_ops *ops;
	void *priv;
	const void *peer_group;
	const char *group_name;
	bool min_later;
};

/* rnic_acquire() flags */
#define RNIC_NOWAIT	0x1	/* fail with -EAGAIN rather than wait */

struct rnic_consumer *rnic_register(struct ib_device *ibdev,
				    const struct rnic_consumer_desc *desc);
void rnic_unregister(struct rnic_consumer *c);
int rnic_acquire(struct rnic_consumer *c, u32 entries, u32 keys,
		 unsigned int flags);
void rnic_release(struct rnic_consumer *c, u32 entries, u32 keys);
void rnic_entitlement(struct rnic_consumer *c, u64 *entries, u64 *keys);
int rnic_claim_min(struct rnic_consumer *c);

#endif /* RDMASTOR_RNIC_MGR_H */
