/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edp.h - userspace edprint-equivalent for the host benchmark, with the
 * argument encoding decided at compile time (the encoding proposed for the
 * kernel's edprint(); see docs/log/PERFORMANCE-history.md, "Compile-time
 * argument encoding").
 *
 *	EDP(cb, "got %d bytes from %s", len, name);
 *
 * Header as the kernel's; payload: the slots of edp_encode.h (record
 * type LOGDEV_REC_PRINT_SLOTS, proposed).
 */
#ifndef EDP_H
#define EDP_H

#include <string.h>
#include "logdev_ring_write.h"
#include "edp_encode.h"

#define LOGDEV_REC_PRINT_SLOTS	3	/* proposed record type */

struct edp_site {
	const char *fmt;
	u32 id;
};

extern u32 edp_next_site;
extern __thread u32 edp_tid;
u32 edp_site_id(struct edp_site *s);

/*
 * EDP(cb, fmt, args...) - record one edprint-equivalent into ring @cb.
 * Header as the kernel writes it; payload as described above.
 *
 * Shaped as the kernel's __logdev_words() (kernel/logdev_record.c): the
 * inline fast path ld_try_reserve() with its reservation in registers, and
 * everything it leaves in a separate branch whose reservation (_eds), not
 * the fast path's, is the one whose address escapes to ld_reserve_slow().
 * One reservation for both paths would put the fast path's in memory (the
 * ring's asm "memory" clobbers), a store and a reload per field.
 */
#define EDP_FILL(cb, r, id, n, ...)					\
do {									\
	char *_edp = (char *)((r).rec + 1);				\
	(r).rec->site = (id);						\
	(r).rec->type = LOGDEV_REC_PRINT_SLOTS;				\
	(r).rec->ctx = 0;						\
	(r).rec->pid = edp_tid;						\
	(r).rec->arg_bytes = (n);					\
	EDP_MAP(EDP_STORE, ##__VA_ARGS__)				\
	if ((n) & 4)							\
		memset(_edp, 0, 4);					\
	(void)_edp;							\
	ld_commit((cb), &(r));						\
} while (0)

#define EDP(cb, _fmt, ...)						\
do {									\
	static struct edp_site _eds = { .fmt = "" _fmt "" };		\
	struct ld_resv _edr;						\
	u32 _edid = _eds.id ? _eds.id : edp_site_id(&_eds);		\
	EDP_MAP(EDP_DECL, ##__VA_ARGS__)				\
	const u32 _edn = 0 EDP_MAP(EDP_SIZE, ##__VA_ARGS__);		\
	if (__builtin_expect(ld_try_reserve((cb), _edn, &_edr), 1)) {	\
		EDP_FILL(cb, _edr, _edid, _edn, ##__VA_ARGS__);		\
	} else {							\
		struct ld_resv _edslow;					\
									\
		if (!ld_reserve_slow((cb), _edn, &_edslow))		\
			EDP_FILL(cb, _edslow, _edid, _edn, ##__VA_ARGS__); \
	}								\
} while (0)

#endif /* EDP_H */
