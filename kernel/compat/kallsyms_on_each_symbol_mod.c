// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms_on_each_symbol_mod: kallsyms_on_each_symbol(fn, data) calls
 * fn(data, name, struct module *, addr) for each symbol of vmlinux.  Up to
 * Linux 6.2; 6.3 dropped the struct module * (always NULL there):
 * kallsyms_on_each_symbol_nomod.c.  No build fails if neither compiles:
 * logdev then never calls it and walks /proc/kallsyms instead.  Used by:
 * logdev_compat.h LD_KALLSYMS_FN() (logdev_ksyms.c).
 */
#include <linux/module.h>
#include <linux/kallsyms.h>

static int ldc_ksym_mod(void *data, const char *name, struct module *mod,
			unsigned long addr)
{
	return 0;
}

int ldc_kallsyms_on_each_symbol_mod(void);
int ldc_kallsyms_on_each_symbol_mod(void)
{
	return kallsyms_on_each_symbol(ldc_ksym_mod, NULL);
}
