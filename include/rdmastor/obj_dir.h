/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sysfs directory of one object (a connection, a transport), one value
 * or one KEY VALUE list a file, so that a list of objects has no page
 * limit: each has its own directory.
 *
 * The directory's kobject is allocated apart from the object (review 4,
 * N11): a kobject's release may run after its last put, later still
 * under CONFIG_DEBUG_KOBJECT_RELEASE, while the object is freed as soon
 * as rds_dir_del() returns. kobject_del() there waits for every reader
 * of the files (kernfs drains them), so the object is valid in a show
 * function. Add and delete may sleep.
 */
#ifndef RDMASTOR_OBJ_DIR_H
#define RDMASTOR_OBJ_DIR_H

#include <linux/kobject.h>
#include <linux/slab.h>

/**
 * struct rds_dir - an object's directory
 * @kobj: the directory
 * @obj: the object, valid in the files' show functions
 */
struct rds_dir {
	struct kobject kobj;
	void *obj;
};

/* The object of a directory's file. */
static inline void *rds_dir_obj(struct kobject *kobj)
{
	return container_of(kobj, struct rds_dir, kobj)->obj;
}

/* The ktype's release: frees the directory, never the object. */
static inline void rds_dir_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct rds_dir, kobj));
}

/**
 * rds_dir_add - make an object's directory
 * @ktype: release rds_dir_release, sysfs_ops kobj_sysfs_ops, the files
 * @parent: the directory it goes in
 * @obj: the object
 * @name: its name, unique in @parent
 *
 * Return: the directory, or NULL (the object works without it).
 */
static inline struct kobject *rds_dir_add(const struct kobj_type *ktype,
					  struct kobject *parent, void *obj,
					  const char *name)
{
	struct rds_dir *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d || !parent) {
		kfree(d);
		return NULL;
	}
	d->obj = obj;
	if (kobject_init_and_add(&d->kobj, ktype, parent, "%s", name)) {
		kobject_put(&d->kobj);	/* frees d */
		return NULL;
	}
	return &d->kobj;
}

/**
 * rds_dir_del - remove an object's directory, before the object is freed
 * @dir: where the directory is kept; NULL afterwards
 */
static inline void rds_dir_del(struct kobject **dir)
{
	if (!*dir)
		return;
	kobject_del(*dir);
	kobject_put(*dir);
	*dir = NULL;
}

#endif /* RDMASTOR_OBJ_DIR_H */
