// SPDX-License-Identifier: GPL-2.0
/*
 * meta.c: parsers for the text metadata of a capture: debugfs "header",
 * "formats" (call sites) and /proc/kallsyms.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>
#include "liblogdev.h"
#include "subbuf.h"

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

/* next line of [*p, end): returns its start, sets *llen (without \n) */
static const char *next_line(const char **p, const char *end, size_t *llen)
{
	const char *s = *p, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	*llen = nl ? (size_t)(nl - s) : (size_t)(end - s);
	*p = nl ? nl + 1 : end;
	return s;
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
	while ((l = next_line(&p, end, &ll))) {
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

int lgd_sites_mark_labels(struct lgd_sites *s)
{
	struct lgd_site **v = malloc((s->nr ? s->nr : 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->nr; i++)
		if (s->by_id[i])
			v[n++] = s->by_id[i];
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
			for (size_t m = k; m < l; m++) {
				v[m]->label_seq = l - k > 1 ? (uint32_t)(m - k + 1) : 0;
				v[m]->twin = (m > k && !strcmp(v[m - 1]->fmt, v[m]->fmt)) ||
					     (m + 1 < l && !strcmp(v[m + 1]->fmt, v[m]->fmt));
			}
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

	while ((l = next_line(&p, end, &ll))) {
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
		if (!st->file || !st->func || !st->fmt) {
			site_free(st);
			return -ENOMEM;
		}
		site_free(s->by_id[id]);
		s->by_id[id] = st;
	}
	return lgd_sites_mark_labels(s) ? -ENOMEM : bad;
}

const struct lgd_site *lgd_sites_get(const struct lgd_sites *s, uint32_t id)
{
	return id < s->nr ? s->by_id[id] : NULL;
}

void lgd_sites_free(struct lgd_sites *s)
{
	for (uint32_t i = 0; i < s->nr; i++)
		site_free(s->by_id[i]);
	free(s->by_id);
	s->by_id = NULL;
	s->nr = 0;
}

int lgd_fmt_has_symptr(const char *fmt)
{
	for (const char *p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		p++;
		if (*p == '%')
			continue;
		while (*p && !strchr("csdiuxXop%", *p) && (strchr("-+ #0123456789.*hlLzjt", *p)))
			p++;
		if (*p == 'p' && p[1] && strchr("SsBFf", p[1]))
			return 1;
		if (!*p)
			break;
	}
	return 0;
}

/* ---- kallsyms -------------------------------------------------------- */

/* sort by address; equal addresses keep their order in the text (the
 * kernel names the first of several symbols at one address) */
struct ksym_sort {
	struct lgd_ksym s;
	size_t idx;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym_sort *x = a, *y = b;

	if (x->s.addr != y->s.addr)
		return x->s.addr < y->s.addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int ksyms_sort(struct lgd_ksym *syms, size_t nr)
{
	struct ksym_sort *t;

	if (nr < 2)
		return 0;
	t = malloc(nr * sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		t[i].s = syms[i];
		t[i].idx = i;
	}
	qsort(t, nr, sizeof(*t), ksym_cmp);
	for (size_t i = 0; i < nr; i++)
		syms[i] = t[i].s;
	free(t);
	return 0;
}

/* one "addr type name [mod]" line; 1 parsed, 0 not a symbol line */
static int ksym_line(const char *l, size_t ll, uint64_t *addr, char *type,
		     char name[256], char mod[128])
{
	char line[512];
	unsigned long long a;
	int n;

	if (ll >= sizeof(line))
		return 0;
	memcpy(line, l, ll);
	line[ll] = 0;
	mod[0] = 0;
	n = sscanf(line, "%llx %c %255s [%127[^]]]", &a, type, name, mod);
	if (n < 3)
		return 0;
	*addr = a;
	return 1;
}

/* append a symbol to *@syms (*@nr used, *@cap allocated); 0 or -ENOMEM */
static int ksym_add(struct lgd_ksym **syms, size_t *nr, size_t *cap, uint64_t addr,
		    char type, const char *name, const char *mod)
{
	struct lgd_ksym *s;

	if (*nr == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct lgd_ksym *ns = realloc(*syms, nc * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		*syms = ns;
		*cap = nc;
	}
	s = &(*syms)[*nr];
	s->addr = addr;
	s->type = type;
	s->name = strdup(name);
	s->mod = mod && *mod ? strdup(mod) : NULL;
	if (!s->name || (mod && *mod && !s->mod)) {
		free(s->name);
		free(s->mod);
		return -ENOMEM;
	}
	(*nr)++;
	return 0;
}

static struct lgd_kmod *kmod_new(struct lgd_ksyms *k, const char *name)
{
	struct lgd_kmod *nm = realloc(k->mods, (k->nr_mods + 1) * sizeof(*nm)), *m;

	if (!nm)
		return NULL;
	k->mods = nm;
	m = &nm[k->nr_mods];
	memset(m, 0, sizeof(*m));
	m->name = strdup(name);
	if (!m->name)
		return NULL;
	m->to_ts = LGD_TS_END;
	m->live_ts = LGD_TS_END;
	k->nr_mods++;
	return m;
}

static void kmod_free(struct lgd_kmod *m)
{
	for (size_t i = 0; i < m->nr; i++) {
		free(m->syms[i].name);
		free(m->syms[i].mod);
	}
	free(m->syms);
	free(m->name);
}

/* vmlinux index, bounds, and one table per module of the snapshot */
static int ksyms_index(struct lgd_ksyms *k)
{
	size_t nvm = 0;

	k->vm = malloc((k->nr ? k->nr : 1) * sizeof(*k->vm));
	if (!k->vm)
		return -ENOMEM;
	for (size_t i = 0; i < k->nr; i++) {
		const struct lgd_ksym *s = &k->syms[i];
		struct lgd_kmod *m = NULL;
		size_t cap;

		if (!s->mod) {
			k->vm[nvm++] = i;
			if (!strcmp(s->name, "_stext"))
				k->stext = s->addr;
			else if (!strcmp(s->name, "_etext"))
				k->etext = s->addr;
			else if (!strcmp(s->name, "_end"))
				k->end = s->addr;
			else if (!strcmp(s->name, "_sinittext"))
				k->sinittext = s->addr;
			else if (!strcmp(s->name, "_einittext"))
				k->einittext = s->addr;
			if (strchr("dDbBrR", s->type))
				k->all = 1;
			continue;
		}
		for (size_t j = 0; j < k->nr_mods; j++)
			if (!strcmp(k->mods[j].name, s->mod))
				m = &k->mods[j];
		if (!m && !(m = kmod_new(k, s->mod)))
			return -ENOMEM;
		/* the capacity ksym_add() gave m->syms: 64, then doubled */
		for (cap = m->nr ? 64 : 0; cap && cap < m->nr; cap *= 2)
			;
		if (ksym_add(&m->syms, &m->nr, &cap, s->addr, s->type, s->name, s->mod))
			return -ENOMEM;
	}
	k->nr_vm = nvm;
	return 0;
}

int lgd_ksyms_parse(struct lgd_ksyms *k, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *l;
	size_t ll, cap = 0;
	int nonzero = 0;

	while ((l = next_line(&p, end, &ll))) {
		char type, name[256], mod[128];
		uint64_t addr;

		if (!ksym_line(l, ll, &addr, &type, name, mod))
			continue;
		if (ksym_add(&k->syms, &k->nr, &cap, addr, type, name, mod))
			return -ENOMEM;
		if (addr)
			nonzero = 1;
	}
	if (!nonzero) {
		lgd_ksyms_free(k);
		return 0;
	}
	if (ksyms_sort(k->syms, k->nr) || ksyms_index(k))
		return -ENOMEM;
	return (int)k->nr;
}

/* "core=BASE+TEXT/SIZE" at @s into three values; 1 if parsed */
static int layout(const char *s, const char *key, uint64_t *base, uint64_t *text,
		  uint64_t *size)
{
	unsigned long long b, t, z;
	char fmt[32];

	s = strstr(s, key);
	if (!s)
		return 0;
	snprintf(fmt, sizeof(fmt), "%s%%llx+%%llx/%%llx", key);
	if (sscanf(s, fmt, &b, &t, &z) != 3)
		return 0;
	*base = b;
	*text = t;
	*size = z;
	return 1;
}

/* the newest logged instance of @name still loaded; NULL if none */
static struct lgd_kmod *kmod_open(struct lgd_ksyms *k, size_t first, const char *name)
{
	for (size_t i = k->nr_mods; i-- > first;)
		if (k->mods[i].to_ts == LGD_TS_END && !strcmp(k->mods[i].name, name))
			return &k->mods[i];
	return NULL;
}

int lgd_ksyms_add_modlog(struct lgd_ksyms *k, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *l;
	size_t ll, first = k->nr_mods, cur = (size_t)-1, cap = 0;
	int bad = 0;

	while ((l = next_line(&p, end, &ll))) {
		char line[256], verb[16], name[128], type, sym[256], mod[128];
		unsigned long long ts;
		uint64_t addr;
		struct lgd_kmod *m;

		if (!ll || l[0] == '#')
			continue;
		if (ksym_line(l, ll, &addr, &type, sym, mod)) {
			if (cur == (size_t)-1 || strcmp(k->mods[cur].name, mod)) {
				bad++;
				continue;
			}
			m = &k->mods[cur];
			if (ksym_add(&m->syms, &m->nr, &cap, addr, type, sym, mod))
				return -ENOMEM;
			continue;
		}
		cur = (size_t)-1;
		if (ll >= sizeof(line) ||
		    (memcpy(line, l, ll), line[ll] = 0,
		     sscanf(line, "%15s %llu %127s", verb, &ts, name) != 3)) {
			bad++;
			continue;
		}
		if (!strcmp(verb, "load")) {
			m = kmod_new(k, name);
			if (!m)
				return -ENOMEM;
			m->from_ts = ts;
			m->has_layout = layout(line, "core=", &m->core_base, &m->core_text,
					       &m->core_size);
			if (!layout(line, "init=", &m->init_base, &m->init_text, &m->init_size))
				m->init_size = 0;
			cur = (size_t)(m - k->mods);
			cap = 0;
		} else if (!strcmp(verb, "live")) {
			m = kmod_open(k, first, name);
			if (m)
				m->live_ts = ts;
		} else if (!strcmp(verb, "unload") && strstr(line, "core=")) {
			/* loaded before the log began: its symbols come now */
			m = kmod_new(k, name);
			if (!m)
				return -ENOMEM;
			m->to_ts = ts;
			m->live_ts = 0;
			m->has_layout = layout(line, "core=", &m->core_base, &m->core_text,
					       &m->core_size);
			cur = (size_t)(m - k->mods);
			cap = 0;
		} else if (!strcmp(verb, "unload")) {
			m = kmod_open(k, first, name);
			if (m)
				m->to_ts = ts;
		} else {
			bad++;
		}
	}
	for (size_t i = first; i < k->nr_mods; i++)
		if (ksyms_sort(k->mods[i].syms, k->mods[i].nr))
			return -ENOMEM;
	/* a snapshot's module table holds until its first logged event */
	for (size_t i = 0; i < first; i++) {
		for (size_t j = first; j < k->nr_mods; j++) {
			const struct lgd_kmod *m = &k->mods[j];
			uint64_t t = m->from_ts ? m->from_ts : m->to_ts;

			if (!strcmp(m->name, k->mods[i].name) && t < k->mods[i].to_ts)
				k->mods[i].to_ts = t;
		}
	}
	return bad;
}

/* index of the last symbol at or below @addr, or -1 */
static ssize_t last_at_or_below(const struct lgd_ksym *s, size_t nr, uint64_t addr)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {	/* first index with s[i].addr > addr */
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ssize_t)lo - 1;
}

static int in_range(uint64_t a, uint64_t base, uint64_t size)
{
	return size && a >= base && a - base < size;
}

/* the kernel's find_kallsyms_symbol() over a logged module's table */
static const struct lgd_ksym *mod_lookup(const struct lgd_kmod *m, uint64_t addr,
					uint64_t ts, uint64_t *off, uint64_t *size)
{
	int in_init = ts < m->live_ts && in_range(addr, m->init_base, m->init_size);
	uint64_t next = in_init ? m->init_base + m->init_text :
				  m->core_base + m->core_text;
	const struct lgd_ksym *best = NULL;

	for (size_t i = 0; i < m->nr; i++) {
		const struct lgd_ksym *s = &m->syms[i];

		if (ts >= m->live_ts && in_range(s->addr, m->init_base, m->init_size))
			continue;	/* init symbols are gone after init */
		if (s->addr <= addr && (!best || s->addr > best->addr))
			best = s;
		if (s->addr > addr && s->addr < next)
			next = s->addr;
	}
	if (!best)
		return NULL;
	*off = addr - best->addr;
	*size = next - best->addr;	/* unsigned, as the kernel's */
	return best;
}

const struct lgd_ksym *lgd_ksyms_lookup_at(const struct lgd_ksyms *k, uint64_t addr,
					 uint64_t ts, uint64_t *off, uint64_t *size)
{
	ssize_t i;
	size_t j;

	/* newest first: the module log's tables, then the snapshot's */
	for (size_t n = k->nr_mods; n-- > 0;) {
		const struct lgd_kmod *m = &k->mods[n];

		if (ts < m->from_ts || (m->to_ts != LGD_TS_END && ts >= m->to_ts) || !m->nr)
			continue;
		if (m->has_layout) {
			if (!in_range(addr, m->core_base, m->core_size) &&
			    !(ts < m->live_ts && in_range(addr, m->init_base, m->init_size)))
				continue;
			return mod_lookup(m, addr, ts, off, size);
		}
		i = last_at_or_below(m->syms, m->nr, addr);
		if (i < 0)
			continue;
		for (j = (size_t)i + 1; j < m->nr && m->syms[j].addr == m->syms[i].addr; j++)
			;
		if (j >= m->nr)
			continue;	/* past its last symbol: extent unknown */
		while (i > 0 && m->syms[i - 1].addr == m->syms[i].addr)
			i--;
		*off = addr - m->syms[i].addr;
		*size = m->syms[j].addr - m->syms[i].addr;
		return &m->syms[i];
	}

	/* vmlinux: is_ksym_addr() */
	if (!k->nr_vm)
		return NULL;
	if (k->stext) {
		int text = addr >= k->stext && (!k->etext || addr < k->etext);
		int init = k->sinittext && addr >= k->sinittext &&
			   (!k->einittext || addr < k->einittext);
		int all = addr >= k->stext && (!k->end || addr < k->end);

		if (!(k->all ? all : text || init))
			return NULL;
	}
	{
		size_t lo = 0, hi = k->nr_vm;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (k->syms[k->vm[mid]].addr <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			return NULL;
		i = (ssize_t)lo - 1;
		for (j = (size_t)i + 1; j < k->nr_vm &&
		     k->syms[k->vm[j]].addr == k->syms[k->vm[i]].addr; j++)
			;
		if (j >= k->nr_vm)
			return NULL;	/* no symbol above: end unknown */
		while (i > 0 && k->syms[k->vm[i - 1]].addr == k->syms[k->vm[i]].addr)
			i--;
		*off = addr - k->syms[k->vm[i]].addr;
		*size = k->syms[k->vm[j]].addr - k->syms[k->vm[i]].addr;
		return &k->syms[k->vm[i]];
	}
}

const struct lgd_ksym *lgd_ksyms_lookup(const struct lgd_ksyms *k, uint64_t addr,
				      uint64_t *off, uint64_t *size)
{
	return lgd_ksyms_lookup_at(k, addr, LGD_TS_END, off, size);
}

void lgd_ksyms_free(struct lgd_ksyms *k)
{
	for (size_t i = 0; i < k->nr; i++) {
		free(k->syms[i].name);
		free(k->syms[i].mod);
	}
	free(k->syms);
	free(k->vm);
	for (size_t i = 0; i < k->nr_mods; i++)
		kmod_free(&k->mods[i]);
	free(k->mods);
	memset(k, 0, sizeof(*k));
}

int lgd_probe_line(const char *line, const char **name, size_t *len, uint64_t *missed)
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
	*name = nm;
	*len = (size_t)(m - nm);
	m = strstr(line, " missed=");
	*missed = m && m < end ? strtoull(m + 8, NULL, 10) : 0;
	return 1;
}

uint64_t lgd_probe_missed(const char *probes, const struct lgd_site *site)
{
	const char *l, *pct, *nm;
	size_t n, len;
	uint64_t missed;

	if (!probes || !site || !site->file || !site->func || strcmp(site->file, "probe"))
		return 0;
	pct = strstr(site->func, "%return");
	n = pct && !pct[7] ? (size_t)(pct - site->func) : strlen(site->func);
	for (l = probes; *l; l += strcspn(l, "\n"), l += *l == '\n')
		if (lgd_probe_line(l, &nm, &len, &missed) && len == n &&
		    !strncmp(nm, site->func, n))
			return missed;
	return 0;
}
