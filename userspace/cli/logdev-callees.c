// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-callees.c: CLI: "logdev callees [--probes] FUNC...": the functions
 * FUNC calls and tail-calls, from its machine code (the library's
 * lgd_callees_find(): /proc/kcore's bytes, /proc/kallsyms' symbols, the
 * kprobes blacklist), each probed or skipped with the reason, and the
 * indirect branches it cannot follow; and cli_callees_probes(), the probe
 * lines `record --callees FUNC` attaches.  Root: /proc/kcore and the
 * addresses of /proc/kallsyms.  $LOGDEV_KALLSYMS, $LOGDEV_KCORE and
 * $LOGDEV_KPROBES_BLACKLIST name other files (tests).
 * Exit: 0 listed, 1 the kernel's files unreadable, 2 usage or a FUNC that
 * names no function (none, or several of that name), as record --callees.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli-callees.h"

const struct cli_cmd cli_cmd_callees = {
	"callees", cmd_callees, "callees [--probes] FUNC...",
	"      --probes         print only the probes-file lines: a return probe on\n"
	"                       FUNC and on each callee that can be probed\n"
	"  FUNC: NAME (defined once), MOD:NAME, or 0xADDR (a function's start).\n"
	"  Reads /proc/kcore and /proc/kallsyms (root) and the kprobes blacklist;\n"
	"  record --callees FUNC probes them for the length of a recording.\n",
};

static const char *envor(const char *var, const char *def)
{
	const char *e = getenv(var);

	return e && *e ? e : def;
}

static const char *errtext(int err)
{
	switch (err) {
	case -ENOENT: return "no such function in /proc/kallsyms";
	case -EADDRNOTAVAIL: return "defined more than once: give MOD:NAME or 0xADDR";
	case -ERANGE: return "its end is unknown or it is longer than 1 MiB";
	case -EFAULT: return "its bytes are not in /proc/kcore";
	case -ENOSYS: return "the instruction decoder (Capstone) cannot be opened";
	default: return strerror(-err);
	}
}

int cli_callees_get(const char *func, struct lgd_callees *cs)
{
	const char *kp = envor("LOGDEV_KALLSYMS", "/proc/kallsyms");
	const char *bp = envor("LOGDEV_KPROBES_BLACKLIST", "/sys/kernel/debug/kprobes/blacklist");
	const char *cp = envor("LOGDEV_KCORE", "/proc/kcore");
	struct lgd_ksyms k = { 0 };
	struct lgd_kcore *kc = NULL;
	char *text, *bl;
	size_t len;
	int err;

	text = lgd_rec_read_text(NULL, kp, &len);
	if (!text) {
		fprintf(stderr, "logdev: callees: cannot read %s: %s\n", kp, strerror(errno));
		return 1;
	}
	err = lgd_ksyms_parse(&k, text, len);
	free(text);
	if (err <= 0) {
		fprintf(stderr, "logdev: callees: %s: %s\n", kp,
			err ? strerror(-err) : "no addresses (not root, or kptr_restrict)");
		lgd_ksyms_free(&k);
		return 1;
	}
	err = lgd_kcore_open(&kc, cp);
	if (err) {
		fprintf(stderr, "logdev: callees: cannot read %s: %s\n", cp,
			err == -ENOEXEC ? "not an ELF core file" : strerror(-err));
		lgd_ksyms_free(&k);
		return 1;
	}
	bl = lgd_rec_read_text(NULL, bp, &len);
	if (!bl)
		cli_nwarn++, fprintf(stderr, "logdev: callees: warning: cannot read %s (%s): "
				     "blacklisted callees not known; the kernel refuses them when attached\n",
				     bp, strerror(errno));
	err = lgd_callees_find(&k, func, lgd_kcore_read, kc, bl, cs);
	free(bl);
	lgd_kcore_close(kc);
	lgd_ksyms_free(&k);
	if (err) {
		fprintf(stderr, "logdev: callees: %s: %s\n", func, errtext(err));
		return err == -ENOENT || err == -EADDRNOTAVAIL ? 2 : 1;
	}
	return 0;
}

/* "N probed, N skipped; N indirect calls and N indirect jumps not followed" */
static void summary(FILE *f, const struct lgd_callees *cs)
{
	size_t probed = 0;

	for (size_t i = 0; i < cs->nr; i++)
		probed += cs->v[i].skip == LGD_CALLEE_PROBE;
	fprintf(f, "%s%s%s: 0x%" PRIx64 ", %" PRIu64 " bytes", cs->mod ? cs->mod : "",
		cs->mod ? ":" : "", cs->name, cs->addr, cs->size);
	if (cs->cold)
		fprintf(f, " (+%" PRIu64 " in .cold parts)", cs->cold);
	fprintf(f, ", %zu instructions: %zu callees to probe, %zu skipped; "
		"%u indirect calls and %u indirect jumps not followed (targets known only at run time)\n",
		cs->br.insns, probed, cs->nr - probed, cs->br.indirect_calls, cs->br.indirect_jmps);
	if (cs->br.bad_bytes)
		cli_nwarn++, fprintf(f, "warning: %zu bytes decoded as no instruction: "
				     "callees after them may be missed\n", cs->br.bad_bytes);
}

/*
 * one callee's line; a probed one whose probe gets another name (a name
 * with bytes a probe name cannot have, "x.part.0"; one defined twice) says
 * that name, which deltas prints
 */
static void one_callee(FILE *f, const struct lgd_callees *cs, const struct lgd_callee *c)
{
	char spec[LGD_KSYM_NAME_LEN * 2 + 64];
	size_t w;

	fprintf(f, "  %-5s %s%s%s", c->skip == LGD_CALLEE_PROBE ? "probe" : "skip",
		c->mod ? c->mod : "", c->mod ? ":" : "", c->name);
	if (c->off)
		fprintf(f, "+0x%" PRIx64, c->off);
	if (c->calls)
		fprintf(f, " calls=%u", c->calls);
	if (c->tails)
		fprintf(f, " tail=%u", c->tails);
	if (c->via)
		fprintf(f, " via=%s", c->via);
	if (c->dup)
		fprintf(f, " (name defined more than once: by address)");
	if (c->skip != LGD_CALLEE_PROBE)
		fprintf(f, ": %s", lgd_callee_skip_str(c->skip));
	else if (lgd_callee_probe(cs, c, spec, sizeof(spec)) > 2 &&
		 ((w = strcspn(spec + 2, "=")) != strlen(c->name) || strncmp(spec + 2, c->name, w)))
		fprintf(f, " (probe name %.*s)", (int)w, spec + 2);
	fputc('\n', f);
}

int cli_callees_probes(const char *func, char ***lines, size_t *n, FILE *notes)
{
	struct lgd_callees cs;
	char buf[LGD_KSYM_NAME_LEN * 2 + 64];
	char **v;
	int rc = cli_callees_get(func, &cs);

	if (rc)
		return rc;
	if (notes) {
		fprintf(notes, "logdev: callees of ");
		summary(notes, &cs);
		for (size_t i = 0; i < cs.nr; i++)
			if (cs.v[i].skip != LGD_CALLEE_PROBE)
				one_callee(notes, &cs, &cs.v[i]);
	}
	v = realloc(*lines, (*n + cs.nr + 1) * sizeof(*v));
	if (!v)
		goto err_nomem;
	*lines = v;
	for (size_t i = 0; i <= cs.nr; i++) {
		const struct lgd_callee *c = i ? &cs.v[i - 1] : NULL;

		if (c && c->skip != LGD_CALLEE_PROBE)
			continue;
		if (lgd_callee_probe(&cs, c, buf, sizeof(buf)) < 0 || !(v[*n] = strdup(buf)))
			goto err_nomem;
		++*n;
	}
	lgd_callees_free(&cs);
	return 0;
err_nomem:
	fprintf(stderr, "logdev: callees: out of memory\n");
	lgd_callees_free(&cs);
	return 1;
}

int cli_callees_specs(struct cli_probe_specs *ps, const char *func)
{
	char **lines = NULL, where[160];
	size_t n = 0;
	int rc = cli_callees_probes(func, &lines, &n, stderr) ? 2 : 0;

	snprintf(where, sizeof(where), "--callees %.140s", func);
	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < ps->n && strcmp(ps->v[j], lines[i]); j++)
			;
		if (!rc && j == ps->n) {
			rc = cli_probe_spec_push(ps, lines[i], where);
			lines[i] = NULL;
		}
		free(lines[i]);
	}
	free(lines);
	return rc;
}

int cli_probe_opt(struct cli_probe_specs *ps, int opt, const char *arg)
{
	if (opt == 'C')
		return cli_callees_specs(ps, arg);
	return cli_probe_spec_add(ps, arg, opt == 'P');
}

int cmd_callees(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "probes", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_getopt g = { &cli_cmd_callees, ":h", lo, NULL, 0 };
	int c, probes = 0, rc = 0, e;

	while ((c = cli_getopt(&g, argc, argv)) > 0)
		probes = 1;	/* --probes */
	if (!c)
		return g.status;
	if (optind >= argc) {
		fprintf(stderr, "logdev callees: name a FUNC\n");
		return cli_verb_usage_error(&cli_cmd_callees);
	}
	for (int i = optind; i < argc; i++) {
		struct lgd_callees cs;
		char **lines = NULL;
		size_t n = 0;

		if (probes) {
			e = cli_callees_probes(argv[i], &lines, &n, NULL);
			rc = e > rc ? e : rc;
			for (size_t j = 0; j < n; j++) {
				printf("%s\n", lines[j]);
				free(lines[j]);
			}
			free(lines);
			continue;
		}
		e = cli_callees_get(argv[i], &cs);
		if (e) {
			rc = e > rc ? e : rc;
			continue;
		}
		summary(stdout, &cs);
		for (size_t j = 0; j < cs.nr; j++)
			one_callee(stdout, &cs, &cs.v[j]);
		lgd_callees_free(&cs);
	}
	if (cli_stdout_done())
		return 1;
	return rc ? rc : cli_exit_status(0);
}
