// SPDX-License-Identifier: GPL-2.0
/*
 * reserve_mem_find_by_name: the memory a reserve_mem=SIZE:ALIGN:NAME boot
 * parameter set aside, by name.  Since Linux 6.11 (absent in 6.1; exported
 * in 6.12 and 7.3).  No alternative: without it persist=reserve_mem:NAME is
 * refused.  Used by: logdev_compat.h (logdev_area.c).
 */
#include <linux/types.h>
#include <linux/mm.h>

int ldc_reserve_mem_find_by_name(const char *name, phys_addr_t *start, phys_addr_t *size);
int ldc_reserve_mem_find_by_name(const char *name, phys_addr_t *start, phys_addr_t *size)
{
	return reserve_mem_find_by_name(name, start, size);
}
