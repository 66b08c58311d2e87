// SPDX-License-Identifier: GPL-2.0
/*
 * kcore.c: discovery layer: kernel memory read through /proc/kcore (an ELF
 * core file: each PT_LOAD segment maps a range of kernel addresses to a
 * file offset), for the callees of a function (lgd_callees.h).  Root only
 * (CAP_SYS_RAWIO); the text read is the running text, as patched.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lgd_callees.h"

struct lgd_kcore {
	int fd;
	Elf64_Phdr *ph;
	size_t nr;
};

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EFAULT;
		done += (size_t)n;
	}
	return 0;
}

int lgd_kcore_open(struct lgd_kcore **out, const char *path)
{
	struct lgd_kcore *kc;
	Elf64_Ehdr eh;
	int err;

	kc = calloc(1, sizeof(*kc));
	if (!kc)
		return -ENOMEM;
	kc->fd = open(path ? path : "/proc/kcore", O_RDONLY | O_CLOEXEC);
	if (kc->fd < 0) {
		err = -errno;
		free(kc);
		return err;
	}
	err = read_at(kc->fd, &eh, sizeof(eh), 0);
	if (err == -EFAULT)
		err = -ENOEXEC;		/* shorter than an ELF header */
	if (err)
		goto err_close;
	err = -ENOEXEC;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_type != ET_CORE || eh.e_phentsize != sizeof(Elf64_Phdr) || !eh.e_phnum)
		goto err_close;
	kc->ph = calloc(eh.e_phnum, sizeof(*kc->ph));
	if (!kc->ph) {
		err = -ENOMEM;
		goto err_close;
	}
	kc->nr = eh.e_phnum;
	err = read_at(kc->fd, kc->ph, kc->nr * sizeof(*kc->ph), eh.e_phoff);
	if (err)
		goto err_close;
	*out = kc;
	return 0;
err_close:
	lgd_kcore_close(kc);
	return err;
}

int lgd_kcore_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct lgd_kcore *kc = ctx;

	for (size_t i = 0; i < kc->nr; i++) {
		const Elf64_Phdr *p = &kc->ph[i];

		if (p->p_type != PT_LOAD || addr < p->p_vaddr ||
		    addr - p->p_vaddr > p->p_filesz || len > p->p_filesz - (addr - p->p_vaddr))
			continue;
		return read_at(kc->fd, buf, len, p->p_offset + (addr - p->p_vaddr));
	}
	return -EFAULT;
}

void lgd_kcore_close(struct lgd_kcore *kc)
{
	if (!kc)
		return;
	close(kc->fd);
	free(kc->ph);
	free(kc);
}
