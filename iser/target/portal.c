// SPDX-License-Identifier: GPL-2.0
/*
 * Portals and connection lifetime: the listener behind an iSER-enabled
 * network portal, handing connections to LIO's login thread, and taking
 * them down with LIO (->iscsit_wait_conn, ->iscsit_free_conn).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <target/target_core_base.h>
#include <target/target_core_fabric.h>

#include "ist.h"
#include "trace.h"

static const u8 ist_rep_inv[ISER_CM_LEN] = { ISER_CM_ZBVA_NOT_USED };
static const u8 ist_rep_noinv[ISER_CM_LEN] = {
	ISER_CM_ZBVA_NOT_USED | ISER_CM_SEND_W_INV_NOT_USED };

static void ist_disconnected(struct rst_conn *rc, int reason);

static const struct rst_conn_ops ist_conn_ops = {
	.recv = ist_recv,
	.disconnected = ist_disconnected,
};

static int ist_accept_conn(struct rst_conn *rc, const void *pdata, u8 plen,
			   struct ist_np *inp, int slot);

/* Drop @ic, which sent no login request, to make room. Under the lock. */
static void ist_evict(struct ist_np *inp, struct ist_conn *ic, const char *why,
		      unsigned int limit)
{
	lockdep_assert_held(&inp->lock);
	ic->evicted = true;
	inp->nr_evicted++;
	trace_ist_conn_evict(ic, -EBUSY);
	pr_warn_ratelimited("%u %s: the oldest idle one is dropped\n", limit, why);
	rst_disconnect(ic->rc, -EBUSY);
}

/*
 * Room for one more pending connection (IST_MAX_PENDING): the oldest
 * that has sent no login request is evicted if need be (and if @evict;
 * else only found). False: refuse.
 */
static bool ist_np_make_room(struct ist_np *inp, bool evict)
{
	struct ist_conn *ic;

	lockdep_assert_held(&inp->lock);
	if (inp->nr_pending - inp->nr_evicted < IST_MAX_PENDING)
		return true;
	if (inp->nr_pending >= 2 * IST_MAX_PENDING)
		return false;
	list_for_each_entry(ic, &inp->pending, node) {
		if (ic->login_ready || ic->evicted)
			continue;
		if (evict)
			ist_evict(inp, ic, "connections wait for login", IST_MAX_PENDING);
		return true;
	}
	return false;
}

/* The same initiator host: the address without the port. */
static bool ist_same_host(const struct sockaddr_storage *a,
			  const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return ipv6_addr_equal(&((const struct sockaddr_in6 *)a)->sin6_addr,
				       &((const struct sockaddr_in6 *)b)->sin6_addr);
	return false;
}

/*
 * A free login slot for @peer, or -1 when it already holds
 * IST_MAX_LOGIN_PEER of them that stay (N4): one of its own that has
 * sent no login request is dropped to make room (if @evict), the oldest
 * first, as ist_np_make_room() does for the portal. Under the portal's
 * lock.
 */
static int ist_login_slot(struct ist_np *inp, const struct sockaddr_storage *peer,
			  bool evict, unsigned int *held)
{
	struct ist_conn *ic, *idle = NULL;
	int i, free = -1;

	lockdep_assert_held(&inp->lock);
	*held = 0;
	for (i = 0; i < IST_MAX_LOGIN; i++) {
		if (!inp->login_used[i])
			free = free < 0 ? i : free;
		else if (ist_same_host(&inp->login_peer[i], peer))
			(*held)++;
	}
	/* those already dropped are on their way out */
	list_for_each_entry(ic, &inp->pending, node) {
		if (!ic->in_login || !ist_same_host(&inp->login_peer[ic->login_slot], peer))
			continue;
		if (ic->evicted)
			(*held)--;
		else if (!ic->login_ready && !idle)
			idle = ic;
	}
	if (*held < IST_MAX_LOGIN_PEER)
		return free;
	if (!idle)
		return -1;
	if (evict)
		ist_evict(inp, idle, "connections of one initiator in login",
			  IST_MAX_LOGIN_PEER);
	return free;
}

/* Which of the portal's limits a connect request is refused at */
enum ist_limit { IST_ROOM, IST_LIMIT_LOGIN, IST_LIMIT_PEER, IST_LIMIT_PENDING };

/*
 * Whether the portal has room for a connection from @peer: a login slot
 * (returned in @slot) and a place among the pending. With @evict the
 * room is made, idle connections dropped for it; without, the engine
 * only asks before it builds the connection (ist_admit()). @count: how
 * many the refusing limit counted. Under the portal's lock.
 */
static enum ist_limit ist_np_room(struct ist_np *inp,
				  const struct sockaddr_storage *peer, bool evict,
				  int *slot, unsigned int *count)
{
	lockdep_assert_held(&inp->lock);
	*count = inp->nr_login;
	if (inp->nr_login >= IST_MAX_LOGIN)
		return IST_LIMIT_LOGIN;
	*slot = ist_login_slot(inp, peer, evict, count);
	if (*slot < 0)
		return IST_LIMIT_PEER;
	*count = inp->nr_pending;
	return ist_np_make_room(inp, evict) ? IST_ROOM : IST_LIMIT_PENDING;
}

static int ist_refuse(struct ib_device *dev, const struct sockaddr *local,
		      const struct sockaddr *peer, enum ist_limit limit,
		      unsigned int count)
{
	static const char * const what[] = {
		[IST_LIMIT_LOGIN] = "in login",
		[IST_LIMIT_PEER] = "of this initiator in login",
		[IST_LIMIT_PENDING] = "wait for a first login request",
	};
	static const unsigned int most[] = {
		[IST_LIMIT_LOGIN] = IST_MAX_LOGIN,
		[IST_LIMIT_PEER] = IST_MAX_LOGIN_PEER,
		[IST_LIMIT_PENDING] = IST_MAX_PENDING,
	};

	trace_ist_conn_refuse(most[limit]);
	pr_warn_ratelimited("%s: connect from %pISpc to %pISpc refused: %u connections %s, the portal's limit is %u\n",
			    dev_name(&dev->dev), peer, local, count, what[limit],
			    most[limit]);
	return -EBUSY;
}

static bool ist_np_enabled(struct iscsi_np *np)
{
	bool enabled;

	spin_lock_bh(&np->np_thread_lock);
	enabled = np->enabled;
	spin_unlock_bh(&np->np_thread_lock);
	return enabled;
}

/*
 * The listener's admit callback: ist_accept()'s checks, made before the
 * engine builds the connection, so that a flood beyond the portal's
 * limits costs no QP (review 4, N11). Nothing is evicted yet.
 */
static int ist_admit(struct ib_device *dev, const struct sockaddr *local,
		     const struct sockaddr *peer, void *lpriv)
{
	struct ist_np *inp = lpriv;
	struct sockaddr_storage from = {};
	enum ist_limit limit;
	unsigned int count;
	int slot;

	if (!ist_np_enabled(inp->np))
		return -ECONNREFUSED;
	memcpy(&from, peer, rdma_addr_size(peer));
	mutex_lock(&inp->lock);
	limit = ist_np_room(inp, &from, false, &slot, &count);
	mutex_unlock(&inp->lock);
	return limit == IST_ROOM ? 0 : ist_refuse(dev, local, peer, limit, count);
}

/**
 * ist_accept - the listener's accept callback: a connect request came in
 * @rc: the new engine connection, set up but not yet accepted
 * @pdata: the initiator's iSER CM private data
 * @plen: its length
 * @lpriv: the portal (struct ist_np)
 *
 * Refused while the portal is disabled, when IST_MAX_LOGIN connections
 * are in the login phase, or IST_MAX_LOGIN_PEER of the same initiator
 * address, and when IST_MAX_PENDING connections already
 * wait for LIO's login thread and none of them is idle to make room;
 * else the connection waits in the portal for LIO's login thread.
 *
 * Return: 0 to accept, or an errno to reject.
 */
static int ist_accept(struct rst_conn *rc, const void *pdata, u8 plen, void *lpriv)
{
	struct ist_np *inp = lpriv;
	struct sockaddr_storage local, peer;
	enum ist_limit limit;
	unsigned int count;
	int err, slot = -1;

	if (!ist_np_enabled(inp->np))
		return -ECONNREFUSED;
	rst_conn_addrs(rc, &local, &peer);
	mutex_lock(&inp->lock);
	limit = ist_np_room(inp, &peer, true, &slot, &count);
	if (limit == IST_ROOM) {
		/* places held for this one */
		inp->nr_pending++;
		inp->nr_login++;
		inp->login_used[slot] = true;
		inp->login_peer[slot] = peer;
	}
	mutex_unlock(&inp->lock);
	if (limit != IST_ROOM)
		return ist_refuse(rst_conn_device(rc), (struct sockaddr *)&local,
				  (struct sockaddr *)&peer, limit, count);
	err = ist_accept_conn(rc, pdata, plen, inp, slot);
	if (err) {
		mutex_lock(&inp->lock);
		inp->nr_pending--;
		inp->nr_login--;
		inp->login_used[slot] = false;
		mutex_unlock(&inp->lock);
	}
	return err;
}

/*
 * The login deadline passed (IST_LOGIN_WAIT_MS): drop the connection if
 * its initiator still owes a login request, the first one or one after a
 * non-final response. While LIO works on a request, its own timer runs,
 * and its response re-arms this one.
 */
static void ist_login_wait_expired(struct work_struct *work)
{
	struct ist_conn *ic = container_of(to_delayed_work(work), struct ist_conn,
					   login_wait);
	bool stalled;

	mutex_lock(&ic->inp->lock);
	stalled = ic->in_login && (!ic->bound || ic->login_expect);
	mutex_unlock(&ic->inp->lock);
	if (!stalled)
		return;
	trace_ist_login_timeout(ic, -ETIMEDOUT);
	pr_info_ratelimited("no login request within %u ms: disconnecting\n",
			    IST_LOGIN_WAIT_MS);
	rst_disconnect(ic->rc, -ETIMEDOUT);
}

static int ist_accept_conn(struct rst_conn *rc, const void *pdata, u8 plen,
			   struct ist_np *inp, int slot)
{
	struct ist_conn *ic;
	u8 flags;

	if (iser_cm_req_decode(pdata, plen, &flags)) {
		pr_info_ratelimited("connect request with bad private data, rejected\n");
		return -EPROTO;
	}
	ic = kzalloc(sizeof(*ic), GFP_KERNEL);
	if (!ic)
		return -ENOMEM;
	ic->login_data = kmalloc(IST_MAX_DSL, GFP_KERNEL);
	if (!ic->login_data) {
		kfree(ic);
		return -ENOMEM;
	}
	ic->rc = rc;
	ic->nr = rst_conn_id(rc);
	kref_get(&inp->ref);		/* N5: until ic is freed */
	ic->inp = inp;
	ic->phase = IST_LOGIN;
	ic->in_login = true;		/* N4: counted by ist_accept() */
	ic->login_slot = slot;
	ic->login_expect = true;
	ic->use_mr = READ_ONCE(ist_force_mr) || rst_conn_iwarp(rc);
	ic->send_w_inv = !(flags & ISER_CM_SEND_W_INV_NOT_SUP);
	init_waitqueue_head(&ic->wq);
	init_completion(&ic->login_req);
	kref_init(&ic->ref);		/* until ->disconnected */
	INIT_DELAYED_WORK(&ic->login_wait, ist_login_wait_expired);
	INIT_DELAYED_WORK(&ic->close_work, ist_close_work);
	rst_conn_get(rc);		/* until ic is freed */
	rst_conn_set_priv(rc, ic);
	rst_conn_set_accept_pdata(rc, ic->send_w_inv ? ist_rep_inv : ist_rep_noinv,
				  ISER_CM_LEN);
	ist_stats_add(ic);
	mutex_lock(&inp->lock);
	list_add_tail(&ic->node, &inp->pending);
	mutex_unlock(&inp->lock);
	queue_delayed_work(ist_wq, &ic->login_wait, msecs_to_jiffies(IST_LOGIN_WAIT_MS));
	trace_ist_conn_accept(ic, 0);
	return 0;
}

/* N5: the portal and every connection it accepted are gone. */
static void ist_np_release(struct kref *ref)
{
	struct ist_np *inp = container_of(ref, struct ist_np, ref);

	WARN_ON_ONCE(!list_empty(&inp->pending) || inp->nr_login);
	kfree(inp);
}

/* The last reference is gone: the engine and LIO are both done with it. */
static void ist_conn_free(struct kref *ref)
{
	struct ist_conn *ic = container_of(ref, struct ist_conn, ref);

	trace_ist_conn_free(ic, 0);
	/* N1: the engine and LIO are both done; N2: off the portal's list; N4 */
	WARN_ON_ONCE(!READ_ONCE(ic->down) || ic->conn || !list_empty(&ic->node) ||
		     ic->in_login);
	cancel_delayed_work_sync(&ic->login_wait);
	cancel_delayed_work_sync(&ic->close_work);
	ist_stats_del(ic);
	rst_conn_set_priv(ic->rc, NULL);
	rst_conn_put(ic->rc);
	kref_put(&ic->inp->ref, ist_np_release);
	kfree(ic->login_data);
	kfree(ic);
}

/* Context: process (the last put cancels work synchronously). */
static void ist_conn_put(struct ist_conn *ic)
{
	kref_put(&ic->ref, ist_conn_free);
}

/* N4: @ic leaves the login phase (once). Under the portal's lock. */
static bool ist_np_login_end_locked(struct ist_conn *ic)
{
	lockdep_assert_held(&ic->inp->lock);
	if (!ic->in_login)
		return false;
	ic->in_login = false;
	ic->inp->nr_login--;
	ic->inp->login_used[ic->login_slot] = false;
	return true;
}

/**
 * ist_np_login_end - a connection enters full feature phase
 * @ic: the connection
 *
 * It no longer counts against IST_MAX_LOGIN, and its login deadline
 * stops.
 *
 * Return: false if it went down first (it is no longer counted then).
 * Context: process.
 */
bool ist_np_login_end(struct ist_conn *ic)
{
	bool ended;

	mutex_lock(&ic->inp->lock);
	ended = ist_np_login_end_locked(ic);
	mutex_unlock(&ic->inp->lock);
	cancel_delayed_work(&ic->login_wait);
	return ended;
}

/**
 * ist_disconnected - the engine's ->disconnected: the connection is down
 * @rc: the connection, drained: no completion runs after this
 * @reason: why it went down
 *
 * Tells LIO (a bound connection's receive thread returns, a pending one
 * leaves the portal) and drops the accept's reference; a bound one is
 * freed once LIO lets go too (ist_free_conn()). Never waits for LIO.
 * Context: process (the engine's workqueue).
 */
static void ist_disconnected(struct rst_conn *rc, int reason)
{
	struct ist_conn *ic = rst_conn_priv(rc);
	struct ist_np *inp;
	bool bound;

	if (!ic)		/* the accept callback failed */
		return;
	trace_ist_disconnected(ic, reason);
	inp = ic->inp;
	mutex_lock(&inp->lock);
	/*
	 * LIO waits for a login request after a non-final response: it has
	 * no thread waiting for it, and hears of the loss only when its
	 * login work runs (then ist_get_login_rx() fails and LIO drops the
	 * login). Queued before down is set: ist_wait_conn() sees down only
	 * after this, and cancels the work.
	 */
	if (ic->bound && ic->login_expect) {
		ic->login_expect = false;
		schedule_delayed_work(&ic->conn->login_work, 0);
	}
	ist_np_login_end_locked(ic);
	WRITE_ONCE(ic->down, true);
	bound = ic->bound;
	if (!bound) {
		list_del_init(&ic->node);
		inp->nr_pending--;
		if (ic->evicted)
			inp->nr_evicted--;
	}
	mutex_unlock(&inp->lock);
	wake_up_all(&ic->wq);
	complete_all(&ic->login_req);
	ist_conn_put(ic);
}

/**
 * ist_setup_np - LIO's ->iscsit_setup_np: listen on an iSER portal
 * @np: LIO's network portal
 * @addr: its address
 *
 * An engine listener; in forced-MR mode its connections get an MR pool
 * charged to rnic_mgr.
 *
 * Return: 0 or an errno (nothing left behind).
 */
int ist_setup_np(struct iscsi_np *np, struct sockaddr_storage *addr)
{
	struct rst_conn_params p = {
		.name = "iser-target",
		.weight = 1,
		.recv_depth = IST_RECV_DEPTH,
		.send_depth = IST_SEND_DEPTH,
		.msg_size = IST_MSG_SIZE,
		/* an MR pool, charged to rnic_mgr, only where READ sinks need one */
		.max_io_pages = ist_force_mr ? IST_IO_PAGES : 0,
		.iwarp_io_pages = IST_IO_PAGES,
		.rw_pages = IST_IO_PAGES,
		/* immediate data sector-aligned: the backend may take it in place */
		.rx_align_off = ISER_HEADERS_LEN,
		/* N4: small rings until full feature phase */
		.initial_depth = IST_LOGIN_DEPTH,
		.ops = &ist_conn_ops,
	};
	struct ist_np *inp;

	inp = kzalloc(sizeof(*inp), GFP_KERNEL);
	if (!inp)
		return -ENOMEM;
	kref_init(&inp->ref);		/* N5: LIO's portal */
	inp->np = np;
	mutex_init(&inp->lock);
	INIT_LIST_HEAD(&inp->pending);
	init_waitqueue_head(&inp->wq);
	memcpy(&np->np_sockaddr, addr, sizeof(*addr));
	/* LIO's iSCSI portals live in the initial namespace */
	inp->lst = rst_listen(&init_net, (struct sockaddr *)addr, &p,
			      ist_accept, ist_admit, inp);
	if (IS_ERR(inp->lst)) {
		int err = PTR_ERR(inp->lst);

		pr_warn("cannot listen on %pISpc: %d\n", addr, err);
		kfree(inp);
		return err;
	}
	np->np_context = inp;
	pr_info("iSER portal %pISpc%s\n", addr,
		ist_force_mr ? " (forced-MR mode)" : "");
	return 0;
}

/* The first pending connection whose first login request is in. */
static struct ist_conn *ist_np_first_ready(struct ist_np *inp)
{
	struct ist_conn *ic;

	lockdep_assert_held(&inp->lock);
	list_for_each_entry(ic, &inp->pending, node)
		if (ic->login_ready && !ic->evicted)
			return ic;
	return NULL;
}

/*
 * Take the first ready connection off the pending list, bound to LIO's
 * @conn; NULL if none is ready.
 */
static struct ist_conn *ist_np_take_ready(struct ist_np *inp,
					  struct iscsit_conn *conn)
{
	struct ist_conn *ic;

	mutex_lock(&inp->lock);
	ic = ist_np_first_ready(inp);
	if (ic) {
		list_del_init(&ic->node);
		inp->nr_pending--;
		if (ic->evicted)
			inp->nr_evicted--;
		ic->bound = true;
		ic->conn = conn;
		kref_get(&ic->ref);	/* LIO's, until free_conn */
	}
	mutex_unlock(&inp->lock);
	return ic;
}

/* LIO stops or resets its login thread */
static bool ist_np_stopping(struct iscsi_np *np)
{
	bool stop;

	spin_lock_bh(&np->np_thread_lock);
	stop = np->np_thread_state >= ISCSI_NP_THREAD_RESET;
	spin_unlock_bh(&np->np_thread_lock);
	return stop;
}

/**
 * ist_accept_np - LIO's ->iscsit_accept_np: hand LIO a connection
 * @np: the portal
 * @conn: LIO's new connection, bound here to ours
 *
 * Sleeps until a pending connection's first login request is in (LIO's
 * login thread runs only ready connections), takes the oldest.
 *
 * Return: 0, or -ENODEV when LIO stops or resets its login thread.
 */
int ist_accept_np(struct iscsi_np *np, struct iscsit_conn *conn)
{
	struct ist_np *inp = np->np_context;
	struct sockaddr_storage local, peer;
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct ist_conn *ic;

	/*
	 * Whether one is ready is known only under inp->lock, a mutex: a
	 * wait_event() whose condition takes it would sleep in the middle
	 * of its own wait (the debug kernel's atomic-sleep check said so).
	 * wait_woken() lets the check sleep and still misses no wake-up.
	 */
	add_wait_queue(&inp->wq, &wait);
	for (;;) {
		/* LIO signals its login thread to stop it */
		if (signal_pending(current) || ist_np_stopping(np)) {
			ic = NULL;
			break;
		}
		ic = ist_np_take_ready(inp, conn);
		if (ic)
			break;
		wait_woken(&wait, TASK_INTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);
	}
	remove_wait_queue(&inp->wq, &wait);
	if (!ic)
		return -ENODEV;
	/* the login deadline keeps running: LIO's timers do not cover us */
	trace_ist_conn_bound(ic, 0);
	conn->context = ic;
	rst_conn_addrs(ic->rc, &local, &peer);
	conn->login_family = np->np_sockaddr.ss_family;
	conn->login_sockaddr = peer;
	conn->local_sockaddr = local;
	return 0;
}

/**
 * ist_free_np - LIO's ->iscsit_free_np: stop listening
 * @np: the portal
 *
 * Every connection the listener accepted is taken down and freed first.
 */
void ist_free_np(struct iscsi_np *np)
{
	struct ist_np *inp = np->np_context;

	/* every connection it accepted is taken down and freed */
	rst_listener_destroy(inp->lst);
	WARN_ON(!list_empty(&inp->pending));
	np->np_context = NULL;
	/* N5: connections LIO still holds keep it until they are freed */
	kref_put(&inp->ref, ist_np_release);
}

/*
 * Commands waiting for unsolicited Data-Out that will never come hold
 * an extra reference: drop it, or LIO waits for them forever.
 */
static void ist_drop_unsolicited_waiters(struct iscsit_conn *conn)
{
	struct iscsit_cmd *cmd, *tmp;
	LIST_HEAD(drop);

	spin_lock_bh(&conn->cmd_lock);
	list_for_each_entry_safe(cmd, tmp, &conn->conn_cmd_list, i_conn_node) {
		if ((cmd->cmd_flags & ICF_NON_IMMEDIATE_UNSOLICITED_DATA) &&
		    cmd->write_data_done < conn->sess->sess_ops->FirstBurstLength &&
		    cmd->write_data_done < cmd->se_cmd.data_length)
			list_move_tail(&cmd->i_conn_node, &drop);
	}
	spin_unlock_bh(&conn->cmd_lock);
	list_for_each_entry_safe(cmd, tmp, &drop, i_conn_node) {
		list_del_init(&cmd->i_conn_node);
		if (cmd->i_state != ISTATE_REMOVE)
			ist_cmd_put(iscsit_priv_cmd(cmd), true);
	}
}

/*
 * Commands parked behind a CmdSN gap (ISTATE_DEFERRED_CMD) will never
 * run once the connection is gone. LIO releases them only after
 * ->iscsit_wait_conn returns, and we wait there for every command: so
 * release them first, as LIO does (iscsit_free_cmd() at shutdown drops
 * both references of a command that was never submitted). LIO's
 * out-of-order list forgets them by connection id, without looking.
 */
static void ist_release_parked(struct iscsit_conn *conn)
{
	struct iscsit_cmd *cmd, *tmp;
	LIST_HEAD(parked);

	spin_lock_bh(&conn->cmd_lock);
	list_for_each_entry_safe(cmd, tmp, &conn->conn_cmd_list, i_conn_node)
		if (cmd->i_state == ISTATE_DEFERRED_CMD)
			list_move_tail(&cmd->i_conn_node, &parked);
	spin_unlock_bh(&conn->cmd_lock);
	list_for_each_entry_safe(cmd, tmp, &parked, i_conn_node) {
		list_del_init(&cmd->i_conn_node);
		ist_cmd_uncount(iscsit_priv_cmd(cmd));
		iscsit_free_cmd(cmd, true);
	}
}

/**
 * ist_wait_conn - LIO's ->iscsit_wait_conn: end the connection, drain it
 * @conn: LIO's connection
 *
 * Returns when nothing is in flight: the queue pair is drained, LIO's
 * login work cannot run, commands that will never run are released and
 * every other command has completed.
 * Context: process (LIO's close path, or its login work), sleeps.
 */
void ist_wait_conn(struct iscsit_conn *conn)
{
	struct ist_conn *ic = conn->context;

	/*
	 * LIO ends the connection; it waits for no login request any
	 * more, so none may queue its login work from here on (neither
	 * ist_login_recv() nor ist_disconnected()). From 6.5 LIO's login
	 * timer fails a login in that work without asking us, and then
	 * the work comes here.
	 */
	mutex_lock(&ic->inp->lock);
	ic->login_expect = false;
	mutex_unlock(&ic->inp->lock);
	rst_disconnect(ic->rc, 0);
	wait_event(ic->wq, READ_ONCE(ic->down));
	/*
	 * No login work may run after LIO frees the connection. Run from
	 * that work itself, a request may have queued it again before
	 * login_expect was taken back: that pending run is dropped (a work
	 * item never runs beside itself). LIO sets the work up only once
	 * it found the portal; a connection dropped before has none.
	 */
	if (conn->login_work.work.func) {
		if (current_work() != &conn->login_work.work)
			cancel_delayed_work_sync(&conn->login_work);
		else
			cancel_delayed_work(&conn->login_work);
	}
	if (conn->sess) {
		ist_drop_unsolicited_waiters(conn);
		ist_release_parked(conn);
		target_stop_cmd_counter(conn->cmd_cnt);
		target_wait_for_cmds(conn->cmd_cnt);
	}
	if (ic->logout_posted)
		wait_for_completion_timeout(&conn->conn_logout_comp,
					    SECONDS_FOR_LOGOUT_COMP * HZ);
	wait_event(ic->wq, !atomic_read(&ic->ctrl_pending));
}

/**
 * ist_free_conn - LIO's ->iscsit_free_conn: LIO is done with a connection
 * @conn: LIO's connection
 *
 * Starts the disconnect (if LIO frees a connection that is up) and drops
 * LIO's reference: ours is freed once the engine has said it is down.
 * Context: process.
 */
void ist_free_conn(struct iscsit_conn *conn)
{
	struct ist_conn *ic = conn->context;

	rst_disconnect(ic->rc, 0);
	if (ic->login_final) {
		rst_tx_put(ic->rc, ic->login_final);
		ic->login_final = NULL;
	}
	ic->conn = NULL;
	conn->context = NULL;
	ist_conn_put(ic);
}
