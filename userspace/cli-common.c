// SPDX-License-Identifier: GPL-2.0
/*
 * cli-common.c: debugfs access, capture metadata writing, live snapshot and
 * message rendering shared by the logdev subcommands.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

void cli_warn(void *arg, const struct ld_diag *d)
{
	(void)arg;
	fprintf(stderr, "logdev: warning:");
	if (d->offset >= 0)
		fprintf(stderr, " offset %" PRId64, d->offset);
	if (d->cpu >= 0)
		fprintf(stderr, " cpu %" PRId64, d->cpu);
	if (d->seq >= 0)
		fprintf(stderr, " seq %" PRId64, d->seq);
	/* "warning: offset 12 cpu 0: what", or "warning: what" with no position */
	fprintf(stderr, "%s %s\n",
		d->offset >= 0 || d->cpu >= 0 || d->seq >= 0 ? ":" : "", d->msg);
}

const char *cli_debugfs(void)
{
	const char *e = getenv("LOGDEV_DEBUGFS");

	return e && *e ? e : LOGDEV_DEFAULT_DEBUGFS;
}

static void path_join(char *out, size_t n, const char *dir, const char *name)
{
	if (dir)
		snprintf(out, n, "%s/%s", dir, name);
	else
		snprintf(out, n, "%s", name);
}

char *cli_read_text(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	size_t cap = 65536, n = 0;
	char *b;
	int fd;

	path_join(path, sizeof(path), dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	b = malloc(cap + 1);
	while (b) {
		ssize_t r;

		if (n == cap) {
			char *nb = realloc(b, cap * 2 + 1);

			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(b);
			b = NULL;
			errno = e;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (b) {
		b[n] = 0;
		*len = n;
	}
	return b;
}

int cli_write_str(const char *dir, const char *name, const char *s)
{
	char path[4096];
	int fd, ret = 0;

	path_join(path, sizeof(path), dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int uint_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int cli_list_cpus(const char *dir, unsigned **cpus)
{
	char path[4096];
	DIR *d;
	struct dirent *de;
	unsigned *v = NULL;
	int n = 0;

	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		unsigned c;
		char extra;
		unsigned *nv;

		if (sscanf(de->d_name, "cpu%u%c", &c, &extra) != 1)
			continue;
		nv = realloc(v, (size_t)(n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		v[n++] = c;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), uint_cmp);
	*cpus = v;
	return n;
}

/* does any format in a formats text need kallsyms? */
static int formats_need_ksyms(const char *text, size_t len)
{
	struct ld_sites s = { 0 };
	int need = 0;

	if (ld_sites_parse(&s, text, len) < 0)
		return 0;
	for (uint32_t i = 0; i < s.nr && !need; i++)
		if (s.by_id[i] && ld_fmt_has_symptr(s.by_id[i]->fmt))
			need = 1;
	ld_sites_free(&s);
	return need;
}

int cli_maybe_kallsyms(struct ld_cap_writer *w, const char *formats,
		       size_t len, int *ksyms_done)
{
	size_t klen;
	char *k;
	int ret;

	if (*ksyms_done || !formats_need_ksyms(formats, len))
		return 0;
	k = cli_read_text(NULL, "/proc/kallsyms", &klen);
	if (!k) {
		fprintf(stderr, "logdev: warning: cannot read /proc/kallsyms (%s): %%pS will print as hex\n",
			strerror(errno));
		*ksyms_done = 1;
		return 0;
	}
	{
		struct ld_ksyms ks = { 0 };

		if (ld_ksyms_parse(&ks, k, klen) <= 0) {
			fprintf(stderr, "logdev: warning: /proc/kallsyms shows no addresses "
					"(not root, or kptr_restrict): %%pS will print as hex\n");
			free(k);
			*ksyms_done = 1;
			return 0;
		}
		ld_ksyms_free(&ks);
	}
	ret = ld_cap_write_section(w, LD_SECT_KALLSYMS, LD_CAP_NO_CPU, k, klen);
	free(k);
	*ksyms_done = 1;
	return ret;
}

int cli_write_meta(struct ld_cap_writer *w, const char *dir,
		   uint32_t *subbuf_size, int *ksyms_done)
{
	struct ld_header h;
	struct ld_diag d;
	size_t hl, fl;
	char *ht, *ft;
	int ret;

	ht = cli_read_text(dir, "header", &hl);
	if (!ht) {
		fprintf(stderr, "logdev: cannot read %s/header: %s\n", dir, strerror(errno));
		return -errno;
	}
	ret = ld_header_parse(&h, ht, hl, &d);
	if (ret) {
		fprintf(stderr, "logdev: %s/header: %s\n", dir, d.msg);
		free(ht);
		return ret;
	}
	*subbuf_size = h.subbuf_size;
	ret = ld_cap_write_section(w, LD_SECT_HEADER, LD_CAP_NO_CPU, ht, hl);
	free(ht);
	if (ret)
		goto werr;
	ft = cli_read_text(dir, "formats", &fl);
	if (!ft) {
		fprintf(stderr, "logdev: cannot read %s/formats: %s\n", dir, strerror(errno));
		return -errno;
	}
	ret = ld_cap_write_section(w, LD_SECT_FORMATS, LD_CAP_NO_CPU, ft, fl);
	if (!ret)
		ret = cli_maybe_kallsyms(w, ft, fl, ksyms_done);
	free(ft);
	if (ret)
		goto werr;
	return 0;
werr:
	fprintf(stderr, "logdev: writing capture: %s\n", strerror(-ret));
	return ret;
}

/* records in @n bytes of whole sub-buffers (for progress only) */
static uint64_t count_records(const uint8_t *b, size_t n, uint32_t sbs)
{
	uint64_t cnt = 0;

	for (size_t o = 0; o + LOGDEV_SUBBUF_HDR_SIZE <= n; o += sbs) {
		uint32_t db = ld_cap_get_u32(b + o + 24), p = LOGDEV_SUBBUF_HDR_SIZE;

		if (db > sbs - LOGDEV_SUBBUF_HDR_SIZE || o + sbs > n)
			break;
		while (p + LOGDEV_REC_HDR_SIZE <= LOGDEV_SUBBUF_HDR_SIZE + db) {
			uint16_t len = (uint16_t)(b[o + p + 12] | b[o + p + 13] << 8);

			if (len < LOGDEV_REC_HDR_SIZE || len % 8)
				break;
			cnt++;
			p += len;
		}
	}
	return cnt;
}

int cli_drain(struct ld_cap_writer *w, int fd, unsigned cpu, uint8_t *buf,
	      size_t bufsz, uint32_t sbs, int *eof, uint64_t *bytes,
	      uint64_t *records)
{
	*eof = 0;
	for (;;) {
		ssize_t n = read(fd, buf, bufsz);
		int ret;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			return -errno;
		}
		if (n == 0) {
			*eof = 1;
			return 0;
		}
		ret = ld_cap_write_section(w, LD_SECT_CPU_DATA, cpu, buf, (uint64_t)n);
		if (ret)
			return ret;
		*bytes += (uint64_t)n;
		*records += count_records(buf, (size_t)n, sbs);
	}
}

int cli_open_input(const char *file, struct ld_reader *r)
{
	struct ld_diag d = { 0 };
	struct ld_cap_writer w;
	const char *dir = cli_debugfs();
	uint32_t sbs = 0;
	int ksyms = 0, n, fd, ret;
	unsigned *cpus = NULL;
	uint8_t *buf;
	uint64_t bytes = 0, recs = 0;
	FILE *tf;

	if (file) {
		if (ld_reader_open(r, file, cli_warn, NULL, &d)) {
			fprintf(stderr, "logdev: %s: %s%s", file, d.msg,
				d.offset >= 0 ? "" : "\n");
			if (d.offset >= 0)
				fprintf(stderr, " (offset %" PRId64 ")\n", d.offset);
			return 1;
		}
		return 0;
	}
	/* live: snapshot the buffers into an unlinked temporary capture */
	tf = tmpfile();
	if (!tf) {
		perror("logdev: tmpfile");
		return 1;
	}
	fd = dup(fileno(tf));
	fclose(tf);
	if (fd < 0 || ld_cap_writer_start(&w, fd)) {
		perror("logdev: temporary capture");
		return 1;
	}
	if (cli_write_meta(&w, dir, &sbs, &ksyms)) {
		close(fd);
		return 1;
	}
	n = cli_list_cpus(dir, &cpus);
	if (n < 0) {
		fprintf(stderr, "logdev: %s/per_cpu: %s\n", dir, strerror(-n));
		close(fd);
		return 1;
	}
	ret = cli_write_str(dir, "flush", "1");
	if (ret)
		fprintf(stderr, "logdev: warning: %s/flush: %s\n", dir, strerror(-ret));
	buf = malloc((size_t)sbs * 16);
	for (int i = 0; buf && i < n; i++) {
		char name[64];
		int cfd, eof;

		snprintf(name, sizeof(name), "%s/per_cpu/cpu%u/trace_pipe_raw", dir, cpus[i]);
		cfd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (cfd < 0) {
			fprintf(stderr, "logdev: %s: %s\n", name, strerror(errno));
			continue;
		}
		ret = cli_drain(&w, cfd, cpus[i], buf, (size_t)sbs * 16, sbs, &eof,
				&bytes, &recs);
		if (ret)
			fprintf(stderr, "logdev: %s: %s\n", name, strerror(-ret));
		close(cfd);
	}
	free(buf);
	free(cpus);
	{
		size_t sl;
		char *st = cli_read_text(dir, "stats", &sl);

		if (st) {
			ld_cap_write_section(&w, LD_SECT_STATS, LD_CAP_NO_CPU, st, sl);
			free(st);
		}
	}
	ld_cap_write_end(&w);
	if (ld_reader_open_fd(r, fd, cli_warn, NULL, &d)) {
		fprintf(stderr, "logdev: live snapshot: %s\n", d.msg);
		return 1;
	}
	return 0;
}

void cli_site_name(const struct ld_reader *r, uint32_t id, char *buf,
		   size_t size)
{
	const struct ld_site *s = ld_sites_get(&r->sites, id);

	if (s)
		snprintf(buf, size, "%s:%u", s->func, s->line);
	else
		snprintf(buf, size, "site#%u:?", id);
}

size_t cli_render(const struct ld_reader *r, const struct ld_item *it,
		  char *buf, size_t size)
{
	const struct ld_site *s = ld_sites_get(&r->sites, it->rec.site);
	size_t n;
	int len;

	if (!size)
		return 0;
	if ((it->rec.type == LOGDEV_REC_PRINT || it->rec.type == LOGDEV_REC_PRINT_SLOTS) && s) {
		len = ld_bprintf_rec(buf, size, s->fmt, it->payload, it->rec.arg_bytes,
				     r->has_ksyms ? &r->ksyms : NULL,
				     (it->rec.type == LOGDEV_REC_PRINT_SLOTS ? LD_BP_SLOTS : 0) |
				     (it->rec_flags & LOGDEV_REC_F_CUT ? LD_BP_CUT : 0));
		n = len < 0 ? 0 : (size_t)len < size ? (size_t)len : size - 1;
		if (n && buf[n - 1] == '\n')
			buf[--n] = 0;
		return n;
	} else if (it->rec.type == LOGDEV_REC_PRINT || it->rec.type == LOGDEV_REC_PRINT_SLOTS) {
		snprintf(buf, size, "<unknown site %u: %u arg bytes>", it->rec.site,
			 it->rec.arg_bytes);
	} else {
		int o = snprintf(buf, size, "<%s %u bytes:",
				 it->rec.type == LOGDEV_REC_RAW ? "raw" : "type?",
				 it->rec.arg_bytes);

		for (uint32_t i = 0; i < it->rec.arg_bytes && i < 32 && o > 0 &&
		     (size_t)o + 4 < size; i++)
			o += snprintf(buf + o, size - (size_t)o, " %02x", it->payload[i]);
		if (o > 0 && (size_t)o + 6 < size)
			snprintf(buf + o, size - (size_t)o, "%s>",
				 it->rec.arg_bytes > 32 ? " ..." : "");
	}
	return strlen(buf);
}

int cli_collect(struct ld_reader *r, struct ld_deltas *ds, int durations)
{
	struct ld_durations du;
	struct ld_merge m;
	struct ld_item it;
	uint32_t from;
	uint64_t ns;
	int ret;

	if (ld_dur_init(&du, &r->sites))
		goto oom;
	if (ld_merge_init(&m, r)) {
		ld_dur_free(&du);
		goto oom;
	}
	while ((ret = ld_merge_next(&m, &it)) > 0) {
		if (!durations) {
			ret = ld_deltas_add(ds, &it);
		} else {
			ret = ld_dur_add(&du, &it, &ns, &from);
			if (ret > 0)
				ret = ld_deltas_add_value(ds, from, it.rec.site, ns);
		}
		if (ret < 0)
			break;
	}
	ld_merge_free(&m);
	ld_dur_free(&du);
	if (ret < 0) {
		fprintf(stderr, "logdev: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
oom:
	fprintf(stderr, "logdev: out of memory\n");
	return 1;
}
