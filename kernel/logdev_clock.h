/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_clock.h - the trace clock (logdev_clock.c).
 *
 * Layer: bottom, beside logdev_shim.h: it calls nothing else of logdev.
 * The ring core reaches it only through ld_clock_now(), declared in
 * logdev_shim.h.  Included by the recording core (logdev_core.h) and by
 * any layer above it; never by logdev_ring.c, which must stay portable.
 */
#ifndef _LOGDEV_CLOCK_H
#define _LOGDEV_CLOCK_H

#include <linux/types.h>
#include "logdev_shim.h"

enum ld_clock_id {
	LD_CLOCK_LOCAL = 0,
	LD_CLOCK_GLOBAL,
	LD_CLOCK_MONO,
	LD_NR_CLOCKS,
};

extern const char * const ld_clock_names[LD_NR_CLOCKS];

/* ld_clock_now(): logdev_shim.h (a static call into the selected clock) */
void ld_clock_select(enum ld_clock_id clock);

#endif /* _LOGDEV_CLOCK_H */
