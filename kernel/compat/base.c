// SPDX-License-Identifier: GPL-2.0
/*
 * base: the sanity test of conftest.sh.  It uses nothing that changed
 * between kernels (headers and constructs every logdev file uses since
 * long before 6.1), and is written in the style every test here must
 * follow: functions with a prototype, no unused variable, clean under the
 * kernel's W=1 warnings.  It MUST compile: if it does not, the compiler
 * or its flags are broken for this kernel (a wrong CC, a chroot missing,
 * headers not prepared), and any "absent" answer would be a lie, so
 * conftest.sh fails the build.  Kernel: every kernel.  Used by: all.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/timer.h>

int ldc_base(struct module *mod, struct file *f);
int ldc_base(struct module *mod, struct file *f)
{
	return mod->name[0] + (f->f_flags & 1) + (int)HZ;
}
