/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin interface that insncount uses, declared
 * from its documentation (docs/devel/tcg-plugins, API version 1, as
 * Debian 12's QEMU 7.2 implements it): Debian ships no plugin header.
 * insncount.c checks at load that the QEMU loading it supports version 1.
 */
#ifndef IC_QEMU_PLUGIN_API_H
#define IC_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IC_PLUGIN_API_VERSION	1
#define IC_PLUGIN_EXPORT	__attribute__((visibility("default")))

/* What QEMU tells a plugin at load (the API's qemu_info_t). */
struct ic_qemu_info {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
};

struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* the API's enum qemu_plugin_cb_flags and enum qemu_plugin_op */
#define IC_CB_NO_REGS		0
#define IC_INLINE_ADD_U64	0

void qemu_plugin_register_vcpu_tb_trans_cb(uint64_t id,
					   void (*cb)(uint64_t id, struct qemu_plugin_tb *tb));
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, int op, void *ptr,
					      uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    void (*cb)(unsigned int vcpu, void *data),
					    int flags, void *data);
void qemu_plugin_register_atexit_cb(uint64_t id, void (*cb)(uint64_t id, void *data),
				    void *data);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

#endif /* IC_QEMU_PLUGIN_API_H */
