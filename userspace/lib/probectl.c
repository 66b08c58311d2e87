// SPDX-License-Identifier: GPL-2.0
/*
 * probectl.c: probes attached for the length of a recording (layer:
 * library, beside recorder.c; lgd_probectl.h).  Each spec is written to
 * the debugfs "probes" file in one write, as a user's echo would; the
 * kernel parses it.  What a spec added (one probe, or one per function of
 * a glob) is the difference of the listing before and after, and is
 * removed by name ("-:NAME") later; the probes that were there before are
 * never touched.  Never prints.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lgd_probectl.h"
#include "lgd_recorder.h"

#define LGD_PROBE_CMD_MAX 1023	/* the kernel's longest command */

void lgd_probe_set_init(struct lgd_probe_set *set)
{
	memset(set, 0, sizeof(*set));
	set->failed = -1;
}

void lgd_probe_set_free(struct lgd_probe_set *set)
{
	for (size_t i = 0; i < set->nr; i++)
		free(set->names[i]);
	free(set->names);
	set->names = NULL;
	set->nr = 0;
}

/*
 * One write of @s to @dir/probes (append: never O_TRUNC, which clears
 * all); *@refused (if not NULL) set when the file opened but the write
 * failed: the kernel refused the command.
 */
static int probes_write(const char *dir, const char *s, int *refused)
{
	char path[4096], line[LGD_PROBE_CMD_MAX + 1];
	size_t len = strlen(s);
	ssize_t w;
	int fd, e = 0;

	/* as echo writes it, with its newline, where that fits in one command */
	if (len < LGD_PROBE_CMD_MAX) {
		memcpy(line, s, len);
		line[len++] = '\n';
		s = line;
	}
	snprintf(path, sizeof(path), "%s/probes", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		w = write(fd, s, len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		e = -errno;
	else if ((size_t)w != len)
		e = -EIO;
	if (close(fd) && !e)
		e = -errno;
	if (e && refused)
		*refused = 1;
	return e;
}

/*
 * The names of the listing @text ("p:NAME ...", "r3:GRP/NAME ...",
 * "t:NAME ..."): the head word after its ':'.  Sets *@n; with @pend, also
 * a malloc'd array saying per name whether its line says " state=pending"
 * (a probe on a module not loaded yet).  NULL on no memory.
 */
static char **listing_names(const char *text, size_t *n, unsigned char **pend)
{
	char **v = NULL;
	unsigned char *pv = NULL;
	size_t nr = 0;

	for (const char *l = text; l && *l; ) {
		const char *eol = strchr(l, '\n'), *end = eol ? eol : l + strlen(l);
		const char *sp = memchr(l, ' ', (size_t)(end - l));
		const char *hend = sp ? sp : end;
		const char *colon = memchr(l, ':', (size_t)(hend - l));

		if (colon && hend > colon + 1) {
			char **nv = realloc(v, (nr + 1) * sizeof(*v));
			unsigned char *np = pend && nv ? realloc(pv, nr + 1) : NULL;

			if (nv)
				v = nv;
			if (np)
				pv = np;
			if (!nv || (pend && !np) ||
			    !(v[nr] = strndup(colon + 1, (size_t)(hend - colon - 1)))) {
				for (size_t i = 0; i < nr; i++)
					free(v[i]);
				free(v);
				free(pv);
				return NULL;
			}
			if (pend)
				pv[nr] = sp && memmem(sp, (size_t)(end - sp), " state=pending", 14);
			nr++;
		}
		l = eol ? eol + 1 : NULL;
	}
	*n = nr;
	if (pend)
		*pend = pv;
	return v ? v : calloc(1, sizeof(*v));
}

static void names_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* listing_names() of @dir/probes */
static char **listing(const char *dir, size_t *n, unsigned char **pend)
{
	size_t len;
	char *t = lgd_rec_read_text(dir, "probes", &len);
	char **v;

	if (!t)
		return NULL;
	v = listing_names(t, n, pend);
	free(t);
	if (!v)
		errno = ENOMEM;
	return v;
}

static int name_in(char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return 1;
	return 0;
}

/*
 * The last entry of @dir/error_log (its last 3 lines: reason, "  Command:
 * CMD", caret) into @set->err, if it is the refusal of @spec.
 */
static void last_error(const char *dir, const char *spec, struct lgd_probe_set *set)
{
	size_t len;
	char *t = lgd_rec_read_text(dir, "error_log", &len);
	int lines = 0;
	char *p, *cmd;

	if (!t)
		return;
	while (len && t[len - 1] == '\n')
		t[--len] = 0;
	for (p = t + len; p > t; p--)
		if (p[-1] == '\n' && ++lines == 3)
			break;
	cmd = strstr(p, "\n  Command: ");
	/* error_log keeps a command's first 255 bytes */
	if (cmd && !strncmp(cmd + 12, spec, strcspn(cmd + 12, "\n")))
		snprintf(set->err, sizeof(set->err), "%s", p);
	free(t);
}

/*
 * a spec to skip (blank, comment) 1, to refuse <0 (a removal, too long, a
 * reader's label as its target, a kind in upper case)
 */
static int spec_check(const char *s, struct lgd_probe_set *set)
{
	const char *p = s + strspn(s, " \t");

	if (!*p || *p == '#' || *p == '\n')
		return 1;
	if (*p == '-') {
		snprintf(set->err, sizeof(set->err),
			 "'%s' removes a probe: a recording's probes are only added", s);
		return -EINVAL;
	}
	if (strlen(s) > LGD_PROBE_CMD_MAX || strchr(s, '\n')) {
		snprintf(set->err, sizeof(set->err), "'%.60s...': one command, at most %d bytes",
			 s, LGD_PROBE_CMD_MAX);
		return -EINVAL;
	}
	/* a short form whose target is a label the reader prints (FUNC%return) */
	size_t w = strcspn(p, " \t");

	if (w > 7 && !memchr(p, ':', w) && !memcmp(p + w - 7, "%return", 7)) {
		snprintf(set->err, sizeof(set->err),
			 "'%.*s' is the label of a return probe's return site: attach the probe "
			 "as r:%.*s (or p:NAME %.*s)", (int)w, p, (int)w - 7, p, (int)w, p);
		return -EINVAL;
	}
	/* a kind in upper case reads as a module of that name (R:show_smap) */
	if ((*p == 'P' || *p == 'R' || *p == 'T') && p[1] == ':') {
		snprintf(set->err, sizeof(set->err),
			 "'%.*s' reads as a function of a module named %c: a probe's kind is "
			 "lower case (%c:%.*s)", (int)w, p, *p, *p - 'A' + 'a', (int)w - 2, p + 2);
		return -EINVAL;
	}
	return 0;
}

/* attach @spec; the names it added go to @set.  0 or negative errno */
static int attach_one(const char *dir, const char *spec, struct lgd_probe_set *set,
		      int *refused)
{
	size_t nb = 0, na = 0;
	char **before = listing(dir, &nb, NULL), **after;
	unsigned char *pend = NULL;
	int e = before ? probes_write(dir, spec, refused) : -errno;

	if (e) {
		names_free(before, nb);
		return e;
	}
	after = listing(dir, &na, &pend);
	if (!after) {
		names_free(before, nb);
		return -errno;
	}
	for (size_t i = 0; i < na; i++) {
		char **nv;

		if (name_in(before, nb, after[i]))
			continue;
		nv = realloc(set->names, (set->nr + 1) * sizeof(*nv));
		if (!nv) {
			e = -ENOMEM;
			break;
		}
		set->names = nv;
		set->names[set->nr++] = after[i];
		after[i] = NULL;
		if (pend[i] && !set->pending++) {	/* on a module not loaded yet */
			snprintf(set->pending_name, sizeof(set->pending_name), "%s",
				 set->names[set->nr - 1]);
			snprintf(set->pending_spec, sizeof(set->pending_spec), "%s", spec);
		}
	}
	names_free(before, nb);
	names_free(after, na);
	free(pend);
	return e;
}

/* remove the names of @set from index @from on, last first */
static int detach_from(const char *dir, struct lgd_probe_set *set, size_t from)
{
	int first = 0;

	while (set->nr > from) {
		char cmd[600];
		char *name = set->names[--set->nr];
		const char *slash = strchr(name, '/');
		int e;

		/* "-:NAME": names are unique whatever the group */
		snprintf(cmd, sizeof(cmd), "-:%s", slash ? slash + 1 : name);
		e = probes_write(dir, cmd, NULL);
		if (e && e != -ENOENT) {
			set->detach_failed++;
			if (!first)
				first = e;
		}
		free(name);
	}
	return first;
}

int lgd_probes_attach(const char *dir, const char *const *specs, size_t n,
		      struct lgd_probe_set *set)
{
	size_t start = set->nr;

	set->failed = -1;
	set->err[0] = 0;
	/* what the library refuses, before anything is written */
	for (size_t i = 0; i < n; i++) {
		int e = spec_check(specs[i], set);

		if (e < 0) {
			set->failed = (long)i;
			return e;
		}
	}
	for (size_t i = 0; i < n; i++) {
		int e = spec_check(specs[i], set), refused = 0;

		if (e == 1)
			continue;
		if (!e)
			e = attach_one(dir, specs[i], set, &refused);
		if (e) {
			if (refused)
				set->failed = (long)i;
			if (refused && !set->err[0])
				last_error(dir, specs[i], set);
			detach_from(dir, set, start);
			return e;
		}
	}
	return 0;
}

int lgd_probes_detach(const char *dir, struct lgd_probe_set *set)
{
	int e;

	set->detach_failed = 0;
	e = detach_from(dir, set, 0);
	free(set->names);
	set->names = NULL;
	return e;
}

int lgd_probes_read_file(const char *path, char ***lines, size_t **linenos, size_t *n)
{
	size_t len, nr = 0, lineno = 0, *ln = NULL;
	char *t = lgd_rec_read_text(NULL, path, &len);
	char **v = NULL;

	*lines = NULL;
	if (linenos)
		*linenos = NULL;
	*n = 0;
	if (!t)
		return -errno;
	for (char *l = t, *eol; l && l < t + len; l = eol ? eol + 1 : NULL) {
		char *end, **nv;

		eol = memchr(l, '\n', (size_t)(t + len - l));
		end = eol ? eol : t + len;
		lineno++;
		while (end > l && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			end--;
		*end = 0;
		l += strspn(l, " \t");
		if (!*l || *l == '#')
			continue;
		if (strlen(l) > LGD_PROBE_CMD_MAX) {
			names_free(v, nr);
			free(ln);
			free(t);
			*n = lineno;
			return -E2BIG;
		}
		nv = realloc(v, (nr + 1) * sizeof(*v));
		if (nv)
			v = nv;
		if (linenos && nv) {
			size_t *nl = realloc(ln, (nr + 1) * sizeof(*ln));

			if (!nl)
				nv = NULL;
			else
				(ln = nl)[nr] = lineno;
		}
		if (!nv || !(v[nr] = strdup(l))) {
			names_free(v, nr);
			free(ln);
			free(t);
			return -ENOMEM;
		}
		nr++;
	}
	free(t);
	*lines = v;
	if (linenos)
		*linenos = ln;
	else
		free(ln);
	*n = nr;
	return 0;
}
