/* SPDX-License-Identifier: GPL-2.0 */
/*
 * edp.h - userspace edprint-equivalent for the host benchmark, with the
 * argument encoding decided at compile time (the encoding proposed for the
 * kernel's edprint(); see docs/PERFORMANCE.md, "Compile-time encoding").
 *
 *	EDP(cb, "got %d bytes from %s", len, name);
 *
 * Header as the kernel's; payload: the slots of edp_encode.h (record
 * type LOGDEV_REC_PRINT_SLOTS, proposed).
 */
#ifndef EDP_H
#define EDP_H

#include <string.h>
#include "logdev_ring.h"
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
 */
#define EDP(cb, _fmt, ...)						\
do {									\
	static struct edp_site _eds = { .fmt = "" _fmt "" };		\
	struct ld_resv _edr;						\
	u32 _edid = _eds.id ? _eds.id : edp_site_id(&_eds);		\
	EDP_MAP(EDP_DECL, ##__VA_ARGS__)				\
	const u32 _edn = 0 EDP_MAP(EDP_SIZE, ##__VA_ARGS__);		\
	if (__builtin_expect(!ld_reserve((cb), _edn, &_edr), 1)) {	\
		char *_edp = (char *)(_edr.rec + 1);			\
		_edr.rec->site = _edid;					\
		_edr.rec->type = LOGDEV_REC_PRINT_SLOTS;		\
		_edr.rec->ctx = 0;					\
		_edr.rec->pid = edp_tid;				\
		_edr.rec->arg_bytes = _edn;				\
		EDP_MAP(EDP_STORE, ##__VA_ARGS__)			\
		if (_edn & 4)						\
			memset(_edp, 0, 4);				\
		(void)_edp;						\
		ld_commit((cb), &_edr);					\
	}								\
} while (0)

#endif /* EDP_H */
