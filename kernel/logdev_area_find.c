// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_area_find.c - where the flight recorder's area is, and whether
 * logdev may write there (logdev_area.c maps and formats it): a
 * memmap=SIZE$ADDR range must be named by a memmap= of this boot's command
 * line, wholly Reserved in /proc/iomem and no System RAM (a fresh user's
 * typo put it on the firmware's ROM, which crashed the kernel, and on
 * QEMU's ACPI tables, which it overwrote); a reserve_mem= name is looked
 * up (6.11+).
 *
 * Layer: recording core (logdev_core.h); calls nothing of logdev.
 */
#define pr_fmt(fmt) "logdev: " fmt

#include <linux/kernel.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/ctype.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/setup.h>
#include "logdev_core.h"
#include "logdev_compat.h"

/*
 * Is [addr, addr + size) inside one memmap=SIZE$ADDR of this boot's kernel
 * command line?  A Reserved range in /proc/iomem may be the firmware's
 * (its ROM, QEMU's ACPI tables, a flash window): only one the user
 * reserved for this is logdev's to write.  The command line: the kernel's
 * own copy built in; /proc/cmdline for the module (saved_command_line is
 * not exported).  x86's memmap= syntax: SIZE$ADDR, a comma list allowed.
 */
static bool ld_area_on_cmdline(u64 addr, u64 size)
{
	static const char key[] = "memmap=";
	bool found = false;
	char *buf, *p;

	buf = kzalloc(COMMAND_LINE_SIZE + 1, GFP_KERNEL);
	if (!buf)
		return false;
#ifdef MODULE
	{
		struct file *f = filp_open("/proc/cmdline", O_RDONLY, 0);
		loff_t pos = 0;

		if (IS_ERR(f) || kernel_read(f, buf, COMMAND_LINE_SIZE, &pos) <= 0)
			pr_err("persist: cannot read /proc/cmdline (%ld) for the memmap= that reserved the area\n",
			       IS_ERR(f) ? PTR_ERR(f) : -EIO);
		if (!IS_ERR(f))
			filp_close(f, NULL);
	}
#else
	strscpy(buf, saved_command_line, COMMAND_LINE_SIZE + 1);
#endif
	for (p = buf; !found && (p = strstr(p, key)); ) {
		/* a word of its own: at the start or after a space */
		bool word = p == buf || isspace(p[-1]);

		p += sizeof(key) - 1;
		while (word && !found && *p && !isspace(*p)) {
			char *q = p;
			u64 sz = memparse(q, &q), start;

			if (*q != '$')
				break;
			start = memparse(q + 1, &q);
			found = sz && addr >= start && addr + size <= start + sz;
			p = q;
			if (*p != ',')
				break;
			p++;
		}
	}
	kfree(buf);
	return found;
}

static int ld_area_sum_cover(struct resource *res, void *arg)
{
	*(u64 *)arg += resource_size(res);
	return 0;
}

/*
 * Is [addr, addr + size) what memmap=SIZE$ADDR made: named by a memmap= of
 * the command line, wholly Reserved in /proc/iomem, no System RAM?
 */
static int ld_area_check(u64 addr, u64 size)
{
	u64 covered = 0;

	if (region_intersects(addr, size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pr_err("persist: [0x%llx-0x%llx] is System RAM: reserve it with memmap=%lluK$0x%llx on the kernel command line\n",
		       addr, addr + size - 1, size >> 10, addr);
		return -EINVAL;
	}
	walk_iomem_res_desc(IORES_DESC_RESERVED, IORESOURCE_MEM, addr,
			    addr + size - 1, &covered, ld_area_sum_cover);
	if (covered < size) {
		pr_err("persist: [0x%llx-0x%llx] is not wholly reserved memory (/proc/iomem): reserve it with memmap=%lluK$0x%llx\n",
		       addr, addr + size - 1, size >> 10, addr);
		return -EINVAL;
	}
	if (!ld_area_on_cmdline(addr, size)) {
		pr_err("persist: [0x%llx-0x%llx] is in no memmap=SIZE$ADDR of the kernel command line: a range the firmware reserved (ROM, ACPI tables) is not logdev's to write\n",
		       addr, addr + size - 1);
		return -EINVAL;
	}
	return 0;
}

/**
 * ld_area_find() - the range parameter persist names, checked
 * @want: the parameter
 * @addr: set to the range's physical address
 * @size: set to its bytes
 *
 * Process context (module init, or an early initcall built in).  A memmap= range must be reserved and no System RAM; a
 * reserve_mem= one is System RAM the kernel set aside by that name (it may
 * lie elsewhere after a reboot, the doc says: then it holds no area and
 * nothing of a previous boot is claimed).
 *
 * Return: 1 found and checked, 0 none asked for, or -EINVAL (said why).
 */
int ld_area_find(const struct ld_persist_spec *want, u64 *addr, u64 *size)
{
	phys_addr_t start, len;
	int ret;

	if (!want->name[0]) {
		*addr = want->addr;
		*size = want->size;
		if (!*size)
			return 0;
		return ld_area_check(*addr, *size) ?: 1;
	}
	ret = ld_reserve_mem_find(want->name, &start, &len);
	if (ret == -EOPNOTSUPP) {
		pr_err("persist=reserve_mem:%s: this kernel has no reserve_mem= (6.11+): use memmap:SIZE@ADDR\n",
		       want->name);
		return -EINVAL;
	}
	if (ret != 1) {
		pr_err("persist=reserve_mem:%s: no such reserve_mem (reserve_mem=SIZE:ALIGN:%s on the kernel command line)\n",
		       want->name, want->name);
		return -EINVAL;
	}
	if ((start | len) & (PAGE_SIZE - 1)) {
		pr_err("persist=reserve_mem:%s: [%pa +%pa] is not page aligned\n",
		       want->name, &start, &len);
		return -EINVAL;
	}
	*addr = start;
	*size = len;
	return 1;
}
