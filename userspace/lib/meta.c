// SPDX-License-Identifier: GPL-2.0
/*
 * meta.c: parsers for the text metadata of a capture: debugfs "header",
 * "formats" (call sites) and "probes" lines.  The symbol tables are in
 * ksyms.c (/proc/kallsyms, lookups) and modlog.c (debugfs "module_log").
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>
#include "liblogdev.h"
#include "subbuf.h"
#include "meta.h"
#include "fmtwalk.h"

int lgd_diag_set(struct lgd_diag *d, int err, int64_t off, const char *fmt, ...)
{
	va_list ap;

	if (d) {
		d->err = err;
		d->offset = off;
		d->cpu = d->seq = -1;
		va_start(ap, fmt);
		vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
		va_end(ap);
	}
	return err;
}

static void diag(struct lgd_diag *d, int err, const char *msg, const char *arg)
{
	if (!d)
		return;
	memset(d, 0, sizeof(*d));
	d->err = err;
	d->offset = d->cpu = d->seq = -1;
	snprintf(d->msg, sizeof(d->msg), "%s%s%s", msg, arg ? ": " : "",
		 arg ? arg : "");
}

/* the same for line @lineno starting at byte @off of the text */
static void diag_at(struct lgd_diag *d, int err, size_t off, unsigned lineno,
		    const char *msg, const char *arg)
{
	if (!d)
		return;
	memset(d, 0, sizeof(*d));
	d->err = err;
	d->offset = (int64_t)off;
	d->cpu = d->seq = -1;
	snprintf(d->msg, sizeof(d->msg), "line %u: %.100s%s%.80s", lineno, msg,
		 arg ? ": " : "", arg ? arg : "");
}

static int parse_u32(const char *s, uint32_t *v)
{
	char *e;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &e, 0);
	if (errno || e == s || x > 0xffffffffULL || *s == '-')
		return -1;
	while (*e == ' ' || *e == '\t' || *e == '\r')
		e++;
	if (*e)		/* trailing junk: "4096x" */
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* "field: NAME offset:N size:N"; unknown names are accepted (new fields) */
static int check_field(const char *v, struct lgd_diag *d, size_t loff,
		       unsigned lineno)
{
	char name[64];
	unsigned off, size;
	int end = -1;

	if (sscanf(v, "%63s offset:%u size:%u%n", name, &off, &size, &end) != 3 ||
	    end < 0 || v[end + strspn(v + end, " \t\r")]) {
		diag_at(d, -EINVAL, loff, lineno, "malformed field line", v);
		return -EINVAL;
	}
	if (!lgd_sb_layout_check(name, off, size)) {	/* subbuf.c knows the layout */
		diag_at(d, -EPROTO, loff, lineno, "field layout differs from this reader", v);
		return -EPROTO;
	}
	return 0;
}

int lgd_header_parse(struct lgd_header *h, const char *text, size_t len,
		    struct lgd_diag *d)
{
	const char *p = text, *end = text + len, *l;
	size_t ll;
	int have_ver = 0, have_sbs = 0, have_sbh = 0, nfields = 0, ret;
	unsigned lineno = 0;

	memset(h, 0, sizeof(*h));
	h->rec_hdr_size = LOGDEV_REC_HDR_SIZE;
	while ((l = lgd_next_line(&p, end, &ll))) {
		char line[256], *colon, *v;
		size_t loff = (size_t)(l - text);
		uint32_t *num = NULL;

		lineno++;
		if (ll == 0 || ll >= sizeof(line))
			continue;
		memcpy(line, l, ll);
		line[ll] = 0;
		colon = strchr(line, ':');
		if (!colon || line[0] == '#')
			continue;
		*colon = 0;
		v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		if (!strcmp(line, "version")) {
			num = &h->version;
			have_ver = 1;
		} else if (!strcmp(line, "endian")) {
			if (strncmp(v, "little", 6)) {
				diag_at(d, -EPROTO, loff, lineno, "unsupported byte order", v);
				return -EPROTO;
			}
		} else if (!strcmp(line, "subbuf_size")) {
			num = &h->subbuf_size;
			have_sbs = 1;
		} else if (!strcmp(line, "nr_subbufs")) {
			num = &h->nr_subbufs;
		} else if (!strcmp(line, "subbuf_hdr_size")) {
			num = &h->subbuf_hdr_size;
			have_sbh = 1;
		} else if (!strcmp(line, "rec_hdr_size")) {
			num = &h->rec_hdr_size;
		} else if (!strcmp(line, "clock")) {
			snprintf(h->clock, sizeof(h->clock), "%s", v);
		} else if (!strcmp(line, "mode")) {
			snprintf(h->mode, sizeof(h->mode), "%s", v);
		} else if (!strcmp(line, "field")) {
			ret = check_field(v, d, loff, lineno);
			if (ret)
				return ret;
			nfields++;
		}
		if (num && parse_u32(v, num)) {
			char what[100];

			snprintf(what, sizeof(what), "bad %.80s value", line);
			diag_at(d, -EINVAL, loff, lineno, what, v);
			return -EINVAL;
		}
	}
	if (!have_ver) {
		diag(d, -EINVAL, "header has no version", NULL);
		return -EINVAL;
	}
	if (!lgd_sb_hdr_size(h->version)) {	/* subbuf.c knows the versions */
		char b[32];

		snprintf(b, sizeof(b), "%u", h->version);
		diag(d, -EPROTO, "unsupported record format version", b);
		return -EPROTO;
	}
	if (!have_sbs || h->subbuf_size < 256 || h->subbuf_size > (64u << 20) ||
	    (h->subbuf_size & (h->subbuf_size - 1))) {
		diag(d, -EINVAL, "header: missing or bad subbuf_size", NULL);
		return -EINVAL;
	}
	if (!have_sbh)
		h->subbuf_hdr_size = lgd_sb_hdr_size(h->version);
	if (h->subbuf_hdr_size != lgd_sb_hdr_size(h->version) ||
	    h->rec_hdr_size != LOGDEV_REC_HDR_SIZE) {
		diag(d, -EPROTO, "header: unexpected subbuf_hdr_size/rec_hdr_size", NULL);
		return -EPROTO;
	}
	if (!nfields) {	/* the module prints them: the layout must be checked */
		diag(d, -EINVAL, "header has no field: lines (record layout cannot be checked)",
		     NULL);
		return -EINVAL;
	}
	return 0;
}

const char *lgd_clock_name(const struct lgd_header *h)
{
	return h->clock[0] ? h->clock : "local";
}

/* logdev's clocks (kernel/logdev_clock.c) and the ftrace trace_clock that
 * reads the same kernel clock (kernel/trace/trace.c, trace_clocks[]) */
const char *lgd_clock_ftrace(const char *clock)
{
	static const char *const same[][2] = {
		{ "local", "local" },	/* trace_clock_local(): sched_clock per CPU */
		{ "global", "global" },	/* trace_clock_global(): one clock, all CPUs */
		{ "mono", "mono" },	/* ktime_get_mono_fast_ns() */
	};

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (!strcmp(clock, same[i][0]))
			return same[i][1];
	return NULL;
}

char *lgd_clock_desc(const struct lgd_header *h, char *buf, size_t size)
{
	const char *c = lgd_clock_name(h), *f = lgd_clock_ftrace(c);

	if (f)
		snprintf(buf, size, "%s (ftrace clock %s)", c, f);
	else
		snprintf(buf, size, "%s (no ftrace clock matches)", c);
	return buf;
}

/* ---- formats --------------------------------------------------------- */

/* undo the C escapes of the formats file (file, func, format): \\ \n \t \" \ooo */
static char *unescape(const char *s, size_t n)
{
	char *out = malloc(n + 1), *o = out;
	size_t i = 0;

	if (!out)
		return NULL;
	while (i < n) {
		char c = s[i++];

		if (c != '\\' || i >= n) {
			*o++ = c;
			continue;
		}
		c = s[i++];
		switch (c) {
		case 'n': *o++ = '\n'; break;
		case 't': *o++ = '\t'; break;
		case 'r': *o++ = '\r'; break;
		case '\\': *o++ = '\\'; break;
		case '"': *o++ = '"'; break;
		default:
			if (c >= '0' && c <= '7') {
				unsigned v = (unsigned)(c - '0');
				int k = 1;

				while (k < 3 && i < n && s[i] >= '0' && s[i] <= '7') {
					v = v * 8 + (unsigned)(s[i++] - '0');
					k++;
				}
				*o++ = (char)v;
			} else {
				*o++ = '\\';
				*o++ = c;
			}
		}
	}
	*o = 0;
	return out;
}

static void site_free(struct lgd_site *s)
{
	if (!s)
		return;
	free(s->file);
	free(s->func);
	free(s->fmt);
	free(s->prog);
	free(s);
}

#define LGD_MAX_SITE_ID (1u << 22)

/* which sites need their file in their label: lgd_site_label() (render.c) */
int lgd_site_place_cmp(const void *pa, const void *pb)
{
	const struct lgd_site *x = *(const struct lgd_site *const *)pa;
	const struct lgd_site *y = *(const struct lgd_site *const *)pb;
	int c = strcmp(x->func, y->func);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->file, y->file);
}

int lgd_site_order_cmp(const void *pa, const void *pb)
{
	const struct lgd_site *x = *(const struct lgd_site *const *)pa;
	const struct lgd_site *y = *(const struct lgd_site *const *)pb;
	int c = lgd_site_place_cmp(pa, pb);

	if (c)
		return c;
	/* one file:func:line: the order of the #N of their labels */
	c = strcmp(x->fmt, y->fmt);
	if (c)
		return c;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int is_probe_site(const struct lgd_site *st)
{
	return !strcmp(st->file, "probe");
}

/*
 * The label numbers of the sites @v[@k..@l) of one file:func:line, sorted
 * by format then id.  Edprint sites: #1, #2... each.  Probe sites: one
 * number per format, and the sites of one format (one probe definition
 * removed and added again, by a module older than ld_site_reclaim()) are
 * one site, @canon the first's id; no number if they have one format.
 */
static void number_place(struct lgd_site **v, size_t k, size_t l, uint32_t *merged)
{
	size_t nfmt = 1;

	for (size_t m = k + 1; m < l; m++)
		nfmt += !!strcmp(v[m - 1]->fmt, v[m]->fmt);
	for (size_t m = k, f = 0; m < l; m++) {
		int same_prev = m > k && !strcmp(v[m - 1]->fmt, v[m]->fmt);

		v[m]->twin = same_prev || (m + 1 < l && !strcmp(v[m + 1]->fmt, v[m]->fmt));
		v[m]->canon = 0;
		if (!is_probe_site(v[m])) {
			v[m]->label_seq = l - k > 1 ? (uint32_t)(m - k + 1) : 0;
			continue;
		}
		f += !same_prev;
		v[m]->label_seq = nfmt > 1 ? (uint32_t)f : 0;
		if (same_prev) {
			v[m]->canon = v[m - 1]->canon ? v[m - 1]->canon : v[m - 1]->id;
			v[m]->twin = 0;	/* one site with the other */
			if (m > k && v[m - 1]->canon == 0)
				v[m - 1]->twin = 0;
			(*merged)++;
		}
	}
}

int lgd_sites_mark_labels(struct lgd_sites *s)
{
	struct lgd_site **v = malloc((s->nr ? s->nr : 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	s->nr_merged = 0;
	for (uint32_t i = 0; i < s->nr; i++) {
		struct lgd_site *st = s->by_id[i];

		if (st && st->unused) {	/* no label of its own: never printed */
			st->label_file = st->twin = 0;
			st->label_seq = st->canon = 0;
		} else if (st) {
			v[n++] = st;
		}
	}
	qsort(v, n, sizeof(*v), lgd_site_order_cmp);
	/* groups of one func:line: the file is needed if they differ in file */
	for (size_t i = 0, j; i < n; i = j) {
		int differ = 0;

		for (j = i + 1; j < n && !strcmp(v[j]->func, v[i]->func) &&
		     v[j]->line == v[i]->line; j++)
			differ |= strcmp(v[j]->file, v[i]->file) != 0;
		for (size_t k = i; k < j; k++)
			v[k]->label_file = differ;
		/*
		 * several sites of one file:func:line (a macro expanding to two
		 * edprint() calls): #1, #2... in format order, then id order
		 */
		for (size_t k = i, l; k < j; k = l) {
			for (l = k + 1; l < j && !lgd_site_place_cmp(&v[l], &v[k]); l++)
				;
			number_place(v, k, l, &s->nr_merged);
		}
	}
	free(v);
	return 0;
}

int lgd_sites_parse(struct lgd_sites *s, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *l;
	size_t ll;
	int bad = 0;

	while ((l = lgd_next_line(&p, end, &ll))) {
		const char *f[5];
		size_t fl[5];
		const char *q = l, *le = l + ll;
		int n = 0;
		uint32_t id, line;
		char num[16];
		struct lgd_site *st;

		if (ll == 0 || l[0] == '#')
			continue;
		/* 4 tabs split 5 fields; the format (last) may contain none */
		while (n < 4) {
			const char *t = memchr(q, '\t', (size_t)(le - q));

			if (!t)
				break;
			f[n] = q;
			fl[n] = (size_t)(t - q);
			n++;
			q = t + 1;
		}
		if (n != 4) {
			bad++;
			continue;
		}
		f[4] = q;
		fl[4] = (size_t)(le - q);
		if (fl[0] >= sizeof(num) || fl[2] >= sizeof(num)) {
			bad++;
			continue;
		}
		memcpy(num, f[0], fl[0]);
		num[fl[0]] = 0;
		if (parse_u32(num, &id) || id >= LGD_MAX_SITE_ID) {
			bad++;
			continue;
		}
		memcpy(num, f[2], fl[2]);
		num[fl[2]] = 0;
		if (parse_u32(num, &line)) {
			bad++;
			continue;
		}
		if (id >= s->nr) {
			uint32_t nn = s->nr ? s->nr : 64;
			struct lgd_site **nb;

			while (nn <= id)
				nn *= 2;
			nb = realloc(s->by_id, nn * sizeof(*nb));
			if (!nb)
				return -ENOMEM;
			memset(nb + s->nr, 0, (nn - s->nr) * sizeof(*nb));
			s->by_id = nb;
			s->nr = nn;
		}
		st = calloc(1, sizeof(*st));
		if (!st)
			return -ENOMEM;
		st->id = id;
		st->line = line;
		st->file = unescape(f[1], fl[1]);
		st->func = unescape(f[3], fl[3]);
		st->fmt = unescape(f[4], fl[4]);
		st->prog = st->fmt ? lgd_fmt_compile(st->fmt) : NULL;
		if (!st->file || !st->func || !st->fmt || !st->prog) {
			site_free(st);
			return -ENOMEM;
		}
		site_free(s->by_id[id]);
		s->by_id[id] = st;
	}
	return lgd_sites_mark_labels(s) ? -ENOMEM : bad;
}

void lgd_sites_free(struct lgd_sites *s)
{
	for (uint32_t i = 0; i < s->nr; i++)
		site_free(s->by_id[i]);
	free(s->by_id);
	s->by_id = NULL;
	s->nr = 0;
}

/* what the renderer does with piece @pc of kind @k (enum lgd_fp_op) */
static int fp_op(const struct edp_piece *pc, enum edp_kind k)
{
	int u = pc->conv == 'u';

	if (k == EDP_TEXT)
		return LGD_FP_TEXT;
	if (k != EDP_INT || pc->sp.flags || pc->sp.width >= 0 || pc->sp.prec >= 0 ||
	    pc->sp.wstar || pc->sp.pstar || !strchr("diu", pc->conv))
		return LGD_FP_CONV;
	if (pc->size == 4)
		return u ? LGD_FP_U32 : LGD_FP_S32;
	if (pc->size == 8)
		return u ? LGD_FP_U64 : LGD_FP_S64;
	return LGD_FP_CONV;	/* %hd %hhu: the kernel stores 1 or 2 bytes */
}

struct lgd_fmtprog *lgd_fmt_compile(const char *fmt)
{
	const char *f = fmt;
	struct lgd_fmtprog *p;
	struct edp_piece pc;
	uint32_t n = 0;

	while (edp_fmt_next(&f, &pc) != EDP_END)
		n++;
	p = malloc(sizeof(*p) + n * sizeof(p->fp[0]));
	if (!p)
		return NULL;
	p->plain = 1;
	for (p->n = 0, f = fmt; p->n < n; p->n++) {
		struct lgd_fpiece *fp = &p->fp[p->n];

		fp->op = fp_op(&fp->pc, edp_fmt_next(&f, &fp->pc));
		if (fp->op == LGD_FP_CONV || (fp->op == LGD_FP_TEXT &&
		    !lgd_escape_free(fp->pc.start, (size_t)(fp->pc.end - fp->pc.start))))
			p->plain = 0;
	}
	return p;
}

int lgd_fmt_has_symptr(const char *fmt)
{
	struct edp_piece pc;
	enum edp_kind k;

	/* the one format walker: a %p's extension is the character after it */
	while ((k = edp_fmt_next(&fmt, &pc)) != EDP_END)
		if ((k == EDP_PTR || k == EDP_PTR_TEXT) && pc.ext && strchr("SsBFf", pc.ext))
			return 1;
	return 0;
}

/* the last " KEY" in [line, end) (the kernel appends its counters), or NULL */
static const char *probe_key(const char *line, const char *end, const char *key)
{
	size_t kl = strlen(key);
	const char *m;

	for (m = end - kl; m >= line; m--)
		if (!memcmp(m, key, kl))
			return m;
	return NULL;
}

/*
 * The counter " KEY=N" of a probe's line: N decimal digits up to a space
 * or the end, at most UINT64_MAX, after the last " KEY=" (an argument may
 * be named like one, and comes before the counters).  Returns N's first
 * digit and *@v, or NULL (none, or not a number; *@v 0).  Bounded by the
 * line: never quadratic in a section's size.
 */
static const char *probe_count(const char *line, const char *end, const char *key,
			       uint64_t *v)
{
	const char *at = probe_key(line, end, key), *p;
	uint64_t n = 0;

	*v = 0;
	if (!at)
		return NULL;
	at += strlen(key);
	for (p = at; p < end && *p >= '0' && *p <= '9'; p++) {
		if (n > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return NULL;	/* beyond 2^64 - 1 */
		n = n * 10 + (uint64_t)(*p - '0');
	}
	if (p == at || (p < end && *p != ' '))
		return NULL;
	*v = n;
	return at;
}

/*
 * lgd_probe_line(), and where the values of missed= and missed_maxactive=
 * start in @line (*@at_m, *@at_i; NULL: none), for lgd_probes_since()
 */
static int probe_parse(const char *line, struct lgd_probe_info *pi, const char **at_m,
		       const char **at_i)
{
	const char *end = line + strcspn(line, "\n");
	const char *nm = line + strcspn(line, ": \n"), *m;

	if (*nm != ':')
		return 0;
	nm++;
	/* NAME after an optional GRP/ in the first word */
	for (m = nm; m < end && *m != ' '; m++)
		if (*m == '/')
			nm = m + 1;
	if (m == nm)
		return 0;	/* no name: not a line the kernel writes */
	pi->name = nm;
	pi->len = (size_t)(m - nm);
	*at_m = probe_count(line, end, " missed=", &pi->missed);
	*at_i = probe_count(line, end, " missed_maxactive=", &pi->missed_maxactive);
	/* a return probe's missed counts its maxactive ones too: never fewer */
	if (pi->missed_maxactive > pi->missed)
		pi->missed = pi->missed_maxactive;
	/* " counted=recording" as a word: then a space or the end */
	m = probe_key(line, end, " counted=recording");
	pi->recording = m && (m + 18 == end || m[18] == ' ');
	return 1;
}

int lgd_probe_line(const char *line, struct lgd_probe_info *pi)
{
	const char *at_m, *at_i;

	return probe_parse(line, pi, &at_m, &at_i);
}

/* @start's line of the probe named as @pi, or NULL */
static const char *probe_find(const char *start, const struct lgd_probe_info *pi,
			      struct lgd_probe_info *out)
{
	const char *l;

	for (l = start; l && *l; l += strcspn(l, "\n"), l += *l == '\n')
		if (lgd_probe_line(l, out) && out->len == pi->len &&
		    !memcmp(out->name, pi->name, pi->len))
			return l;
	return NULL;
}

char *lgd_probes_since(const char *start, const char *end, size_t *len)
{
	size_t cap = strlen(end) + 64, n = 0;
	const char *l;
	char *t;

	/* a line grows by " counted=recording\n" at most (the counts shrink) */
	for (l = end; *l; l++)
		cap += *l == '\n' ? 20 : 0;
	t = malloc(cap);
	if (!t)
		return NULL;
	for (l = end; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		size_t ll = strcspn(l, "\n");
		struct lgd_probe_info pi, p0;
		const char *le = l + ll, *at_m, *at_i, *p = l;
		uint64_t m, i;

		if (!probe_parse(l, &pi, &at_m, &at_i) || pi.recording) {
			n += (size_t)snprintf(t + n, cap - n, "%.*s\n", (int)ll, l);
			continue;
		}
		m = pi.missed;
		i = pi.missed_maxactive;
		if (probe_find(start, &pi, &p0) && p0.missed <= m && p0.missed_maxactive <= i) {
			m -= p0.missed;
			i -= p0.missed_maxactive;
		}
		/* the line with its two numbers replaced, in order of place */
		while (p < le) {
			const char *at = at_m && (!at_i || at_m < at_i) ? at_m : at_i;
			uint64_t v = at == at_m ? m : i;

			if (!at) {
				n += (size_t)snprintf(t + n, cap - n, "%.*s", (int)(le - p), p);
				break;
			}
			n += (size_t)snprintf(t + n, cap - n, "%.*s%" PRIu64, (int)(at - p), p, v);
			p = at + strspn(at, "0123456789");
			if (at == at_m)
				at_m = NULL;
			else
				at_i = NULL;
		}
		n += (size_t)snprintf(t + n, cap - n, " counted=recording\n");
	}
	*len = n;
	return t;
}

uint64_t lgd_probe_missed(const char *probes, const struct lgd_site *site)
{
	const char *l, *pct;
	struct lgd_probe_info pi;
	size_t n;

	if (!probes || !site || !site->file || !site->func || strcmp(site->file, "probe"))
		return 0;
	pct = strstr(site->func, "%return");
	n = pct && !pct[7] ? (size_t)(pct - site->func) : strlen(site->func);
	for (l = probes; *l; l += strcspn(l, "\n"), l += *l == '\n')
		if (lgd_probe_line(l, &pi) && pi.len == n && !strncmp(pi.name, site->func, n))
			return pi.missed;
	return 0;
}
