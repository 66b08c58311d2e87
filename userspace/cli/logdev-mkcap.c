// SPDX-License-Identifier: GPL-2.0
/*
 * logdev-mkcap.c: build a capture file from loose files, e.g. copied out of
 * a VM's debugfs, so that captures can be checked on the host:
 *
 *   logdev-mkcap -o OUT --header FILE [--formats FILE]... [--kallsyms FILE] [--modlog FILE] [--probes FILE]
 *                [--stats FILE] [--cpu N:RAWFILE]... [--no-end]
 *
 * RAWFILE holds bytes read from per_cpu/cpuN/trace_pipe_raw (whole
 * sub-buffers).  Sections are written in option order; END is added unless
 * --no-end.  Exit 0 ok, 1 I/O error, 2 usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static int usage(void)
{
	fprintf(stderr, "usage: logdev-mkcap -o OUT --header FILE [--formats FILE]... "
			"[--kallsyms FILE] [--modlog FILE] [--stats FILE] [--probes FILE] [--cpu N:RAWFILE]... [--no-end]\n");
	return 2;
}

static int add_file(struct lgd_cap_writer *w, uint32_t type, uint32_t cpu,
		    const char *path)
{
	size_t len;
	char *t = lgd_rec_read_text(NULL, path, &len);
	int ret;

	if (!t) {
		fprintf(stderr, "logdev-mkcap: %s: %s\n", path, strerror(errno));
		return 1;
	}
	ret = lgd_cap_write_section(w, type, cpu, t, len);
	free(t);
	if (ret) {
		fprintf(stderr, "logdev-mkcap: write: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	struct lgd_cap_writer w;
	int fd, end = 1, have_header = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--no-end"))
			end = 0;
		else if (!strcmp(argv[i], "--header"))
			have_header = 1;
	}
	if (!out || !have_header)
		return usage();
	fd = strcmp(out, "-") ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : 1;
	if (fd < 0 || lgd_cap_writer_start(&w, fd)) {
		fprintf(stderr, "logdev-mkcap: %s: %s\n", out, strerror(errno));
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int ret = 0;

		if (!strcmp(a, "-o")) {
			i++;
			continue;
		}
		if (!strcmp(a, "--no-end"))
			continue;
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(a, "--header"))
			ret = add_file(&w, LGD_SECT_HEADER, LGD_CAP_NO_CPU, argv[++i]);
		else if (!strcmp(a, "--formats"))
			ret = add_file(&w, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, argv[++i]);
		else if (!strcmp(a, "--kallsyms"))
			ret = add_file(&w, LGD_SECT_KALLSYMS, LGD_CAP_NO_CPU, argv[++i]);
		else if (!strcmp(a, "--modlog"))
			ret = add_file(&w, LGD_SECT_MODLOG, LGD_CAP_NO_CPU, argv[++i]);
		else if (!strcmp(a, "--probes"))
			ret = add_file(&w, LGD_SECT_PROBES, LGD_CAP_NO_CPU, argv[++i]);
		else if (!strcmp(a, "--stats"))
			ret = add_file(&w, LGD_SECT_STATS, LGD_CAP_NO_CPU, argv[++i]);
		else if (!strcmp(a, "--cpu")) {
			char num[32];
			const char *colon = strchr(argv[++i], ':');
			uint64_t cpu;

			if (!colon || (size_t)(colon - argv[i]) >= sizeof(num))
				return usage();
			memcpy(num, argv[i], (size_t)(colon - argv[i]));
			num[colon - argv[i]] = 0;
			if (cli_parse_uint("mkcap", "--cpu", num, 0, LGD_CAP_NO_CPU - 1, &cpu))
				return 2;
			ret = add_file(&w, LGD_SECT_CPU_DATA, (uint32_t)cpu, colon + 1);
		} else
			return usage();
		if (ret)
			return 1;
	}
	if (end && lgd_cap_write_end(&w))
		return 1;
	if (fd != 1 && close(fd))
		return 1;
	return 0;
}
