// SPDX-License-Identifier: GPL-2.0
/*
 * vmcoreinfo_vmcore_info_h: paddr_vmcoreinfo_note() is declared in
 * <linux/vmcore_info.h>.  Since Linux 6.9 (crash_core.h split); up to 6.8
 * in <linux/crash_core.h>.  Alternative: vmcoreinfo_crash_core_h.c (one of
 * the two must compile).  Used by: logdev_compat.h (logdev_area.c: the
 * kernel's identity in the flight recorder's area).
 */
#include <linux/types.h>
#include <linux/vmcore_info.h>

phys_addr_t ldc_vmcoreinfo_vmcore_info_h(void);
phys_addr_t ldc_vmcoreinfo_vmcore_info_h(void)
{
	return paddr_vmcoreinfo_note();
}
