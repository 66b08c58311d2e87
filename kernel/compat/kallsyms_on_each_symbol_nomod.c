// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms_on_each_symbol_nomod: kallsyms_on_each_symbol(fn, data) calls
 * fn(data, name, addr) for each symbol of vmlinux.  Linux 6.3; before, fn
 * also took a struct module * (kallsyms_on_each_symbol_mod.c).  No build
 * fails if neither compiles: logdev then never calls it and walks
 * /proc/kallsyms instead.  Used by: logdev_compat.h LD_KALLSYMS_FN()
 * (logdev_ksyms.c).
 */
#include <linux/kallsyms.h>

static int ldc_ksym(void *data, const char *name, unsigned long addr)
{
	return 0;
}

int ldc_kallsyms_on_each_symbol_nomod(void);
int ldc_kallsyms_on_each_symbol_nomod(void)
{
	return kallsyms_on_each_symbol(ldc_ksym, NULL);
}
