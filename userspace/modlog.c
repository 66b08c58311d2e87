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

	while ((l = lgd_next_line(&p, end, &ll))) {
		char line[256], verb[16], name[128], type, sym[256], mod[128];
		unsigned long long ts;
		uint64_t addr;
		struct lgd_kmod *m;

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
		     sscanf(line, "%15s %llu %127s", verb, &ts, name) != 3)) {
			bad++;
			continue;
		}
		if (!strcmp(verb, "load")) {
			m = lgd_kmod_new(k, name);
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
			m = lgd_kmod_new(k, name);
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
