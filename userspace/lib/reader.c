// SPDX-License-Identifier: GPL-2.0
/*
 * reader.c: open a capture (layer: library, read): check the file header,
 * scan the section headers (resync.c reads past a corrupt one) and load
 * the metadata (header, formats, kallsyms, module log, stats, probes,
 * recorder); CPU data is read later, lazily, by the streams (stream.c)
 * of a merge (merge.c).
 *
 * Hostile input: a section header whose length cannot be right is warned
 * about (corrupt, at the header's offset) and the walk resynchronises at
 * the next section header (resync.c); section CPU numbers must be below
 * LGD_MAX_CPU (others are skipped with a warning, LGD_WARN_BURST times,
 * then summed up in one "... and N more" warning at the end of the open).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "liblogdev.h"
#include "comm.h"
#include "subbuf.h"
#include "reader_int.h"

/* read a whole metadata section into a NUL-terminated malloc'd buffer */
static char *read_text(struct lgd_reader *r, uint64_t off, uint64_t len)
{
	char *t;
	ssize_t n;

	if (len > (256u << 20))
		return NULL;
	t = malloc(len + 1);
	if (!t)
		return NULL;
	n = lgd_rd_pread(r->fd, t, len, off);
	if (n < 0) {
		free(t);
		return NULL;
	}
	t[n] = 0;
	return t;
}

/*
 * a text section cut by the end of the file: only its whole lines count
 * (a line cut short is not a malformed one); its new length
 */
static uint64_t whole_lines(char *t, uint64_t len)
{
	char *nl = len ? memrchr(t, '\n', len) : NULL;

	len = nl ? (uint64_t)(nl - t) + 1 : 0;
	t[len] = 0;
	return len;
}

static int add_cpu(struct lgd_reader *r, uint32_t cpu)
{
	uint32_t i, *n;

	for (i = 0; i < r->nr_cpus; i++)
		if (r->cpus[i] == cpu)
			return 0;
	n = realloc(r->cpus, (r->nr_cpus + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->cpus = n;
	for (i = r->nr_cpus; i > 0 && n[i - 1] > cpu; i--)
		n[i] = n[i - 1];
	n[i] = cpu;
	r->nr_cpus++;
	return 0;
}

/* what the scan of the section headers has seen so far (lgd_reader_open_fd()) */
struct scan {
	uint64_t off, bad_cpus;
	uint64_t last_formats, last_data;	/* offsets + 1 of the last ones */
	int have_hdr, cut;
	int have_stats, have_recorder;
	uint64_t salvaged;		/* offset + 1 of a SALVAGED section */
	uint64_t end_off;		/* offset of the END section */
	char *salvage_why;		/* its text, one line */
	char *modlog;
	size_t modlog_len;
};

/*
 * The file itself and its header: sc->off at the first section.
 * Return: 0, 1 (the start of a capture, cut: open, nothing to decode,
 * said), or negative errno with @d filled.
 */
static int open_file(struct lgd_reader *r, int fd, struct scan *sc, struct lgd_diag *d)
{
	uint8_t fh[LGD_CAP_FILE_HDR_BYTES];
	struct stat st;
	uint32_t cap_version, hdr_bytes;
	ssize_t fn;
	int ret;

	if (fstat(fd, &st) < 0) {
		ret = -errno;
		lgd_diag_set(d, ret, -1, "cannot stat capture");
		return ret;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		lgd_diag_set(d, ret, -1, "is a directory");
		return ret;
	}
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ||
	    lseek(fd, 0, SEEK_CUR) < 0) {
		ret = -ESPIPE;
		lgd_diag_set(d, ret, -1, "%s", S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) ?
			 "must be a seekable file" :
			 "must be a seekable file (a pipe was given)");
		return ret;
	}
	r->file_size = (uint64_t)st.st_size;
	fn = lgd_rd_pread(fd, fh, sizeof(fh), 0);
	if (fn == 0) {
		/* nothing was ever written: not a capture cut short, none at all */
		ret = -EINVAL;
		lgd_diag_set(d, ret, -1, "empty file (0 bytes): not a logdev capture");
		return ret;
	}
	if (fn > 0 && fn < (ssize_t)sizeof(fh) &&
	    !memcmp(fh, LGD_CAP_MAGIC, fn < 8 ? (size_t)fn : 8)) {
		/* the start of a capture, cut: nothing to decode, said */
		r->first_sect_off = LGD_CAP_FILE_HDR_BYTES;
		lgd_rd_warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
		     "the file header has %zd of its %d bytes: no record to decode", fn,
		     LGD_CAP_FILE_HDR_BYTES);
		return 1;
	}
	if (fn != (ssize_t)sizeof(fh) ||
	    lgd_cap_file_hdr_get(fh, &cap_version, &hdr_bytes) == -EINVAL) {
		ret = -EINVAL;
		if (fn >= 2 && fh[0] == 0x1f && fh[1] == 0x8b)
			lgd_diag_set(d, ret, 0, "not a logdev capture: gzip-compressed (zcat it to a file first)");
		else
			lgd_diag_set(d, ret, 0, "not a logdev capture (bad magic or too short)");
		return ret;
	}
	if (cap_version != LGD_CAP_VERSION) {
		ret = -EPROTO;
		lgd_diag_set(d, ret, lgd_cap_file_hdr_version_off(), "unsupported capture version");
		return ret;
	}
	sc->off = hdr_bytes;
	if (sc->off < LGD_CAP_FILE_HDR_BYTES)
		sc->off = LGD_CAP_FILE_HDR_BYTES;
	r->first_sect_off = sc->off;
	return 0;
}

/* a CPU_DATA section at @off: its CPU listed.  Return: 0 or negative errno. */
static int take_cpu_data(struct lgd_reader *r, struct scan *sc, uint32_t cpu, uint64_t off,
			 struct lgd_diag *d)
{
	int ret;

	if (!sc->have_hdr) {
		ret = -EINVAL;
		lgd_diag_set(d, ret, (int64_t)off, "CPU data before the header section");
		return ret;
	}
	if (cpu >= LGD_MAX_CPU) {
		if (++sc->bad_cpus <= LGD_WARN_BURST)
			lgd_rd_warn(r, -EINVAL, (int64_t)off, -1, -1,
			     "section CPU %u out of range (>= %u) at offset %llu, section skipped",
			     cpu, LGD_MAX_CPU, (unsigned long long)off);
		return 0;
	}
	if (add_cpu(r, cpu))
		return -ENOMEM;
	sc->last_data = off + 1;
	return 0;
}

/*
 * A section of @type at @off, its data at @data (@len bytes; a text
 * section's text in *@tp, taken when kept: *@tp set to NULL).
 * Return: 0 or negative errno with @d filled.
 */
static int take_sect(struct lgd_reader *r, struct scan *sc, uint32_t type, uint32_t cpu,
		     uint64_t off, uint64_t data, uint64_t len, char **tp, struct lgd_diag *d)
{
	char *t = *tp;
	int ret;

	switch (type) {
	case LGD_SECT_HEADER:
		if (sc->have_hdr)
			break;
		ret = lgd_header_parse(&r->hdr, t, len, d);
		if (ret && sc->cut) {
			/* cut: said above; nothing after it to decode */
			memset(&r->hdr, 0, sizeof(r->hdr));
			lgd_rd_warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
			     "the HEADER section is incomplete: no record to decode");
			break;
		}
		if (ret) {
			/* offset of the offending line, else the text */
			if (d)
				d->offset = (int64_t)data +
					    (d->offset >= 0 ? d->offset : 0);
			return ret;
		}
		sc->have_hdr = 1;
		break;
	case LGD_SECT_FORMATS:
		sc->last_formats = off + 1;
		ret = lgd_sites_parse(&r->sites, t, len);
		if (ret < 0)
			return ret;
		if (ret > 0)
			lgd_rd_warn(r, -EINVAL, (int64_t)data, -1, -1,
			     "%d malformed formats lines skipped", ret);
		break;
	case LGD_SECT_SALVAGED:	/* "write error: REASON\n" (capture.h) */
		if (!sc->salvaged) {
			sc->salvaged = off + 1;
			sc->salvage_why = t;
			*tp = NULL;
			/* one line of printable ASCII: it is printed */
			t[strcspn(t, "\n")] = 0;
			if (strlen(t) > 120)
				t[120] = 0;
			for (char *q = t; *q; q++)
				if (*q < 0x20 || *q > 0x7e)
					*q = '?';
		}
		break;
	case LGD_SECT_STATS:
		sc->have_stats = 1;
		free(r->stats);
		r->stats = t;
		*tp = NULL;
		break;
	case LGD_SECT_PROBES:	/* the last one wins */
		free(r->probes);
		r->probes = t;
		*tp = NULL;
		break;
	case LGD_SECT_LAST_BOOT:	/* the first one (capture.h) */
		if (!r->last_boot) {
			r->last_boot = t;
			*tp = NULL;
		}
		break;
	case LGD_SECT_PROBE_COST:	/* the last one wins */
		ret = lgd_cost_check(t, len, &r->cost);
		r->have_cost = !ret;
		if (ret == -EPROTO)
			lgd_rd_warn(r, -EPROTO, (int64_t)data, -1, -1,
				    "PROBE_COST section of another version or size: "
				    "probe cost not used");
		ret = 0;
		break;
	case LGD_SECT_KALLSYMS:
		lgd_ksyms_free(&r->ksyms);
		ret = lgd_ksyms_parse(&r->ksyms, t, len);
		if (ret < 0)
			return ret;
		r->has_ksyms = 1;
		break;
	case LGD_SECT_MODLOG:	/* cumulative: the last one wins */
		free(sc->modlog);
		sc->modlog = t;
		*tp = NULL;
		sc->modlog_len = len;
		break;
	case LGD_SECT_RECORDER:	/* "pid N\n" (capture.h) */
		sc->have_recorder = 1;
		if (!sc->cut || len) {
			unsigned long long pid;
			char nl;

			if (sscanf(t, "pid %llu%c", &pid, &nl) == 2 && nl == '\n' &&
			    pid <= UINT32_MAX)
				r->recorder_pid = (int64_t)pid;
			else
				lgd_rd_warn(r, -EINVAL, (int64_t)data, -1, -1,
				     "RECORDER section without \"pid N\", ignored");
		}
		break;
	case LGD_SECT_CPU_DATA:
		return take_cpu_data(r, sc, cpu, off, d);
	default:
		break;	/* unknown: skip */
	}
	return 0;
}

/*
 * The section header at sc->off and its section, sc->off moved past it.
 * Return: 0 (go on), 1 (the scan ends: END, the file's end or a cut), or
 * negative errno with @d filled.
 */
static int scan_sect(struct lgd_reader *r, struct scan *sc, struct lgd_diag *d)
{
	uint8_t sh[LGD_CAP_SECT_HDR_BYTES];
	uint64_t off = sc->off;
	ssize_t n = lgd_rd_pread(r->fd, sh, sizeof(sh), off);
	uint32_t type, cpu;
	uint64_t len, data;
	const struct lgd_sect_fix *fx;
	char *t = NULL;		/* a text section's bytes */
	int ret;

	if (n < 0) {
		ret = (int)n;
		lgd_diag_set(d, ret, (int64_t)off, "read error");
		return ret;
	}
	if (n == 0)
		return 1;
	if (n < (ssize_t)sizeof(sh)) {
		lgd_rd_warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
		     "section header at byte %llu has %zd of its 16 bytes",
		     (unsigned long long)off, n);
		sc->cut = 1;
		return 1;
	}
	lgd_cap_sect_hdr_get(sh, &type, &cpu, &len);
	data = off + sizeof(sh);
	fx = lgd_rd_fix_at(r, off);
	if (!fx && type == LGD_SECT_END) {
		r->complete = 1;
		sc->end_off = off;
		return 1;
	}
	if (!fx) {	/* a corrupt length: resynchronised, noted in r->fixes */
		ret = lgd_rd_check_sect(r, off, type, cpu, len, sc->have_hdr ? r->hdr.subbuf_size : 0);
		if (ret)
			return ret;
		fx = lgd_rd_fix_at(r, off);
	}
	if (fx) {
		type = fx->type;
		cpu = fx->cpu;
		len = fx->len;
	}
	if (len > r->file_size - data && !strcmp(lgd_sect_name(type), "unknown-type")) {
		/*
		 * A type this reader does not know and a length beyond
		 * the file: the header's bytes are wrong (a newer
		 * writer's section would fit in a whole file), so
		 * corrupt, and nothing after it can be found.
		 */
		lgd_rd_warn(r, -EINVAL, (int64_t)off, -1, -1,
		     "section header: unknown type %u with a length of %llu bytes, beyond the end of the file (%llu bytes): the scan stops here",
		     type, (unsigned long long)len, (unsigned long long)r->file_size);
		sc->cut = 1;	/* the scan's end, said: no "no END" warning */
		return 1;
	}
	if (len > r->file_size - data) {
		/* at the cut, the end of the file; the section named */
		lgd_rd_warn(r, -ENODATA, (int64_t)r->file_size,
		     type == LGD_SECT_CPU_DATA ? (int64_t)cpu : -1, -1,
		     "%s section at byte %llu has %llu of its %llu bytes",
		     lgd_sect_name(type), (unsigned long long)off,
		     (unsigned long long)(r->file_size - data), (unsigned long long)len);
		len = r->file_size - data;
		sc->cut = 1;
	}
	/* a cut text section: its whole lines (not CPU data: bytes) */
	if (type != LGD_SECT_CPU_DATA && type <= LGD_SECT_LAST) {
		t = read_text(r, data, len);
		if (!t)
			return -ENOMEM;
		if (sc->cut)
			len = whole_lines(t, len);
	}
	ret = take_sect(r, sc, type, cpu, off, data, len, &t, d);
	free(t);
	if (ret)
		return ret;
	sc->off = fx ? fx->next : data + len;
	return sc->cut;	/* a cut: the end of the file */
}

/*
 * After the scan: what a capture without its header, with a SALVAGED
 * section or without END says; the module log's symbols.  Return: 0, 1
 * (no header, cut: open, nothing to decode, said), or negative errno with
 * @d filled.
 */
static int finish_scan(struct lgd_reader *r, struct scan *sc, struct lgd_diag *d)
{
	int ret;

	if (!sc->have_hdr && (sc->cut || !r->complete)) {
		/* cut before its header's end: nothing to decode, said */
		if (!sc->cut)
			lgd_rd_warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
			     "the file ends at a section boundary before the HEADER section: "
			     "no record to decode");
		return 1;
	}
	if (!sc->have_hdr) {
		ret = -EINVAL;
		lgd_diag_set(d, ret, -1, "capture has no header section");
		return ret;
	}
	if (sc->bad_cpus > LGD_WARN_BURST)
		lgd_rd_warn(r, -EINVAL, -1, -1, -1,
		     "... and %llu more sections with an out-of-range CPU skipped",
		     (unsigned long long)(sc->bad_cpus - LGD_WARN_BURST));
	/*
	 * Incomplete though it may end with END (capture.h): a SALVAGED
	 * section (logdev record's write error), or, from a logdev record
	 * before that section, END after data and RECORDER with no STATS
	 * (the recorder writes STATS before END unless it was cut short)
	 */
	if (sc->salvaged) {
		r->complete = 0;
		lgd_rd_warn(r, -ENODATA, (int64_t)sc->salvaged - 1, -1, -1,
		     "the recording is incomplete: logdev record cut it short and salvaged "
		     "it (SALVAGED section: %s); records after the cut are missing",
		     *sc->salvage_why ? sc->salvage_why : "write error");
	} else if (r->complete && sc->last_data && sc->have_recorder && !sc->have_stats) {
		r->complete = 0;
		lgd_rd_warn(r, -ENODATA, (int64_t)sc->end_off, -1, -1,
		     "the recording is incomplete: an END section but no STATS section, as "
		     "logdev record left a capture it salvaged after a write error (a full "
		     "disk?); records after the cut are missing");
	}
	/* the last formats come after the last data: every site is listed */
	r->sites_final = r->complete && sc->last_formats > sc->last_data;
	if (!r->complete && !sc->cut && !sc->salvaged)	/* a cut section said it already */
		lgd_rd_warn(r, -ENODATA, (int64_t)r->file_size, -1, -1,
		     "capture has no END section (recording cut short?)");
	if (sc->modlog) {
		ret = lgd_ksyms_add_modlog(&r->ksyms, sc->modlog, sc->modlog_len);
		if (ret < 0)
			return ret;
		if (ret > (r->ksyms.modlog_format > LGD_MODLOG_FORMAT))	/* not the header */
			lgd_rd_warn(r, -EINVAL, -1, -1, -1, "%d malformed module log lines (skipped, or "
			     "their module's layout not read; the first is line %u of the MODLOG "
			     "section)", ret - (r->ksyms.modlog_format > LGD_MODLOG_FORMAT),
			     r->ksyms.modlog_bad_line);
		if (lgd_ksyms_modlog_note(&r->ksyms))
			lgd_rd_warn(r, -EPROTO, -1, -1, -1, "%s", lgd_ksyms_modlog_note(&r->ksyms));
		r->has_ksyms = 1;
	}
	return 0;
}

int lgd_reader_open_fd(struct lgd_reader *r, int fd, lgd_warn_fn wfn,
		      void *warn_arg, struct lgd_diag *d)
{
	struct scan sc = { 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->recorder_pid = -1;
	r->warn = wfn;
	r->warn_arg = warn_arg;
	ret = open_file(r, fd, &sc, d);
	if (ret)
		goto out;
	while (!(ret = scan_sect(r, &sc, d)))
		;
	if (ret > 0)
		ret = finish_scan(r, &sc, d);
out:
	free(sc.modlog);
	free(sc.salvage_why);
	if (ret < 0) {
		lgd_reader_close(r);
		return ret;
	}
	return 0;
}

int lgd_reader_open(struct lgd_reader *r, const char *path, lgd_warn_fn wfn,
		   void *warn_arg, struct lgd_diag *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int e = -errno;

		memset(r, 0, sizeof(*r));
		r->fd = -1;
		lgd_diag_set(d, e, -1, "%s", strerror(-e));
		return e;
	}
	return lgd_reader_open_fd(r, fd, wfn, warn_arg, d);
}

void lgd_reader_close(struct lgd_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	lgd_sites_free(&r->sites);
	free(r->filter_sites);
	r->filter_sites = NULL;
	lgd_ksyms_free(&r->ksyms);
	free(r->stats);
	r->stats = NULL;
	free(r->probes);
	r->probes = NULL;
	free(r->last_boot);
	r->last_boot = NULL;
	free(r->cpus);
	r->cpus = NULL;
	r->nr_cpus = 0;
	free(r->fixes);
	r->fixes = NULL;
	r->nr_fixes = 0;
	for (size_t i = 0; i < r->comm_tab_cap; i++)
		free(r->comm_tab[i].v);
	free(r->comm_tab);
	r->comm_tab = NULL;
	r->comm_tab_cap = r->nr_comm_tasks = r->nr_comms = 0;
	r->comms_all = 0;
}
