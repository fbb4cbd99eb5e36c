/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of rnic_mgr's decisions: consumers coming and going, the
 * slow path, grants and refusals beyond the fast path, waits,
 * rebalances, shrink requests and their completion, budget changes.
 * Events take the objects (consumer, device) and name a consumer as
 * cons=NAME.ID, the name of its sysfs directory.
 * The fast path is not traced: it is the common case and must stay
 * cheap. Enable with: echo 1 > /sys/kernel/tracing/events/rnic_mgr/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rnic_mgr

#if !defined(RNIC_MGR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RNIC_MGR_TRACE_H

#include <linux/tracepoint.h>
#include <rdmastor/kcompat.h>
#include "rnic_int.h"
#include "dev_rules.h"

/* Consumers: which, and what they hold */

DECLARE_EVENT_CLASS(rnic_consumer_class,
	TP_PROTO(const struct rnic_consumer *c),
	TP_ARGS(c),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(name, c->rc_name)
		__field(u64, id)
		__field(u64, entries)
		__field(u64, keys)
		__field(u64, target)
	),
	TP_fast_assign(
		rnic_dev_name_copy(c->rc_dev, __entry->dev);
		kc_assign_str(name, c->rc_name);
		__entry->id = c->rc_id;
		__entry->entries = c->rc_pol.r[RNP_ENTRIES].held;
		__entry->keys = c->rc_pol.r[RNP_KEYS].held;
		__entry->target = c->rc_pol.r[RNP_ENTRIES].target;
	),
	TP_printk("dev=%s cons=%s.%llu held=%llu keys=%llu target=%llu",
		  __entry->dev, __get_str(name), __entry->id,
		  __entry->entries, __entry->keys, __entry->target)
);

#define DEFINE_RNIC_CONSUMER_EVENT(name)				\
	DEFINE_EVENT(rnic_consumer_class, name,				\
		TP_PROTO(const struct rnic_consumer *c), TP_ARGS(c))

/* birth and death: every register has one unregister */
DEFINE_RNIC_CONSUMER_EVENT(rnic_consumer_register);
DEFINE_RNIC_CONSUMER_EVENT(rnic_consumer_unregister);
/* asked to come down to target; still above it past the deadline */
DEFINE_RNIC_CONSUMER_EVENT(rnic_shrink_request);
DEFINE_RNIC_CONSUMER_EVENT(rnic_shrink_late);
/* its share grew back past what it holds: the target is gone, not late */
DEFINE_RNIC_CONSUMER_EVENT(rnic_shrink_cleared);
/* another consumer left and this one's share grew: it is told so (I7) */
DEFINE_RNIC_CONSUMER_EVENT(rnic_relieved);

/*
 * Another consumer waits: this one is asked to give back idle cached
 * entries (idle before active), @entries of them at most.
 */
TRACE_EVENT(rnic_reclaim_idle,
	TP_PROTO(const struct rnic_consumer *c, u64 entries),
	TP_ARGS(c, entries),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(name, c->rc_name)
		__field(u64, id)
		__field(u64, held)
		__field(u64, entries)
	),
	TP_fast_assign(
		rnic_dev_name_copy(c->rc_dev, __entry->dev);
		kc_assign_str(name, c->rc_name);
		__entry->id = c->rc_id;
		__entry->held = c->rc_pol.r[RNP_ENTRIES].held;
		__entry->entries = entries;
	),
	TP_printk("dev=%s cons=%s.%llu held=%llu entries=%llu", __entry->dev,
		  __get_str(name), __entry->id, __entry->held, __entry->entries)
);

/* Requests beyond the fast path, and what became of them */

DECLARE_EVENT_CLASS(rnic_acquire_class,
	TP_PROTO(const struct rnic_consumer *c, const u64 *n, int status),
	TP_ARGS(c, n, status),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(name, c->rc_name)
		__field(u64, id)
		__field(u64, entries)
		__field(u64, keys)
		__field(u64, held)
		__field(int, status)
	),
	TP_fast_assign(
		rnic_dev_name_copy(c->rc_dev, __entry->dev);
		kc_assign_str(name, c->rc_name);
		__entry->id = c->rc_id;
		__entry->entries = n[RNP_ENTRIES];
		__entry->keys = n[RNP_KEYS];
		__entry->held = c->rc_pol.r[RNP_ENTRIES].held;
		__entry->status = status;
	),
	TP_printk("dev=%s cons=%s.%llu entries=%llu keys=%llu held=%llu status=%d",
		  __entry->dev, __get_str(name), __entry->id,
		  __entry->entries, __entry->keys, __entry->held,
		  __entry->status)
);

#define DEFINE_RNIC_ACQUIRE_EVENT(name)					\
	DEFINE_EVENT(rnic_acquire_class, name,				\
		TP_PROTO(const struct rnic_consumer *c, const u64 *n, int status), \
		TP_ARGS(c, n, status))

/* the fast path could not grant: status 1 if it is owed (below its share) */
DEFINE_RNIC_ACQUIRE_EVENT(rnic_acquire_slow);
/* granted on the slow path */
DEFINE_RNIC_ACQUIRE_EVENT(rnic_grant);
/* refused with -EAGAIN (RNIC_NOWAIT) */
DEFINE_RNIC_ACQUIRE_EVENT(rnic_refuse);

TRACE_EVENT(rnic_wait_done,
	TP_PROTO(const struct rnic_consumer *c, const u64 *n, u64 ns, int status),
	TP_ARGS(c, n, ns, status),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(name, c->rc_name)
		__field(u64, id)
		__field(u64, entries)
		__field(u64, ns)
		__field(int, status)
	),
	TP_fast_assign(
		rnic_dev_name_copy(c->rc_dev, __entry->dev);
		kc_assign_str(name, c->rc_name);
		__entry->id = c->rc_id;
		__entry->entries = n[RNP_ENTRIES];
		__entry->ns = ns;
		__entry->status = status;
	),
	TP_printk("dev=%s cons=%s.%llu entries=%llu waited_ns=%llu status=%d",
		  __entry->dev, __get_str(name), __entry->id,
		  __entry->entries, __entry->ns, __entry->status)
);

TRACE_EVENT(rnic_shrink_done,
	TP_PROTO(const struct rnic_consumer *c),
	TP_ARGS(c),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(name, c->rc_name)
		__field(u64, id)
		__field(u64, ms)
	),
	TP_fast_assign(
		rnic_dev_name_copy(c->rc_dev, __entry->dev);
		kc_assign_str(name, c->rc_name);
		__entry->id = c->rc_id;
		__entry->ms = c->rc_last_reclaim_ms;
	),
	TP_printk("dev=%s cons=%s.%llu reclaim_ms=%llu", __entry->dev,
		  __get_str(name), __entry->id, __entry->ms)
);

/* The device's pool */

TRACE_EVENT(rnic_rebalance,
	TP_PROTO(const struct rnic_dev *rd, u64 ns),
	TP_ARGS(rd, ns),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__field(u32, consumers)
		__field(u64, ns)
	),
	TP_fast_assign(
		rnic_dev_name_copy(rd, __entry->dev);
		__entry->consumers = rd->rd_pool.nr;
		__entry->ns = ns;
	),
	TP_printk("dev=%s consumers=%u ns=%llu",
		  __entry->dev, __entry->consumers, __entry->ns)
);

TRACE_EVENT(rnic_budget,
	TP_PROTO(const struct rnic_dev *rd, int res, u64 budget),
	TP_ARGS(rd, res, budget),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__field(int, res)
		__field(u64, budget)
	),
	TP_fast_assign(
		rnic_dev_name_copy(rd, __entry->dev);
		__entry->res = res;
		__entry->budget = budget;
	),
	TP_printk("dev=%s %s budget=%llu", __entry->dev,
		  __entry->res ? "keys" : "entries", __entry->budget)
);

TRACE_EVENT(rnic_policy,
	TP_PROTO(const struct rnic_dev *rd, u32 policy),
	TP_ARGS(rd, policy),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__field(u32, policy)
	),
	TP_fast_assign(
		rnic_dev_name_copy(rd, __entry->dev);
		__entry->policy = policy;
	),
	TP_printk("dev=%s policy=%s", __entry->dev,
		  rnp_policy_name(__entry->policy))
);

/* A device was renamed (client.c): its rules apply again by the new name. */
TRACE_EVENT(rnic_dev_rename,
	TP_PROTO(const struct rnic_dev *rd, const char *old),
	TP_ARGS(rd, old),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(old, old)
	),
	TP_fast_assign(
		rnic_dev_name_copy(rd, __entry->dev);
		kc_assign_str(old, old);
	),
	TP_printk("dev=%s old=%s", __entry->dev, __get_str(old))
);

/* A device's user-registration mode changed (user/wrap.c, dev_conf.c). */
TRACE_EVENT(rnic_user_mode,
	TP_PROTO(const struct rnic_dev *rd, u32 from, u32 to, const char *why),
	TP_ARGS(rd, from, to, why),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__field(u32, from)
		__field(u32, to)
		__string(why, why)
	),
	TP_fast_assign(
		rnic_dev_name_copy(rd, __entry->dev);
		__entry->from = from;
		__entry->to = to;
		kc_assign_str(why, why);
	),
	TP_printk("dev=%s user=%s->%s by=%s", __entry->dev,
		  rdr_user_name(__entry->from), rdr_user_name(__entry->to),
		  __get_str(why))
);

/* Other kernel ULPs' MRs charged off a device's budgets (kulp/count.c). */
TRACE_EVENT(rnic_kulp_charge,
	TP_PROTO(const struct rnic_dev *rd, u64 entries, u64 keys, u64 budget),
	TP_ARGS(rd, entries, keys, budget),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__field(u64, entries)
		__field(u64, keys)
		__field(u64, budget)
	),
	TP_fast_assign(
		rnic_dev_name_copy(rd, __entry->dev);
		__entry->entries = entries;
		__entry->keys = keys;
		__entry->budget = budget;
	),
	TP_printk("dev=%s kernel_entries=%llu kernel_keys=%llu budget=%llu", __entry->dev,
		  __entry->entries, __entry->keys, __entry->budget)
);

/* A kernel ULP's MR counted or uncounted (kulp/count.c). */
TRACE_EVENT(rnic_kulp_mr,
	TP_PROTO(const char *dev, const char *ulp, bool alloc, u64 entries, u64 held),
	TP_ARGS(dev, ulp, alloc, entries, held),
	TP_STRUCT__entry(
		__string(dev, dev)
		__string(ulp, ulp)
		__field(bool, alloc)
		__field(u64, entries)
		__field(u64, held)
	),
	TP_fast_assign(
		kc_assign_str(dev, dev);
		kc_assign_str(ulp, ulp);
		__entry->alloc = alloc;
		__entry->entries = entries;
		__entry->held = held;
	),
	TP_printk("dev=%s ulp=kernel:%s %s entries=%llu held=%llu", __get_str(dev),
		  __get_str(ulp), __entry->alloc ? "alloc" : "dereg", __entry->entries,
		  __entry->held)
);

/*
 * A kernel ULP's cap decided (kulp/cap.c): "cap set", "cap set to its
 * share", "cap from its share" (set anew at an allocation that found it
 * holding nothing), "waits", "granted after waiting" or "refused", with
 * the allocation's entries and what the ULP held and reserved then.
 */
TRACE_EVENT(rnic_kulp_cap,
	TP_PROTO(const char *dev, const char *ulp, u64 entries, u64 held, u64 cap,
		 const char *verdict),
	TP_ARGS(dev, ulp, entries, held, cap, verdict),
	TP_STRUCT__entry(
		__string(dev, dev)
		__string(ulp, ulp)
		__field(u64, entries)
		__field(u64, held)
		__field(u64, cap)
		__string(verdict, verdict)
	),
	TP_fast_assign(
		kc_assign_str(dev, dev);
		kc_assign_str(ulp, ulp);
		__entry->entries = entries;
		__entry->held = held;
		__entry->cap = cap;
		kc_assign_str(verdict, verdict);
	),
	TP_printk("dev=%s ulp=kernel:%s entries=%llu held=%llu cap=%llu %s", __get_str(dev),
		  __get_str(ulp), __entry->entries, __entry->held, __entry->cap,
		  __get_str(verdict))
);

/* A consumer's weight changed (a process bound asking for less). */
TRACE_EVENT(rnic_weight,
	TP_PROTO(const struct rnic_consumer *c, u32 weight),
	TP_ARGS(c, weight),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(name, c->rc_name)
		__field(u32, weight)
	),
	TP_fast_assign(
		rnic_dev_name_copy(c->rc_dev, __entry->dev);
		kc_assign_str(name, c->rc_name);
		__entry->weight = weight;
	),
	TP_printk("dev=%s consumer=%s weight=%u", __entry->dev,
		  __get_str(name), __entry->weight)
);

/* A tenant's weight changed (user/tenant.c, tenant_weights). */
TRACE_EVENT(rnic_tenant_weight,
	TP_PROTO(const struct rnic_dev *rd, const char *tenant, u32 weight),
	TP_ARGS(rd, tenant, weight),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(tenant, tenant)
		__field(u32, weight)
	),
	TP_fast_assign(
		rnic_dev_name_copy(rd, __entry->dev);
		kc_assign_str(tenant, tenant);
		__entry->weight = weight;
	),
	TP_printk("dev=%s tenant=%s weight=%u", __entry->dev,
		  __get_str(tenant), __entry->weight)
);

/*
 * A process joined or left a tenant (user/tenant.c): its consumer is grouped
 * with the tenant's other processes under one share.
 */
DECLARE_EVENT_CLASS(rnic_tenant_class,
	TP_PROTO(const struct rnic_dev *rd, const char *tenant, u32 procs),
	TP_ARGS(rd, tenant, procs),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(tenant, tenant)
		__field(u32, procs)
	),
	TP_fast_assign(
		rnic_dev_name_copy(rd, __entry->dev);
		kc_assign_str(tenant, tenant);
		__entry->procs = procs;
	),
	TP_printk("dev=%s tenant=%s procs=%u", __entry->dev,
		  __get_str(tenant), __entry->procs)
);
DEFINE_EVENT(rnic_tenant_class, rnic_tenant_join,
	TP_PROTO(const struct rnic_dev *rd, const char *tenant, u32 procs),
	TP_ARGS(rd, tenant, procs));
DEFINE_EVENT(rnic_tenant_class, rnic_tenant_leave,
	TP_PROTO(const struct rnic_dev *rd, const char *tenant, u32 procs),
	TP_ARGS(rd, tenant, procs));

/*
 * User registrations (user/wrap.c): each one the wrappers saw, its span in
 * entries, and what became of it: 0, or the errno the program got
 * (-ENOMEM when REGISTER-WAIT gave up or the policy refused).
 */
DECLARE_EVENT_CLASS(rnic_user_mr_class,
	TP_PROTO(const struct rnic_consumer *c, u64 entries, int status),
	TP_ARGS(c, entries, status),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(name, c->rc_name)
		__field(u64, id)
		__field(u64, entries)
		__field(u64, held)
		__field(int, status)
	),
	TP_fast_assign(
		rnic_dev_name_copy(c->rc_dev, __entry->dev);
		kc_assign_str(name, c->rc_name);
		__entry->id = c->rc_id;
		__entry->entries = entries;
		__entry->held = c->rc_pol.r[RNP_ENTRIES].held;
		__entry->status = status;
	),
	TP_printk("dev=%s cons=%s.%llu entries=%llu held=%llu status=%d",
		  __entry->dev, __get_str(name), __entry->id,
		  __entry->entries, __entry->held, __entry->status)
);

DEFINE_EVENT(rnic_user_mr_class, rnic_user_reg,
	TP_PROTO(const struct rnic_consumer *c, u64 entries, int status),
	TP_ARGS(c, entries, status));
DEFINE_EVENT(rnic_user_mr_class, rnic_user_dereg,
	TP_PROTO(const struct rnic_consumer *c, u64 entries, int status),
	TP_ARGS(c, entries, status));

/* a process past T: killed (user_enforce=1, bound and told) or only counted */
TRACE_EVENT(rnic_user_late,
	TP_PROTO(const struct rnic_consumer *c, const char *verdict),
	TP_ARGS(c, verdict),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(name, c->rc_name)
		__field(u64, id)
		__field(u64, held)
		__field(u64, target)
		__string(verdict, verdict)
	),
	TP_fast_assign(
		rnic_dev_name_copy(c->rc_dev, __entry->dev);
		kc_assign_str(name, c->rc_name);
		__entry->id = c->rc_id;
		__entry->held = c->rc_pol.r[RNP_ENTRIES].held;
		__entry->target = c->rc_pol.r[RNP_ENTRIES].target;
		kc_assign_str(verdict, verdict);
	),
	TP_printk("dev=%s cons=%s.%llu held=%llu target=%llu %s",
		  __entry->dev, __get_str(name), __entry->id,
		  __entry->held, __entry->target, __get_str(verdict))
);

/* events queued to a process through /dev/rnic_mgr (user/dev.c) */
TRACE_EVENT(rnic_user_event,
	TP_PROTO(const struct rnic_consumer *c, u16 type, u32 seq, u64 entries,
		 bool dropped),
	TP_ARGS(c, type, seq, entries, dropped),
	TP_STRUCT__entry(
		__array(char, dev, IB_DEVICE_NAME_MAX)
		__string(name, c->rc_name)
		__field(u64, id)
		__field(u16, type)
		__field(u32, seq)
		__field(u64, entries)
		__field(bool, dropped)
	),
	TP_fast_assign(
		rnic_dev_name_copy(c->rc_dev, __entry->dev);
		kc_assign_str(name, c->rc_name);
		__entry->id = c->rc_id;
		__entry->type = type;
		__entry->seq = seq;
		__entry->entries = entries;
		__entry->dropped = dropped;
	),
	TP_printk("dev=%s cons=%s.%llu type=%u seq=%u entries=%llu%s",
		  __entry->dev, __get_str(name), __entry->id, __entry->type,
		  __entry->seq, __entry->entries,
		  __entry->dropped ? " dropped: queue full" : "")
);

/* a release plan: the process's own choice of victims for a REVOKE */
TRACE_EVENT(rnic_user_plan,
	TP_PROTO(const struct rnic_consumer *c, u32 revoke_seq, u32 nlkeys,
		 u64 entries),
	TP_ARGS(c, revoke_seq, nlkeys, entries),
	TP_STRUCT__entry(
		__string(name, c->rc_name)
		__field(u64, id)
		__field(u32, revoke_seq)
		__field(u32, nlkeys)
		__field(u64, entries)
	),
	TP_fast_assign(
		kc_assign_str(name, c->rc_name);
		__entry->id = c->rc_id;
		__entry->revoke_seq = revoke_seq;
		__entry->nlkeys = nlkeys;
		__entry->entries = entries;
	),
	TP_printk("cons=%s.%llu revoke=%u lkeys=%u entries=%llu",
		  __get_str(name), __entry->id, __entry->revoke_seq,
		  __entry->nlkeys, __entry->entries)
);

#endif /* RNIC_MGR_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
