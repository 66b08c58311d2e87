// SPDX-License-Identifier: GPL-2.0
/*
 * module_kallsyms_on_each_symbol_modname:
 * module_kallsyms_on_each_symbol(modname, fn, data) calls fn(data, name,
 * addr) for each symbol of the module named modname (of every loaded
 * module if NULL): the callback is not told the module.  Linux 6.3; 6.2
 * passed fn a struct module * (module_kallsyms_on_each_symbol_modname_mod.c),
 * earlier kernels had no modname (module_kallsyms_on_each_symbol_mod.c).  No
 * build fails if none compiles: logdev then never calls it and walks
 * /proc/kallsyms instead.  Used by: logdev_compat.h
 * LD_MODULE_KALLSYMS_FN(), ld_module_kallsyms_on_each() (logdev_ksyms.c).
 */
#include <linux/module.h>

static int ldc_msym_modname(void *data, const char *name, unsigned long addr)
{
	return 0;
}

int ldc_module_kallsyms_on_each_symbol_modname(void);
int ldc_module_kallsyms_on_each_symbol_modname(void)
{
	return module_kallsyms_on_each_symbol("ldc", ldc_msym_modname, NULL);
}
