// SPDX-License-Identifier: GPL-2.0
/*
 * modlog.c: the debugfs "module_log" text (capture section MODLOG;
 * docs/DEBUGFS.md, docs/FORMAT.md) into module tables valid from load to
 * unload (struct lgd_kmod), through the builders of ksyms.c (meta.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>
#include "liblogdev.h"
#include "meta.h"

/* the region names of format 2, in enum lgd_kmem's order */
static const char *const kmem_names[LGD_KMEM_NR] = {
	"text", "rodata", "ro_after_init", "data", "init_text", "init_rodata", "init_data",
};

/* "core=BASE+TEXT/SIZE" at @s into three values; 1 if parsed (format 1) */
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

/* a format 1 layout of @size bytes at @base, @text of them text: two regions */
static void split(struct lgd_kmod *m, enum lgd_kmem t, enum lgd_kmem rest, uint64_t base,
		  uint64_t text, uint64_t size)
{
	uint64_t tx = text < size ? text : size;

	m->mem[t].base = base;
	m->mem[t].size = tx;
	m->mem[rest].base = base + tx;
	m->mem[rest].size = size - tx;
}

/*
 * format 1: "core=BASE+TEXT/SIZE" and (load) "init=BASE+TEXT/SIZE" in
 * @line; without core= the module has no layout (as ever)
 */
static void layout_v1(struct lgd_kmod *m, const char *line)
{
	uint64_t b, t, z;

	m->sizes = LGD_KSIZE_TEXT;
	m->has_layout = layout(line, "core=", &b, &t, &z);
	if (m->has_layout) {
		split(m, LGD_KMEM_TEXT, LGD_KMEM_DATA, b, t, z);
		m->text_end = b + t;
	}
	if (layout(line, "init=", &b, &t, &z)) {
		split(m, LGD_KMEM_INIT_TEXT, LGD_KMEM_INIT_DATA, b, t, z);
		m->init_text_end = b + t;
	}
}

/* 1 to 16 hex digits at *@s, which is advanced; 0 or -1 */
static int hex64(const char **s, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int n = 0;

	for (;; p++, n++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
			*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;

		if (d < 0)
			break;
		if (n == 16)
			return -1;
		x = x << 4 | (uint64_t)d;
	}
	if (!n)
		return -1;
	*v = x;
	*s = p;
	return 0;
}

/*
 * format 2: the fields after the name, "KIND=BASE/SIZE" separated by
 * spaces (hex, no 0x).  A kind this reader does not know is skipped (a
 * newer kernel's); a size of 0 is no region.  Malformed (not KIND=HEX/HEX,
 * a kind twice, past the top of the address space, two regions
 * overlapping, no region at all): -1 and no layout.
 */
static int layout_v2(struct lgd_kmod *m, const char *f)
{
	unsigned seen = 0;
	int any = 0;

	while (*f) {
		const char *key = f, *eq;
		uint64_t base, size;
		size_t kl;
		int t;

		if (*f == ' ') {
			f++;
			continue;
		}
		eq = f + strcspn(f, "= ");
		if (*eq != '=' || eq == key)
			goto bad;
		kl = (size_t)(eq - key);
		f = eq + 1;
		if (hex64(&f, &base) || *f++ != '/' || hex64(&f, &size) || (*f && *f != ' '))
			goto bad;
		for (t = 0; t < LGD_KMEM_NR; t++)
			if (strlen(kmem_names[t]) == kl && !memcmp(kmem_names[t], key, kl))
				break;
		if (t == LGD_KMEM_NR)
			continue;	/* a newer kind */
		if (seen & 1u << t || (size && size - 1 > UINT64_MAX - base))
			goto bad;
		seen |= 1u << t;
		m->mem[t].base = base;
		m->mem[t].size = size;
		any |= size != 0;
	}
	for (int a = 0; a < LGD_KMEM_NR; a++)	/* overlap: each starts before the other's last byte */
		for (int b = a + 1; b < LGD_KMEM_NR; b++)
			if (m->mem[a].size && m->mem[b].size &&
			    m->mem[a].base <= m->mem[b].base + (m->mem[b].size - 1) &&
			    m->mem[b].base <= m->mem[a].base + (m->mem[a].size - 1))
				goto bad;
	if (!any)
		goto bad;
	m->text_end = m->mem[LGD_KMEM_TEXT].base + m->mem[LGD_KMEM_TEXT].size;
	m->init_text_end = m->mem[LGD_KMEM_INIT_TEXT].base + m->mem[LGD_KMEM_INIT_TEXT].size;
	m->has_layout = 1;
	return 0;
bad:
	memset(m->mem, 0, sizeof(m->mem));
	return -1;
}

/* the newest logged instance of @name still loaded; NULL if none */
static struct lgd_kmod *kmod_open(struct lgd_ksyms *k, size_t first, const char *name)
{
	for (size_t i = k->nr_mods; i-- > first;)
		if (k->mods[i].to_ts == LGD_TS_END && !strcmp(k->mods[i].name, name))
			return &k->mods[i];
	return NULL;
}

/*
 * The first line, "# logdev module log: format N, sizes RULE, clock ...":
 * sets @k->modlog_format (1 without "format N", UINT32_MAX if N is not a
 * number) and @k->modlog_sizes (format 2: RULE text or region, else
 * unknown).  Return: 1 if it names a format this reader cannot read.
 */
static int modlog_header(struct lgd_ksyms *k, const char *l, size_t ll)
{
	static const char head[] = "# logdev module log:";
	const size_t hl = sizeof(head) - 1;
	enum lgd_ksize rule = LGD_KSIZE_UNKNOWN;
	char line[256], *item, *save = NULL;

	k->modlog_format = 1;
	k->modlog_sizes = LGD_KSIZE_TEXT;
	if (ll < hl || memcmp(l, head, hl))
		return 0;	/* no header: format 1 */
	snprintf(line, sizeof(line), "%.*s", (int)(ll - hl), l + hl);
	for (item = strtok_r(line, ",\r", &save); item; item = strtok_r(NULL, ",\r", &save)) {
		char word[16], *e;
		unsigned long v;
		int n = -1;

		item += strspn(item, " ");
		if (!strncmp(item, "format ", 7)) {
			v = strtoul(item + 7, &e, 10);
			k->modlog_format = item[7] >= '1' && item[7] <= '9' && !*e &&
					   v < UINT32_MAX ? (uint32_t)v : UINT32_MAX;
		} else if (sscanf(item, "sizes %15s%n", word, &n) == 1 && n > 0 && !item[n]) {
			rule = !strcmp(word, "text") ? LGD_KSIZE_TEXT :
			       !strcmp(word, "region") ? LGD_KSIZE_REGION : LGD_KSIZE_UNKNOWN;
		}
	}
	if (k->modlog_format >= 2)
		k->modlog_sizes = rule;
	return k->modlog_format > LGD_MODLOG_FORMAT;
}

/*
 * the layout fields of a load line or of an unload line with fields, in
 * @k's format, after the name (@f); 1 if malformed (the module then has no
 * layout)
 */
static int modlog_layout(const struct lgd_ksyms *k, struct lgd_kmod *m, const char *line,
			 const char *f)
{
	if (k->modlog_format == 1) {
		layout_v1(m, line);
		return 0;
	}
	if (k->modlog_format > LGD_MODLOG_FORMAT)
		return 0;	/* said once, at the first line */
	m->sizes = k->modlog_sizes;
	return layout_v2(m, f) ? 1 : 0;
}

int lgd_ksyms_add_modlog(struct lgd_ksyms *k, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *l;
	size_t ll, first = k->nr_mods, cur = (size_t)-1, cap = 0;
	int bad = 0, lineno = 0, bad_before = 0;

	k->modlog_format = 1;
	k->modlog_sizes = LGD_KSIZE_TEXT;
	k->modlog_bad_line = 0;
	while ((l = lgd_next_line(&p, end, &ll))) {
		char line[1024], verb[16], name[LGD_KMOD_NAME_LEN], type;
		char sym[LGD_KSYM_NAME_LEN], mod[LGD_KMOD_NAME_LEN];
		unsigned long long ts;
		uint64_t addr;
		struct lgd_kmod *m;
		int nf = 0;
		const char *f;

		if (bad != bad_before && !k->modlog_bad_line)
			k->modlog_bad_line = (uint32_t)lineno;	/* the line before this one */
		bad_before = bad;
		if (!lineno++) {
			bad += modlog_header(k, l, ll);
			if (ll && l[0] == '#')
				continue;
		}
		if (!ll || l[0] == '#')
			continue;
		if (lgd_ksym_line(l, ll, &addr, &type, sym, mod)) {
			if (cur == (size_t)-1 || strcmp(k->mods[cur].name, mod)) {
				bad++;
				continue;
			}
			m = &k->mods[cur];
			if (lgd_ksym_add(&m->syms, &m->nr, &cap, addr, type, sym, mod))
				return -ENOMEM;
			continue;
		}
		cur = (size_t)-1;
		if (ll >= sizeof(line) ||
		    (memcpy(line, l, ll), line[ll] = 0,
		     sscanf(line, "%15s %llu %127s%n", verb, &ts, name, &nf) != 3)) {
			bad++;
			continue;
		}
		f = line + nf;
		f += strspn(f, " \r");
		if (!strcmp(verb, "load")) {
			m = lgd_kmod_new(k, name);
			if (!m)
				return -ENOMEM;
			m->from_ts = ts;
			bad += modlog_layout(k, m, line, f);
			cur = (size_t)(m - k->mods);
			cap = 0;
		} else if (!strcmp(verb, "live")) {
			m = kmod_open(k, first, name);
			if (m)
				m->live_ts = ts;
		} else if (!strcmp(verb, "unload") &&
			   (k->modlog_format == 1 ? strstr(line, "core=") != NULL : *f != 0)) {
			/* loaded before the log began: its symbols come now */
			m = lgd_kmod_new(k, name);
			if (!m)
				return -ENOMEM;
			m->to_ts = ts;
			m->live_ts = 0;
			bad += modlog_layout(k, m, line, f);
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
	if (bad != bad_before && !k->modlog_bad_line)
		k->modlog_bad_line = (uint32_t)lineno;
	for (size_t i = first; i < k->nr_mods; i++)
		if (lgd_ksyms_sort(k->mods[i].syms, k->mods[i].nr))
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

const char *lgd_ksyms_modlog_note(const struct lgd_ksyms *k)
{
	if (k->modlog_format > LGD_MODLOG_FORMAT)
		return "the module log's format is newer than this reader's or unreadable: "
		       "module layouts not read, a module's address is named only between two "
		       "of its symbols";
	if (k->modlog_format >= 2 && k->modlog_sizes == LGD_KSIZE_UNKNOWN)
		for (size_t i = 0; i < k->nr_mods; i++)
			if (k->mods[i].has_layout)
				return "module log: sizes unknown (logdev could not tell how this "
				       "kernel sizes a module symbol): sizes of module data and "
				       "rodata symbols are Linux 6.1's, the kernel's may differ";
	return NULL;
}
