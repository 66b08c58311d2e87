/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_sym.h - body of the two symbol test modules, logdev_syma.ko and
 * logdev_symb.ko (tests/vm/guest-sym.sh, guest-probes.sh).  Each defines
 * LSYM_FN (a function of its own name) and includes this file.
 *
 * Both modules have the same layout, so one loaded after the other was
 * unloaded usually sits at the same address: %pS of LSYM_FN recorded while
 * A was loaded must still read "lsym_a_fn..." after B took its place.
 *
 * debugfs logdev_symX/fire, write anything (also done once at load):
 *   edprint("fire %pS|%ps|%pS", LSYM_FN, LSYM_FN, LSYM_FN + 5) and the
 *   kernel's own text of the same format, printk'd as
 *   "logdev_symref: TEXT"; the same for "long %pS|%ps" of LSYM_LONG, a
 *   function whose name has 400 characters (the kernel allows 511,
 *   KSYM_NAME_LEN; issue 24 item 7: the reader took 255); then one call of
 *   lsym_dup_target(), a function
 *   both modules define (so its name is ambiguous while both are loaded:
 *   the probes test attaches to one of them by MOD:SYM or address).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/edprint.h>

static struct dentry *lsym_dir;
static unsigned long lsym_sink;

static noinline __noclone unsigned long LSYM_FN(unsigned long x)
{
	barrier();
	return x * 3 + 1;
}

/* LSYM_FN followed by LSYM_LONG_SFX: 400 characters in all */
#define LSYM_CAT_(a, b)	a##b
#define LSYM_CAT(a, b)	LSYM_CAT_(a, b)
#define LSYM_LONG_SFX	_long_name_longer_than_the_old_255_character_limit_of_the_reader_name_longer_than_the_old_255_character_limit_of_the_reader_name_longer_than_the_old_255_character_limit_of_the_reader_name_longer_than_the_old_255_character_limit_of_the_reader_name_longer_than_the_old_255_character_limit_of_the_reader_name_longer_than_the_old_255_character_limit_of_the_reader_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
#define LSYM_LONG	LSYM_CAT(LSYM_FN, LSYM_LONG_SFX)

static noinline __noclone unsigned long LSYM_LONG(unsigned long x)
{
	barrier();
	return x * 5 + 2;
}

static noinline __noclone unsigned long lsym_dup_target(unsigned long x)
{
	barrier();
	return x + 7;
}

static noinline void lsym_fire(void)
{
	void *f = (void *)LSYM_FN, *f5 = (void *)LSYM_FN + 5;
	void *l3 = (void *)LSYM_LONG + 3;
	static char ref[1024];	/* the test fires from one task at a time */

	edprint("fire %pS|%ps|%pS", f, f, f5);
	snprintf(ref, sizeof(ref), "fire %pS|%ps|%pS", f, f, f5);
	pr_info("logdev_symref: %s\n", ref);
	edprint("long %pS|%ps", l3, l3);
	snprintf(ref, sizeof(ref), "long %pS|%ps", l3, l3);
	pr_info("logdev_symref: %s\n", ref);
	lsym_sink += lsym_dup_target(LSYM_FN(lsym_sink)) + LSYM_LONG(lsym_sink);
}

static ssize_t lsym_fire_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	lsym_fire();
	return len;
}

static const struct file_operations lsym_fire_fops = {
	.owner = THIS_MODULE,
	.write = lsym_fire_write,
	.llseek = noop_llseek,
};

static int __init lsym_init(void)
{
	lsym_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(lsym_dir))
		return PTR_ERR(lsym_dir);
	debugfs_create_file("fire", 0200, lsym_dir, NULL, &lsym_fire_fops);
	lsym_fire();
	return 0;
}

static void __exit lsym_exit(void)
{
	debugfs_remove_recursive(lsym_dir);
}

module_init(lsym_init);
module_exit(lsym_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("logdev test module: symbols across module unload and load");
