// SPDX-License-Identifier: GPL-2.0
/*
 * Registering with rnic_mgr: the exported entry of every consumer
 * (include/rdmastor/rnic_mgr.h). It joins the layers the arbiter must
 * not call: the device list finds the device (client.c), the
 * administrator's consumer_weights weigh a kernel consumer (dev_conf.c),
 * the arbiter admits it to the pool (arbiter.c), and sysfs publishes it
 * (sysfs.c). The arbiter itself calls nothing above it.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "rnic_int.h"

/**
 * rnic_register_in - rnic_register(), as a member of a tenant
 * @ibdev: the device
 * @desc: name, weight (within the tenant), guaranteed minimum, callbacks
 * @grp: the tenant's group, or NULL for a top-level consumer; it must
 *	outlive the consumer's time in the pool (user/tenant.c, U14)
 * @tenant: the tenant's name for sysfs, or NULL; lives as long as @grp
 *
 * Return: as rnic_register().
 * Context: process, may sleep.
 */
struct rnic_consumer *rnic_register_in(struct ib_device *ibdev,
				       const struct rnic_consumer_desc *desc,
				       struct rnp_group *grp, const char *tenant)
{
	struct rnic_consumer *c;
	struct rnic_dev *rd;
	int err;

	if (!desc->ops || !desc->name)
		return ERR_PTR(-EINVAL);
	rd = rnic_dev_get(ibdev);
	if (!rd)
		return ERR_PTR(-ENODEV);

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		err = -ENOMEM;
		goto out_put_dev;
	}
	c->rc_dev = rd;
	strscpy(c->rc_name, desc->name, sizeof(c->rc_name));
	c->rc_ops = desc->ops;
	c->rc_priv = desc->priv;
	spin_lock_init(&c->rc_lock);
	INIT_LIST_HEAD(&c->rc_waiters);
	INIT_LIST_HEAD(&c->rc_node);
	c->rc_base_weight = desc->weight;
	/* the administrator's consumer_weights, for kernel consumers */
	/* min_later: admitted with none, claimed by rnic_claim_min() (I8) */
	c->rc_min_later[RNP_ENTRIES] = desc->min_entries;
	c->rc_min_later[RNP_KEYS] = desc->min_keys;
	c->rc_min_pending = desc->min_later;
	err = rnp_cons_init(&c->rc_pol, rnic_consumer_is_user(c) ? desc->weight :
			    rnic_conf_weight(c->rc_name, desc->weight),
			    desc->min_later ? 0 : desc->min_entries,
			    desc->min_later ? 0 : desc->min_keys, rnic_now_ms());
	if (err)
		goto out_free;
	c->rc_pol.group = grp;
	c->rc_tenant = tenant;

	mutex_lock(&rd->rd_cons_mutex);
	err = rnic_pool_join(c);
	if (err)
		goto out_unlock;
	/*
	 * Published under rd_cons_mutex: device removal sets rd_dead under
	 * it before it removes the consumers/ directory, so the directory
	 * is still there. From here the kobject owns c and its device
	 * reference, whether or not the directory could be made.
	 */
	err = rnic_sysfs_add_consumer(c);
	c->rc_published = !err;
	mutex_unlock(&rd->rd_cons_mutex);
	if (err)
		pr_warn("%s: no sysfs entry for consumer %s: %d\n",
			rnic_dev_name(rd).s, c->rc_name, err);
	__module_get(THIS_MODULE);
	pr_debug("%s: consumer %s.%llu registered, weight %u, min %u entries %u keys\n",
		 rnic_dev_name(rd).s, c->rc_name, c->rc_id, desc->weight,
		 desc->min_entries, desc->min_keys);
	return c;

out_unlock:
	mutex_unlock(&rd->rd_cons_mutex);
out_free:
	kfree(c);
out_put_dev:
	kobject_put(&rd->rd_kobj);
	if (err == -ENOSPC)
		pr_warn("%s: cannot guarantee %s its minimum of %u entries, %u keys\n",
			rnic_dev_name(rd).s, desc->name, desc->min_entries, desc->min_keys);
	return ERR_PTR(err);
}

/* The group of @key on @rd, made if need be, with a reference. */
static struct rnic_peer_group *rnic_peer_group_get(struct rnic_dev *rd, const void *key,
						   const char *name)
{
	struct rnic_peer_group *g;

	lockdep_assert_held(&rd->rd_cons_mutex);
	list_for_each_entry(g, &rd->rd_peer_groups, pg_node) {
		if (g->pg_key == key) {
			g->pg_refs++;
			return g;
		}
	}
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	g->pg_key = key;
	g->pg_refs = 1;
	snprintf(g->pg_name, sizeof(g->pg_name), "peers:%s", name ?: "?");
	g->pg_grp.weight = rnic_conf_weight(g->pg_name, 1);
	list_add_tail(&g->pg_node, &rd->rd_peer_groups);
	return g;
}

/* Drop a reference; the last frees the group, out of the pool (I8). */
static void rnic_peer_group_put(struct rnic_dev *rd, struct rnic_peer_group *g)
{
	lockdep_assert_held(&rd->rd_cons_mutex);
	if (--g->pg_refs)
		return;
	WARN_ON_ONCE(g->pg_grp.members);
	list_del(&g->pg_node);
	kfree(g);
}

/*
 * rnic_register() for a remote peer: its consumer joins the group of
 * its listener on the device, one place at the top level of the fair
 * shares for all the listener's connections (I8).
 */
static struct rnic_consumer *rnic_register_peer(struct ib_device *ibdev,
						const struct rnic_consumer_desc *desc)
{
	struct rnic_peer_group *g;
	struct rnic_consumer *c;
	struct rnic_dev *rd;

	rd = rnic_dev_get(ibdev);
	if (!rd)
		return ERR_PTR(-ENODEV);
	mutex_lock(&rd->rd_cons_mutex);
	g = rnic_peer_group_get(rd, desc->peer_group, desc->group_name);
	mutex_unlock(&rd->rd_cons_mutex);
	if (!g) {
		kobject_put(&rd->rd_kobj);
		return ERR_PTR(-ENOMEM);
	}
	c = rnic_register_in(ibdev, desc, &g->pg_grp, g->pg_name);
	mutex_lock(&rd->rd_cons_mutex);
	if (IS_ERR(c))
		rnic_peer_group_put(rd, g);
	else
		c->rc_peer_group = g;
	mutex_unlock(&rd->rd_cons_mutex);
	kobject_put(&rd->rd_kobj);
	return c;
}

/**
 * rnic_register - become a consumer of an RDMA device's resources
 * @ibdev: the device
 * @desc: name, weight, guaranteed minimum and callbacks
 *
 * A kernel consumer stands alone at the top level of the device's fair
 * shares, as a tenant of its own; one with a peer_group key shares one
 * place with the others of that key (a listener's connections).
 *
 * Return: the consumer, or ERR_PTR: -ENODEV (device unknown or going
 * away), -EINVAL (bad weight or missing ops), -ENOSPC (the budget
 * cannot guarantee the minimum), -ENOMEM.
 * Context: process, may sleep.
 */
struct rnic_consumer *rnic_register(struct ib_device *ibdev,
				    const struct rnic_consumer_desc *desc)
{
	if (desc->peer_group)
		return rnic_register_peer(ibdev, desc);
	return rnic_register_in(ibdev, desc, NULL, NULL);
}
EXPORT_SYMBOL_GPL(rnic_register);

/**
 * rnic_unregister - stop being a consumer
 * @c: the consumer; it should have released everything
 *
 * Whatever is still held is given back (with a warning, unless the
 * device was removed). Must not be called from the consumer's own
 * callbacks.
 * Context: process, may sleep.
 */
void rnic_unregister(struct rnic_consumer *c)
{
	struct rnic_dev *rd = c->rc_dev;

	mutex_lock(&rd->rd_cons_mutex);
	rnic_pool_leave(c);
	if (c->rc_peer_group)
		rnic_peer_group_put(rd, c->rc_peer_group);
	c->rc_peer_group = NULL;
	mutex_unlock(&rd->rd_cons_mutex);

	pr_debug("%s: consumer %s.%llu unregistered, peak %llu entries\n",
		 rnic_dev_name(rd).s, c->rc_name, c->rc_id, c->rc_pol.r[RNP_ENTRIES].peak);
	rnic_consumer_release_kobj(c);
	module_put(THIS_MODULE);
}
EXPORT_SYMBOL_GPL(rnic_unregister);
