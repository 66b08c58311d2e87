// SPDX-License-Identifier: GPL-2.0
/*
 * durations.c: pairs the records of logdev's return probes ("r:" in the
 * debugfs probes file) with their entries.  An r: probe NAME has two call
 * sites of file "probe": NAME (entry) and NAME%return (return).  Entries
 * are pushed on a stack per (task, context, probe name) (and per CPU for
 * pid 0 and for interrupt contexts, where the pid is only the interrupted
 * task's); a return pops the innermost entry of its probe and yields the
 * time between them.  A lost-events gap on a CPU forgets that CPU's open
 * entries of pid 0 and interrupt contexts only: a task's entries stay
 * valid across CPUs (a task may migrate between entry and return).
 * Memory: one slot per open entry, LD_DUR_DEPTH deep per key.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

#define RET_SUFFIX	"%return"

static int site_is_probe(const struct ld_site *s)
{
	return s && s->file && !strcmp(s->file, "probe");
}

/* Length of the base name if @s is a return site, else 0. */
static size_t ret_base_len(const struct ld_site *s)
{
	size_t n, k = strlen(RET_SUFFIX);

	if (!site_is_probe(s) || !s->func)
		return 0;
	n = strlen(s->func);
	if (n <= k || strcmp(s->func + n - k, RET_SUFFIX))
		return 0;
	return n - k;
}

int ld_dur_init(struct ld_durations *du, const struct ld_sites *s)
{
	memset(du, 0, sizeof(*du));
	du->nr_sites = s->nr;
	du->role = calloc(s->nr ? s->nr : 1, sizeof(*du->role));
	du->name = calloc(s->nr ? s->nr : 1, sizeof(*du->name));
	if (!du->role || !du->name) {
		ld_dur_free(du);
		return -ENOMEM;
	}
	/* return sites first, then the entry sites that have a return twin */
	for (uint32_t i = 0; i < s->nr; i++) {
		size_t n = ret_base_len(s->by_id[i]);

		if (!n)
			continue;
		du->role[i] = LD_DUR_RETURN;
		du->name[i] = strndup(s->by_id[i]->func, n);
		if (!du->name[i]) {
			ld_dur_free(du);
			return -ENOMEM;
		}
	}
	for (uint32_t i = 0; i < s->nr; i++) {
		const struct ld_site *e = s->by_id[i];

		if (!site_is_probe(e) || du->role[i])
			continue;
		for (uint32_t j = 0; j < s->nr; j++)
			if (du->role[j] == LD_DUR_RETURN && !strcmp(du->name[j], e->func)) {
				du->role[i] = LD_DUR_ENTRY;
				du->name[i] = strdup(e->func);
				if (!du->name[i]) {
					ld_dur_free(du);
					return -ENOMEM;
				}
				break;
			}
	}
	return 0;
}

/* The key of @it: pid, ctx, and the CPU where the pid does not say it all. */
static void key_of(const struct ld_item *it, uint32_t *pid, uint32_t *ctx,
		   int64_t *cpu)
{
	*pid = it->rec.pid;
	*ctx = it->rec.ctx;
	*cpu = (it->rec.pid == 0 || it->rec.ctx != LOGDEV_CTX_TASK) ?
		(int64_t)it->cpu : -1;
}

static struct ld_dur_slot *find_slot(struct ld_durations *du, uint32_t pid,
				     uint32_t ctx, int64_t cpu, const char *name,
				     int create)
{
	struct ld_dur_slot *sl;

	for (size_t i = 0; i < du->nr; i++) {
		sl = &du->slots[i];
		if (sl->pid == pid && sl->ctx == ctx && sl->cpu == cpu &&
		    sl->name == name)
			return sl;
	}
	if (!create)
		return NULL;
	for (size_t i = 0; i < du->nr; i++)	/* reuse an empty one */
		if (!du->slots[i].depth) {
			sl = &du->slots[i];
			goto fill;
		}
	if (du->nr == du->cap) {
		size_t nc = du->cap ? du->cap * 2 : 16;
		struct ld_dur_slot *ns = realloc(du->slots, nc * sizeof(*ns));

		if (!ns)
			return NULL;
		du->slots = ns;
		du->cap = nc;
	}
	sl = &du->slots[du->nr++];
fill:
	memset(sl, 0, sizeof(*sl));
	sl->pid = pid;
	sl->ctx = ctx;
	sl->cpu = cpu;
	sl->name = name;
	return sl;
}

/* name pointers are interned per site: compare by the entry site's string */
static const char *intern(struct ld_durations *du, const char *name)
{
	for (uint32_t i = 0; i < du->nr_sites; i++)
		if (du->role[i] == LD_DUR_ENTRY && !strcmp(du->name[i], name))
			return du->name[i];
	return NULL;
}

int ld_dur_add(struct ld_durations *du, const struct ld_item *it, uint64_t *ns,
	       uint32_t *entry_site)
{
	struct ld_dur_slot *sl;
	const char *name;
	uint32_t pid, ctx;
	int64_t cpu;

	if (it->kind == LD_ITEM_GAP) {
		for (size_t i = 0; i < du->nr; i++)
			if (du->slots[i].cpu == (int64_t)it->cpu)
				du->slots[i].depth = 0;
		return 0;
	}
	if (it->rec.site >= du->nr_sites || !du->role[it->rec.site])
		return 0;
	name = intern(du, du->name[it->rec.site]);
	if (!name)
		return 0;	/* a return without any entry site */
	key_of(it, &pid, &ctx, &cpu);
	if (du->role[it->rec.site] == LD_DUR_ENTRY) {
		sl = find_slot(du, pid, ctx, cpu, name, 1);
		if (!sl)
			return -ENOMEM;
		if (sl->depth == LD_DUR_DEPTH) {	/* lost returns: keep the newest */
			memmove(sl->ts, sl->ts + 1, (LD_DUR_DEPTH - 1) * sizeof(sl->ts[0]));
			memmove(sl->site, sl->site + 1, (LD_DUR_DEPTH - 1) * sizeof(sl->site[0]));
			sl->depth--;
		}
		sl->site[sl->depth] = it->rec.site;
		sl->ts[sl->depth++] = it->ts;
		return 0;
	}
	sl = find_slot(du, pid, ctx, cpu, name, 0);
	if (!sl || !sl->depth)
		return 0;
	sl->depth--;
	if (it->ts < sl->ts[sl->depth])
		return 0;
	*ns = it->ts - sl->ts[sl->depth];
	if (entry_site)
		*entry_site = sl->site[sl->depth];
	return 1;
}

void ld_dur_free(struct ld_durations *du)
{
	if (du->name)
		for (uint32_t i = 0; i < du->nr_sites; i++)
			free(du->name[i]);
	free(du->name);
	free(du->role);
	free(du->slots);
	memset(du, 0, sizeof(*du));
}
