// SPDX-License-Identifier: GPL-2.0
/*
 * vmcoreinfo_crash_core_h: paddr_vmcoreinfo_note() is declared in
 * <linux/crash_core.h>.  Up to Linux 6.8; since 6.9 in
 * <linux/vmcore_info.h>.  Alternative: vmcoreinfo_vmcore_info_h.c (one of
 * the two must compile).  Used by: logdev_compat.h (logdev_area.c: the
 * kernel's identity in the flight recorder's area).
 */
#include <linux/types.h>
#include <linux/crash_core.h>

phys_addr_t ldc_vmcoreinfo_crash_core_h(void);
phys_addr_t ldc_vmcoreinfo_crash_core_h(void)
{
	return paddr_vmcoreinfo_note();
}
