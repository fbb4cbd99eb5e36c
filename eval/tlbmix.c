// SPDX-License-Identifier: GPL-2.0
/*
 * tlbmix: translation-cache isolation, simulated (issue 35, item 5). A
 * victim's captured trace shares the NIC's translation cache (tlbsim.c)
 * with a hoarder, a context that keeps many registrations and touches
 * them at random. Three runs by cache size:
 *
 *   solo         the victim alone;
 *   shared       one LRU cache for both (what a NIC does today);
 *   partitioned  each context limited to the lines of its share, the
 *                shares computed by rnic_mgr's own policy code
 *                (rnic_mgr/policy.c) from the contexts' demands: the
 *                victim's is the lines its trace touches, the hoarder's
 *                is unbounded (it always wants more).
 *
 *   tlbmix [--hoard-x X] [--ratio R] [--repeat K] [--weights V:H] [--csv FILE] TRACE...
 *
 * --hoard-x: the hoarder's registrations, in multiples of the cache's
 * lines (default 4); --ratio: hoarder accesses per victim access
 * (default 1); --repeat: the victim's trace K times over (default 1: a
 * short trace is mostly cold misses and warm-up, a repeated one is the
 * same work going on); --weights: the consumers' weights (default 1:1). The
 * goal: the victim's miss rate partitioned within +10% of solo.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlbsim.h"
#include "trace.h"
#include "eval/pool.h"

#define VICTIM	1
#define HOARDER	2
#define LINE	16
#define ASSOC	4

static u32 hoard_x = 4, ratio = 1, repeat = 1, w_victim = 1, w_hoarder = 1;
static FILE *csv;

struct mix_result {
	u64 accesses;	/* the victim's */
	u64 misses;
	u64 noncold;
};

static u64 pow2_above(u64 n)
{
	u64 p = 1;

	while (p <= n)
		p <<= 1;
	return p;
}

/* the hoarder's k-th registration: one line of its own */
static u64 hoarder_addr(u64 k)
{
	return tlbsim_entry_addr((u32)((0x100000 + k) << 8), 0);
}

/*
 * The victim's trace through a cache of @cfg, with @hoard hoarder lines
 * (0: solo) and, if @vquota, quotas @vquota and @hquota.
 */
static int mix_run(const struct trace_acc *a, size_t n, const struct tlbsim_cfg *cfg,
		   u64 hoard, u64 vquota, u64 hquota, struct mix_result *res)
{
	u64 seen_cap = pow2_above(2 * (n + hoard) + 16), rng = 0x2545f4914f6cdd1dULL;
	struct tlbsim_line *lines = malloc(tlbsim_lines_bytes(cfg));
	struct tlbsim_seen *seen = malloc(seen_cap * sizeof(*seen));
	struct tlbsim s;
	size_t i;
	u64 k;
	u32 j;
	int hit, err = 0;

	if (!lines || !seen) {
		free(lines);
		free(seen);
		return -ENOMEM;
	}
	memset(res, 0, sizeof(*res));
	tlbsim_init(&s, cfg, lines, seen, seen_cap);
	if (vquota) {
		tlbsim_partition(&s, VICTIM, vquota);
		tlbsim_partition(&s, HOARDER, hquota);
	}
	for (k = 0; k < (u64)n * repeat && !err; k++) {
		i = k % n;
		u64 nc0 = s.stats[TLBSIM_SEND].noncold + s.stats[TLBSIM_RECV].noncold;

		/* every victim context is one consumer: keys are unique per device */
		hit = tlbsim_access(&s, VICTIM, tlbsim_entry_addr(a[i].key, a[i].page),
				    a[i].side ? TLBSIM_RECV : TLBSIM_SEND);
		if (hit < 0) {
			err = hit;
			break;
		}
		res->accesses++;
		res->misses += !hit;
		res->noncold += s.stats[TLBSIM_SEND].noncold + s.stats[TLBSIM_RECV].noncold - nc0;
		for (j = 0; hoard && j < ratio && !err; j++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			err = tlbsim_access(&s, HOARDER, hoarder_addr(rng % hoard), TLBSIM_RECV);
			err = err < 0 ? err : 0;
		}
	}
	free(lines);
	free(seen);
	return err;
}

/*
 * The shares rnic_mgr's arbiter gives the victim (holding @vdemand, not
 * asking for more) and the hoarder (refused a moment ago: unbounded) of
 * a budget of @budget lines.
 */
static void arbiter_shares(u64 budget, u64 vdemand, u64 *vshare, u64 *hshare)
{
	struct rnp_cons victim, hoarder;
	u64 hn[RNP_NR_RES] = { budget, 1 };
	struct upool u;
	u64 late, i;

	upool_init(&u, budget, budget, 2);
	late = 10ULL * u.p.params.half_life_ms;
	upool_add(&u, &victim, w_victim, 1, 1, 0);
	upool_add(&u, &hoarder, w_hoarder, 1, 1, 0);
	/* the victim took what it uses, a line at a time, long ago */
	for (i = 0; i < vdemand; i++)
		if (upool_acquire(&u, &victim, 1, 0, 0) != UP_GRANTED)
			break;
	/* the hoarder took what was left and was refused just now */
	while (upool_acquire(&u, &hoarder, 1, 0, late) == UP_GRANTED)
		;
	rnp_note_demand(&u.p, &hoarder, hn, late);
	rnp_rebalance(&u.p, late + 1);
	*vshare = victim.r[RNP_ENTRIES].share;
	*hshare = hoarder.r[RNP_ENTRIES].share;
	upool_release(&u, &victim, victim.r[RNP_ENTRIES].held, victim.r[RNP_KEYS].held, false);
	upool_release(&u, &hoarder, hoarder.r[RNP_ENTRIES].held, hoarder.r[RNP_KEYS].held, false);
	upool_del(&u, &victim);
	upool_del(&u, &hoarder);
	upool_free(&u);
}

static double pct(u64 a, u64 b)
{
	return b ? 100.0 * a / b : 0;
}

static int mix_trace(const char *name, const struct trace_acc *a, size_t n)
{
	struct mix_result solo, shared, part;
	u32 c;
	int err;

	printf("%s: %zu victim accesses x %u; a hoarder of %ux the cache's lines,\n", name, n,
	       repeat, hoard_x);
	printf("  %u access(es) per victim access, weights %u:%u; L %u, A %u\n",
	       ratio, w_victim, w_hoarder, LINE, ASSOC);
	printf("  %6s %6s %6s %6s | %8s %8s %8s | %7s %s\n", "C", "lines", "demand", "quota",
	       "solo", "shared", "part.", "part/solo", "(victim's misses; goal <= 1.10x)");
	for (c = 256; c <= 65536; c *= 2) {
		struct tlbsim_cfg cfg = { c, LINE, ASSOC };
		u64 nlines = c / LINE, hoard = (u64)hoard_x * nlines, vq, hq, demand;
		double ratio_ps;

		err = mix_run(a, n, &cfg, 0, 0, 0, &solo);
		if (err)
			return err;
		/* the lines the victim touches: its cold misses solo */
		demand = solo.misses - solo.noncold;
		arbiter_shares(nlines, demand, &vq, &hq);
		err = mix_run(a, n, &cfg, hoard, 0, 0, &shared) ?:
		      mix_run(a, n, &cfg, hoard, vq, hq, &part);
		if (err)
			return err;
		ratio_ps = solo.misses ? (double)part.misses / solo.misses : 1;
		printf("  %6u %6llu %6llu %6llu | %7.3f%% %7.3f%% %7.3f%% | %6.2fx %s\n", c,
		       (unsigned long long)nlines, (unsigned long long)demand,
		       (unsigned long long)vq, pct(solo.misses, solo.accesses),
		       pct(shared.misses, shared.accesses), pct(part.misses, part.accesses),
		       ratio_ps, ratio_ps <= 1.10 ? "met" : "NOT met");
		if (csv)
			fprintf(csv, "%s,%u,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", name, c,
				hoard_x, ratio, (unsigned long long)demand,
				(unsigned long long)vq, (unsigned long long)hq,
				(unsigned long long)solo.accesses, (unsigned long long)solo.misses,
				(unsigned long long)shared.misses, (unsigned long long)part.misses);
	}
	printf("\n");
	return 0;
}

/**
 * main - tlbmix: each victim trace beside a hoarder (see the top of this file)
 * @argc: argument count
 * @argv: options and traces
 *
 * Return: 0, 1 when a file cannot be read or memory runs out, 2 for a
 * usage error.
 */
int main(int argc, char **argv)
{
	int i, done = 0;

	for (i = 1; i < argc; i++) {
		struct trace_acc *a;
		const char *base;
		size_t n;
		int err;

		if (!strcmp(argv[i], "--hoard-x") && i + 1 < argc) {
			hoard_x = atoi(argv[++i]);
			continue;
		}
		if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			repeat = atoi(argv[++i]);
			continue;
		}
		if (!strcmp(argv[i], "--ratio") && i + 1 < argc) {
			ratio = atoi(argv[++i]);
			continue;
		}
		if (!strcmp(argv[i], "--weights") && i + 1 < argc) {
			if (sscanf(argv[++i], "%u:%u", &w_victim, &w_hoarder) != 2 ||
			    !w_victim || !w_hoarder || w_victim > RNP_MAX_WEIGHT ||
			    w_hoarder > RNP_MAX_WEIGHT)
				goto usage;
			continue;
		}
		if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
			csv = trace_csv_open(argv[++i]);
			if (!csv)
				return 1;
			continue;
		}
		if (argv[i][0] == '-')
			goto usage;
		a = trace_load(argv[i], &n);
		if (!a)
			return 1;
		base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		err = mix_trace(base, a, n);
		free(a);
		if (err) {
			fprintf(stderr, "%s: %s\n", base, strerror(-err));
			return 1;
		}
		done++;
	}
	if (done && hoard_x && ratio && repeat) {
		if (csv)
			fclose(csv);
		return 0;
	}
usage:
	fprintf(stderr, "usage: tlbmix [--hoard-x X] [--ratio R] [--repeat K] [--weights V:H] %s\n",
		"[--csv FILE] TRACE...");
	return 2;
}
