// SPDX-License-Identifier: GPL-2.0
/*
 * cli-input.c: what a verb reads (layer: CLI): debugfs files, a capture
 * file (or a raw flight-recorder area, converted first: cli-lastboot.c) or
 * a snapshot of the live buffers opened as a reader with the filter
 * options applied, and the deltas collected from it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "subbuf.h"

const char *cli_debugfs(void)
{
	const char *e = getenv("LOGDEV_DEBUGFS");

	return e && *e ? e : LOGDEV_DEFAULT_DEBUGFS;
}

int cli_live_check(const char *dir)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/header", dir);
	if (access(path, R_OK)) {
		cli_live_hint(dir, errno);
		return 1;
	}
	return 0;
}

/*
 * cli_open_input()'s reader: a probe definition no record uses is left
 * out of the labels (lgd_sites_mark_used()), then the verb's filter
 */
static int open_filtered(struct lgd_reader *r)
{
	int ret = lgd_sites_mark_used(r);

	if (!ret)
		ret = lgd_reader_set_filter(r, &cli_filter);

	if (ret) {
		fprintf(stderr, "logdev: %s\n", strerror(-ret));
		lgd_reader_close(r);
		return 1;
	}
	cli_probe_redefined(r);
	return 0;
}

int cli_meta_capture(struct lgd_cap_writer *w, const char *dir, uint32_t *sbs, int *ksyms)
{
	FILE *tf = tmpfile();
	int fd;

	if (!tf) {
		perror("logdev: tmpfile");
		return -1;
	}
	fd = dup(fileno(tf));
	fclose(tf);
	if (fd < 0 || lgd_cap_writer_start(w, fd)) {
		perror("logdev: temporary capture");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (cli_write_meta(w, dir, sbs, ksyms)) {
		close(fd);
		return -1;
	}
	return fd;
}

int cli_open_input(const char *file, struct lgd_reader *r)
{
	struct lgd_diag d = { 0 };
	struct lgd_cap_writer w;
	const char *dir = cli_debugfs();
	uint32_t sbs = 0;
	int ksyms = 0, n, fd, ret, opened = 0;
	unsigned *cpus = NULL;
	uint8_t *buf;
	uint64_t bytes = 0, recs = 0;

	if (cli_kallsyms && (!file || !cli_is_area(file)))	/* a note: nothing is wrong */
		fprintf(stderr, "logdev: %s: --kallsyms not used: it names the symbols of a raw "
			"flight-recorder area's boot, and this is %s\n", file ? file : dir,
			file ? "a capture" : "the live buffer");
	if (file) {
		/* a raw flight-recorder area: converted to a temporary capture first */
		fd = cli_is_area(file) ? cli_area_input(file) : -2;
		if (fd == -1)
			return 1;
		if (fd >= 0)	/* the reader's byte offsets are the capture's */
			cli_warn_converted = file;
		if (fd >= 0 ? lgd_reader_open_fd(r, fd, cli_warn, NULL, &d) :
			      lgd_reader_open(r, file, cli_warn, NULL, &d)) {
			fprintf(stderr, "logdev: %s: %s%s", file, cli_diag_text(d.msg),
				d.offset >= 0 ? "" : "\n");
			if (d.offset >= 0)
				fprintf(stderr, " (offset %" PRId64 "%s%s)\n", d.offset,
					fd >= 0 ? " of the capture converted from " : "",
					fd >= 0 ? file : "");
			return 1;
		}
		cli_last_boot_banner(r, file);
		return open_filtered(r);
	}
	/* live: snapshot the buffers into an unlinked temporary capture */
	if (cli_live_check(dir))
		return 1;
	fd = cli_meta_capture(&w, dir, &sbs, &ksyms);
	if (fd < 0)
		return 1;
	n = lgd_rec_list_cpus(dir, &cpus);
	if (n <= 0) {
		fprintf(stderr, "logdev: %s/per_cpu: %s\n", dir, n ? strerror(-n) :
			"no cpuN directories: no per-CPU buffer to read");
		close(fd);
		return 1;
	}
	ret = lgd_rec_write_str(dir, "flush", "1");
	if (ret)
		fprintf(stderr, "logdev: warning: %s/flush: %s\n", dir, strerror(-ret));
	buf = malloc((size_t)sbs * 16);
	for (int i = 0; buf && i < n; i++) {
		char name[4200];
		int cfd, eof;

		snprintf(name, sizeof(name), "%s/per_cpu/cpu%u/trace_pipe_raw", dir, cpus[i]);
		cfd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (cfd < 0) {
			fprintf(stderr, "logdev: warning: %s: %s\n", name, strerror(errno));
			cli_nwarn++;	/* that CPU's records are missing: exit 3 */
			continue;
		}
		opened++;
		ret = lgd_rec_drain(&w, cfd, cpus[i], buf, (size_t)sbs * 16, sbs, &eof,
				&bytes, &recs);
		if (ret)
			fprintf(stderr, "logdev: %s: %s\n", name, strerror(-ret));
		close(cfd);
	}
	free(buf);
	free(cpus);
	if (!opened) {
		fprintf(stderr, "logdev: none of the %d per-CPU buffers under %s/per_cpu could be "
			"read\n", n, dir);
		close(fd);
		return 1;
	}
	{
		/*
		 * formats again, after the data, as logdev record ends: a site
		 * first fired while the buffers were drained is named, and the
		 * capture's sites are final (a site missing then is damage)
		 */
		size_t fl;
		char *ft = lgd_rec_read_text(dir, "formats", &fl);

		if (ft) {
			cli_write_formats(&w, dir, ft, fl, &ksyms);
			free(ft);
		}
	}
	{
		size_t sl;
		char *st = lgd_rec_read_text(dir, "stats", &sl);

		if (st) {
			lgd_cap_write_section(&w, LGD_SECT_STATS, LGD_CAP_NO_CPU, st, sl);
			free(st);
		}
	}
	lgd_rec_recorder(&w);
	lgd_cap_write_end(&w);
	if (lgd_reader_open_fd(r, fd, cli_warn, NULL, &d)) {
		fprintf(stderr, "logdev: live snapshot: %s\n", cli_diag_text(d.msg));
		return 1;
	}
	return open_filtered(r);
}

unsigned int cli_jobs;

int cli_collect(struct lgd_reader *r, struct lgd_deltas *ds, int durations,
		struct lgd_dur_stats *st, const char *file)
{
	struct lgd_dur_stats own = { 0 };
	struct lgd_merge_counts n = { 0 };
	/* record deltas: no return-probe pairs, so no pair statistics */
	int ret = durations ? lgd_deltas_collect(r, ds, durations, st ? st : &own, &n) :
		  lgd_deltas_collect_par(r, ds, cli_jobs, &n);

	if (st && !durations)
		memset(st, 0, sizeof(*st));

	if (!ret)
		cli_filter_notes(r, &n, file);
	lgd_merge_counts_free(&n);
	if (!ret && durations)
		cli_dur_huge((st ? st : &own)->huge);

	if (ret == -ENOMEM)
		fprintf(stderr, "logdev: out of memory\n");
	else if (ret == -EINVAL)	/* lgd_records_open(): a user's pair refused */
		fprintf(stderr, "logdev: a pair refused: the same site twice, a site in two "
			"pairs, or a probe's site (a probe's entry and return pair by themselves)\n");
	else if (ret < 0)
		fprintf(stderr, "logdev: %s\n", strerror(-ret));
	return ret ? 1 : 0;
}
