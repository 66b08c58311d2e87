// SPDX-License-Identifier: GPL-2.0
/*
 * module_mem: struct module's memory is mem[MOD_TEXT..MOD_INIT_RODATA],
 * one struct module_memory (base, size) per region, each its own
 * allocation.  Linux 6.4; it replaced core_layout/init_layout
 * (module_layout.c).  Alternative: module_layout.c (one of the two
 * must compile).  Used by: logdev_compat.h ld_mod_mem() (logdev_modlog.c,
 * logdev_ksyms.c).
 */
#include <linux/module.h>

unsigned long ldc_module_mem(const struct module *mod);
unsigned long ldc_module_mem(const struct module *mod)
{
	const struct module_memory *m = &mod->mem[MOD_TEXT];

	return (unsigned long)m->base + m->size + mod->mem[MOD_RO_AFTER_INIT].size +
	       mod->mem[MOD_INIT_RODATA].size + MOD_MEM_NUM_TYPES;
}
