// SPDX-License-Identifier: GPL-2.0
/*
 * tlbsim: the miNI paper's parameter sweep on captured traces (trace.h),
 * through the translation cache simulator (tlbsim.c).
 *
 *   tlbsim [--csv FILE] [--t-access NS] [--sizes] TRACE...
 *   tlbsim --nic-memory
 *
 * For each trace: the paper's sweep (C 8K/16K/32K entries, L 8/16/64/128,
 * A 2/4/8): miss rate, per side and kind (cold, non-cold), and the
 * slowdown if each access costs --t-access ns (default 1000) and each
 * miss 5, 50 or 500 us more (the paper measured 5-500 us to service
 * one); with --sizes instead, L 16 and A 4 with C from 64 entries to
 * 256K, and the smallest C reaching 1% and 0.1% misses: the NIC memory
 * the trace's registrations need.
 *
 * --csv appends one row per trace and geometry.
 *
 * --nic-memory needs no trace: the NIC memory of the paper's geometries
 * and of its full tables, beside the figures the paper gives for them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlbsim.h"
#include "trace.h"

struct result {
	struct tlbsim_cfg cfg;
	struct tlbsim_stats st[TLBSIM_NR_SIDES];
};

static double t_access_ns = 1000;
static FILE *csv;

/* One geometry over the trace; the seen set grows until it fits. */
static int simulate(const struct trace_acc *a, size_t n, const struct tlbsim_cfg *cfg,
		    struct result *res)
{
	static u64 seen_cap = 1 << 16;
	struct tlbsim_line *lines;
	struct tlbsim_seen *seen;
	struct tlbsim s;
	size_t i;
	int err = 0;

	if (tlbsim_check_cfg(cfg))
		return -EINVAL;
	lines = malloc(tlbsim_lines_bytes(cfg));
	for (;;) {
		seen = malloc(seen_cap * sizeof(*seen));
		if (!lines || !seen)
			exit(1);
		tlbsim_init(&s, cfg, lines, seen, seen_cap);
		for (i = 0; i < n; i++) {
			err = tlbsim_access(&s, a[i].ctx, tlbsim_entry_addr(a[i].key, a[i].page),
					    a[i].side ? TLBSIM_RECV : TLBSIM_SEND);
			if (err < 0)
				break;
		}
		free(seen);
		if (err != -ENOSPC)
			break;
		seen_cap *= 2;
	}
	free(lines);
	res->cfg = *cfg;
	memcpy(res->st, s.stats, sizeof(res->st));
	return err < 0 ? err : 0;
}

static double pct(u64 a, u64 b)
{
	return b ? 100.0 * a / b : 0;
}

static double miss_pct(const struct result *r)
{
	u64 acc = r->st[0].accesses + r->st[1].accesses;
	u64 miss = r->st[0].cold + r->st[0].noncold + r->st[1].cold + r->st[1].noncold;

	return pct(miss, acc);
}

static double slowdown(const struct result *r, double miss_us)
{
	return 1 + miss_pct(r) / 100 * miss_us * 1000 / t_access_ns;
}

static void csv_row(const char *trace, const struct result *r)
{
	if (!csv)
		return;
	fprintf(csv, "%s,%u,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu\n", trace,
		r->cfg.entries, r->cfg.line, r->cfg.assoc,
		(unsigned long long)r->st[0].accesses, (unsigned long long)r->st[0].cold,
		(unsigned long long)r->st[0].noncold, (unsigned long long)r->st[1].accesses,
		(unsigned long long)r->st[1].cold, (unsigned long long)r->st[1].noncold);
}

static void paper_sweep(const char *name, const struct trace_acc *a, size_t n)
{
	static const u32 cs[] = { 8192, 16384, 32768 }, ls[] = { 8, 16, 64, 128 },
			 as[] = { 2, 4, 8 };
	unsigned int i, j, k;

	printf("%s: %zu accesses; the miNI paper's sweep (miss %%: all; send cold/non-cold; "
	       "receive cold/non-cold; slowdown at 5/50/500 us a miss)\n", name, n);
	printf("  %7s %4s %2s %7s %15s %15s %22s\n", "C", "L", "A", "miss", "send c/nc",
	       "recv c/nc", "slowdown 5/50/500us");
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			for (k = 0; k < 3; k++) {
				struct tlbsim_cfg c = { cs[i], ls[j], as[k] };
				struct result r;

				if (simulate(a, n, &c, &r))
					continue;
				printf("  %6uK %4u %2u %6.2f%% %7.2f/%-7.2f %7.2f/%-7.2f %6.2f %6.2f %7.2f\n",
				       c.entries / 1024, c.line, c.assoc, miss_pct(&r),
				       pct(r.st[0].cold, r.st[0].accesses),
				       pct(r.st[0].noncold, r.st[0].accesses),
				       pct(r.st[1].cold, r.st[1].accesses),
				       pct(r.st[1].noncold, r.st[1].accesses),
				       slowdown(&r, 5), slowdown(&r, 50), slowdown(&r, 500));
				csv_row(name, &r);
			}
	printf("\n");
}

static void size_sweep(const char *name, const struct trace_acc *a, size_t n)
{
	u32 c, need1 = 0, need01 = 0, nc01 = 0;

	printf("%s: %zu accesses; L 16, A 4, by cache size\n", name, n);
	printf("  %8s %8s %8s\n", "C", "miss", "non-cold");
	for (c = 64; c <= 262144; c *= 2) {
		struct tlbsim_cfg cfg = { c, 16, 4 };
		struct result r;
		double m, nc;

		if (simulate(a, n, &cfg, &r))
			continue;
		m = miss_pct(&r);
		nc = pct(r.st[0].noncold + r.st[1].noncold, r.st[0].accesses + r.st[1].accesses);
		printf("  %8u %7.3f%% %7.3f%%\n", c, m, nc);
		if (!need1 && m <= 1)
			need1 = c;
		if (!need01 && m <= 0.1)
			need01 = c;
		if (!nc01 && nc <= 0.1)
			nc01 = c;
		csv_row(name, &r);
	}
	printf("  entries needed for <= 1%% misses: %s%u; for <= 0.1%%: %s%u\n",
	       need1 ? "" : "> ", need1 ? need1 : 262144,
	       need01 ? "" : "> ", need01 ? need01 : 262144);
	/*
	 * Cold misses are the lines a trace touches at all: no cache size
	 * removes them, and a short trace has relatively many. What the
	 * size buys is the rest (capacity and conflict misses).
	 */
	printf("  entries needed for <= 0.1%% non-cold misses: %s%u\n\n",
	       nc01 ? "" : "> ", nc01 ? nc01 : 262144);
}

/* The miNI paper's storage (section IV): 32-bit entries and addresses, 4 KiB pages. */
static const struct tlbsim_nic_mem mini_mem = {
	.va_bits = 32, .page_shift = 12, .ctx_bits = 16, .entry_bytes = 4, .word_bytes = 4,
};

static double kib(u64 bytes)
{
	return bytes / 1024.0;
}

/* one figure of the paper against the model; ratio model / paper */
static void nic_row(const char *what, double paper_kib, const char *paper, double model_kib)
{
	double ratio = model_kib / paper_kib;

	printf("  %-44s %12s %11.0f KiB %6.2fx  %s\n", what, paper, model_kib, ratio,
	       ratio >= 0.8 && ratio <= 1.2 ? "within 20%" : "NOT within 20%");
}

static void nic_memory(void)
{
	static const u32 cs[] = { 8192, 16384, 32768 }, ls[] = { 8, 16, 64, 128 };
	struct tlbsim_cfg best = { 16384, 64, 4 };
	u64 node = 512ULL << 20, big = 64ULL << 30;
	unsigned int i, j;

	printf("NIC memory, the miNI paper's figures against the model (tlbsim_nic_bytes():\n"
	       "32-bit entries, a tag of the page number's bits above line and set, a\n"
	       "%u-bit context id, a valid bit and log2(A) LRU bits a line, in 32-bit words)\n",
	       mini_mem.ctx_bits);
	printf("  %-44s %12s %15s %7s\n", "figure", "paper", "model", "ratio");
	/* section V-C: "(C16, L64, A4) ... uses about 75 KBytes of NIC memory" */
	nic_row("cache C16 L64 A4 (the paper's choice)", 75, "about 75 KB",
		kib(tlbsim_nic_bytes(&best, &mini_mem)));
	/* section V-A: 64 GB of communication buffers "would require about 32 MBytes" */
	nic_row("full VMH table for 64 GB of buffers", 32 * 1024, "about 32 MB",
		kib((big >> mini_mem.page_shift) * mini_mem.entry_bytes));
	/* section V-C: the full table "uses more than 256 KBytes" (a bound, node of Table II) */
	printf("  %-44s %12s %11.0f KiB %7s  %s\n", "full VMH table, 512 MB node (Table II)",
	       "> 256 KB", kib((node >> mini_mem.page_shift) * mini_mem.entry_bytes), "-",
	       "a bound: consistent");
	printf("  not modelled: total NIC memory 800 KB to 400 KB and lookup structures\n"
	       "  520 KB to 130 KB (they include the CBH and PCH tables and the NIC's code);\n"
	       "  miss rates and speedups of Fig. 5-7 (SPLASH-2 traces, not available)\n\n");
	printf("The paper's sweep: NIC memory of each geometry at A 4 (KiB)\n  %6s", "C \\ L");
	for (j = 0; j < ARRAY_SIZE(ls); j++)
		printf(" %7u", ls[j]);
	printf("\n");
	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		printf("  %5uK", cs[i] / 1024);
		for (j = 0; j < ARRAY_SIZE(ls); j++) {
			struct tlbsim_cfg c = { cs[i], ls[j], 4 };

			printf(" %7.1f", kib(tlbsim_nic_bytes(&c, &mini_mem)));
		}
		printf("\n");
	}
}

/**
 * main - tlbsim: each trace through the paper's sweep, or by cache size
 * @argc: argument count
 * @argv: options and workloads (see the top of this file)
 *
 * Return: 0, 1 when a file cannot be read, 2 for a usage error.
 */
int main(int argc, char **argv)
{
	int i, sizes = 0, done = 0;

	for (i = 1; i < argc; i++) {
		struct trace_acc *a;
		const char *base;
		size_t n;

		if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
			csv = trace_csv_open(argv[++i]);
			if (!csv)
				return 1;
			continue;
		}
		if (!strcmp(argv[i], "--t-access") && i + 1 < argc) {
			t_access_ns = atof(argv[++i]);
			continue;
		}
		if (!strcmp(argv[i], "--sizes")) {
			sizes = 1;
			continue;
		}
		if (!strcmp(argv[i], "--nic-memory")) {
			nic_memory();
			done++;
			continue;
		}
		a = trace_load(argv[i], &n);
		if (!a)
			return 1;
		base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		if (sizes)
			size_sweep(base, a, n);
		else
			paper_sweep(base, a, n);
		free(a);
		done++;
	}
	if (!done) {
		fprintf(stderr, "usage: tlbsim [--csv FILE] [--t-access NS] [--sizes] TRACE...\n"
			"       tlbsim --nic-memory\n");
		return 2;
	}
	if (csv)
		fclose(csv);
	return 0;
}
