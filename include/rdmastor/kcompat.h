/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels rdmastor builds for, in one place.
 *
 * Each adapter is named for what it adapts and keyed on a feature test
 * (kcompat/tests/have_*.c, run by kcompat/configure from ../../Kbuild
 * once per kernel), never on the kernel's version number, so that a
 * distribution kernel with a backport gets what it has. The data path
 * calls these names and holds no #if of its own. One answer is the
 * version's: soft-RoCE's scheduling (kc_rxe_requester_may_park()),
 * which no header shows.
 *
 * Kernels built for and tested: Debian 12's 6.1 and the 6.12 LTS series
 * (Documentation/admin.rst, "Supported kernels").
 */
#ifndef RDMASTOR_KCOMPAT_H
#define RDMASTOR_KCOMPAT_H

#include "kcompat_config.h"

/*
 * Trace events: from 6.10 __assign_str() takes the field alone and
 * copies the source __string() named; before, the source again. Every
 * event of ours passes the same source to both, so the second argument
 * only has to go.
 */
#ifdef KC_HAVE_ASSIGN_STR_ONE_ARG
#define kc_assign_str(field, src) __assign_str(field)
#else
#define kc_assign_str(field, src) __assign_str(field, src)
#endif

/* The unaligned accessors moved from asm/ to linux/ in 6.12. */
#ifdef KC_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * A VMA's flags: const from 6.3, changed only through vm_flags_mod(),
 * which also asserts the mmap lock held for write (true in ->mmap).
 */
#include <linux/mm.h>
static inline void kc_vm_flags_mod(struct vm_area_struct *vma,
				   vm_flags_t set, vm_flags_t clear)
{
#ifdef KC_HAVE_VM_FLAGS_MOD
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/*
 * A callback call handed to the server's callback thread. Before 6.8 a
 * list under sv_cb_lock and a wait queue; from 6.8 a lock-free queue whose
 * producer must wake an idle thread itself: without the wake the call
 * waits for some other event, and recalls stall until the lease ends.
 * Called from a receive completion, as the stock transport's producer.
 */
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xprt.h>
static inline void kc_bc_queue(struct svc_serv *serv, struct rpc_rqst *rqst)
{
#ifdef KC_HAVE_BC_LWQ
	lwq_enqueue(&rqst->rq_bc_list, &serv->sv_cb_list);
	svc_pool_wake_idle_thread(&serv->sv_pools[0]);
#else
	spin_lock(&serv->sv_cb_lock);
	list_add(&rqst->rq_bc_list, &serv->sv_cb_list);
	spin_unlock(&serv->sv_cb_lock);
	wake_up(&serv->sv_cb_waitq);
#endif
}

/*
 * RDMA has no reserved ports: every call counts as from one, as with the
 * stock transport, so the transport sets RQ_SECURE in its recvfrom on
 * every kernel (from 6.9 nothing else clears or sets the thread's flag,
 * which would keep the answer of the last transport it served). 6.1's
 * svc_recv() also calls ->xpo_secure_port after every recvfrom: there
 * the op must exist, and does the same.
 */
#include <linux/sunrpc/svc_xprt.h>
#ifdef KC_HAVE_XPO_SECURE_PORT
static inline void kc_xpo_secure_port(struct svc_rqst *rqstp)
{
	set_bit(RQ_SECURE, &rqstp->rq_flags);
}

#define KC_SVC_XPRT_OPS_SECURE_PORT .xpo_secure_port = kc_xpo_secure_port,
#else
#define KC_SVC_XPRT_OPS_SECURE_PORT
#endif

/*
 * The dma-buf registration op: its last argument is the uverbs attribute
 * bundle from 6.10, the ib_udata before. The wrapper passes it on to the
 * driver untouched and charges through the udata inside it.
 */
#include <rdma/ib_verbs.h>
#ifdef KC_HAVE_DMABUF_MR_ATTRS
#include <rdma/uverbs_ioctl.h>
#define KC_DMABUF_ARG struct uverbs_attr_bundle
static inline struct ib_udata *kc_dmabuf_udata(KC_DMABUF_ARG *attrs)
{
	return attrs ? &attrs->driver_udata : NULL;
}
#else
#define KC_DMABUF_ARG struct ib_udata
static inline struct ib_udata *kc_dmabuf_udata(KC_DMABUF_ARG *udata)
{
	return udata;
}
#endif

/*
 * Can soft-RoCE's requester park itself with work queued and nothing
 * left to wake it (transport/kick.c)? In 6.1 it can: it stops at 64
 * packets in flight and sets the flag that asks their destructor for a
 * wakeup only after reading the count, and its completer, a task of its
 * own, does not run it when acknowledgments come. By 6.12 requester and
 * completer are one task, which every arriving acknowledgment and the
 * retransmission timer schedule, and a schedule while it runs makes it
 * run again: a parked requester runs at the next acknowledgment. rxe's
 * internals are in no header, so kcompat/configure asks the version;
 * the kernels between, not read, are taken to be 6.1's: on them a
 * needless ring is an empty post, which rxe accepts.
 */
static inline bool kc_rxe_requester_may_park(void)
{
#ifdef KC_RXE_REQUESTER_MAY_PARK
	return true;
#else
	return false;
#endif
}

#endif /* RDMASTOR_KCOMPAT_H */
