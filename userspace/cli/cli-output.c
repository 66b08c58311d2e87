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
 */
#define _GNU_SOURCE
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
