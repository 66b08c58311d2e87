// SPDX-License-Identifier: GPL-2.0
/*
 * comm.c: task names (layer: library, read): the reader's pid -> name table
 * (comm.h), filled from comm records (LOGDEV_REC_COMM) by a merge
 * (merge.c: as it goes, or its task-name pass lgd_comm_load()), and asked
 * by lgd_comm_at().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "liblogdev.h"
#include "comm.h"
#include "subbuf.h"
#include "reader_int.h"

/* ---- task names ------------------------------------------------------ */

static size_t comm_hash(uint32_t pid, size_t cap)
{
	return (size_t)((pid * 2654435761u) & (cap - 1));
}

/* the slot of @pid, or of the empty slot where it would go (cap > 0) */
static struct lgd_comm_task *comm_slot(const struct lgd_reader *r, uint32_t pid)
{
	size_t i = comm_hash(pid, r->comm_tab_cap);

	while (r->comm_tab[i].n && r->comm_tab[i].pid != pid)
		i = (i + 1) & (r->comm_tab_cap - 1);
	return &r->comm_tab[i];
}

/* keep the table at most half full; Return: 0 or -ENOMEM */
static int comm_grow(struct lgd_reader *r)
{
	size_t cap = r->comm_tab_cap ? 2 * r->comm_tab_cap : 64, old = r->comm_tab_cap;
	struct lgd_comm_task *ot = r->comm_tab, *nt;

	if (2 * (r->nr_comm_tasks + 1) <= r->comm_tab_cap)
		return 0;
	nt = calloc(cap, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	r->comm_tab = nt;
	r->comm_tab_cap = cap;
	for (size_t i = 0; i < old; i++)
		if (ot[i].n)
			*comm_slot(r, ot[i].pid) = ot[i];
	free(ot);
	return 0;
}

/* index of the first of @t's entries after @ts */
static uint32_t comm_upper(const struct lgd_comm_task *t, uint64_t ts)
{
	uint32_t lo = 0, hi = t->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a comm record of @pid at @ts: @payload, @bytes long (need not end in NUL) */
int lgd_comm_put(struct lgd_reader *r, uint32_t pid, uint64_t ts,
		    const uint8_t *payload, uint32_t bytes)
{
	char name[LOGDEV_COMM_LEN + 1] = "";
	struct lgd_comm_task *t;
	uint32_t i;

	if (bytes > LOGDEV_COMM_LEN)
		bytes = LOGDEV_COMM_LEN;
	memcpy(name, payload, bytes);
	name[bytes] = 0;
	/* pid 0 is every CPU's idle task (swapper/N): ftrace's name for all */
	if (!pid)
		strcpy(name, "<idle>");
	if (comm_grow(r))
		return -ENOMEM;
	t = comm_slot(r, pid);
	i = t->n ? comm_upper(t, ts) : 0;
	/* the name in force before is the same: nothing new */
	if (i > 0 && !strcmp(t->v[i - 1].comm, name))
		return 0;
	/* the next entry has the same name: it starts here now */
	if (i < t->n && !strcmp(t->v[i].comm, name)) {
		t->v[i].ts = ts;
		return 0;
	}
	if (i < t->n && t->n >= LGD_COMM_UNORDERED_MAX)
		return 0;	/* out of time order, and many: left out */
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 2;
		struct lgd_comm *nv = realloc(t->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		t->v = nv;
		t->cap = cap;
	}
	if (!t->n) {
		t->pid = pid;
		r->nr_comm_tasks++;
	}
	memmove(&t->v[i + 1], &t->v[i], (t->n - i) * sizeof(*t->v));
	t->v[i].pid = pid;
	t->v[i].ts = ts;
	memcpy(t->v[i].comm, name, sizeof(name));
	t->n++;
	r->nr_comms++;
	return 0;
}

int lgd_comm_add(struct lgd_reader *r, uint32_t pid, uint64_t ts, const uint8_t *payload,
		 uint32_t bytes)
{
	return lgd_comm_put(r, pid, ts, payload, bytes);
}

const char *lgd_comm_at(const struct lgd_reader *r, uint32_t pid, uint64_t ts)
{
	const struct lgd_comm_task *t;
	uint32_t i;

	if (!r->comm_tab_cap)
		return NULL;
	t = comm_slot(r, pid);
	if (!t->n)
		return NULL;
	i = comm_upper(t, ts);
	return t->v[i ? i - 1 : 0].comm;	/* none before: the first after */
}
