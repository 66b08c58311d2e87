// SPDX-License-Identifier: GPL-2.0
/*
 * linux_unaligned_h: get_unaligned()/put_unaligned() come from
 * <linux/unaligned.h>.  Linux 6.12; before, <asm/unaligned.h>
 * (asm_unaligned_h.c).  Alternative: asm_unaligned_h.c
 * (one of the two must compile).  Used by: logdev_compat.h
 * (logdev_record.c).
 */
#include <linux/types.h>
#include <linux/unaligned.h>

u64 ldc_linux_unaligned_h(void *p);
u64 ldc_linux_unaligned_h(void *p)
{
	put_unaligned((u32)1, (u32 *)p);
	return get_unaligned((u64 *)p);
}
