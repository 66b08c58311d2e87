// SPDX-License-Identifier: GPL-2.0
/*
 * cli-output.c: the CLI's output files (convert -o, export -o, hist and
 * diff --svg), one mechanism for all of them:
 *   - a regular file, or a name that does not exist yet, is written under a
 *     temporary name in the same directory and renamed over the name only
 *     when everything was written: a refusal or a write error leaves an
 *     older file as it was, and no partial one;
 *   - anything else (stdout, a device such as /dev/null, a FIFO, a symlink,
 *     which is written through) is written directly and never removed;
 *   - the output may not be one of the verb's input files.
 * The fresh user's trial of issue 24 found convert unlinking /dev/null
 * given as -o after a refusal, and the old file gone.
 * Also the csv and json string writers every verb's rows go through, and
 * a capture's owner under sudo (cli_give_to_sudo_user()).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

int cli_out_open(struct cli_out *o, const char *path, const char *verb,
		 const char *const *inputs, int ninputs)
{
	struct stat st, in, tgt;
	mode_t mask;
	int i, fd, exists;

	memset(o, 0, sizeof(*o));
	o->verb = verb;
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		o->path = "stdout";
		return 0;
	}
	o->path = path;
	exists = !lstat(path, &st);
	for (i = 0; exists && i < ninputs; i++)
		if (inputs[i] && !stat(inputs[i], &in) && !stat(path, &tgt) &&
		    tgt.st_dev == in.st_dev && tgt.st_ino == in.st_ino) {
			fprintf(stderr, "logdev %s: %s is an input of this command; not overwritten\n",
				verb, path);
			return 2;
		}
	/* a symlink to a regular file: replace the file it names, kept intact until then */
	if (exists && S_ISLNK(st.st_mode) && !stat(path, &tgt) && S_ISREG(tgt.st_mode) &&
	    (o->real = realpath(path, NULL))) {
		path = o->real;
		st = tgt;
	}
	if (exists && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "w");	/* a device, a FIFO, a symlink: as it is */
		if (!o->f) {
			fprintf(stderr, "logdev %s: %s: %s\n", verb, path, strerror(errno));
			return 1;
		}
		return 0;
	}
	if (asprintf(&o->tmp, "%s.XXXXXX", path) < 0) {
		o->tmp = NULL;
		fprintf(stderr, "logdev: out of memory\n");
		return 1;
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		fprintf(stderr, "logdev %s: %s: %s\n", verb, path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return 1;
	}
	/* the mode an existing file has, else what creat() would give */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask)) {
		/* not fatal: the file is ours, mode 0600 */
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		fprintf(stderr, "logdev %s: %s: %s\n", verb, path, strerror(errno));
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return 1;
	}
	return 0;
}

int cli_out_commit(struct cli_out *o)
{
	int err = 0;

	if (o->f == stdout) {
		if (fflush(stdout))
			err = errno ? errno : EIO;
	} else if (o->f) {
		if (ferror(o->f) || fflush(o->f) || (o->tmp && fsync(fileno(o->f))))
			err = errno ? errno : EIO;
		if (fclose(o->f) && !err)
			err = errno ? errno : EIO;
	}
	o->f = NULL;
	if (!err && o->tmp && rename(o->tmp, o->real ? o->real : o->path))
		err = errno;
	if (err) {
		fprintf(stderr, "logdev %s: %s: %s\n", o->verb, o->path, strerror(err));
		if (o->tmp)
			unlink(o->tmp);
	}
	free(o->tmp);
	o->tmp = NULL;
	free(o->real);
	o->real = NULL;
	return err ? 1 : 0;
}

void cli_out_abort(struct cli_out *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	else if (o->f)
		fflush(stdout);
	o->f = NULL;
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	free(o->real);
	o->real = NULL;
}

void cli_json_str(FILE *f, const char *str)
{
	cli_json_strn(f, str, strlen(str));
}

void cli_json_strn(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;

	fputc('"', f);
	while (s < end) {
		uint32_t cp = 0;
		const unsigned char *run = s;
		int n;

		/* a run of plain printable ASCII in one write (the common case) */
		while (s < end && *s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\')
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (s == end)
			break;
		n = *s ? lgd_utf8_len(s, (size_t)(end - s) < 4 ? (size_t)(end - s) : 4, &cp) : 1;
		if (!n) {
			fputs("\\ufffd", f);
			s++;
		} else if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s++, f);
		} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
			   (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
			/* controls (NUL too), DEL, C1, bidi overrides: \u escapes (terminal-safe) */
			fprintf(f, "\\u%04x", (unsigned int)cp);
			s += n;
		} else {
			fwrite(s, 1, (size_t)n, f);
			s += n;
		}
	}
	fputc('"', f);
}

void cli_csv_field(FILE *f, const char *str)
{
	cli_csv_fieldn(f, str, strlen(str));
}

/* per byte: 1 it makes a CSV field quoted (',' '"' controls DEL), 2 it is
 * copied as it is (ASCII but NUL and '"'), 3 both (',' and the controls but NUL) */
static const unsigned char csv_class[256] = {
	[0x00] = 1, [0x01 ... 0x1f] = 3, [0x20 ... 0x21] = 2, ['"'] = 1,
	[0x23 ... 0x2b] = 2, [','] = 3, [0x2d ... 0x7e] = 2, [0x7f] = 3,
};

int cli_csv_needs_quote(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;

	for (; s < end; s++)
		if (csv_class[*s] & 1)
			return 1;
	return 0;
}

/*
 * The body of a CSV field (no quotes around it) from *@sp while it is
 * before @stop (@end: the end of the whole field, so that a UTF-8 sequence
 * may end past @stop): at most 3 bytes out per byte in, plus 3.
 */
static size_t csv_body(char *dst, const unsigned char **sp, const unsigned char *stop,
		       const unsigned char *end)
{
	const unsigned char *s = *sp;
	char *o = dst;

	while (s < stop) {
		const unsigned char *run = s;
		int n;

		/* a run of ASCII other than NUL and the quote at once */
		while (s < stop && (csv_class[*s] & 2))
			s++;
		memcpy(o, run, (size_t)(s - run));
		o += s - run;
		if (s == stop)
			break;
		n = *s ? lgd_utf8_len(s, (size_t)(end - s) < 4 ? (size_t)(end - s) : 4, NULL) : 0;
		if (!n) {
			memcpy(o, "\xef\xbf\xbd", 3);	/* U+FFFD (also for a NUL) */
			o += 3;
			s++;
			continue;
		}
		if (*s == '"')
			*o++ = '"';
		memcpy(o, s, (size_t)n);
		o += n;
		s += n;
	}
	*sp = s;
	return (size_t)(o - dst);
}

size_t cli_csv_put(char *dst, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	int quote;
	size_t o = 0;

	if (lgd_ascii_run(str, len, '"', ',') == len) {	/* nearly always: as it is */
		memcpy(dst, str, len);
		return len;
	}
	quote = cli_csv_needs_quote(str, len);
	if (quote)
		dst[o++] = '"';
	o += csv_body(dst + o, &s, end, end);
	if (quote)
		dst[o++] = '"';
	return o;
}

void cli_csv_fieldn(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	int quote = cli_csv_needs_quote(str, len);
	char b[3 * 1024 + 3];

	if (quote)
		fputc('"', f);
	while (s < end) {	/* 1024 bytes in at a time */
		const unsigned char *stop = end - s > 1024 ? s + 1024 : end;

		fwrite(b, 1, csv_body(b, &s, stop, end), f);
	}
	if (quote)
		fputc('"', f);
}

void cli_out_buffer(FILE *f)
{
	static char *buf;

	if (buf || isatty(fileno(f)))
		return;
	buf = malloc(CLI_OUT_BUFFER);	/* kept to the exit, which flushes it */
	if (buf && setvbuf(f, buf, _IOFBF, CLI_OUT_BUFFER)) {
		free(buf);
		buf = NULL;
	}
}

int cli_stdout_done(void)
{
	if (!fflush(stdout))
		return 0;
	perror("logdev: stdout");
	return 1;
}

int cli_out_batch(FILE *f, const char *b, size_t n)
{
	if (n < 4096)
		return fwrite_unlocked(b, 1, n, f) == n ? 0 : -1;
	if (fflush(f))
		return -1;
	while (n) {
		ssize_t w = write(fileno(f), b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;
			return -1;
		}
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * A capture holds kernel addresses (KALLSYMS: the KASLR offset) and
 * whatever the records hold (docs/SECURITY.md): it is made 0600, and under
 * sudo (root, with SUDO_UID and SUDO_GID set) given to the user who ran
 * sudo, so that `logdev report FILE` works without root and nobody else
 * reads it.  A failed chown leaves it root's, with a warning.
 */
void cli_give_to_sudo_user(int fd, const char *path)
{
	const char *u = getenv("SUDO_UID"), *g = getenv("SUDO_GID");
	char *e1, *e2;
	unsigned long uid, gid;

	if (geteuid() != 0 || !u || !g || !*u || !*g)
		return;
	errno = 0;
	uid = strtoul(u, &e1, 10);
	gid = strtoul(g, &e2, 10);
	if (errno || *e1 || *e2 || uid > 0xfffffffeUL || gid > 0xfffffffeUL)
		return;
	if (fchown(fd, (uid_t)uid, (gid_t)gid))
		fprintf(stderr, "logdev: warning: %s stays root's (chown to the sudo user %lu: %s)\n",
			path, uid, strerror(errno));
}
