// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms.c: the symbol tables of a capture: /proc/kallsyms (section
 * KALLSYMS) parsed into vmlinux's and each module's symbols, the builders
 * modlog.c shares (meta.h), and the lookup of an address at a time, as the
 * kernel's %pS named it then (docs/FORMAT.md).
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

int lgd_ksyms_sort(struct lgd_ksym *syms, size_t nr)
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

/* meta.h */
int lgd_ksym_line(const char *l, size_t ll, uint64_t *addr, char *type,
		  char name[LGD_KSYM_NAME_LEN], char mod[LGD_KMOD_NAME_LEN])
{
	char line[LGD_KSYM_LINE_MAX];
	unsigned long long a;
	int n;

	if (ll >= sizeof(line))
		return 0;
	memcpy(line, l, ll);
	line[ll] = 0;
	mod[0] = 0;
	/* the widths: LGD_KSYM_NAME_LEN - 1 and LGD_KMOD_NAME_LEN - 1 */
	n = sscanf(line, "%llx %c %511s [%127[^]]]", &a, type, name, mod);
	if (n < 3)
		return 0;
	*addr = a;
	return 1;
}

/* meta.h */
int lgd_ksym_add(struct lgd_ksym **syms, size_t *nr, size_t *cap, uint64_t addr,
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

struct lgd_kmod *lgd_kmod_new(struct lgd_ksyms *k, const char *name)
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
		if (!m && !(m = lgd_kmod_new(k, s->mod)))
			return -ENOMEM;
		/* the capacity lgd_ksym_add() gave m->syms: 64, then doubled */
		for (cap = m->nr ? 64 : 0; cap && cap < m->nr; cap *= 2)
			;
		if (lgd_ksym_add(&m->syms, &m->nr, &cap, s->addr, s->type, s->name, s->mod))
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

	while ((l = lgd_next_line(&p, end, &ll))) {
		char type, name[LGD_KSYM_NAME_LEN], mod[LGD_KMOD_NAME_LEN];
		uint64_t addr;

		if (!lgd_ksym_line(l, ll, &addr, &type, name, mod))
			continue;
		if (lgd_ksym_add(&k->syms, &k->nr, &cap, addr, type, name, mod))
			return -ENOMEM;
		if (addr)
			nonzero = 1;
	}
	if (!nonzero) {
		lgd_ksyms_free(k);
		return 0;
	}
	if (lgd_ksyms_sort(k->syms, k->nr) || ksyms_index(k))
		return -ENOMEM;
	return (int)k->nr;
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

/* is @a in one of @m's init regions? */
static int in_init_mem(const struct lgd_kmod *m, uint64_t a)
{
	for (int t = LGD_KMEM_INIT_TEXT; t < LGD_KMEM_NR; t++)
		if (in_range(a, m->mem[t].base, m->mem[t].size))
			return 1;
	return 0;
}

/*
 * the kernel's __module_address() for one module: the region of @m holding
 * @addr at @ts (an init region only before its init finished), or -1
 */
static int kmem_at(const struct lgd_kmod *m, uint64_t addr, uint64_t ts)
{
	for (int t = 0; t < LGD_KMEM_NR; t++)
		if ((t < LGD_KMEM_INIT_TEXT || ts < m->live_ts) &&
		    in_range(addr, m->mem[t].base, m->mem[t].size))
			return t;
	return -1;
}

/*
 * the kernel's find_kallsyms_symbol() over a logged module's table, @addr
 * in its region @r: the last symbol at or below @addr, up to the next
 * symbol or the end of the text (LGD_KSIZE_TEXT: any symbol of the
 * module; the end of the init text for an address in init memory) or of
 * region @r (LGD_KSIZE_REGION: symbols of @r only)
 */
static const struct lgd_ksym *mod_lookup(const struct lgd_kmod *m, int r, uint64_t addr,
					uint64_t ts, uint64_t *off, uint64_t *size)
{
	int by_region = m->sizes == LGD_KSIZE_REGION;
	int in_init = ts < m->live_ts && in_init_mem(m, addr);
	uint64_t lo = by_region ? m->mem[r].base : 0;
	uint64_t next = by_region ? m->mem[r].base + m->mem[r].size :
			in_init ? m->init_text_end : m->text_end;
	const struct lgd_ksym *best = NULL;

	for (size_t i = 0; i < m->nr; i++) {
		const struct lgd_ksym *s = &m->syms[i];

		if (ts >= m->live_ts && in_init_mem(m, s->addr))
			continue;	/* init symbols are gone after init */
		if (s->addr <= addr && s->addr >= lo && (!best || s->addr > best->addr))
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

/* is_ksym_addr(): vmlinux's text and init text, or [_stext, _end) when the
 * snapshot has data symbols (CONFIG_KALLSYMS_ALL); needs @k->stext */
static int vmlinux_addr(const struct lgd_ksyms *k, uint64_t addr)
{
	int text = addr >= k->stext && (!k->etext || addr < k->etext);
	int init = k->sinittext && addr >= k->sinittext &&
		   (!k->einittext || addr < k->einittext);
	int all = addr >= k->stext && (!k->end || addr < k->end);

	return k->all ? all : text || init;
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
			int r = kmem_at(m, addr, ts);

			if (r < 0)
				continue;
			return mod_lookup(m, r, addr, ts, off, size);
		}
		/* vmlinux's addresses are no module's, whatever its symbols
		 * span (a per-CPU symbol at its offset, 0x34000, makes the
		 * span start there): the kernel asks is_ksym_addr() first */
		if (k->stext && vmlinux_addr(k, addr))
			continue;
		i = last_at_or_below(m->syms, m->nr, addr);
		if (i < 0)
			continue;
		/*
		 * A per-CPU symbol (its offset: below the kernel half) names no
		 * kernel address: the kernel bounds a module by its memory
		 * (__module_address()); with no layout known, by its symbols
		 * in the kernel half (heap addresses fell to "pcpu_sym+0x...").
		 */
		if ((int64_t)m->syms[i].addr >= 0 && (int64_t)addr < 0)
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

	/* vmlinux */
	if (!k->nr_vm)
		return NULL;
	if (k->stext && !vmlinux_addr(k, addr))
		return NULL;
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
