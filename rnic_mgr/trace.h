/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of rnic_mgr's decisions: the slow path, grants beyond the
 * fast path, waits, rebalances, shrink requests and their completion.
 * The fast path is not traced: it is the common case and must stay
 * cheap. Enable with: echo 1 > /sys/kernel/tracing/events/rnic_mgr/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rnic_mgr

#if !defined(RNIC_MGR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define RNIC_MGR_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(rnic_acquire_slow,
	TP_PROTO(const char *dev, const char *cons, u64 entries, u64 keys, bool owed),
	TP_ARGS(dev, cons, entries, keys, owed),
	TP_STRUCT__entry(
		__string(dev, dev)
		__string(cons, cons)
		__field(u64, entries)
		__field(u64, keys)
		__field(bool, owed)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__assign_str(cons, cons);
		__entry->entries = entries;
		__entry->keys = keys;
		__entry->owed = owed;
	),
	TP_printk("dev=%s cons=%s entries=%llu keys=%llu owed=%d",
		  __get_str(dev), __get_str(cons), __entry->entries,
		  __entry->keys, __entry->owed)
);

TRACE_EVENT(rnic_grant,
	TP_PROTO(const char *dev, const char *cons, u64 entries, u64 keys, u64 held),
	TP_ARGS(dev, cons, entries, keys, held),
	TP_STRUCT__entry(
		__string(dev, dev)
		__string(cons, cons)
		__field(u64, entries)
		__field(u64, keys)
		__field(u64, held)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__assign_str(cons, cons);
		__entry->entries = entries;
		__entry->keys = keys;
		__entry->held = held;
	),
	TP_printk("dev=%s cons=%s entries=%llu keys=%llu held=%llu",
		  __get_str(dev), __get_str(cons), __entry->entries,
		  __entry->keys, __entry->held)
);

TRACE_EVENT(rnic_wait_done,
	TP_PROTO(const char *dev, const char *cons, u64 entries, u64 ns, int status),
	TP_ARGS(dev, cons, entries, ns, status),
	TP_STRUCT__entry(
		__string(dev, dev)
		__string(cons, cons)
		__field(u64, entries)
		__field(u64, ns)
		__field(int, status)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__assign_str(cons, cons);
		__entry->entries = entries;
		__entry->ns = ns;
		__entry->status = status;
	),
	TP_printk("dev=%s cons=%s entries=%llu waited_ns=%llu status=%d",
		  __get_str(dev), __get_str(cons), __entry->entries,
		  __entry->ns, __entry->status)
);

DECLARE_EVENT_CLASS(rnic_shrink_class,
	TP_PROTO(const char *dev, const char *cons, u64 held, u64 target),
	TP_ARGS(dev, cons, held, target),
	TP_STRUCT__entry(
		__string(dev, dev)
		__string(cons, cons)
		__field(u64, held)
		__field(u64, target)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__assign_str(cons, cons);
		__entry->held = held;
		__entry->target = target;
	),
	TP_printk("dev=%s cons=%s held=%llu target=%llu",
		  __get_str(dev), __get_str(cons), __entry->held, __entry->target)
);

DEFINE_EVENT(rnic_shrink_class, rnic_shrink_request,
	TP_PROTO(const char *dev, const char *cons, u64 held, u64 target),
	TP_ARGS(dev, cons, held, target));

DEFINE_EVENT(rnic_shrink_class, rnic_shrink_late,
	TP_PROTO(const char *dev, const char *cons, u64 held, u64 target),
	TP_ARGS(dev, cons, held, target));

TRACE_EVENT(rnic_shrink_done,
	TP_PROTO(const char *dev, const char *cons, u64 ms),
	TP_ARGS(dev, cons, ms),
	TP_STRUCT__entry(
		__string(dev, dev)
		__string(cons, cons)
		__field(u64, ms)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__assign_str(cons, cons);
		__entry->ms = ms;
	),
	TP_printk("dev=%s cons=%s reclaim_ms=%llu",
		  __get_str(dev), __get_str(cons), __entry->ms)
);

TRACE_EVENT(rnic_rebalance,
	TP_PROTO(const char *dev, u32 consumers, u64 ns),
	TP_ARGS(dev, consumers, ns),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, consumers)
		__field(u64, ns)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__entry->consumers = consumers;
		__entry->ns = ns;
	),
	TP_printk("dev=%s consumers=%u ns=%llu",
		  __get_str(dev), __entry->consumers, __entry->ns)
);

TRACE_EVENT(rnic_budget,
	TP_PROTO(const char *dev, int res, u64 budget),
	TP_ARGS(dev, res, budget),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(int, res)
		__field(u64, budget)
	),
	TP_fast_assign(
		__assign_str(dev, dev);
		__entry->res = res;
		__entry->budget = budget;
	),
	TP_printk("dev=%s %s budget=%llu", __get_str(dev),
		  __entry->res ? "keys" : "entries", __entry->budget)
);

#endif /* RNIC_MGR_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
