// SPDX-License-Identifier: GPL-2.0
/*
 * recorder.c: the recorder's steps (layer: library, as trace-cmd keeps
 * trace-recorder.c in its library): debugfs files read and written, the
 * metadata sections of a capture (header, formats, kallsyms, module log,
 * recorder) and the drain of a CPU's buffer into CPU_DATA sections.
 * Never prints: errors are negative errno values, and what the caller may
 * want to say (why symbols were not saved, which step failed) is in
 * struct lgd_rec_status (lgd_recorder.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "liblogdev.h"
#include "lgd_recorder.h"
#include "subbuf.h"

static void path_join(char *out, size_t n, const char *dir, const char *name)
{
	if (dir)
		snprintf(out, n, "%s/%s", dir, name);
	else
		snprintf(out, n, "%s", name);
}

char *lgd_rec_read_text(const char *dir, const char *name, size_t *len)
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

		if (n == cap && cap >= LGD_REC_TEXT_MAX) {
			free(b);
			b = NULL;
			errno = EFBIG;
			break;
		}
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

int lgd_rec_write_str(const char *dir, const char *name, const char *s)
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

int lgd_rec_list_cpus(const char *dir, unsigned **cpus)
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

int lgd_formats_need_ksyms(const char *text, size_t len)
{
	struct lgd_sites s = { 0 };
	int need = 0;

	if (lgd_sites_parse(&s, text, len) < 0)
		return 0;
	for (uint32_t i = 0; i < s.nr && !need; i++)
		if (s.by_id[i] && lgd_fmt_has_symptr(s.by_id[i]->fmt))
			need = 1;
	lgd_sites_free(&s);
	return need;
}

int lgd_rec_kallsyms(struct lgd_cap_writer *w, const char *formats, size_t len,
		     int *ksyms_done, struct lgd_rec_status *st)
{
	size_t klen;
	char *k;
	int ret;

	if (*ksyms_done || !lgd_formats_need_ksyms(formats, len))
		return 0;
	k = lgd_rec_read_text(NULL, "/proc/kallsyms", &klen);
	if (!k) {
		st->ksyms = LGD_REC_KSYMS_UNREADABLE;
		st->ksyms_errno = errno;
		*ksyms_done = 1;
		return 0;
	}
	{
		struct lgd_ksyms ks = { 0 };

		if (lgd_ksyms_parse(&ks, k, klen) <= 0) {
			st->ksyms = LGD_REC_KSYMS_HIDDEN;
			free(k);
			*ksyms_done = 1;
			return 0;
		}
		lgd_ksyms_free(&ks);
	}
	ret = lgd_cap_write_section(w, LGD_SECT_KALLSYMS, LGD_CAP_NO_CPU, k, klen);
	free(k);
	*ksyms_done = 1;
	return ret;
}

int lgd_rec_modlog(struct lgd_cap_writer *w, const char *dir)
{
	static char *last;	/* what this process wrote last */
	static size_t last_len;
	size_t len;
	char *t = lgd_rec_read_text(dir, "module_log", &len);
	int ret;

	if (!t)		/* a module without the file: KALLSYMS alone */
		return 0;
	if (last && len == last_len && !memcmp(t, last, len)) {
		free(t);
		return 0;
	}
	ret = lgd_cap_write_section(w, LGD_SECT_MODLOG, LGD_CAP_NO_CPU, t, len);
	free(last);
	last = t;
	last_len = len;
	return ret;
}

int lgd_rec_formats(struct lgd_cap_writer *w, const char *dir, const char *formats,
		    size_t len, int *ksyms_done, struct lgd_rec_status *st)
{
	int ret = lgd_cap_write_section(w, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats, len);

	if (!ret)
		ret = lgd_rec_kallsyms(w, formats, len, ksyms_done, st);
	if (!ret && *ksyms_done)
		ret = lgd_rec_modlog(w, dir);
	return ret;
}

/*
 * @dir/probe_cost into *@pc, in the current layout (a module of version 1
 * converted: lgd_cost_check()): 1 if it is a calibration, 0 if the module
 * was never calibrated, negative errno (no file: an older module; a size,
 * magic or version we do not know: -EPROTO)
 */
static int read_probe_cost(const char *dir, struct logdev_probe_cost *pc)
{
	size_t len;
	char *t = lgd_rec_read_text(dir, "probe_cost", &len);
	int ret;

	if (!t)
		return errno ? -errno : -EIO;
	ret = lgd_cost_check(t, len, pc);
	free(t);
	return ret == -ENODATA ? 0 : ret ? ret : 1;
}

int lgd_rec_probe_cost(struct lgd_cap_writer *w, const char *dir)
{
	struct logdev_probe_cost pc;

	if (read_probe_cost(dir, &pc) != 1)
		return 0;
	return lgd_cap_write_section(w, LGD_SECT_PROBE_COST, LGD_CAP_NO_CPU, &pc, sizeof(pc));
}

int lgd_rec_calibrated(const char *dir)
{
	struct logdev_probe_cost pc;

	return read_probe_cost(dir, &pc);
}

int lgd_rec_meta(struct lgd_cap_writer *w, const char *dir, uint32_t *subbuf_size,
		 int *ksyms_done, struct lgd_rec_status *st)
{
	struct lgd_header h;
	size_t hl, fl;
	char *ht, *ft;
	int ret;

	memset(st, 0, sizeof(*st));
	ht = lgd_rec_read_text(dir, "header", &hl);
	if (!ht) {
		st->stage = LGD_REC_READ_HEADER;
		return -errno;
	}
	ret = lgd_header_parse(&h, ht, hl, &st->d);
	if (ret) {
		st->stage = LGD_REC_PARSE_HEADER;
		free(ht);
		return ret;
	}
	*subbuf_size = h.subbuf_size;
	ret = lgd_cap_write_section(w, LGD_SECT_HEADER, LGD_CAP_NO_CPU, ht, hl);
	free(ht);
	if (!ret)
		ret = lgd_rec_probe_cost(w, dir);
	if (ret)
		goto werr;
	ft = lgd_rec_read_text(dir, "formats", &fl);
	if (!ft) {
		st->stage = LGD_REC_READ_FORMATS;
		return -errno;
	}
	ret = lgd_rec_formats(w, dir, ft, fl, ksyms_done, st);
	free(ft);
	if (ret)
		goto werr;
	return 0;
werr:
	st->stage = LGD_REC_WRITE;
	return ret;
}

int lgd_rec_drain(struct lgd_cap_writer *w, int fd, unsigned cpu, uint8_t *buf,
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
		/*
		 * One section per sub-buffer, all of them in one writev()
		 * (lgd_cap_write_subbufs()): a write that fails (disk full,
		 * file size limit) loses at most the sub-buffer it was
		 * writing, never the rest of the chunk that fitted.
		 */
		ret = lgd_cap_write_subbufs(w, cpu, buf, (size_t)n, sbs);
		if (ret)
			return ret;
		*bytes += (uint64_t)n;
		if (records)
			*records += lgd_sb_count_records(buf, (size_t)n, sbs);
		/*
		 * A short read: no other sub-buffer was whole when it ended
		 * (trace_pipe_raw fills the count while there are), so the
		 * read that would say EAGAIN is saved.
		 */
		if ((size_t)n < bufsz)
			return 0;
	}
}

int lgd_rec_recorder(struct lgd_cap_writer *w)
{
	char t[32];
	int n = snprintf(t, sizeof(t), "pid %ld\n", (long)getpid());

	return lgd_cap_write_section(w, LGD_SECT_RECORDER, LGD_CAP_NO_CPU, t, (uint64_t)n);
}
