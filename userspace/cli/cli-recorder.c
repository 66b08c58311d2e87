// SPDX-License-Identifier: GPL-2.0
/*
 * cli-recorder.c: the CLI's side of the recorder (layer: CLI): the
 * library's recorder steps (lib/recorder.c) with their problems said on
 * stderr, and how long a recorder thread naps between drains; record's
 * probes (-p, --probe-file: lib/probectl.c) gathered, attached, removed;
 * a capture cut by a write error ended as salvaged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"

/* why a format that needs symbols will print them as hex */
static void ksyms_note(const struct lgd_rec_status *st)
{
	if (st->ksyms == LGD_REC_KSYMS_UNREADABLE)
		fprintf(stderr, "logdev: warning: cannot read /proc/kallsyms (%s): %%pS will print as hex\n",
			strerror(st->ksyms_errno));
	else if (st->ksyms == LGD_REC_KSYMS_HIDDEN)
		fprintf(stderr, "logdev: warning: /proc/kallsyms shows no addresses "
				"(not root, or kptr_restrict): %%pS will print as hex\n");
}

int cli_write_formats(struct lgd_cap_writer *w, const char *dir, const char *formats,
		      size_t len, int *ksyms_done)
{
	struct lgd_rec_status st = { 0 };
	int ret = lgd_rec_formats(w, dir, formats, len, ksyms_done, &st);

	ksyms_note(&st);
	return ret;
}

int cli_write_meta(struct lgd_cap_writer *w, const char *dir,
		   uint32_t *subbuf_size, int *ksyms_done)
{
	struct lgd_rec_status st;
	int ret = lgd_rec_meta(w, dir, subbuf_size, ksyms_done, &st);

	ksyms_note(&st);
	switch (ret ? st.stage : 0) {
	case 0:
		break;
	case LGD_REC_READ_HEADER:
		fprintf(stderr, "logdev: cannot read %s/header: %s\n", dir, strerror(-ret));
		break;
	case LGD_REC_PARSE_HEADER:
		fprintf(stderr, "logdev: %s/header: %s\n", dir, cli_diag_text(st.d.msg));
		break;
	case LGD_REC_READ_FORMATS:
		fprintf(stderr, "logdev: cannot read %s/formats: %s\n", dir, strerror(-ret));
		break;
	default:
		fprintf(stderr, "logdev: writing capture: %s\n", strerror(-ret));
		break;
	}
	return ret;
}

int cli_nap_ms(uint64_t most, double dt, uint64_t buf_bytes)
{
	double ms;

	if (!most || !buf_bytes || !(dt > 0))
		return 0;
	/* the time @most bytes took, scaled to a quarter of the buffer */
	ms = 1000.0 * dt * ((double)buf_bytes / 4) / (double)most;
	return ms >= CLI_NAP_MAX_MS ? CLI_NAP_MAX_MS : (int)ms;
}

int cli_probe_spec_push(struct cli_probe_specs *ps, char *spec, const char *where)
{
	char **nv, **nw = NULL, *w = NULL;

	for (size_t i = 0; spec && i < ps->n; i++)
		if (!strcmp(ps->v[i], spec)) {	/* one probe: the kernel would refuse the second */
			char *e = lgd_escape_alloc(spec);

			fprintf(stderr, "logdev record: note: probe '%s' given twice (%s, %s): "
				"attached once\n", e ? e : "?", ps->where[i], where);
			free(e);
			free(spec);
			return 0;
		}
	nv = realloc(ps->v, (ps->n + 1) * sizeof(*nv));
	if (nv) {
		ps->v = nv;
		nw = realloc(ps->where, (ps->n + 1) * sizeof(*nw));
	}
	if (nw) {
		ps->where = nw;
		w = strdup(where);
	}
	if (!spec || !w) {
		fprintf(stderr, "logdev record: out of memory\n");
		free(spec);
		free(w);
		return 1;
	}
	ps->v[ps->n] = spec;
	ps->where[ps->n++] = w;
	return 0;
}

int cli_probe_spec_add(struct cli_probe_specs *ps, const char *arg, int is_file)
{
	char **lines = NULL, where[64];
	size_t n = 1, *ln = NULL;
	int e = 0;

	if (!is_file && !arg[strspn(arg, " \t")]) {	/* a blank line of a file is skipped */
		fprintf(stderr, "logdev record: -p '%s': an empty probe spec (p:, r: or t:, as "
			"the probes file takes: docs/USAGE.md)\n", arg);
		return 2;
	}
	if (is_file) {
		e = lgd_probes_read_file(arg, &lines, &ln, &n);
		if (e) {
			if (e == -E2BIG)
				fprintf(stderr, "logdev record: --probe-file %s: line %zu: longer than "
					"one command may be (1023 bytes)\n", arg, n);
			else
				fprintf(stderr, "logdev record: --probe-file %s: %s\n", arg,
					strerror(-e));
			return 2;
		}
	}
	for (size_t i = 0; i < n && !e; i++) {
		if (is_file)
			snprintf(where, sizeof(where), "line %zu of --probe-file", ln[i]);
		e = cli_probe_spec_push(ps, is_file ? lines[i] : strdup(arg),
					is_file ? where : "-p");
		if (is_file)
			lines[i] = NULL;
	}
	for (size_t i = 0; is_file && i < n; i++)
		free(lines[i]);
	free(lines);
	free(ln);
	return e;
}

void cli_probe_specs_free(struct cli_probe_specs *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		free(ps->v[i]);
		free(ps->where[i]);
	}
	free(ps->v);
	free(ps->where);
	ps->v = NULL;
	ps->where = NULL;
	ps->n = 0;
}

int cli_probes_attach(const char *dir, const struct cli_probe_specs *ps,
		      struct lgd_probe_set *set)
{
	char *spec, *src;
	int e;

	if (!ps->n)
		return 0;
	e = lgd_probes_attach(dir, (const char *const *)ps->v, ps->n, set);
	if (!e && set->pending) {
		spec = lgd_escape_alloc(set->pending_name);
		src = lgd_escape_alloc(set->pending_spec);
		fprintf(stderr, "logdev record: note: %zu probe%s pending (%s%s, from '%s'): its "
			"target reads as MOD:FUNC of a module not loaded, and %s record%s once it "
			"loads; a mistyped kind reads so too (kinds: p:, r:, t:)\n", set->pending,
			set->pending == 1 ? "" : "s", spec ? spec : "?",
			set->pending > 1 ? ", ..." : "", src ? src : "?",
			set->pending == 1 ? "it" : "they", set->pending == 1 ? "s" : "");
		free(spec);
		free(src);
	}
	if (!e)
		return 0;
	if (set->failed < 0) {	/* the probes file itself */
		fprintf(stderr, "logdev record: %s/probes: %s (is logdev.ko loaded, and are "
			"you root?)\n", dir, strerror(-e));
		return 1;
	}
	spec = lgd_escape_alloc(ps->v[set->failed]);
	fprintf(stderr, "logdev record: probe '%.200s%s' (%s) refused: %s (nothing recorded, "
		"none of its probes left attached)\n%s%s", spec ? spec : "?",
		spec && strlen(spec) > 200 ? "..." : "", ps->where[set->failed], strerror(-e),
		set->err, set->err[0] && set->err[strlen(set->err) - 1] != '\n' ? "\n" : "");
	free(spec);
	return 2;
}

int cli_probes_detach(const char *dir, struct lgd_probe_set *set)
{
	size_t n = set->nr;
	int e = lgd_probes_detach(dir, set);

	if (!e)
		return 0;
	fprintf(stderr, "logdev record: %zu of the %zu probes it added could not be removed "
		"(%s): see %s/probes, remove them with echo -:NAME >> %s/probes\n",
		set->detach_failed, n, strerror(-e), dir, dir);
	return 1;
}

int cli_salvage(struct lgd_cap_writer *w, int fd, int err, uint64_t end_at)
{
	if (w->bytes > end_at)	/* END written, then fsync failed: not complete */
		w->bytes = end_at;
	if (ftruncate(fd, (off_t)w->bytes) || lseek(fd, (off_t)w->bytes, SEEK_SET) < 0)
		return 0;
	w->err = 0;
	if (lgd_cap_write_salvaged(w, err)) {
		if (ftruncate(fd, (off_t)w->bytes))
			return 0;
		return 0;
	}
	return 1;
}

int cli_rec_exit_status(int rc, int sig, int has_command, double duration, int status)
{
	if (rc)
		return rc;
	if (sig) {
		/* the documented way to end "record until stopped" */
		if (!has_command && duration < 0 &&
		    (sig == SIGINT || sig == SIGTERM))
			return 0;
		fprintf(stderr, "logdev: recording stopped by %s; the capture is complete\n",
			strsignal(sig));
		return 128 + sig;
	}
	if (has_command) {
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
	}
	return 0;
}
