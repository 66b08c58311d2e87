// SPDX-License-Identifier: GPL-2.0
/*
 * asm_unaligned_h: get_unaligned()/put_unaligned() come from
 * <asm/unaligned.h>.  Up to Linux 6.11; <linux/unaligned.h> since 6.12
 * (linux_unaligned_h.c).  Alternative: linux_unaligned_h.c (one of the two
 * must compile).  Used by: logdev_compat.h (logdev_record.c).
 */
#include <linux/types.h>
#include <asm/unaligned.h>

u64 ldc_asm_unaligned_h(void *p);
u64 ldc_asm_unaligned_h(void *p)
{
	put_unaligned((u32)1, (u32 *)p);
	return get_unaligned((u64 *)p);
}
