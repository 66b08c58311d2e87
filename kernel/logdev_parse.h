/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_parse.h - control values: the limits and the one parser of the
 * debugfs control files and the module parameters (logdev_parse.c).
 *
 * Layer: recording core; included by logdev_core.h (so by the core and
 * the layers above), and by the userspace fuzzer (tests/fuzz), which
 * builds logdev_parse.c through logdev_shim.h.
 */
#ifndef _LOGDEV_PARSE_H
#define _LOGDEV_PARSE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "logdev_shim.h"
#endif

#define LD_SUBBUF_MIN		1024	/* bytes */
#define LD_SUBBUF_MAX		65536	/* bytes */
#define LD_SUBBUF_DEFAULT	4096	/* bytes */
#define LD_BUF_KB_DEFAULT	1024	/* per CPU */
#define LD_BUF_KB_MAX		(256 * 1024)	/* per CPU */

/* Control values: one parser for debugfs writes and module parameters. */
int ld_parse_write(char *buf, size_t count);
#ifdef __KERNEL__
int ld_get_word(const char __user *ubuf, size_t count, char *buf, size_t size);
#endif
int ld_parse_u64(const char *s, u64 *val);
int ld_parse_name(const char *s, const char * const *names, int nr);
int ld_parse_enable(const char *s, bool *on);
int ld_parse_subbuf_size(const char *s, u32 *size);
int ld_parse_size_kb(const char *s, u64 *kb);
int ld_parse_clear(const char *s);
int ld_parse_flush(const char *s);
int ld_size_kb_subbufs(u64 kb, u32 subbuf_size, u32 *nr);

/*
 * struct ld_persist_spec - where parameter "persist" puts the rings: a
 * memmap= range (@size bytes at physical @addr) or a reserve_mem= @name;
 * all zero: off.
 */
#define LD_PERSIST_NAME_MAX	15	/* reserve_mem='s names: 16 bytes with NUL */
struct ld_persist_spec {
	u64 size, addr;
	char name[LD_PERSIST_NAME_MAX + 1];
};

int ld_parse_persist(const char *s, struct ld_persist_spec *p);

#endif /* _LOGDEV_PARSE_H */
