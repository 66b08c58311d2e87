// SPDX-License-Identifier: GPL-2.0
/*
 * capture.c: capture file writer and little-endian helpers (see capture.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include <sys/uio.h>
#include "capture.h"

#ifndef IOV_MAX		/* -std=c11 without _XOPEN_SOURCE: Linux's UIO_MAXIOV */
#define IOV_MAX		1024
#endif

void lgd_cap_put_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void lgd_cap_put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint32_t lgd_cap_get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint64_t lgd_cap_get_u64(const uint8_t *p)
{
	return (uint64_t)lgd_cap_get_u32(p) | (uint64_t)lgd_cap_get_u32(p + 4) << 32;
}

/*
 * writev(2) all of the @cnt buffers of @iov (changed: it is consumed);
 * *@done: the bytes written, also when it fails.  0 or negative errno.
 */
static int write_allv(int fd, struct iovec *v, int cnt, size_t *done)
{
	*done = 0;
	while (cnt) {
		ssize_t n = writev(fd, v, cnt > IOV_MAX ? IOV_MAX : cnt);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		*done += (size_t)n;
		while (cnt && (size_t)n >= v->iov_len) {
			n -= (ssize_t)v->iov_len;
			v++;
			cnt--;
		}
		if (cnt) {
			v->iov_base = (uint8_t *)v->iov_base + n;
			v->iov_len -= (size_t)n;
		}
	}
	return 0;
}

/*
 * writev(2) all of @hlen header bytes then @len data bytes (one system call
 * in the common case); 0 or negative errno.
 */
static int write_all2(int fd, const void *hdr, size_t hlen, const void *buf, size_t len)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *)hdr, .iov_len = hlen },
		{ .iov_base = (void *)buf, .iov_len = len },
	};
	size_t done;

	return write_allv(fd, iov, len ? 2 : 1, &done);
}

/* write(2) all of @len bytes; 0 or negative errno */
static int write_all(int fd, const void *buf, size_t len)
{
	return write_all2(fd, buf, len, NULL, 0);
}

/* the file header and the section header: their byte layout is here only */
#define FH_VERSION	8
#define FH_HDR_BYTES	12
#define SH_TYPE		0
#define SH_CPU		4
#define SH_LEN		8

void lgd_cap_file_hdr_put(uint8_t *p)
{
	memcpy(p, LGD_CAP_MAGIC, 8);
	lgd_cap_put_u32(p + FH_VERSION, LGD_CAP_VERSION);
	lgd_cap_put_u32(p + FH_HDR_BYTES, LGD_CAP_FILE_HDR_BYTES);
}

int lgd_cap_file_hdr_get(const uint8_t *p, uint32_t *version, uint32_t *hdr_bytes)
{
	if (memcmp(p, LGD_CAP_MAGIC, 8))
		return -EINVAL;
	*version = lgd_cap_get_u32(p + FH_VERSION);
	*hdr_bytes = lgd_cap_get_u32(p + FH_HDR_BYTES);
	return *version == LGD_CAP_VERSION ? 0 : -EPROTO;
}

uint32_t lgd_cap_file_hdr_version_off(void)
{
	return FH_VERSION;
}

void lgd_cap_sect_hdr_put(uint8_t *p, uint32_t type, uint32_t cpu, uint64_t len)
{
	lgd_cap_put_u32(p + SH_TYPE, type);
	lgd_cap_put_u32(p + SH_CPU, cpu);
	lgd_cap_put_u64(p + SH_LEN, len);
}

void lgd_cap_sect_hdr_get(const uint8_t *p, uint32_t *type, uint32_t *cpu, uint64_t *len)
{
	*type = lgd_cap_get_u32(p + SH_TYPE);
	*cpu = lgd_cap_get_u32(p + SH_CPU);
	*len = lgd_cap_get_u64(p + SH_LEN);
}

int lgd_cap_writer_start(struct lgd_cap_writer *w, int fd)
{
	uint8_t h[LGD_CAP_FILE_HDR_BYTES];

	w->fd = fd;
	w->bytes = 0;
	w->err = 0;
	w->lock = NULL;
	lgd_cap_file_hdr_put(h);
	w->err = write_all(fd, h, sizeof(h));
	if (!w->err)
		w->bytes += sizeof(h);
	return w->err;
}

int lgd_cap_write_section(struct lgd_cap_writer *w, uint32_t type, uint32_t cpu,
			 const void *data, uint64_t len)
{
	uint8_t h[LGD_CAP_SECT_HDR_BYTES];

	int err;

	lgd_cap_sect_hdr_put(h, type, cpu, len);
	if (w->lock)
		pthread_mutex_lock(w->lock);
	if (!w->err) {
		w->err = write_all2(w->fd, h, sizeof(h), data, (size_t)len);
		if (!w->err)
			w->bytes += sizeof(h) + len;
	}
	err = w->err;
	if (w->lock)
		pthread_mutex_unlock(w->lock);
	return err;
}

/* sections per writev() in lgd_cap_write_subbufs(): two buffers each */
#define SUBBUF_BATCH	256

int lgd_cap_write_subbufs(struct lgd_cap_writer *w, uint32_t cpu, const void *data,
			  size_t len, uint32_t sbs)
{
	uint8_t h[SUBBUF_BATCH][LGD_CAP_SECT_HDR_BYTES];	/* 12 KiB of stack */
	struct iovec iov[2 * SUBBUF_BATCH];
	const uint8_t *p = data;
	int err;

	if (w->lock)
		pthread_mutex_lock(w->lock);
	while (len && !w->err) {
		size_t done, off = 0;
		int n;

		for (n = 0; n < SUBBUF_BATCH && off < len; n++) {
			size_t l = len - off < sbs ? len - off : sbs;

			lgd_cap_sect_hdr_put(h[n], LGD_SECT_CPU_DATA, cpu, l);
			iov[2 * n] = (struct iovec){ .iov_base = h[n], .iov_len = sizeof(h[n]) };
			iov[2 * n + 1] = (struct iovec){ .iov_base = (void *)(p + off), .iov_len = l };
			off += l;
		}
		w->err = write_allv(w->fd, iov, 2 * n, &done);
		if (w->err) {	/* the whole sections written count, not the rest */
			for (size_t o = 0; o < off; o += sbs) {
				size_t l = LGD_CAP_SECT_HDR_BYTES + (len - o < sbs ? len - o : sbs);

				if (done < l)
					break;
				done -= l;
				w->bytes += l;
			}
			break;
		}
		w->bytes += (uint64_t)n * LGD_CAP_SECT_HDR_BYTES + off;
		p += off;
		len -= off;
	}
	err = w->err;
	if (w->lock)
		pthread_mutex_unlock(w->lock);
	return err;
}

int lgd_cap_write_end(struct lgd_cap_writer *w)
{
	return lgd_cap_write_section(w, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
}

int lgd_cap_write_salvaged(struct lgd_cap_writer *w, int err)
{
	char t[200];
	int n = snprintf(t, sizeof(t), "write error: %s\n", strerror(-err));

	return lgd_cap_write_section(w, LGD_SECT_SALVAGED, LGD_CAP_NO_CPU, t, (uint64_t)n);
}

const char *lgd_sect_name(uint32_t type)
{
	static const char *const names[] = {
		[LGD_SECT_HEADER] = "HEADER", [LGD_SECT_FORMATS] = "FORMATS",
		[LGD_SECT_STATS] = "STATS", [LGD_SECT_KALLSYMS] = "KALLSYMS",
		[LGD_SECT_CPU_DATA] = "CPU_DATA", [LGD_SECT_END] = "END",
		[LGD_SECT_MODLOG] = "MODLOG",
		[LGD_SECT_RECORDER] = "RECORDER", [LGD_SECT_PROBES] = "PROBES",
		[LGD_SECT_SALVAGED] = "SALVAGED", [LGD_SECT_PROBE_COST] = "PROBE_COST",
		[LGD_SECT_LAST_BOOT] = "LAST_BOOT",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "unknown-type";
}
