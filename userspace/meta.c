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
#include <string.h>
#include "liblogdev.h"

static void diag(struct ld_diag *d, int err, const char *msg, const char *arg)
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
static void diag_at(struct ld_diag *d, int err, size_t off, unsigned lineno,
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

struct field_def {
	const char *name;
	uint32_t off, size;
};

static const struct field_def known_fields[] = {
	{ "subbuf.magic", offsetof(struct logdev_subbuf_hdr, magic), 4 },
	{ "subbuf.version", offsetof(struct logdev_subbuf_hdr, version), 2 },
	{ "subbuf.cpu", offsetof(struct logdev_subbuf_hdr, cpu), 2 },
	{ "subbuf.seq", offsetof(struct logdev_subbuf_hdr, seq), 8 },
	{ "subbuf.first_ts", offsetof(struct logdev_subbuf_hdr, first_ts), 8 },
	{ "subbuf.data_bytes", offsetof(struct logdev_subbuf_hdr, data_bytes), 4 },
	{ "subbuf.flags", offsetof(struct logdev_subbuf_hdr, flags), 4 },
	{ "subbuf.dropped_before", offsetof(struct logdev_subbuf_hdr, dropped_before), 4 },
	{ "subbuf.overrun_before", offsetof(struct logdev_subbuf_hdr, overrun_before), 4 },
	{ "rec.ts", offsetof(struct logdev_rec_hdr, ts), 8 },
	{ "rec.site", offsetof(struct logdev_rec_hdr, site), 4 },
	{ "rec.len", offsetof(struct logdev_rec_hdr, len), 2 },
	{ "rec.type", offsetof(struct logdev_rec_hdr, type), 1 },
	{ "rec.ctx", offsetof(struct logdev_rec_hdr, ctx), 1 },
	{ "rec.pid", offsetof(struct logdev_rec_hdr, pid), 4 },
	{ "rec.arg_bytes", offsetof(struct logdev_rec_hdr, arg_bytes), 4 },
};

/* "field: NAME offset:N size:N"; unknown names are accepted (new fields) */
static int check_field(const char *v, struct ld_diag *d, size_t loff,
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
	for (size_t i = 0; i < sizeof(known_fields) / sizeof(known_fields[0]); i++) {
		if (strcmp(known_fields[i].name, name))
			continue;
		if (known_fields[i].off != off || known_fields[i].size != size) {
			diag_at(d, -EPROTO, loff, lineno,
				"field layout differs from this reader", v);
			return -EPROTO;
		}
	}
	return 0;
}

int ld_header_parse(struct ld_header *h, const char *text, size_t len,
		    struct ld_diag *d)
{
	const char *p = text, *end = text + len, *l;
	size_t ll;
	int have_ver = 0, have_sbs = 0, nfields = 0, ret;
	unsigned lineno = 0;

	memset(h, 0, sizeof(*h));
	h->subbuf_hdr_size = LOGDEV_SUBBUF_HDR_SIZE;
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
	if (h->version != LOGDEV_FORMAT_VERSION) {
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
	if (h->subbuf_hdr_size != LOGDEV_SUBBUF_HDR_SIZE ||
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

/* undo the C escapes of the formats file: \\ \n \t \" \ooo */
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

static void site_free(struct ld_site *s)
{
	if (!s)
		return;
	free(s->file);
	free(s->func);
	free(s->fmt);
	free(s);
}

#define LD_MAX_SITE_ID (1u << 22)

int ld_sites_parse(struct ld_sites *s, const char *text, size_t len)
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
		struct ld_site *st;

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
		if (parse_u32(num, &id) || id >= LD_MAX_SITE_ID) {
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
			struct ld_site **nb;

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
		st->file = strndup(f[1], fl[1]);
		st->func = strndup(f[3], fl[3]);
		st->fmt = unescape(f[4], fl[4]);
		if (!st->file || !st->func || !st->fmt) {
			site_free(st);
			return -ENOMEM;
		}
		site_free(s->by_id[id]);
		s->by_id[id] = st;
	}
	return ld_sites_mark_labels(s) ? -ENOMEM : bad;
}

const struct ld_site *ld_sites_get(const struct ld_sites *s, uint32_t id)
{
	return id < s->nr ? s->by_id[id] : NULL;
}

void ld_sites_free(struct ld_sites *s)
{
	for (uint32_t i = 0; i < s->nr; i++)
		site_free(s->by_id[i]);
	free(s->by_id);
	s->by_id = NULL;
	s->nr = 0;
}

int ld_fmt_has_symptr(const char *fmt)
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

static int ksym_cmp(const void *a, const void *b)
{
	const struct ld_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int ld_ksyms_parse(struct ld_ksyms *k, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *l;
	size_t ll, cap = 0;
	int nonzero = 0;

	while ((l = next_line(&p, end, &ll))) {
		char line[512], type, name[256], mod[128];
		unsigned long long addr;
		int n;

		if (ll >= sizeof(line))
			continue;
		memcpy(line, l, ll);
		line[ll] = 0;
		mod[0] = 0;
		n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type, name, mod);
		if (n < 3)
			continue;
		if (k->nr == cap) {
			size_t nc = cap ? cap * 2 : 1024;
			struct ld_ksym *ns = realloc(k->syms, nc * sizeof(*ns));

			if (!ns)
				return -ENOMEM;
			k->syms = ns;
			cap = nc;
		}
		k->syms[k->nr].addr = addr;
		k->syms[k->nr].name = strdup(name);
		k->syms[k->nr].mod = mod[0] ? strdup(mod) : NULL;
		if (!k->syms[k->nr].name)
			return -ENOMEM;
		if (addr)
			nonzero = 1;
		k->nr++;
	}
	if (!nonzero) {
		ld_ksyms_free(k);
		return 0;
	}
	qsort(k->syms, k->nr, sizeof(*k->syms), ksym_cmp);
	return (int)k->nr;
}

const struct ld_ksym *ld_ksyms_lookup(const struct ld_ksyms *k, uint64_t addr,
				      uint64_t *off, uint64_t *size)
{
	size_t lo = 0, hi = k->nr, i, j;

	if (!k->nr || addr < k->syms[0].addr)
		return NULL;
	while (hi - lo > 1) {	/* last index with syms[i].addr <= addr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	i = lo;
	/* prefer the first of several symbols at the same address */
	while (i > 0 && k->syms[i - 1].addr == k->syms[i].addr)
		i--;
	j = lo + 1;
	while (j < k->nr && k->syms[j].addr == k->syms[lo].addr)
		j++;
	if (j >= k->nr)
		return NULL;
	*off = addr - k->syms[i].addr;
	*size = k->syms[j].addr - k->syms[i].addr;
	return &k->syms[i];
}

void ld_ksyms_free(struct ld_ksyms *k)
{
	for (size_t i = 0; i < k->nr; i++) {
		free(k->syms[i].name);
		free(k->syms[i].mod);
	}
	free(k->syms);
	k->syms = NULL;
	k->nr = 0;
}
