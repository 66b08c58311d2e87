// SPDX-License-Identifier: GPL-2.0
/*
 * cli-breakdown.c: `deltas --breakdown`: the markers opened (or the refusal
 * when the capture has none), and the table of where each row's time went,
 * after the delta table (docs/ANALYSIS.md, "Breakdown").
 *
 *   breakdown: us, and % of the split pairs' time; 5 pairs (0 incomplete, 0 of two tasks: not summed), 1234 marker records
 *   from          to             pairs    own(us)  own%  hardirq(us) hardirq% ...
 *   lt_bd_hrtimer:61 lt_bd_hrtimer:70  5   1000.000 66.7%   500.000  33.3% ...
 *     slowest: 312.050 us at 12.345678901 cpu 1 pid 130: own 210.050, hardirq 102.000 (local timer)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli-breakdown.h"

int cli_bd_attach(const char *dir, struct lgd_probe_set *set)
{
	struct cli_probe_specs req = { 0 };
	int optional, ret = 0;
	const char *spec;
	char *e;

	for (unsigned int m = 1; m < LGD_BDM_NR; m++) {
		spec = lgd_bd_mark_spec(m, &optional);
		if (!optional && cli_probe_spec_push(&req, strdup(spec), "--breakdown"))
			ret = 1;
	}
	if (!ret)
		ret = cli_probes_attach(dir, &req, set);
	cli_probe_specs_free(&req);
	for (unsigned int m = 1; !ret && m < LGD_BDM_NR; m++) {
		spec = lgd_bd_mark_spec(m, &optional);
		if (!optional || !lgd_probes_attach(dir, &spec, 1, set))
			continue;
		if (set->failed < 0)
			return 1;
		e = lgd_escape_alloc(set->err);
		fprintf(stderr, "logdev record: note: --breakdown: marker %s left out (%s): its "
			"time counts as own\n", lgd_bd_mark_name(m), e ? e : "refused");
		free(e);
	}
	return ret;
}

int cli_bd_is_marker(const struct lgd_reader *r, const struct lgd_item *it)
{
	return it->kind == LGD_ITEM_REC && lgd_bd_mark_of(lgd_sites_get(&r->sites, it->rec.site));
}

int cli_bd_open(const char *verb, struct lgd_reader *r, struct lgd_bd **bd, unsigned int *have)
{
	int ret = lgd_bd_open(bd, &r->sites, r->probes, have);

	if (ret == -ENOMEM) {
		fprintf(stderr, "logdev: out of memory\n");
		return 1;
	}
	if (!ret)
		return 0;
	fprintf(stderr, "logdev %s: --breakdown: this capture has %s the context markers "
		"(hardirq, softirq, sched_switch): record with `logdev record --breakdown`; "
		"nothing is broken down (never zeros)\n", verb, *have ? "only some of" : "none of");
	for (unsigned int m = 1; *have && m < LGD_BDM_NR; m++)
		if (!(*have & (1u << m)))
			fprintf(stderr, "  missing, or not in its marker's format: %s\n",
				lgd_bd_mark_name(m));
	return 2;
}

int cli_bd_none(const struct lgd_bd *bd)
{
	uint64_t met, read = lgd_bd_markers(bd, &met);

	if (read)
		return 0;
	if (met)
		fprintf(stderr, "logdev: --breakdown: none of the capture's %" PRIu64 " context "
			"marker records could be read (payloads cut or not in the markers' "
			"formats); nothing is broken down (never zeros)\n", met);
	else
		fprintf(stderr, "logdev: --breakdown: the capture has the context markers' sites "
			"but none of their records (they were not attached while it recorded): "
			"record with `logdev record --breakdown`; nothing is broken down (never "
			"zeros)\n");
	return 1;
}

/* the name of culprit @w into @b (@n bytes) */
static const char *who_name(const struct lgd_reader *r, const struct lgd_bd_who *w, char *b,
			    size_t n)
{
	static const char *const ctx[] = { "task", "softirq", "hardirq", "NMI" };
	const struct lgd_ksym *k;
	const char *s;
	uint64_t off, size;

	switch (w->kind) {
	case LGD_BDW_IRQ:
		snprintf(b, n, "irq %" PRIu64, w->id);
		break;
	case LGD_BDW_TIMER:
		snprintf(b, n, "local timer");
		break;
	case LGD_BDW_SOFTIRQ:
		s = lgd_bd_softirq_name(w->id);
		if (s)
			snprintf(b, n, "softirq %s", s);
		else
			snprintf(b, n, "softirq %" PRIu64, w->id);
		break;
	case LGD_BDW_NMI:
		k = lgd_ksyms_lookup_at(&r->ksyms, w->id, w->ts, &off, &size);
		if (k && !off)
			snprintf(b, n, "NMI %s", k->name);
		else
			snprintf(b, n, "NMI 0x%" PRIx64, w->id);
		break;
	case LGD_BDW_TASK:
		s = lgd_comm_at(r, (uint32_t)w->id, w->ts);
		snprintf(b, n, "%s-%" PRIu64, s ? s : "?", w->id);
		break;
	case LGD_BDW_CTX:
		snprintf(b, n, "%s on cpu %u (no marker)", ctx[w->id & 3], w->cpu);
		break;
	default:
		snprintf(b, n, "?");
	}
	return b;
}

/* the instance @sp of a row: its length, where and its buckets with culprits */
static void print_worst(const struct lgd_reader *r, const struct lgd_bd_split *sp)
{
	char t[32], w[96];
	const char *sep = ":";

	lgd_fmt_us(t, sizeof(t), sp->len);
	printf("    slowest: %s us at %" PRIu64 ".%09" PRIu64 " cpu %u pid %u", t,
	       sp->start / 1000000000u, sp->start % 1000000000u, sp->cpu, sp->pid);
	for (unsigned int k = 0; k < LGD_BD_NR; k++) {
		if (!sp->ns[k])
			continue;
		lgd_fmt_us(t, sizeof(t), sp->ns[k]);
		printf("%s %s %s", sep, lgd_bd_bucket_name(k), t);
		if (sp->who[k].kind != LGD_BDW_NONE)
			printf(" (%s)", who_name(r, &sp->who[k], w, sizeof(w)));
		sep = ",";
	}
	putchar('\n');
}

/*
 * the notes of markers the capture lacks, of pairs of two tasks (@mixed);
 * incomplete pairs warned (stderr)
 */
static void notes(unsigned int have, uint64_t incomplete, uint64_t mixed)
{
	if (mixed)
		printf("note: %" PRIu64 " pair%s join%s two tasks' records (--by context and cpu "
		       "pair a CPU's consecutive records): not split, not summed; --by task "
		       "pairs a task's own\n", mixed, mixed == 1 ? "" : "s", mixed == 1 ? "s" : "");
	if (!(have & (1u << LGD_BDM_TIMER_IN)) || !(have & (1u << LGD_BDM_TIMER_OUT)))
		printf("note: no local timer markers (irq_vectors:local_timer_entry/exit not on "
		       "this kernel, or not recorded): the timer interrupt's time counts as own\n");
	if (!(have & (1u << LGD_BDM_NMI)))
		printf("note: no NMI marker (nmi:nmi_handler): NMI time counts as own\n");
	if (!(have & (1u << LGD_BDM_WAKING)))
		printf("note: no sched_waking marker: blocked time has no waker, and a woken "
		       "task's wait for a CPU counts as blocked\n");
	if (incomplete) {
		fprintf(stderr, "logdev: warning: %" PRIu64 " pair%s could not be broken down "
			"(lost events, or a marker lost, inside): counted in column incomplete, "
			"left out of the sums\n", incomplete, incomplete == 1 ? "" : "s");
		cli_nwarn++;
	}
}

void cli_bd_print_one(const struct lgd_reader *r, const struct lgd_pair *p, unsigned int have)
{
	const struct lgd_bd_row *b = p->bd;
	int64_t sum = 0;
	char t[32];

	if (!b) {
		printf("breakdown: no pair split\n");
		return;
	}
	for (unsigned int k = 0; k < LGD_BD_NR; k++)
		sum = sum > INT64_MAX - b->ns[k] ? INT64_MAX : sum + b->ns[k];
	printf("breakdown: %" PRIu64 " pair%s (%" PRIu64 " incomplete, %" PRIu64 " of two "
	       "tasks: not summed):", b->n, b->n == 1 ? "" : "s", b->incomplete, b->mixed);
	for (unsigned int k = 0; k < LGD_BD_NR; k++) {
		lgd_fmt_us(t, sizeof(t), b->ns[k]);
		printf("%s %s %s us", k ? "," : "", lgd_bd_bucket_name(k), t);
		if (sum > 0)
			printf(" %.1f%%", 100.0 * (double)b->ns[k] / (double)sum);
	}
	putchar('\n');
	for (uint32_t j = 0; j < b->nworst; j++)
		print_worst(r, &b->worst[j]);
	notes(have, b->incomplete, b->mixed);
}

void cli_bd_print(const struct lgd_reader *r, const struct lgd_deltas *ds, unsigned int have)
{
	uint64_t split = 0, incomplete = 0, mixed = 0;
	int wf = 24, wt = 24, l;
	char *fb = NULL, *tb = NULL, t[32];

	for (size_t i = 0; i < ds->nr; i++) {
		if (!ds->pairs[i].bd)
			continue;
		split += ds->pairs[i].bd->n;
		incomplete += ds->pairs[i].bd->incomplete;
		mixed += ds->pairs[i].bd->mixed;
		fb = lgd_site_label_text_alloc(&r->sites, ds->pairs[i].from);
		tb = lgd_site_label_text_alloc(&r->sites, ds->pairs[i].to);
		if (fb && (l = (int)strlen(fb)) > wf)
			wf = l;
		if (tb && (l = (int)strlen(tb)) > wt)
			wt = l;
		free(fb);
		free(tb);
	}
	printf("\nbreakdown: us, and %% of the split pairs' time; %" PRIu64 " pair%s (%"
	       PRIu64 " incomplete, %" PRIu64 " of two tasks: not summed), %" PRIu64 " marker "
	       "records\n", split, split == 1 ? "" : "s", incomplete, mixed,
	       lgd_bd_markers(ds->bd, NULL));
	printf("%-*s %-*s %8s", wf, "from", wt, "to", "pairs");
	for (unsigned int k = 0; k < LGD_BD_NR; k++) {
		char h[32];

		snprintf(h, sizeof(h), "%s(us)", lgd_bd_bucket_name(k));
		printf(" %13s %6s", h, "%");
	}
	printf(" %10s\n", "incomplete");
	for (size_t i = 0; i < ds->nr; i++) {
		const struct lgd_pair *p = &ds->pairs[i];
		const struct lgd_bd_row *b = p->bd;
		int64_t sum = 0;

		if (!b)
			continue;
		for (unsigned int k = 0; k < LGD_BD_NR; k++)
			sum = sum > INT64_MAX - b->ns[k] ? INT64_MAX : sum + b->ns[k];
		fb = lgd_site_label_text_alloc(&r->sites, p->from);
		tb = lgd_site_label_text_alloc(&r->sites, p->to);
		printf("%-*s %-*s %8" PRIu64, wf, fb ? fb : "?", wt, tb ? tb : "?",
		       b->n - b->incomplete - b->mixed);
		free(fb);
		free(tb);
		for (unsigned int k = 0; k < LGD_BD_NR; k++) {
			lgd_fmt_us(t, sizeof(t), b->ns[k]);
			if (sum > 0)
				printf(" %13s %5.1f%%", t, 100.0 * (double)b->ns[k] / (double)sum);
			else
				printf(" %13s %6s", t, "-");
		}
		printf(" %10" PRIu64 "\n", b->incomplete);
		for (uint32_t j = 0; j < b->nworst; j++)
			print_worst(r, &b->worst[j]);
	}
	notes(have, incomplete, mixed);
}

int cli_bd_row(struct lgd_bd *bd, const struct lgd_records *rs, const struct lgd_record *y,
	       struct lgd_bd_split *sp)
{
	const struct lgd_item *it = &y->it;
	unsigned int mk = lgd_records_mark(rs, it);

	if (lgd_bd_feed(bd, it, mk))
		return -ENOMEM;
	if (mk || it->kind != LGD_ITEM_REC)
		return 0;
	if (y->dur && y->dur->ns >= 0 && (uint64_t)y->dur->ns <= it->ts)
		lgd_bd_split(bd, it->rec.pid, it->rec.pid, it->rec.ctx,
			     it->ts - (uint64_t)y->dur->ns, y->dur->entry_cpu, it->ts, it->cpu, sp);
	else if (y->step.has_prev && y->step.kind == LGD_STEP_OK)
		lgd_bd_split(bd, y->step.from_pid, it->rec.pid, it->rec.ctx,
			     it->ts - y->step.ns, y->step.from_cpu, it->ts, it->cpu, sp);
	else
		return 0;
	return !sp->incomplete && !sp->mixed;
}

struct pf {
	FILE *f;
	const struct lgd_reader *r;
	int *first;
	uint32_t last_pid;
	int named;
};

static void pf_sep(struct pf *p)
{
	fputs(*p->first ? "\n" : ",\n", p->f);
	*p->first = 0;
}

static void pf_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

static int pf_slice(void *arg, const struct lgd_bd_slice *s)
{
	struct pf *p = arg;
	char who[96], name[160];
	const char *comm;
	int task = s->bucket == LGD_BD_OWN || s->bucket >= LGD_BD_PREEMPTED;

	if (task) {
		if (!p->named || p->last_pid != s->pid) {	/* the task's track, named */
			comm = lgd_comm_at(p->r, s->pid, s->start);
			snprintf(name, sizeof(name), "%s-%u", comm ? comm : "?", s->pid);
			pf_sep(p);
			fprintf(p->f, "{\"ph\":\"M\",\"pid\":2,\"tid\":%u,\"name\":\"thread_name\","
				"\"args\":{\"name\":", s->pid);
			cli_json_str(p->f, name);
			fputs("}}", p->f);
			p->named = 1;
			p->last_pid = s->pid;
		}
	}
	if (s->bucket == LGD_BD_OWN)
		snprintf(name, sizeof(name), "running");
	else if (s->who.kind != LGD_BDW_NONE && !task)	/* "softirq RCU", "irq 11" */
		who_name(p->r, &s->who, name, sizeof(name));
	else if (s->who.kind != LGD_BDW_NONE)
		snprintf(name, sizeof(name), "%s: %s", lgd_bd_bucket_name(s->bucket),
			 who_name(p->r, &s->who, who, sizeof(who)));
	else
		snprintf(name, sizeof(name), "%s", lgd_bd_bucket_name(s->bucket));
	pf_sep(p);
	fprintf(p->f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"ts\":", task ? 2 : 1,
		task ? s->pid : s->cpu + 1);
	pf_us(p->f, s->start);
	fputs(",\"dur\":", p->f);
	pf_us(p->f, s->end - s->start);
	fputs(",\"name\":", p->f);
	cli_json_str(p->f, name);
	fprintf(p->f, ",\"cat\":\"breakdown\",\"args\":{\"cpu\":%u}}", s->cpu);
	return ferror(p->f) ? 1 : 0;
}

void cli_bd_perfetto(FILE *f, const struct lgd_reader *r, struct lgd_bd *bd, int *first)
{
	struct pf p = { f, r, first, 0, 0 };

	pf_sep(&p);
	fputs("{\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\",\"args\":{\"name\":"
	      "\"tasks (logdev breakdown)\"}}", f);
	lgd_bd_walk(bd, pf_slice, &p);
}

/* mean ns per complete pair of bucket @k of side @sd (0 without pairs) */
static double side_mean(const struct lgd_diff_side *sd, unsigned int k)
{
	return sd->bd_n ? (double)sd->bd_ns[k] / (double)sd->bd_n : 0;
}

void cli_bd_print_diff(const struct lgd_diff *df)
{
	printf("\nbreakdown: mean us per pair, A -> B (pairs split in each: complete ones)\n");
	for (size_t i = 0; i < df->nr; i++) {
		const struct lgd_diff_row *w = &df->rows[i];
		unsigned int most = 0;
		double dmost = 0;

		if (w->present != LGD_DIFF_BOTH || !w->a.bd_n || !w->b.bd_n)
			continue;
		printf("%s -> %s (%" PRIu64 " -> %" PRIu64 " pairs):", w->from, w->to, w->a.bd_n,
		       w->b.bd_n);
		for (unsigned int k = 0; k < LGD_BD_NR; k++) {
			double a = side_mean(&w->a, k), b = side_mean(&w->b, k);

			printf("%s %s %.3f -> %.3f", k ? "," : "", lgd_bd_bucket_name(k), a / 1e3,
			       b / 1e3);
			if ((b - a < 0 ? a - b : b - a) > (dmost < 0 ? -dmost : dmost)) {
				most = k;	/* the largest change either way */
				dmost = b - a;
			}
		}
		if (dmost != 0)
			printf("\n    most changed: %s, %+.3f us per pair\n",
			       lgd_bd_bucket_name(most), dmost / 1e3);
		else
			printf("\n    no bucket changed\n");
	}
}
