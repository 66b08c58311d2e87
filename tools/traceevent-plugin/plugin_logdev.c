// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin_logdev.c - libtraceevent plugin printing the logdev events of a
 * trace.dat made by `logdev convert` in logdev's own style:
 *
 *   [CTX ]FUNC:LINE MESSAGE[  {argN=V ...}][  +DELTA us]
 *
 * the text `logdev report` prints after "pid:P " (CTX only when not task
 * context; DELTA from the event's delta_ns field, in us with 3 decimals,
 * absent when delta_ns is -1).  Event layout: docs/TRACE-CMD.md, "The events".
 *
 * Options (trace-cmd report -O logdev:NAME[=0|1], or -O logdev:NAME to
 * toggle):
 *   file    prefix the label with the source file (FILE:FUNC:LINE)   off
 *   delta   print the delta                                            on
 *   fields  print the typed argument fields arg0, arg1, ... raw:
 *           signed in decimal, unsigned in hex (0x...), strings quoted off
 * The loader registers them with tep_plugin_add_options(), which applies
 * the -O values given so far; the unloader removes them.  They are not
 * exported as TEP_PLUGIN_OPTIONS: libtraceevent 1.9 dropped that symbol
 * (the macro is gone from event-parse.h and load_plugin() no longer looks
 * it up), so a plugin relying on it silently ignores every -O.  Loaded
 * into several teps at once (trace-cmd report -i A -i B), the options are
 * registered by the first load only: each registration applies the -O
 * values again, and a toggle applied twice would undo itself.
 *
 * Event names are per call site and not known in advance.  trace-cmd loads
 * plugins before it parses the file's event formats, and a pending handler
 * (tep_register_event_handler() for an event not yet parsed) is consumed by
 * the first event it matches.  A pending handler with no event name can
 * only be left in the tep if it has an id: libtraceevent 1.7.1's
 * tep_unregister_event_handler() does strcmp(name, pending->event_name),
 * so another plugin's unloader would crash on it, and removing it by
 * system alone crashes the same way.  So the loader registers, for each
 * id `logdev convert` gives (LOGDEV_ID_FIRST on, one per call site), a
 * pending handler for "event ID if it is in system logdev", and the
 * unloader removes the unused ones by id before a plugin loaded earlier
 * (unloaded later) walks the list.  Events already parsed (a program
 * that loads plugins after the file) get the handler at load; the first
 * time the handler runs it gives it to every logdev event that has none
 * (ids outside the range).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#define LOGDEV_SYS "logdev"
/*
 * pending handlers for ids LOGDEV_ID_FIRST.. (userspace/lib/convert.c's
 * LGD_CONV_FIRST_ID): parsing an event of another system walks all of them
 * (an int compare each), measured in docs/TRACE-CMD.md ("How it finds events
 * whose names it cannot know")
 */
#define LOGDEV_ID_FIRST 1000
#define LOGDEV_PENDING 4096

static struct tep_plugin_option logdev_options[] = {
	{
		.name = "file",
		.plugin_alias = "logdev",
		.description = "print the source file before func:line",
		.set = 0,
	},
	{
		.name = "delta",
		.plugin_alias = "logdev",
		.description = "print the delta since the previous logdev record of the CPU and context",
		.set = 1,
	},
	{
		.name = "fields",
		.plugin_alias = "logdev",
		.description = "print the argument fields raw (arg0=V ...)",
		.set = 0,
	},
	{ .name = NULL },
};

static struct tep_plugin_option *opt_file = &logdev_options[0];
static struct tep_plugin_option *opt_delta = &logdev_options[1];
static struct tep_plugin_option *opt_fields = &logdev_options[2];

/* one per tep the plugin is loaded into: has the handler swept its events? */
struct logdev_ctx {
	struct logdev_ctx *next;
	struct tep_handle *tep;
	int swept;
};

static struct logdev_ctx *ctxs;

static int logdev_handler(struct trace_seq *s, struct tep_record *record,
			  struct tep_event *event, void *context);

/* a u32/u64 field by name; 0 if absent or unreadable */
static int num_field(struct tep_event *event, struct tep_record *record,
		     const char *name, unsigned long long *val)
{
	struct tep_format_field *f = tep_find_field(event, name);

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > record->size)
		return 0;
	return tep_read_number_field(f, record->data, val) == 0;
}

/*
 * the NUL-terminated string of __data_loc field @f, checked against the
 * record's bounds; NULL if it does not fit
 */
static const char *str_of(struct tep_format_field *f, struct tep_record *record)
{
	unsigned long long dl;
	unsigned int off, len;
	const char *p;

	if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size != 4 ||
	    f->offset < 0 || f->offset + 4 > record->size)
		return NULL;
	if (tep_read_number_field(f, record->data, &dl))
		return NULL;
	off = dl & 0xffff;
	len = (dl >> 16) & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (!len || off + len > (unsigned int)record->size)
		return NULL;
	p = (const char *)record->data + off;
	if (memchr(p, '\0', len) == NULL)
		return NULL;
	return p;
}

static const char *str_field(struct tep_event *event, struct tep_record *record,
			     const char *name)
{
	return str_of(tep_find_field(event, name), record);
}

/* does @s end with "_DIGITS"?  Its length without them, else 0 */
static size_t digits_suffix(const char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i == n || i < 2 || s[i - 1] != '_')
		return 0;
	return i - 1;
}

/*
 * A site's label, worked out once from its event name (the layout has no
 * func field) and its first record: FUNC_LINE, FUNC_LINE_N (name collision:
 * "#N", and "#1" for FUNC_LINE when FUNC_LINE_2 exists); a probe's NAME,
 * NAME__return shown as logdev shows it, NAME%return; site_ID with no file
 * (a record of an unknown site) as site#ID:?.
 */
struct site_label {
	int done;
	int kind;		/* LABEL_* */
	int func_len;		/* the function: that many bytes of the event name */
	int ret;		/* probe return: "%return" after the name */
	unsigned int seq;	/* "#N", 0 for none */
};

enum { LABEL_FUNC, LABEL_PROBE, LABEL_UNKNOWN };

static void fill_label(struct site_label *l, struct tep_event *event,
		       const char *file, unsigned long long line,
		       unsigned long long site, int have_site)
{
	static const char ret[] = "__return";
	const char *name = event->name;
	size_t n = strlen(name), ls, m;
	char sfx[32];

	memset(l, 0, sizeof(*l));
	l->done = 1;
	l->func_len = (int)n;
	if (file && !strcmp(file, "probe")) {
		l->kind = LABEL_PROBE;
		if (n > sizeof(ret) - 1 && !strcmp(name + n - (sizeof(ret) - 1), ret)) {
			l->ret = 1;
			l->func_len = (int)(n - (sizeof(ret) - 1));
		}
		return;
	}
	if ((!file || !*file) && have_site) {
		snprintf(sfx, sizeof(sfx), "site_%llu", site);
		if (!strcmp(name, sfx)) {
			l->kind = LABEL_UNKNOWN;
			return;
		}
	}
	ls = (size_t)snprintf(sfx, sizeof(sfx), "_%llu", line);
	if (n > ls && !strcmp(name + n - ls, sfx)) {
		char *twin;

		l->func_len = (int)(n - ls);
		/* FUNC_LINE is #1 if there is a FUNC_LINE_2 */
		twin = malloc(n + 3);
		if (twin) {
			snprintf(twin, n + 3, "%s_2", name);
			if (tep_find_event_by_name(event->tep, LOGDEV_SYS, twin))
				l->seq = 1;
			free(twin);
		}
		return;
	}
	/* FUNC_LINE_N */
	m = digits_suffix(name, n);
	if (m > ls && !strncmp(name + m - ls, sfx, ls)) {
		l->func_len = (int)(m - ls);
		l->seq = (unsigned int)strtoul(name + m + 1, NULL, 10);
	}
}

static void print_label(struct trace_seq *s, struct tep_event *event,
			const struct site_label *l, const char *file,
			unsigned long long line, unsigned long long site)
{
	switch (l->kind) {
	case LABEL_PROBE:
		trace_seq_printf(s, "%.*s%s:%llu", l->func_len, event->name,
				 l->ret ? "%return" : "", line);
		return;
	case LABEL_UNKNOWN:
		trace_seq_printf(s, "site#%llu:?", site);
		return;
	}
	if (file && *file && opt_file->set)
		trace_seq_printf(s, "%s:", file);
	trace_seq_printf(s, "%.*s:%llu", l->func_len, event->name, line);
	if (l->seq)
		trace_seq_printf(s, "#%u", l->seq);
}

static const char *ctx_name(unsigned long long ctx)
{
	switch (ctx) {
	case 0: return "task";
	case 1: return "softirq";
	case 2: return "hardirq";
	case 3: return "nmi";
	}
	return "ctx?";
}

/* " {arg0=V arg1=V ...}" for the fields named argN, in format order */
static void print_args(struct trace_seq *s, struct tep_event *event,
		       struct tep_record *record)
{
	struct tep_format_field *f;
	int first = 1;

	for (f = event->format.fields; f; f = f->next) {
		const char *p = f->name + 3;

		if (strncmp(f->name, "arg", 3) || !*p || p[strspn(p, "0123456789")])
			continue;
		trace_seq_printf(s, "%s%s=", first ? "  {" : " ", f->name);
		first = 0;
		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			const char *v = str_of(f, record);

			if (v)
				trace_seq_printf(s, "\"%s\"", v);
			else
				trace_seq_puts(s, "?");
		} else {
			unsigned long long v;

			if (f->offset < 0 || f->offset + f->size > record->size ||
			    tep_read_number_field(f, record->data, &v))
				trace_seq_puts(s, "?");
			else if (f->flags & TEP_FIELD_IS_SIGNED)
				trace_seq_printf(s, "%lld", f->size == 8 ? (long long)v :
						 f->size == 4 ? (long long)(int)v :
						 f->size == 2 ? (long long)(short)v :
						 (long long)(signed char)v);
			else
				trace_seq_printf(s, "0x%llx", v);
		}
	}
	if (!first)
		trace_seq_puts(s, "}");
}

/*
 * give every parsed logdev event without a handler (or with this one but
 * no label yet) this one, with a label to fill
 */
static void sweep(struct tep_handle *tep)
{
	int n = tep_get_events_count(tep);

	for (int i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(tep, i);

		if (!e || !e->system || strcmp(e->system, LOGDEV_SYS))
			continue;
		if (!e->handler || (e->handler == logdev_handler && !e->context))
			tep_register_event_handler(tep, e->id, LOGDEV_SYS, e->name,
						   logdev_handler,
						   calloc(1, sizeof(struct site_label)));
	}
}

static int logdev_handler(struct trace_seq *s, struct tep_record *record,
			  struct tep_event *event, void *context)
{
	struct logdev_ctx *c;
	struct site_label tmp, *l;
	unsigned long long line = 0, ctx = 0, site = 0, d;
	int have_site;
	const char *file, *msg;

	for (c = ctxs; c && c->tep != event->tep; c = c->next)
		;
	if (c && !c->swept) {
		c->swept = 1;
		sweep(event->tep);
	}
	/* the sweep may have given this event its label */
	l = event->context ? event->context : context;
	have_site = num_field(event, record, "site", &site);
	num_field(event, record, "line", &line);
	num_field(event, record, "ctx", &ctx);
	file = str_field(event, record, "file");
	msg = str_field(event, record, "msg");
	if (!l)
		l = &tmp;	/* no memory for one: work it out each time */
	if (l == &tmp || !l->done)
		fill_label(l, event, file, line, site, have_site);

	if (ctx)
		trace_seq_printf(s, "%s ", ctx_name(ctx));
	print_label(s, event, l, file, line, site);
	trace_seq_printf(s, " %s", msg ? msg : "(message unreadable)");
	if (opt_fields->set)
		print_args(s, event, record);
	if (opt_delta->set && num_field(event, record, "delta_ns", &d)) {
		long long dn = (long long)d;

		if (dn >= 0)
			trace_seq_printf(s, "  +%lld.%03lld us", dn / 1000, dn % 1000);
		else if (dn != -1)
			trace_seq_printf(s, "  -%lld.%03lld us", -(dn / 1000), -(dn % 1000));
	}
	return 0;
}

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	struct logdev_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	/* the first tep: the options, with the -O values given */
	if (!ctxs && tep_plugin_add_options(LOGDEV_SYS, logdev_options) < 0) {
		free(c);
		return -1;
	}
	c->tep = tep;
	c->next = ctxs;
	ctxs = c;
	/* events already parsed (a program that loads plugins after the file) */
	sweep(tep);
	/* events still to come (trace-cmd): one pending handler per id */
	for (int i = 0; i < LOGDEV_PENDING; i++)
		tep_register_event_handler(tep, LOGDEV_ID_FIRST + i, LOGDEV_SYS, NULL,
					   logdev_handler, NULL);
	return 0;
}

int TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	struct logdev_ctx **pc, *c;
	int n = tep_get_events_count(tep);

	/*
	 * the pending ones (and the events they went to), newest first: each
	 * is then found at the head of the tep's handler list
	 */
	for (int i = LOGDEV_PENDING - 1; i >= 0; i--)
		tep_unregister_event_handler(tep, LOGDEV_ID_FIRST + i, LOGDEV_SYS, NULL,
					     logdev_handler, NULL);
	/* the swept ones, with their labels */
	for (int i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(tep, i);
		void *l;

		if (e && e->handler == logdev_handler) {
			l = e->context;
			tep_unregister_event_handler(tep, e->id, e->system, e->name,
						     logdev_handler, l);
			free(l);
		}
	}
	for (pc = &ctxs; *pc; pc = &(*pc)->next) {
		if ((*pc)->tep == tep) {
			c = *pc;
			*pc = c->next;
			free(c);
			break;
		}
	}
	/* the last tep: the options go (the next load registers them again) */
	if (!ctxs)
		tep_plugin_remove_options(logdev_options);
	return 0;
}
