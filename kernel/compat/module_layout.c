// SPDX-License-Identifier: GPL-2.0
/*
 * module_layout: struct module has core_layout and init_layout, each one
 * allocation split at text_size, ro_size, ro_after_init_size and size
 * (text, rodata, ro_after_init, data), and data_layout with
 * CONFIG_ARCH_WANTS_MODULES_DATA_IN_VMALLOC.  Linux 4.5 to 6.3; removed in
 * 6.4 by mem[] (module_mem.c).  Alternative: module_mem.c (one of the two
 * must compile).  Used by: logdev_compat.h ld_mod_mem() (logdev_modlog.c,
 * logdev_ksyms.c).
 */
#include <linux/module.h>

unsigned long ldc_module_layout(const struct module *mod);
unsigned long ldc_module_layout(const struct module *mod)
{
	const struct module_layout *l = &mod->core_layout;

	return (unsigned long)l->base + l->size + l->text_size + l->ro_size +
	       l->ro_after_init_size + mod->init_layout.size;
}
