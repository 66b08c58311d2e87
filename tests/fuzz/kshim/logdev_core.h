/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim/logdev_core.h - what kernel/logdev_probes.c takes from the recording
 * core (kernel/logdev_core.h), for the userspace build of the fuzzer: the
 * call-site struct (as include/linux/edprint.h has it, the fields probes
 * use) and the three core functions it calls, defined in fuzz_probespec.c.
 */
#ifndef LDK_LOGDEV_CORE_H
#define LDK_LOGDEV_CORE_H
#include "ldk_kernel.h"
#include "uapi/linux/logdev.h"	/* LOGDEV_MAX_PAYLOAD */

struct logdev_site {
	const char *fmt;
	const char *file;
	const char *func;
	u32 line;
	u32 id;
};
u32 logdev_site_id(struct logdev_site *site);
void ld_site_adopt(struct logdev_site *s);
int ld_write_print(u32 site_id, const void *payload, u32 bytes);
#define NOKPROBE_SYMBOL(f)
#define get_kretprobe(ri) ldk_kretprobe_of(ri)
struct kretprobe *ldk_kretprobe_of(struct kretprobe_instance *ri);
#endif
