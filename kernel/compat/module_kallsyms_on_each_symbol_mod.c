// SPDX-License-Identifier: GPL-2.0
/*
 * module_kallsyms_on_each_symbol_mod: module_kallsyms_on_each_symbol(fn,
 * data) calls fn(data, name, struct module *, addr) for each symbol of
 * every loaded module.  Up to Linux 6.1.  6.2 added a first argument, the
 * name of the one module to walk (module_kallsyms_on_each_symbol_modname_mod.c),
 * and 6.3 dropped fn's struct module * (module_kallsyms_on_each_symbol_modname.c).
 * No build fails if none compiles: logdev then never calls it and walks
 * /proc/kallsyms instead.  Used by: logdev_compat.h
 * LD_MODULE_KALLSYMS_FN(), ld_module_kallsyms_on_each() (logdev_ksyms.c).
 */
#include <linux/module.h>

static int ldc_msym_mod(void *data, const char *name, struct module *mod,
			unsigned long addr)
{
	return 0;
}

int ldc_module_kallsyms_on_each_symbol_mod(void);
int ldc_module_kallsyms_on_each_symbol_mod(void)
{
	return module_kallsyms_on_each_symbol(ldc_msym_mod, NULL);
}
