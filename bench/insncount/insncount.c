// SPDX-License-Identifier: GPL-2.0
/*
 * insncount: a QEMU TCG plugin that counts the guest instructions
 * executed, by translation block, and writes the counts out each time
 * the guest executes a marker (ic_map.h; bench/insncount/insnmark).
 *
 *   qemu-system-x86_64 -accel tcg,thread=single \
 *       -plugin build/insncount/libinsncount.so,out=PREFIX ...
 *
 * Each marker writes PREFIX.SEQ.CODE: "VADDR INSNS" for every block that
 * ran so far (cumulative; two markers' files differ by what ran between
 * them, the marker's own block aside), then "total INSNS". With
 * delta=on, each file lists only what ran since the previous marker
 * (its "total" still the running one): a window's stop file is then the
 * window alone, and a run of hundreds of windows stays small. QEMU's
 * exit writes PREFIX.exit. Guest addresses map to the kernel's symbols and
 * modules through the guest's /proc/kallsyms.
 *
 * Why exact: an inline add of the block's instruction count is compiled
 * into each translated block, so every execution of a block counts all
 * its instructions, with no sampling. Two limits: a block left midway
 * by an exception (a page fault) counts whole, and the adds are not
 * atomic, so the guest must run with one TCG thread (thread=single).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ic_map.h"
#include "qemu_plugin_api.h"

IC_PLUGIN_EXPORT int qemu_plugin_version = IC_PLUGIN_API_VERSION;

static struct ic_map *ic_blocks;
static pthread_mutex_t ic_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *ic_out = "insncount";
static unsigned int ic_seq;
static int ic_delta;

/* Every block's count so far into PREFIX.SUFFIX, replaced whole. */
static void ic_write(const char *suffix)
{
	char path[4096], tmp[4200];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s.%s", ic_out, suffix);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		qemu_plugin_outs("insncount: cannot write the counts\n");
		return;
	}
	pthread_mutex_lock(&ic_lock);
	err = (ic_delta ? ic_map_dump_since(ic_blocks, f) : ic_map_dump(ic_blocks, f)) ||
	      fprintf(f, "total %llu\n", (unsigned long long)ic_map_total(ic_blocks)) < 0;
	pthread_mutex_unlock(&ic_lock);
	if (fclose(f) || err || rename(tmp, path))
		qemu_plugin_outs("insncount: writing the counts failed\n");
}

/* A marker ran: its code in @data. */
static void ic_marker_ran(unsigned int vcpu, void *data)
{
	char suffix[32];

	snprintf(suffix, sizeof(suffix), "%u.%u", ++ic_seq, (unsigned int)(uintptr_t)data);
	ic_write(suffix);
}

static void ic_tb_trans(uint64_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	uint64_t *ctr;

	pthread_mutex_lock(&ic_lock);
	ctr = ic_map_counter(ic_blocks, qemu_plugin_tb_vaddr(tb));
	pthread_mutex_unlock(&ic_lock);
	if (!ctr) {
		qemu_plugin_outs("insncount: out of memory: a block is not counted\n");
		return;
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, IC_INLINE_ADD_U64, ctr, n);
	for (i = 0; i + 1 < n; i++) {
		struct qemu_plugin_insn *a = qemu_plugin_tb_get_insn(tb, i);
		struct qemu_plugin_insn *b = qemu_plugin_tb_get_insn(tb, i + 1);
		int code = ic_marker(qemu_plugin_insn_data(a), qemu_plugin_insn_size(a),
				     qemu_plugin_insn_data(b), qemu_plugin_insn_size(b));

		if (code >= 0)
			qemu_plugin_register_vcpu_insn_exec_cb(b, ic_marker_ran, IC_CB_NO_REGS,
							       (void *)(uintptr_t)code);
	}
}

static void ic_exit(uint64_t id, void *data)
{
	ic_write("exit");
}

IC_PLUGIN_EXPORT int qemu_plugin_install(uint64_t id, const struct ic_qemu_info *info,
					 int argc, char **argv);

/**
 * qemu_plugin_install - QEMU loads the plugin
 * @id: the plugin's id
 * @info: what QEMU supports
 * @argc: arguments
 * @argv: "out=PREFIX", "delta=on|off"
 *
 * Return: 0, or -1 to refuse to load (another API version, a bad argument).
 */
IC_PLUGIN_EXPORT int qemu_plugin_install(uint64_t id, const struct ic_qemu_info *info,
					 int argc, char **argv)
{
	int i;

	if (info->version.min > IC_PLUGIN_API_VERSION || info->version.cur < IC_PLUGIN_API_VERSION) {
		fprintf(stderr, "insncount: this QEMU's plugin API is %d..%d, insncount's %d\n",
			info->version.min, info->version.cur, IC_PLUGIN_API_VERSION);
		return -1;
	}
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "delta=on") || !strcmp(argv[i], "delta=off")) {
			ic_delta = !strcmp(argv[i], "delta=on");
			continue;
		}
		if (strncmp(argv[i], "out=", 4) || !argv[i][4]) {
			fprintf(stderr, "insncount: unknown argument '%s' (out=PREFIX, delta=on|off)\n",
				argv[i]);
			return -1;
		}
		ic_out = argv[i] + 4;
	}
	ic_blocks = ic_map_new();
	if (!ic_blocks)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, ic_tb_trans);
	qemu_plugin_register_atexit_cb(id, ic_exit, NULL);
	return 0;
}
