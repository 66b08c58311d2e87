// SPDX-License-Identifier: GPL-2.0
/*
 * filter.c: the one parser and the one predicate of the record filters
 * (struct lgd_filter; the reader's merge applies it: lgd_reader_set_filter()).
 *
 * Values (lgd_filter_set()):
 *   cpu      LIST of CPU numbers and ranges: "0", "0,2-3" (below 4096)
 *   pid      LIST of pids and ranges: "1234", "100-200,4242" (below 2^32)
 *   comm     a task name or an fnmatch(3) glob of one: "sh", "kworker*"
 *            (the name the task had at the record's time, lgd_comm_at();
 *            a capture without task names matches none)
 *   site     an fnmatch(3) glob matched against a site's "func:line",
 *            "file:func:line" and its func alone (a probe's name):
 *            "demo_*", "kfree_skbmem:291", "*skbuff.c:*"
 *   context  LIST of task, softirq, hardirq, nmi
 *   from, to TIME: seconds on the capture's clock as report prints them
 *            ("4.026146"), or with a unit "s", "ms", "us", "ns" ("4026146us");
 *            a leading "+" counts from the capture's first record ("+1.5s",
 *            "+200ms").  Records with from <= ts < to are kept.  Decimal
 *            digits only (no sign but the "+", no exponent), finer than a
 *            ns refused.
 * Bad values return -EINVAL with a sentence saying what was expected, and
 * leave the filter as it was.  Kinds combine with AND, values of one kind
 * (given several times, or in one list) with OR.
 *
 * A gap (lost events) is kept or left out by its CPU and time only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

static int why_set(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (why && n) {
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* a whole decimal number of at most @max, from *@p; advances it */
static int num(const char **p, uint64_t max, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (max - (uint64_t)(*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*v = x;
	return 0;
}

/* "a,b-c,..." into ranges appended to *@rs (*@nr) */
static int parse_list(const char *v, uint64_t max, struct lgd_range **rs, size_t *nr)
{
	const char *p = v;
	size_t n = 0, cnt = 1;
	struct lgd_range *a;

	for (const char *q = v; *q; q++)
		cnt += *q == ',';
	a = realloc(*rs, (*nr + cnt) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	*rs = a;
	for (;;) {
		uint64_t lo, hi;

		if (num(&p, max, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (num(&p, max, &hi) || hi < lo)
				return -EINVAL;
		}
		a[*nr + n].lo = lo;
		a[*nr + n].hi = hi;
		n++;
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	*nr += n;
	return 0;
}

static int in_ranges(const struct lgd_range *rs, size_t nr, uint64_t v)
{
	for (size_t i = 0; i < nr; i++)
		if (v >= rs[i].lo && v <= rs[i].hi)
			return 1;
	return 0;
}

/* "[+]DIGITS[.DIGITS][s|ms|us|ns]" -> ns */
static int parse_time(const char *v, int *rel, uint64_t *ns)
{
	const char *p = v, *frac = NULL;
	size_t nfrac = 0;
	uint64_t ip, mult = 1000000000ull, f = 0, x;

	*rel = *p == '+';
	if (*rel)
		p++;
	if (num(&p, UINT64_MAX, &ip))
		return -1;
	if (*p == '.') {
		frac = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		nfrac = (size_t)(p - frac);
		if (!nfrac)
			return -1;
	}
	if (!strcmp(p, "") || !strcmp(p, "s"))
		mult = 1000000000ull;
	else if (!strcmp(p, "ms"))
		mult = 1000000ull;
	else if (!strcmp(p, "us"))
		mult = 1000ull;
	else if (!strcmp(p, "ns"))
		mult = 1;
	else
		return -1;
	/* the fraction in ns: a digit finer than a ns must be 0 */
	for (size_t i = 0, place = mult / 10; i < nfrac; i++, place /= 10) {
		uint64_t d = (uint64_t)(frac[i] - '0');

		if (!place && d)
			return -1;
		f += d * place;
	}
	if (ip > (UINT64_MAX - f) / mult)
		return -1;
	x = ip * mult + f;
	*ns = x;
	return 0;
}

static int add_str(char ***v, size_t *nr, const char *s)
{
	char **a = realloc(*v, (*nr + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	*v = a;
	a[*nr] = strdup(s);
	if (!a[*nr])
		return -ENOMEM;
	(*nr)++;
	return 0;
}

/* enum logdev_ctx's names, as lgd_ctx_name() gives them */
static const char *const ctx_names[4] = { "task", "softirq", "hardirq", "nmi" };

static int parse_ctx(const char *v, unsigned int *mask)
{
	char buf[64];
	unsigned int m = 0;
	char *tok, *save = NULL;

	if (strlen(v) >= sizeof(buf) || !*v)
		return -1;
	strcpy(buf, v);
	if (buf[strlen(buf) - 1] == ',' || buf[0] == ',' || strstr(buf, ",,"))
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int c;

		for (c = 0; c < 4; c++)
			if (!strcmp(tok, ctx_names[c]))
				break;
		if (c == 4)
			return -1;
		m |= 1u << c;
	}
	*mask |= m;
	return 0;
}

int lgd_filter_set(struct lgd_filter *f, const char *name, const char *value,
		  char *why, size_t why_size)
{
	int rel, ret;
	uint64_t ns;
	size_t old;

	if (!strcmp(name, "cpu") || !strcmp(name, "pid")) {
		int cpu = name[0] == 'c';
		struct lgd_range **rs = cpu ? &f->cpus : &f->pids;
		size_t *nr = cpu ? &f->nr_cpus : &f->nr_pids;

		old = *nr;
		ret = parse_list(value, cpu ? LGD_STREAMS_MAX_CPU - 1 : UINT32_MAX, rs, nr);
		if (ret == -EINVAL) {
			*nr = old;
			return why_set(why, why_size, cpu ?
				       "expected CPU numbers (0 to 4095) and ranges: 0,2-3" :
				       "expected pids (0 to 4294967295) and ranges: 100-200,4242");
		}
		return ret;
	}
	if (!strcmp(name, "comm") || !strcmp(name, "site")) {
		int comm = name[0] == 'c';

		if (!*value)
			return why_set(why, why_size, "expected a %s or a glob of one",
				       comm ? "task name" : "func:line");
		return comm ? add_str(&f->comms, &f->nr_comms, value) :
			      add_str(&f->sites, &f->nr_sites, value);
	}
	if (!strcmp(name, "context")) {
		if (parse_ctx(value, &f->ctx_mask))
			return why_set(why, why_size,
				       "expected a list of task, softirq, hardirq, nmi");
		return 0;
	}
	if (!strcmp(name, "from") || !strcmp(name, "to")) {
		if (parse_time(value, &rel, &ns))
			return why_set(why, why_size,
				       "expected seconds as report prints them (4.026146), a unit s ms us ns (200ms), \"+\" from the first record (+1.5s)");
		if (name[0] == 'f') {
			f->has_from = 1;
			f->from_rel = rel;
			f->from_ns = ns;
		} else {
			f->has_to = 1;
			f->to_rel = rel;
			f->to_ns = ns;
		}
		return 0;
	}
	return -ENOENT;
}

int lgd_filter_active(const struct lgd_filter *f)
{
	return f && (f->nr_cpus || f->nr_pids || f->nr_comms || f->nr_sites || f->ctx_mask ||
		     f->has_from || f->has_to);
}

static int glob_any(char *const *pats, size_t nr, const char *s)
{
	for (size_t i = 0; i < nr; i++)
		if (!fnmatch(pats[i], s, 0))
			return 1;
	return 0;
}

int lgd_filter_sites(const struct lgd_filter *f, const struct lgd_sites *s, uint8_t **keep)
{
	uint8_t *k;

	*keep = NULL;
	if (!f || !f->nr_sites)
		return 0;
	k = calloc(s->nr ? s->nr : 1, 1);
	if (!k)
		return -ENOMEM;
	for (uint32_t id = 0; id < s->nr; id++) {
		const struct lgd_site *st = lgd_sites_get(s, id);
		char *a = NULL, *b = NULL;

		if (!st)
			continue;
		if (asprintf(&a, "%s:%u", st->func, st->line) < 0 ||
		    asprintf(&b, "%s:%s:%u", st->file, st->func, st->line) < 0) {
			free(a);
			free(k);
			return -ENOMEM;
		}
		k[id] = glob_any(f->sites, f->nr_sites, a) || glob_any(f->sites, f->nr_sites, b) ||
			glob_any(f->sites, f->nr_sites, st->func);
		free(a);
		free(b);
	}
	*keep = k;
	return 0;
}

int lgd_filter_match(const struct lgd_filter *f, const struct lgd_item *it, int site_ok,
		    const char *comm, uint64_t base)
{
	if (!f)
		return 1;
	if (f->nr_cpus && !in_ranges(f->cpus, f->nr_cpus, it->cpu))
		return 0;
	if (f->has_from) {
		uint64_t t = f->from_rel ? base + f->from_ns : f->from_ns;

		if (f->from_rel && t < base)
			t = UINT64_MAX;
		if (it->ts < t)
			return 0;
	}
	if (f->has_to) {
		uint64_t t = f->to_rel ? base + f->to_ns : f->to_ns;

		if (f->to_rel && t < base)
			t = UINT64_MAX;
		if (it->ts >= t)
			return 0;
	}
	if (it->kind != LGD_ITEM_REC)
		return 1;
	if (f->nr_pids && !in_ranges(f->pids, f->nr_pids, it->rec.pid))
		return 0;
	if (f->ctx_mask && !(f->ctx_mask & (1u << (it->rec.ctx & LOGDEV_CTX_MASK))))
		return 0;
	if (f->nr_sites && !site_ok)
		return 0;
	if (f->nr_comms && (!comm || !glob_any(f->comms, f->nr_comms, comm)))
		return 0;
	return 1;
}

void lgd_filter_free(struct lgd_filter *f)
{
	for (size_t i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	for (size_t i = 0; i < f->nr_sites; i++)
		free(f->sites[i]);
	free(f->comms);
	free(f->sites);
	free(f->cpus);
	free(f->pids);
	memset(f, 0, sizeof(*f));
}
