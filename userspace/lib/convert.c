// SPDX-License-Identifier: GPL-2.0
/*
 * convert.c: a capture as a trace-cmd trace.dat (version 6, tracedat.c), so
 * that trace-cmd, libtraceevent and KernelShark read logdev records.
 *
 * Events (the layout agreed with the libtraceevent plugin): system "logdev",
 * one event per call site, named FUNC_LINE with every byte outside
 * [A-Za-z0-9_] made '_' and a '_' prefixed before a digit; probe sites (file
 * "probe") by probe name, returns NAME__return; a name already taken gets
 * _2, _3... (in site-id order); a record of an id not in the formats,
 * site_ID.  Event ids from LGD_CONV_FIRST_ID in site-id order.  Fields
 * after the 8-byte common header (type, flags, preempt count, pid):
 *
 *   unsigned int site; __data_loc char[] file; unsigned int line;
 *   unsigned char ctx (0 task 1 softirq 2 hardirq 3 NMI);
 *   long long delta_ns (since the previous record of the same CPU and
 *     context level, as logdev report's "+D us" (streams.c); -1 for the
 *     first of its stream and after lost events; negative where the clock
 *     went back; saturated at +-(2^63 - 1), never wrapped);
 *   __data_loc char[] msg (lgd_render_msg() + lgd_render_dur(): the message
 *     of logdev report, terminal-safe: control bytes escaped, lgd_escape());
 *   argN: one per conversion of the format (lgd_fmt_arg_kinds()): long long,
 *     unsigned long long or __data_loc char[]; an argument the record lacks
 *     (cut, missing) is 0 or "".  String arguments and file keep their bytes
 *     (fields for programs, as json keeps names); msg is what is printed.
 *
 * print fmt "%s", __get_str(msg): trace-cmd prints the message without a
 * plugin.  Common flags: hardirq 0x08, softirq 0x10, NMI 0x48 (trace-cmd
 * report -l; ctx_flags[]); common_pid the record's pid; preempt count 0.
 * Lost events: a gap item marks the next page of its CPU (trace-cmd:
 * "CPU:N [K EVENTS DROPPED]"); counts of several gaps before one record add
 * up; a gap counted in sub-buffers or bytes (LGD_GAP_SUBBUFS, LGD_GAP_CORRUPT)
 * has no event count: "[EVENTS DROPPED]".  Losses after a CPU's last record
 * show only in the per-CPU stats.
 * Options: TRACECLOCK (the capture's clock: local, global, mono are ftrace's
 * clocks of the same names), CPUSTAT (one per CPU from the STATS section:
 * "CPU: N" then "name: value" lines), VERSION.  The KALLSYMS snapshot (as
 * parsed) is the file's kallsyms.  cmdlines: cmdlines_text(), the task names
 * of the capture's comm records (format v3).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "comm.h"
#include "tracedat.h"
#include "version.h"

#define LGD_CONV_FIRST_ID	1000
#define FIXED_END		36	/* bytes of the fields before arg0 */

struct conv_evt {
	uint32_t site;
	uint16_t id;
	char *name;
	int nargs;
	int kind[LGD_BP_MAX_ARGS];
	uint32_t off[LGD_BP_MAX_ARGS];	/* argN's offset in the payload */
	uint32_t fixed;			/* bytes before the dynamic data */
};

struct conv {
	struct lgd_reader *r;
	struct conv_evt **by_site;	/* index: site id (< r->sites.nr) */
	struct conv_evt **evts;		/* all, in id order */
	size_t nr;
	struct conv_evt **unknown;	/* site_ID events, also in @evts */
	size_t nr_unknown;
	uint8_t *buf;			/* the payload being built */
	size_t cap;
};

static char *sanitize(const char *s, size_t n)
{
	char *o = malloc(n + 2), *p = o;

	if (!o)
		return NULL;
	if (!n || isdigit((unsigned char)s[0]))
		*p++ = '_';
	for (size_t i = 0; i < n; i++)
		*p++ = isalnum((unsigned char)s[i]) || s[i] == '_' ? s[i] : '_';
	*p = 0;
	return o;
}

static int name_taken(const struct conv *cv, const char *n)
{
	for (size_t i = 0; i < cv->nr; i++)
		if (!strcmp(cv->evts[i]->name, n))
			return 1;
	return 0;
}

/* the event's base name (see the file comment), malloc'd */
static char *base_name(const struct lgd_site *s, uint32_t site)
{
	char b[64];

	if (!s) {
		snprintf(b, sizeof(b), "site_%u", site);
		return strdup(b);
	}
	if (s->file && !strcmp(s->file, "probe") && s->func) {
		const char *ret = strstr(s->func, "%return");
		char *n = sanitize(s->func, ret ? (size_t)(ret - s->func) : strlen(s->func));
		char *o;

		if (!ret || !n)
			return n;
		o = malloc(strlen(n) + 9);
		if (o)
			sprintf(o, "%s__return", n);
		free(n);
		return o;
	} else {
		size_t fl = s->func ? strlen(s->func) : 0;
		char *t = malloc(fl + 16), *n;

		if (!t)
			return NULL;
		snprintf(t, fl + 16, "%s_%u", s->func ? s->func : "", s->line);
		n = sanitize(t, strlen(t));
		free(t);
		return n;
	}
}

static struct conv_evt *evt_add(struct conv *cv, const struct lgd_site *s, uint32_t site)
{
	struct conv_evt *e, **n;
	char *base;
	uint32_t off = FIXED_END;

	if (cv->nr >= 0xffff - LGD_CONV_FIRST_ID)
		return NULL;
	e = calloc(1, sizeof(*e));
	base = base_name(s, site);
	n = realloc(cv->evts, (cv->nr + 1) * sizeof(*n));
	if (!e || !base || !n) {
		free(e);
		free(base);
		if (n)
			cv->evts = n;
		return NULL;
	}
	cv->evts = n;
	e->name = base;
	for (unsigned int k = 2; name_taken(cv, e->name); k++) {
		free(e->name != base ? e->name : NULL);
		e->name = malloc(strlen(base) + 16);
		if (!e->name) {
			free(base);
			free(e);
			return NULL;
		}
		sprintf(e->name, "%s_%u", base, k);
	}
	if (e->name != base)
		free(base);
	e->site = site;
	e->id = (uint16_t)(LGD_CONV_FIRST_ID + cv->nr);
	if (s && s->fmt)
		e->nargs = lgd_fmt_arg_kinds(s->fmt, e->kind, LGD_BP_MAX_ARGS);
	for (int i = 0; i < e->nargs; i++) {
		if (e->kind[i] == LGD_ARG_STR) {
			e->off[i] = off;
			off += 4;
		} else {
			off = (off + 7) & ~7u;
			e->off[i] = off;
			off += 8;
		}
	}
	e->fixed = off;
	cv->evts[cv->nr++] = e;
	return e;
}

static struct conv_evt *evt_of(struct conv *cv, uint32_t site)
{
	struct conv_evt **n;
	struct conv_evt *e;

	if (site < cv->r->sites.nr && cv->by_site[site])
		return cv->by_site[site];
	for (size_t i = 0; i < cv->nr_unknown; i++)
		if (cv->unknown[i]->site == site)
			return cv->unknown[i];
	n = realloc(cv->unknown, (cv->nr_unknown + 1) * sizeof(*n));
	if (!n)
		return NULL;
	cv->unknown = n;
	e = evt_add(cv, NULL, site);
	if (e)
		cv->unknown[cv->nr_unknown++] = e;
	return e;
}

static int field(char **t, size_t *len, const char *decl, uint32_t off, uint32_t size, int sign)
{
	char *n = NULL;
	int k = asprintf(&n, "%s\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			 *t, decl, off, size, sign);

	if (k < 0)
		return -ENOMEM;
	free(*t);
	*t = n;
	*len = (size_t)k;
	return 0;
}

/* the format file text of @e, as the kernel's events/SYSTEM/EVENT/format */
static char *evt_format(const struct conv_evt *e)
{
	char *t = NULL, decl[64];
	size_t len;
	int err = 0;

	if (asprintf(&t, "name: %s\nID: %u\nformat:\n", e->name, e->id) < 0)
		return NULL;
	err |= field(&t, &len, "unsigned short common_type", 0, 2, 0);
	err |= field(&t, &len, "unsigned char common_flags", 2, 1, 0);
	err |= field(&t, &len, "unsigned char common_preempt_count", 3, 1, 0);
	err |= field(&t, &len, "int common_pid", 4, 4, 1);
	if (!err) {
		char *n = NULL;

		err = asprintf(&n, "%s\n", t) < 0 ? -ENOMEM : 0;
		free(t);
		t = n;
	}
	err |= field(&t, &len, "unsigned int site", 8, 4, 0);
	err |= field(&t, &len, "__data_loc char[] file", 12, 4, 1);
	err |= field(&t, &len, "unsigned int line", 16, 4, 0);
	err |= field(&t, &len, "unsigned char ctx", 20, 1, 0);
	err |= field(&t, &len, "long long delta_ns", 24, 8, 1);
	err |= field(&t, &len, "__data_loc char[] msg", 32, 4, 1);
	for (int i = 0; i < e->nargs && !err; i++) {
		int str = e->kind[i] == LGD_ARG_STR;

		snprintf(decl, sizeof(decl), "%s arg%d",
			 str ? "__data_loc char[]" : e->kind[i] == LGD_ARG_S64 ?
			 "long long" : "unsigned long long", i);
		err |= field(&t, &len, decl, e->off[i], str ? 4 : 8,
			     e->kind[i] != LGD_ARG_U64);
	}
	if (!err) {
		char *n = NULL;

		err = asprintf(&n, "%s\nprint fmt: \"%%s\", __get_str(msg)\n", t) < 0 ?
		      -ENOMEM : 0;
		free(t);
		t = n;
	}
	if (err) {
		free(t);
		return NULL;
	}
	return t;
}

static int room(struct conv *cv, size_t n)
{
	if (n > cv->cap) {
		uint8_t *b = realloc(cv->buf, n * 2);

		if (!b)
			return -ENOMEM;
		cv->buf = b;
		cv->cap = n * 2;
	}
	return 0;
}

static void le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* append @n bytes of @s (and a NUL) as dynamic data; its __data_loc at @loc */
static int dyn(struct conv *cv, size_t *len, uint32_t loc, const char *s, size_t n)
{
	if (n > 0xfffe)
		n = 0xfffe;
	if (room(cv, *len + n + 1))
		return -ENOMEM;
	memcpy(cv->buf + *len, s, n);
	cv->buf[*len + n] = 0;
	le(cv->buf + loc, (uint32_t)*len | (uint32_t)(n + 1) << 16, 4);
	*len += n + 1;
	return 0;
}

/*
 * common_flags per context: softirq 0x10, hardirq 0x08, NMI 0x40 with 0x08,
 * as the kernel's tracing_gen_ctx() sets them (nmi_enter() also counts a
 * hardirq), so trace-cmd report -l shows 'h' for an NMI too (libtraceevent
 * 1.7.1 has no letter for NMI; the ctx field tells it apart)
 */
static const uint8_t ctx_flags[4] = { 0, 0x10, 0x08, 0x48 };

/*
 * Task names for the cmdlines section ("pid comm\n" lines): every pid the
 * capture named (its comm records, which the merge pass has just read into
 * @r's table), with its last name (trace.dat keeps one name per pid).  Pid
 * 0 is left to trace-cmd, which calls it <idle>; a control byte in a name
 * (whatever prctl set) becomes '?', since a newline would end the line.
 * Return: malloc'd text, or NULL (none named, or out of memory: the file
 * then shows <...>, as trace-cmd does for an unknown pid).
 */
static char *cmdlines_text(const struct lgd_reader *r, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;
	FILE *f;

	*len = 0;
	if (!r->nr_comm_tasks)
		return NULL;
	f = open_memstream(&buf, &cap);
	if (!f)
		return NULL;
	for (size_t i = 0; i < r->comm_tab_cap; i++) {
		const struct lgd_comm_task *t = &r->comm_tab[i];
		char name[LOGDEV_COMM_LEN + 1];

		if (!t->n || !t->pid)
			continue;
		snprintf(name, sizeof(name), "%s", t->v[t->n - 1].comm);
		for (char *c = name; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		fprintf(f, "%u %s\n", t->pid, name);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	*len = cap;
	return buf;
}

/* "CPU: N\nname: value\n..." per CPU from the STATS text ("cpu=N k=v ...") */
static int add_cpustats(struct lgd_tdw *w, const char *stats)
{
	const char *l = stats;

	while (l && *l) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		char *line = strndup(l, n), *out = NULL, *tok, *sv = NULL;
		size_t ol = 0;
		FILE *f;
		int err = 0;

		if (!line)
			return -ENOMEM;
		f = open_memstream(&out, &ol);
		if (!f) {
			free(line);
			return -ENOMEM;
		}
		for (tok = strtok_r(line, " \t", &sv); tok; tok = strtok_r(NULL, " \t", &sv)) {
			char *eq = strchr(tok, '=');

			if (!eq)
				continue;
			*eq = 0;
			if (!strcmp(tok, "cpu"))
				fprintf(f, "CPU: %s\n", eq + 1);
			else
				fprintf(f, "%s: %s\n", tok, eq + 1);
		}
		fclose(f);
		if (ol)
			err = lgd_tdw_option(w, LGD_TDW_OPT_CPUSTAT, out, (uint32_t)ol + 1);
		free(out);
		free(line);
		if (err)
			return err;
		l = e ? e + 1 : NULL;
	}
	return 0;
}

static int add_clock(struct lgd_tdw *w, const char *clock)
{
	static const char *const ftrace[] = { "local", "global", "counter", "uptime", "perf",
					      "mono", "mono_raw", "boot" };
	char b[200];
	size_t n = 0;
	int found = 0;

	if (!clock[0])
		clock = "local";	/* logdev's default */
	for (size_t i = 0; i < sizeof(ftrace) / sizeof(ftrace[0]); i++) {
		int cur = !strcmp(ftrace[i], clock);

		found |= cur;
		n += (size_t)snprintf(b + n, sizeof(b) - n, "%s%s%s ", cur ? "[" : "",
				      ftrace[i], cur ? "]" : "");
	}
	if (!found)
		n += (size_t)snprintf(b + n, sizeof(b) - n, "[%.40s] ", clock);
	b[n - 1] = '\n';
	return lgd_tdw_option(w, LGD_TDW_OPT_TRACECLOCK, b, (uint32_t)n + 1);
}

/* the parsed KALLSYMS snapshot back as /proc/kallsyms text */
static char *kallsyms_text(const struct lgd_reader *r, size_t *len)
{
	char *out = NULL;
	FILE *f;

	*len = 0;
	if (!r->has_ksyms || !r->ksyms.nr)
		return NULL;
	f = open_memstream(&out, len);
	if (!f)
		return NULL;
	for (size_t i = 0; i < r->ksyms.nr; i++) {
		const struct lgd_ksym *s = &r->ksyms.syms[i];

		fprintf(f, "%016" PRIx64 " %c %s%s%s%s\n", s->addr, s->type, s->name,
			s->mod ? "\t[" : "", s->mod ? s->mod : "", s->mod ? "]" : "");
	}
	if (fclose(f)) {
		free(out);
		*len = 0;
		return NULL;
	}
	return out;
}

/* one record as an event */
static int put_record(struct conv *cv, struct lgd_tdw *w, const struct lgd_item *it,
		      const char *msg, size_t mlen, int64_t delta)
{
	struct conv_evt *e = evt_of(cv, it->rec.site);
	const struct lgd_site *s = lgd_sites_get(&cv->r->sites, it->rec.site);
	struct lgd_bp_args a;
	unsigned int ctx = it->rec.ctx & LOGDEV_CTX_MASK;
	size_t len;
	int err = 0;

	if (!e)
		return -ENOMEM;
	a.nr = 0;
	if (s && s->fmt && (it->rec.type == LOGDEV_REC_PRINT ||
			    it->rec.type == LOGDEV_REC_PRINT_SLOTS))
		lgd_bprintf_args(s->fmt, it->payload, it->rec.arg_bytes,
				 (it->rec.type == LOGDEV_REC_PRINT_SLOTS ? LGD_BP_SLOTS : 0) |
				 (it->rec_flags & LOGDEV_REC_F_CUT ? LGD_BP_CUT : 0), &a);
	if (room(cv, e->fixed))
		return -ENOMEM;
	memset(cv->buf, 0, e->fixed);
	le(cv->buf, e->id, 2);
	cv->buf[2] = ctx_flags[ctx];
	le(cv->buf + 4, it->rec.pid, 4);
	le(cv->buf + 8, it->rec.site, 4);
	le(cv->buf + 16, s ? s->line : 0, 4);
	cv->buf[20] = (uint8_t)ctx;
	le(cv->buf + 24, (uint64_t)delta, 8);
	len = e->fixed;
	err |= dyn(cv, &len, 12, s && s->file ? s->file : "", s && s->file ? strlen(s->file) : 0);
	err |= dyn(cv, &len, 32, msg, mlen);
	for (int i = 0; i < e->nargs && !err; i++) {
		int have = (unsigned int)i < a.nr && a.kind[i] == e->kind[i];

		if (e->kind[i] == LGD_ARG_STR)
			err |= dyn(cv, &len, e->off[i], have ? a.str[i] : "", have ? a.len[i] : 0);
		else
			le(cv->buf + e->off[i], have ? a.num[i] : 0, 8);
	}
	if (err)
		return -ENOMEM;
	return lgd_tdw_event(w, it->cpu, it->ts, cv->buf, (uint32_t)len);
}

static void conv_free(struct conv *cv)
{
	for (size_t i = 0; i < cv->nr; i++) {
		free(cv->evts[i]->name);
		free(cv->evts[i]);
	}
	free(cv->evts);
	free(cv->by_site);
	free(cv->unknown);
	free(cv->buf);
}

int lgd_convert_tracedat(struct lgd_reader *r, FILE *out, uint64_t cpu_max,
			 struct lgd_convert_stats *st, struct lgd_merge_counts *counts)
{
	struct conv cv = { .r = r };
	struct lgd_tdw w;
	/* durations paired first; delta_ns: report's rule, pairs made on every record */
	const struct lgd_records_opts o = {
		.items = LGD_ITEMS_FILTERED, .durations = 1, .steps = 1, .by = LGD_BY_CONTEXT,
	};
	struct lgd_records rs = { 0 };
	struct lgd_record y;
	static char msg[8192];	/* as lgd_render.msg: cut at 8191 bytes */
	char *ks = NULL, *cmd = NULL;
	size_t ks_len = 0, cmd_len = 0;
	int ret;

	memset(st, 0, sizeof(*st));
	lgd_tdw_init(&w, cpu_max);
	st->cpu_max = w.cpu_max;
	ret = lgd_records_open(&rs, r, &o);
	if (ret)
		goto out;
	ret = -ENOMEM;
	st->dur_huge = rs.du.stats.huge;
	cv.by_site = calloc(r->sites.nr ? r->sites.nr : 1, sizeof(*cv.by_site));
	if (!cv.by_site)
		goto out;
	for (uint32_t i = 0; i < r->sites.nr; i++)
		if (r->sites.by_id[i] && !(cv.by_site[i] = evt_add(&cv, r->sites.by_id[i], i)))
			goto out;
	while ((ret = lgd_records_next(&rs, &y)) > 0) {
		const struct lgd_item *it = &y.it;
		const struct lgd_stream_step *sp = &y.step;

		if (it->filtered || it->cpu >= LGD_TDW_MAX_CPUS)
			continue;	/* (no CPU past the limit: the reader never gives one) */
		if (it->kind == LGD_ITEM_GAP) {
			int unknown = it->gap_kind == LGD_GAP_SUBBUFS ||
				      it->gap_kind == LGD_GAP_CORRUPT;

			st->gaps++;
			st->gaps_unknown += unknown;
			ret = lgd_tdw_missed(&w, it->cpu, unknown ? -1 :
					     (int64_t)(it->gap_count & INT64_MAX));
		} else {
			const struct lgd_dur_mark *dm = y.dur;
			size_t len = lgd_render_msg(r, it, msg, sizeof(msg), NULL);

			if (dm)
				len = lgd_render_dur(msg, sizeof(msg), len, dm);
			/* signed: a step back is negative (its ts minus the previous) */
			ret = put_record(&cv, &w, it, msg, len, !sp->has_prev ? -1 :
					 sp->kind == LGD_STEP_BACK ?
					 (sp->ns > INT64_MAX ? -INT64_MAX : -(int64_t)sp->ns) :
					 (sp->ns > INT64_MAX ? INT64_MAX : (int64_t)sp->ns));
			if (ret == -E2BIG) {
				st->too_big++;
				ret = 0;
			} else if (!ret) {
				st->records++;
			}
		}
		if (ret < 0)
			goto out;
	}
	if (ret < 0)
		goto out;
	ret = -ENOMEM;
	for (size_t i = 0; i < cv.nr; i++) {
		char *f = evt_format(cv.evts[i]);

		if (!f || lgd_tdw_format(&w, f)) {
			free(f);
			goto out;
		}
		free(f);
	}
	st->sites = (uint32_t)cv.nr;
	if (add_clock(&w, r->hdr.clock) || (r->stats && add_cpustats(&w, r->stats)) ||
	    lgd_tdw_option(&w, LGD_TDW_OPT_VERSION, "logdev convert " LOGDEV_VERSION,
			   sizeof("logdev convert " LOGDEV_VERSION)))
		goto out;
	ks = kallsyms_text(r, &ks_len);
	cmd = cmdlines_text(r, &cmd_len);
	ret = lgd_tdw_finish(&w, out, "logdev", ks, ks_len, cmd, cmd_len);
out:
	if (counts)
		lgd_merge_take_counts(&rs.m, counts);
	lgd_records_close(&rs);
	free(ks);
	free(cmd);
	st->full_cpu = w.full_cpu;
	lgd_tdw_free(&w);
	conv_free(&cv);
	return ret < 0 ? ret : 0;
}
