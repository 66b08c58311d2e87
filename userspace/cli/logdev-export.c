// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-export.c: "logdev export --format json|csv|perfetto [--by STREAM]
 * [--pair FROM,TO]... [-o OUT] [FILE]": every record and every lost-events
 * gap of a capture, in time order (the merge of report), for other tools.
 *
 * csv (RFC 4180: a header line, fields quoted where they hold a comma, a
 * quote, CR, LF or another control byte, "" for a quote; UTF-8, a byte
 * outside valid UTF-8 or a NUL as U+FFFD; cli_csv_fieldn()) and json (JSON
 * lines: one object per line, strings through cli_json_strn(): control
 * bytes, NUL included, as \uXXXX) have the same columns:
 *   ts_ns       record time, ns (the capture's clock); for a gap its
 *               sub-buffer's first time
 *   cpu         CPU
 *   pid, comm   task id and name at that time (comm empty / null when the
 *               capture has no comm record of it)
 *   ctx         task, softirq, hardirq or nmi
 *   site_id, func, file, line   the call site (func "?" when unknown)
 *   type        print (edprint, binary printf), print_slots (edprint,
 *               compile-time encoding), raw, or lost (a gap row)
 *   message     the text the kernel would have printed (report's, not
 *               escaped for a terminal: the format escapes it)
 *   delta_ns    time since the previous record of its stream (--by, as
 *               report's +D us); empty / null where report prints none
 *   duration_ns a return probe's (or --pair TO record's) duration since its
 *               entry; empty / null otherwise
 *   lost_kind, lost_count   gap rows: the cause (dropped, overrun, subbufs,
 *               corrupt, nesting_lost, too_big, lost, bad_ts) and count
 *               (records; sub-buffers for subbufs, bytes for corrupt)
 *   clock       the trace clock of ts_ns (local, global, mono: ftrace's
 *               clocks of the same names), the same on every row
 * In json every row has every key, in this order: null where it has no
 * value (a record's lost_*, a gap row's all but ts_ns, cpu, type, lost_*).
 *
 * perfetto: the Chrome trace-event JSON format (one object
 * {"displayTimeUnit": "ns", "metadata": {"clock", "ftrace_clock"},
 * "traceEvents": [...]}) that Perfetto's UI and
 * chrome://tracing open.  One process (pid 1, named "logdev FILE"), one
 * thread per CPU: tid = CPU + 1 (tid 0 means the process itself to some
 * viewers), named "CPU N" and sorted by CPU.  Each record is an instant
 * event ("ph": "i", "s": "t") named by its site label, with args msg, pid,
 * comm, ctx, site; each entry/return pair (return probes, and --pair FROM,TO
 * edprint pairs) also a complete slice ("ph": "X") on the entry's CPU,
 * named by the probe (or FROM), from the entry's time for its duration (a
 * negative duration, two CPUs' clocks disagreeing, gets no slice: counted
 * in a warning); each gap an instant event "LOST" with args kind and count.
 * Times ("ts", "dur") in us with 3 decimals: ns precision.
 * Exit: 0, 3 decoded with warnings, 1 unusable capture or write error, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli-breakdown.h"

const struct cli_cmd cli_cmd_export = {
	"export", cmd_export,
	"export --format json|csv|perfetto [--by cpu|task|context] [--pair FROM,TO]... "
	"[--breakdown] [-o OUT] [FILTERS] [FILE]",
	"      --format FMT     json (JSON lines), csv (RFC 4180) or perfetto (Chrome\n"
	"                       trace-event JSON for ui.perfetto.dev, chrome://tracing)\n"
	"  -o, --output OUT     write to OUT (default: standard output)\n"
	"  -b, --by STREAM      delta_ns since the previous record of (as report):\n"
	"                       context (default), cpu, task\n"
	"      --pair FROM,TO   FROM's records are entries, TO's their returns: a\n"
	"                       duration_ns, and a slice in perfetto (as deltas --pair)\n"
	"      --breakdown      where each pair's time went (deltas --breakdown): columns\n"
	"                       own_ns .. blocked_ns (of duration_ns, else delta_ns);\n"
	"                       perfetto: interrupt slices on the CPU tracks, each\n"
	"                       task's running, preempted and blocked time on its own\n"
	CLI_FILTER_HELP
	"  Columns (json, csv): ts_ns cpu pid comm ctx site_id func file line type\n"
	"  message delta_ns duration_ns lost_kind lost_count; type lost: a gap row.\n"
	"  perfetto: one track per CPU (tid = CPU + 1), instant events for records and\n"
	"  gaps, slices for entry/return pairs; times in us with ns precision.\n"
};

enum { X_JSON, X_CSV, X_PERFETTO };

static const char *type_name(int t)
{
	switch (t) {
	case LOGDEV_REC_PRINT: return "print";
	case LOGDEV_REC_PRINT_SLOTS: return "print_slots";
	case LOGDEV_REC_RAW: return "raw";
	case LOGDEV_REC_COMM: return "comm";
	default: return "type?";
	}
}

/* ns as us with 3 decimals (ns precision) */
static void put_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

struct xctx {
	FILE *f;
	int fmt;
	int first;		/* perfetto: no comma before the first event */
	struct lgd_reader *r;
	struct lgd_durations *du;
	char msg[8192];
	char *row;		/* csv: rows made, not yet written (csv_flush()) */
	size_t row_len, row_cap;
	int werr;		/* csv: errno of a failed write of rows, or 0 */
	char **cols;		/* csv: per site id, its "func,file" columns */
	const struct lgd_site **cols_site;	/* the site each was made from */
	uint32_t nr_cols;
	const char *clock;	/* the capture's trace clock (lgd_clock_name()) */
	struct lgd_bd *bd;	/* --breakdown: the markers' timelines */
	const struct lgd_bd_split *sp;	/* the row's pair split, or NULL */
	char clock_csv[CLI_CSV_MAX(32) + 1];	/* csv: ",CLOCK" ending every row */
	size_t clock_csv_len;
};

static void cols_free(struct xctx *x)
{
	for (uint32_t i = 0; i < x->nr_cols; i++)
		free(x->cols[i]);
	free(x->cols);
	free(x->cols_site);
	x->cols = NULL;
	x->cols_site = NULL;
	x->nr_cols = 0;
}

/*
 * csv: the func and file columns of site @s (id @id), made once per site:
 * "FUNC,FILE" with each field as cli_csv_put() writes it.  NULL: no memory.
 */
static const char *site_cols(struct xctx *x, const struct lgd_site *s, uint32_t id)
{
	const struct lgd_sites *ss = &x->r->sites;
	size_t lf, lfi;
	char *c;

	if (x->nr_cols != ss->nr) {	/* first call, or the sites grew */
		cols_free(x);
		x->cols = calloc(ss->nr, sizeof(*x->cols));
		x->cols_site = calloc(ss->nr, sizeof(*x->cols_site));
		if (!x->cols || !x->cols_site) {
			cols_free(x);
			return NULL;
		}
		x->nr_cols = ss->nr;
	}
	if (id >= x->nr_cols)
		return NULL;
	if (x->cols[id] && x->cols_site[id] == s)
		return x->cols[id];
	lf = strlen(s->func);
	lfi = strlen(s->file);
	c = malloc(CLI_CSV_MAX(lf) + 1 + CLI_CSV_MAX(lfi) + 1);
	if (!c)
		return NULL;
	lf = cli_csv_put(c, s->func, lf);
	c[lf++] = ',';
	c[lf + cli_csv_put(c + lf, s->file, lfi)] = 0;
	free(x->cols[id]);
	x->cols[id] = c;
	x->cols_site[id] = s;
	return c;
}

/* @v in decimal at @o; Return: the end */
static char *put_u64(char *o, uint64_t v)
{
	return o + lgd_fmt_u64(o, v);
}

static char *put_str(char *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o, s, n);
	return o + n;
}

/* csv: the rows made so far written out (in batches of 64 KiB: cli_out_batch()) */
static void csv_flush(struct xctx *x)
{
	if (x->row_len && cli_out_batch(x->f, x->row, x->row_len) && !x->werr)
		x->werr = errno ? errno : EIO;
	x->row_len = 0;
}

/*
 * One csv row of a record, built in memory with no printf (the hot path of
 * export --format csv): the same bytes as fprintf() and cli_csv_field()
 * gave.  Return: 0, or -ENOMEM (nothing written).
 */
static int put_csv_rec(struct xctx *x, const struct lgd_item *it, const struct lgd_site *s,
		       const char *comm, size_t len, int has_delta, uint64_t delta,
		       const struct lgd_dur_mark *dm)
{
	const char *cols = s ? site_cols(x, s, it->rec.site) : "?,";
	size_t lc = comm ? strlen(comm) : 0, lcols;
	/* numbers (8 of at most 20 digits and a sign), names, commas: < 256 */
	size_t need;
	char *o;

	if (!cols)
		return -ENOMEM;
	lcols = strlen(cols);
	need = x->row_len + 256 + CLI_CSV_MAX(lc) + lcols + CLI_CSV_MAX(len) + x->clock_csv_len +
	       (x->bd ? LGD_BD_NR * 21 : 0);

	if (need > x->row_cap) {
		char *nr = realloc(x->row, need);

		if (!nr)
			return -ENOMEM;
		x->row = nr;
		x->row_cap = need;
	}
	o = put_u64(x->row + x->row_len, it->ts);
	*o++ = ',';
	o = put_u64(o, it->cpu);
	*o++ = ',';
	o = put_u64(o, it->rec.pid);
	*o++ = ',';
	o += cli_csv_put(o, comm ? comm : "", lc);
	*o++ = ',';
	o = put_str(o, lgd_ctx_name(it->rec.ctx));
	*o++ = ',';
	o = put_u64(o, it->rec.site);
	*o++ = ',';
	memcpy(o, cols, lcols);		/* func,file */
	o += lcols;
	*o++ = ',';
	o = put_u64(o, s ? s->line : 0);
	*o++ = ',';
	o = put_str(o, type_name(it->rec.type));
	*o++ = ',';
	o += cli_csv_put(o, x->msg, len);
	*o++ = ',';
	if (has_delta)
		o = put_u64(o, delta);
	*o++ = ',';
	if (dm && dm->ns < 0)
		*o++ = '-';
	if (dm)
		o = put_u64(o, dm->ns < 0 ? -(uint64_t)dm->ns : (uint64_t)dm->ns);
	memcpy(o, ",,", 2);
	o += 2;
	memcpy(o, x->clock_csv, x->clock_csv_len);
	o += x->clock_csv_len;
	for (unsigned int k = 0; x->bd && k < LGD_BD_NR; k++) {
		*o++ = ',';
		if (x->sp)
			o = put_u64(o, (uint64_t)x->sp->ns[k]);
	}
	memcpy(o, "\r\n", 2);
	o += 2;
	x->row_len = (size_t)(o - x->row);
	if (x->row_len >= (1u << 16))
		csv_flush(x);
	return 0;
}

static void perfetto_sep(struct xctx *x)
{
	fputs(x->first ? "\n" : ",\n", x->f);
	x->first = 0;
}

static void put_gap(struct xctx *x, const struct lgd_item *it)
{
	FILE *f = x->f;
	const char *k = lgd_gap_kind_name(it->gap_kind);

	csv_flush(x);	/* the rows before it first */
	if (x->fmt == X_CSV) {
		fprintf(f, "%" PRIu64 ",%u,,,,,,,,lost,,,,%s,%" PRIu64 "%s\r\n", it->ts, it->cpu, k,
			it->gap_count, x->clock_csv);
	} else if (x->fmt == X_JSON) {
		fprintf(f, "{\"ts_ns\":%" PRIu64 ",\"cpu\":%u,\"pid\":null,\"comm\":null,"
			"\"ctx\":null,\"site_id\":null,\"func\":null,\"file\":null,\"line\":null,"
			"\"type\":\"lost\",\"message\":null,\"delta_ns\":null,\"duration_ns\":null,"
			"\"lost_kind\":\"%s\",\"lost_count\":%" PRIu64 ",\"clock\":", it->ts, it->cpu, k,
			it->gap_count);
		cli_json_str(f, x->clock);
		fputs("}\n", f);
	} else {
		perfetto_sep(x);
		fprintf(f, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%u,\"ts\":", it->cpu + 1);
		put_us(f, it->ts);
		fprintf(f, ",\"name\":\"LOST\",\"cat\":\"lost\",\"args\":{\"kind\":\"%s\","
			"\"count\":%" PRIu64 "}}", k, it->gap_count);
	}
}

/* one record's row or event(s); Return: 0 or -ENOMEM */
static int put_rec(struct xctx *x, const struct lgd_item *it, const struct lgd_stream_step *sp,
		   const struct lgd_dur_mark *dm, uint64_t *negative)
{
	FILE *f = x->f;
	const struct lgd_site *s = lgd_sites_get(&x->r->sites, it->rec.site);
	const char *comm = lgd_comm_at(x->r, it->rec.pid, it->ts);
	size_t len = lgd_render_msg_bytes(x->r, it, x->msg, sizeof(x->msg), NULL);
	int has_delta = sp->has_prev && sp->kind == LGD_STEP_OK;

	if (x->fmt == X_CSV) {
		return put_csv_rec(x, it, s, comm, len, has_delta, sp->ns, dm);
	} else if (x->fmt == X_JSON) {
		fprintf(f, "{\"ts_ns\":%" PRIu64 ",\"cpu\":%u,\"pid\":%u,\"comm\":", it->ts, it->cpu,
			it->rec.pid);
		if (comm)
			cli_json_str(f, comm);
		else
			fputs("null", f);
		fprintf(f, ",\"ctx\":\"%s\",\"site_id\":%u,\"func\":", lgd_ctx_name(it->rec.ctx),
			it->rec.site);
		cli_json_str(f, s ? s->func : "?");
		fputs(",\"file\":", f);
		cli_json_str(f, s ? s->file : "");
		fprintf(f, ",\"line\":%u,\"type\":\"%s\",\"message\":", s ? s->line : 0,
			type_name(it->rec.type));
		cli_json_strn(f, x->msg, len);
		fputs(",\"delta_ns\":", f);
		if (has_delta)
			fprintf(f, "%" PRIu64, sp->ns);
		else
			fputs("null", f);
		fputs(",\"duration_ns\":", f);
		if (dm)
			fprintf(f, "%" PRId64, dm->ns);
		else
			fputs("null", f);
		fputs(",\"lost_kind\":null,\"lost_count\":null,\"clock\":", f);
		cli_json_str(f, x->clock);
		for (unsigned int k = 0; x->bd && k < LGD_BD_NR; k++) {
			fprintf(f, ",\"%s_ns\":", lgd_bd_bucket_name(k));
			if (x->sp)
				fprintf(f, "%" PRId64, x->sp->ns[k]);
			else
				fputs("null", f);
		}
		fputs("}\n", f);
	} else {
		char *label = lgd_site_label_alloc(&x->r->sites, it->rec.site);

		perfetto_sep(x);
		fprintf(f, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%u,\"ts\":", it->cpu + 1);
		put_us(f, it->ts);
		fputs(",\"name\":", f);
		cli_json_str(f, label ? label : "?");
		fputs(",\"cat\":\"record\",\"args\":{\"msg\":", f);
		cli_json_strn(f, x->msg, len);
		fprintf(f, ",\"pid\":%u,\"comm\":", it->rec.pid);
		cli_json_str(f, comm ? comm : "");
		fprintf(f, ",\"ctx\":\"%s\",\"site\":%u}}", lgd_ctx_name(it->rec.ctx),
			it->rec.site);
		free(label);
		if (dm && dm->ns < 0) {
			(*negative)++;
		} else if (dm && (uint64_t)dm->ns <= it->ts) {
			const char *name = it->rec.site < x->du->nr_sites ?
					   x->du->name[it->rec.site] : NULL;

			perfetto_sep(x);
			fprintf(f, "{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", dm->entry_cpu + 1);
			put_us(f, it->ts - (uint64_t)dm->ns);
			fputs(",\"dur\":", f);
			put_us(f, (uint64_t)dm->ns);
			fputs(",\"name\":", f);
			cli_json_str(f, name ? name : "?");
			fprintf(f, ",\"cat\":\"duration\",\"args\":{\"ret_cpu\":%u,\"pid\":%u}}",
				dm->ret_cpu, it->rec.pid);
		}
	}
	return 0;
}

static void perfetto_head(struct xctx *x, const char *file)
{
	FILE *f = x->f;
	char name[512];

	snprintf(name, sizeof(name), "logdev %s", file ? file : "live");
	/* the trace clock in the format's own metadata dictionary */
	fputs("{\"displayTimeUnit\":\"ns\",\"metadata\":{\"clock\":", f);
	cli_json_str(f, x->clock);
	fputs(",\"ftrace_clock\":", f);
	if (lgd_clock_ftrace(x->clock))
		cli_json_str(f, lgd_clock_ftrace(x->clock));
	else
		fputs("null", f);
	fputs("},\"traceEvents\":[", f);
	perfetto_sep(x);
	fputs("{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":", f);
	cli_json_str(f, name);
	fputs("}}", f);
	for (uint32_t i = 0; i < x->r->nr_cpus; i++) {
		uint32_t c = x->r->cpus[i];

		perfetto_sep(x);
		fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\","
			"\"args\":{\"name\":\"CPU %u\"}}", c + 1, c);
		perfetto_sep(x);
		fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_sort_index\","
			"\"args\":{\"sort_index\":%u}}", c + 1, c);
	}
}

/*
 * --pair labels @pairs[@n] as site ids into @ids, from capture @r; a label
 * no site has said.  Return: 0 or 2.
 */
static int pair_ids(struct lgd_reader *r, const char *const *pairs, int n, uint32_t (*ids)[2])
{
	for (int i = 0; i < n; i++) {
		char *from = strdup(pairs[i]), *to = from ? strchr(from, ',') : NULL;
		int64_t fi = -1, ti = -1;

		if (to) {
			*to++ = 0;
			fi = cli_site_by_label(r, from);
			ti = cli_site_by_label(r, to);
		}
		if (fi >= 0 && ti >= 0)
			free(from);
		if (fi < 0 || ti < 0) {
			fprintf(stderr, "logdev export: --pair %s: no site of the capture has that "
				"label (func:line, as deltas prints)\n", pairs[i]);
			if (to)
				cli_site_unknown(r, fi < 0 ? from : to);
			free(from);
			return 2;
		}
		ids[i][0] = (uint32_t)fi;
		ids[i][1] = (uint32_t)ti;
	}
	return 0;
}

/*
 * Capture @file (NULL: a snapshot of the live buffers) exported in format
 * @fmt to @out, pairs by @by, --pair FROM,TO labels @pairs[@npairs].
 */
static int export_file(const char *file, const char *out, int fmt, int by,
		       const char *const *pairs, int npairs, int breakdown)
{
	struct lgd_bd_split bsp;
	unsigned int have = 0;
	static struct xctx x;
	uint32_t ids[16][2];
	/* returns paired first: one can come before its entry in time order;
	 * pairs never span a record a filter left out */
	const struct lgd_records_opts o = {
		.items = LGD_ITEMS_FILTERED, .durations = 1,
		.pairs = (const uint32_t (*)[2])ids, .nr_pairs = (size_t)npairs,
		.steps = 1, .by = by,
	};
	struct lgd_records rs;
	struct lgd_record y;
	struct lgd_reader r;
	struct cli_out of;
	int ret = 0, failed = 0;
	uint64_t negative = 0;

	if (cli_open_input(file, &r))
		return 1;
	if (pair_ids(&r, pairs, npairs, ids)) {
		lgd_reader_close(&r);
		return 2;
	}
	ret = lgd_records_open(&rs, &r, &o);
	if (ret) {
		if (ret == -EINVAL)
			fprintf(stderr, "logdev export: --pair %s: the same site twice, or a "
				"probe's site\n", pairs[rs.bad_pair]);
		else
			fprintf(stderr, "logdev: out of memory\n");
		lgd_reader_close(&r);
		return ret == -EINVAL ? 2 : 1;
	}
	x.bd = NULL;
	ret = breakdown ? cli_bd_open("export", &r, &x.bd, &have) : 0;
	if (!ret)
		ret = cli_out_open(&of, out, "export", &file, 1);
	if (ret) {
		lgd_bd_close(x.bd);
		lgd_records_close(&rs);
		lgd_reader_close(&r);
		return ret;
	}
	x.f = of.f;
	cli_out_buffer(x.f);
	x.fmt = fmt;
	x.first = 1;
	x.r = &r;
	x.du = &rs.du;
	x.clock = lgd_clock_name(&r.hdr);
	x.clock_csv[0] = ',';
	x.clock_csv_len = 1 + cli_csv_put(x.clock_csv + 1, x.clock, strlen(x.clock));
	x.clock_csv[x.clock_csv_len] = '\0';
	cli_dur_huge(rs.du.stats.huge);
	if (fmt == X_CSV)
		fprintf(x.f, "ts_ns,cpu,pid,comm,ctx,site_id,func,file,line,type,message,delta_ns,"
			"duration_ns,lost_kind,lost_count,clock%s\r\n", x.bd ? ",own_ns,hardirq_ns,"
			"softirq_ns,nmi_ns,preempted_ns,blocked_ns" : "");
	else if (fmt == X_PERFETTO)
		perfetto_head(&x, file);
	while ((ret = lgd_records_next(&rs, &y)) > 0) {
		if (x.bd && (ret = cli_bd_row(x.bd, &rs, &y, &bsp)) < 0)
			break;
		x.sp = x.bd && ret ? &bsp : NULL;
		if (y.it.filtered)
			continue;
		/* perfetto --breakdown: the markers are the slices, not instants too */
		if (x.bd && fmt == X_PERFETTO && cli_bd_is_marker(&r, &y.it))
			continue;
		if (y.it.kind == LGD_ITEM_GAP)
			put_gap(&x, &y.it);
		else if (put_rec(&x, &y.it, &y.step, y.dur, &negative)) {
			ret = -ENOMEM;
			break;
		}
	}
	if (ret < 0) {
		fprintf(stderr, "logdev: %s\n", strerror(-ret));
		failed = 1;
	}
	csv_flush(&x);
	if (x.werr) {
		fprintf(stderr, "logdev export: %s: %s\n", of.path, strerror(x.werr));
		failed = 1;
	}
	if (fmt == X_PERFETTO && x.bd && !failed)
		cli_bd_perfetto(x.f, &r, x.bd, &x.first);
	if (fmt == X_PERFETTO)
		fputs("\n]}\n", x.f);
	if (x.bd && !failed && cli_bd_none(x.bd))
		failed = 2;
	cli_filter_notes(&r, &rs.m.counts, NULL);
	cli_cost_raw_note(stderr, "logdev export: ", &r, "export");
	if (!failed)	/* rows whose delta_ns is empty by deltas' rule (lgd_ts_step()) */
		cli_left_out_note("logdev", NULL, rs.st.left_back, rs.st.left_huge);
	if (negative) {
		fprintf(stderr, "logdev export: warning: %" PRIu64 " negative duration%s (the "
			"CPUs' clocks disagree) left without a slice\n", negative,
			negative == 1 ? "" : "s");
		cli_nwarn++;
	}
	if (failed)
		cli_out_abort(&of);	/* an older OUT kept */
	else if (cli_out_commit(&of))
		failed = 1;
	lgd_bd_close(x.bd);
	if (failed == 2) {
		lgd_records_close(&rs);
		lgd_reader_close(&r);
		return 2;
	}
	free(x.row);
	cols_free(&x);
	lgd_records_close(&rs);
	lgd_reader_close(&r);
	return cli_exit_status(failed);
}

int cmd_export(int argc, char **argv)
{
	const char *file = NULL, *out = NULL, *pairs[16];
	int fmt = -1, by = LGD_BY_CONTEXT, npairs = 0, breakdown = 0;

	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'F' },	/* no short option: -f is --follow */
		{ "output", required_argument, NULL, 'o' },
		{ "by", required_argument, NULL, 'b' },
		{ "pair", required_argument, NULL, 'p' },
		{ "breakdown", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },
		CLI_FILTER_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct cli_getopt g = { &cli_cmd_export, ":o:b:h", lo, &by, 0 };
	int c;

	while ((c = cli_getopt(&g, argc, argv)) > 0) {
		switch (c) {
		case 'F':
			if (!strcmp(optarg, "json"))
				fmt = X_JSON;
			else if (!strcmp(optarg, "csv"))
				fmt = X_CSV;
			else if (!strcmp(optarg, "perfetto"))
				fmt = X_PERFETTO;
			else {
				fprintf(stderr, "logdev export: bad format %s (json, csv or "
					"perfetto)\n", optarg);
				return 2;
			}
			break;
		case 'o':
			out = optarg;
			break;
		case 'p':
			if (npairs == 16 || !strchr(optarg, ',')) {
				fprintf(stderr, "logdev export: --pair FROM,TO (two site labels, "
					"at most 16 pairs): %s\n", optarg);
				return 2;
			}
			pairs[npairs++] = optarg;
			break;
		case 'B':
			breakdown = 1;
			break;
		}
	}
	if (!c)
		return g.status;
	if (fmt < 0) {
		fprintf(stderr, "logdev export: --format json, csv or perfetto is required\n");
		return cli_verb_usage_error(&cli_cmd_export);
	}
	if (cli_file_arg("export", argc, argv, optind, &file))
		return 2;
	return export_file(file, out, fmt, by, pairs, npairs, breakdown);
}
