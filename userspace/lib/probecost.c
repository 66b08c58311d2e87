// SPDX-License-Identifier: GPL-2.0
/*
 * probecost.c: a capture's probe cost calibration (the PROBE_COST section,
 * struct logdev_probe_cost) and what one record of each call site costs
 * by the kind of hook that wrote it (lgd_cost.h).  Layer: metadata.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

/*
 * Version 1 (LOGDEV_PROBE_COST_SIZE_V1): the same header, kinds 32 bytes
 * apart, no pair floor: read into the current struct, @pair_ps 0 and no
 * LOGDEV_COST_F_PAIR.
 */
static int cost_v1(const void *data, size_t len, struct logdev_probe_cost *pc)
{
	if (len != LOGDEV_PROBE_COST_SIZE_V1 ||
	    LOGDEV_COST_HDR_SIZE + LOGDEV_COST_NR_KINDS * LOGDEV_COST_KIND_SIZE_V1 != len)
		return -EPROTO;
	memset(pc, 0, sizeof(*pc));
	memcpy(pc, data, LOGDEV_COST_HDR_SIZE);
	for (int k = 0; k < LOGDEV_COST_NR_KINDS; k++) {
		memcpy(&pc->kind[k],
		       (const char *)data + LOGDEV_COST_HDR_SIZE + k * LOGDEV_COST_KIND_SIZE_V1,
		       LOGDEV_COST_KIND_SIZE_V1);
		pc->kind[k].flags &= ~(uint32_t)LOGDEV_COST_F_PAIR;
	}
	if (pc->size != len)
		return -EPROTO;
	pc->version = LOGDEV_COST_VERSION;	/* now in the current layout */
	pc->size = sizeof(*pc);
	return 0;
}

int lgd_cost_check(const void *data, size_t len, struct logdev_probe_cost *out)
{
	struct logdev_probe_cost pc;

	if (len < LOGDEV_COST_HDR_SIZE)
		return -EPROTO;
	memcpy(&pc, data, LOGDEV_COST_HDR_SIZE);	/* the header, every version */
	if (pc.version == 1) {
		if (cost_v1(data, len, &pc))
			return -EPROTO;
	} else if (len == sizeof(pc)) {
		memcpy(&pc, data, sizeof(pc));
		if (pc.size != sizeof(pc))
			return -EPROTO;
	} else {
		return -EPROTO;
	}
	if (pc.magic != LOGDEV_COST_MAGIC || pc.nr_kinds != LOGDEV_COST_NR_KINDS ||
	    pc.version != LOGDEV_COST_VERSION)
		return -EPROTO;
	if (!pc.ts)
		return -ENODATA;
	*out = pc;
	return 0;
}

const char *lgd_cost_kind_name(unsigned int kind)
{
	static const char *const names[LOGDEV_COST_NR_KINDS] = {
		[LOGDEV_COST_EDPRINT] = "edprint",
		[LOGDEV_COST_KPROBE_INT3] = "kprobe-int3",
		[LOGDEV_COST_KPROBE_FTRACE] = "kprobe-ftrace",
		[LOGDEV_COST_KPROBE_OPT] = "kprobe-optimised",
		[LOGDEV_COST_KRETPROBE] = "kretprobe",
		[LOGDEV_COST_TRACEPOINT] = "tracepoint",
	};

	return kind < LOGDEV_COST_NR_KINDS ? names[kind] : "?";
}

/*
 * The line of @probes defining probe @name (@len bytes): *@type its
 * letter, *@off the offset of its target ("SYM+OFF"; 0 without).
 * Return: 1 found, 0 not.
 */
static int probe_def(const char *probes, const char *name, size_t len, char *type,
		     unsigned long *off)
{
	const char *l = probes;

	while (l && *l) {
		const char *nl = strchr(l, '\n'), *p = l + 1, *n, *sp;

		if (!nl)
			nl = l + strlen(l);
		while (p < nl && *p >= '0' && *p <= '9')
			p++;
		if ((*l == 'p' || *l == 'r' || *l == 't') && p < nl && *p == ':') {
			n = ++p;
			sp = memchr(n, ' ', (size_t)(nl - n));
			sp = sp ? sp : nl;
			for (const char *q = n; q < sp; q++)
				if (*q == '/')
					n = q + 1;	/* GRP/NAME */
			if ((size_t)(sp - n) == len && !memcmp(n, name, len)) {
				const char *t = sp < nl ? sp + 1 : nl, *e, *plus;

				e = memchr(t, ' ', (size_t)(nl - t));
				e = e ? e : nl;
				plus = memchr(t, '+', (size_t)(e - t));
				*type = *l;
				*off = plus ? strtoul(plus + 1, NULL, 0) : 0;
				return 1;
			}
		}
		l = *nl ? nl + 1 : NULL;
	}
	return 0;
}

/* is there a site of file "probe" named @name%return in @s? */
static int has_return(const struct lgd_sites *s, const char *name, size_t len)
{
	for (uint32_t i = 0; i < s->nr; i++) {
		const struct lgd_site *x = s->by_id[i];

		if (x && x->file && x->func && !strcmp(x->file, "probe") &&
		    !strncmp(x->func, name, len) && !strcmp(x->func + len, "%return"))
			return 1;
	}
	return 0;
}

static unsigned int site_kind(const struct lgd_sites *s, const struct lgd_site *x,
			      const char *probes, const struct logdev_probe_cost *pc)
{
	const char *ret;
	size_t len;
	unsigned long off = 0;
	char type = 0;

	if (!x || !x->id)
		return LGD_COST_NONE;
	if (!x->file || !x->func || strcmp(x->file, "probe"))
		return LOGDEV_COST_EDPRINT;
	ret = strstr(x->func, "%return");
	len = ret ? (size_t)(ret - x->func) : strlen(x->func);
	if (!probes || !probe_def(probes, x->func, len, &type, &off))
		type = ret || has_return(s, x->func, len) ? 'r' : 'p';
	if (type == 'r')
		return LOGDEV_COST_KRETPROBE;
	if (type == 't')
		return LOGDEV_COST_TRACEPOINT;
	if (!off)
		return LOGDEV_COST_KPROBE_FTRACE;
	return pc->kind[LOGDEV_COST_KPROBE_OPT].flags & LOGDEV_COST_F_MEASURED ?
	       LOGDEV_COST_KPROBE_OPT : LOGDEV_COST_KPROBE_INT3;
}

int lgd_cost_sites_init(struct lgd_cost_sites *cs, const struct lgd_sites *s,
			const char *probes, const struct logdev_probe_cost *pc)
{
	memset(cs, 0, sizeof(*cs));
	cs->pc = *pc;
	cs->nr = s->nr;
	cs->kind = calloc(s->nr ? s->nr : 1, sizeof(*cs->kind));
	cs->ret = calloc(s->nr ? s->nr : 1, sizeof(*cs->ret));
	cs->ps = calloc(s->nr ? s->nr : 1, sizeof(*cs->ps));
	if (!cs->kind || !cs->ret || !cs->ps) {
		lgd_cost_sites_free(cs);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < s->nr; i++) {
		unsigned int k = site_kind(s, s->by_id[i], probes, pc);
		const struct logdev_cost_kind *ck = k < LOGDEV_COST_NR_KINDS ? &pc->kind[k] : NULL;

		cs->kind[i] = (uint8_t)k;
		cs->ret[i] = k == LOGDEV_COST_KRETPROBE && strstr(s->by_id[i]->func, "%return");
		if (!ck || !(ck->flags & LOGDEV_COST_F_MEASURED))
			continue;
		/* a return probe's figure is of a call: half on each record */
		cs->ps[i] = ck->median_ps / lgd_cost_records(k);
	}
	return 0;
}

int64_t lgd_cost_floor(const struct lgd_cost_sites *cs, uint32_t entry, uint32_t ret)
{
	unsigned int k;
	const struct logdev_cost_kind *ck;

	if (!cs || entry >= cs->nr || ret >= cs->nr || cs->kind[entry] != cs->kind[ret])
		return 0;
	k = cs->kind[entry];
	if (k == LOGDEV_COST_KRETPROBE ? cs->ret[entry] || !cs->ret[ret] : k != LOGDEV_COST_EDPRINT)
		return 0;
	ck = &cs->pc.kind[k];
	return ck->flags & LOGDEV_COST_F_PAIR ? ck->pair_ps : 0;
}

void lgd_cost_sites_free(struct lgd_cost_sites *cs)
{
	free(cs->kind);
	free(cs->ret);
	free(cs->ps);
	memset(cs, 0, sizeof(*cs));
}
