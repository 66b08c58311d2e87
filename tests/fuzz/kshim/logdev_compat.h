/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim/logdev_compat.h - kernel/logdev_compat.h as the fake kernel of
 * fuzz_probespec answers it: a 6.1 kernel (struct module's core_layout;
 * kallsyms_on_each_symbol() and module_kallsyms_on_each_symbol() with the
 * struct module * in their callbacks, no modname).  The -Ikshim before
 * -I../../kernel finds it first; only what logdev_probes.c and
 * logdev_ksyms*.c use.
 */
#ifndef LDK_LOGDEV_COMPAT_H
#define LDK_LOGDEV_COMPAT_H
#include "ldk_kernel.h"

enum ld_mod_mem {
	LD_MOD_TEXT,
	LD_MOD_RODATA,
	LD_MOD_RO_AFTER_INIT,
	LD_MOD_DATA,
	LD_MOD_INIT_TEXT,
	LD_MOD_INIT_RODATA,
	LD_MOD_INIT_DATA,
	LD_MOD_MEM_NR
};

/* only the text region: the fake module has no other */
static inline void ld_mod_mem(const struct module *mod, enum ld_mod_mem t,
			      unsigned long *base, unsigned long *size)
{
	*base = 0;
	*size = 0;
	if (t == LD_MOD_TEXT && mod->core_layout.base) {
		*base = (unsigned long)mod->core_layout.base;
		*size = mod->core_layout.text_size;
	}
}

#define LD_KALLSYMS_ITER	1
#define LD_KALLSYMS_FN(fn, body)					\
	static int fn(void *data, const char *name, struct module *mod,	\
		      unsigned long addr)				\
	{								\
		return body(data, name, mod, addr);			\
	}
#define LD_MODULE_KALLSYMS_ITER		1
#define LD_MODULE_KALLSYMS_GIVES_MOD	1
#define LD_MODULE_KALLSYMS_FN(fn, body)	LD_KALLSYMS_FN(fn, body)
#define ld_module_kallsyms_on_each(iter, modname, fn, data) (iter)(fn, data)
#endif
