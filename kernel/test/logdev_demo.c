// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_demo.ko: how a kernel developer uses edprint().
 *
 * The classic investigation: "something in the allocator / skb / paravirt
 * path is slow or wrong".  Put edprint("in") at the top of each suspect
 * function, edprint("1"), edprint("2")... between its steps, edprint("out")
 * before it returns, with a few interesting values as arguments; load
 * logdev.ko, reproduce, and let `logdev deltas` show which step took the time.
 *
 *	# echo 200 > /sys/kernel/debug/logdev_demo/run
 *
 * runs 200 iterations of the paths below in the writer's own process context
 * (so vm_mmap() has an mm to work on).  Typical session:
 *
 *	logdev record -o demo.cap -- sh -c 'echo 200 > /sys/kernel/debug/logdev_demo/run'
 *	logdev report demo.cap | head
 *	logdev deltas demo.cap
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/skbuff.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/irqflags.h>
#include <linux/uaccess.h>
#include <linux/edprint.h>

struct demo_obj {
	u64 cookie;
	u32 size;
	u32 refs;
	char name[40];
};

static struct kmem_cache *demo_cache;
static struct dentry *demo_dir;

/* --- allocator path ---------------------------------------------------- */

static noinline struct demo_obj *demo_kmem_cache_alloc(unsigned int i)
{
	struct demo_obj *obj;

	edprint("in");
	obj = kmem_cache_alloc(demo_cache, GFP_KERNEL);
	edprint("1 obj=%px size=%u", obj, kmem_cache_size(demo_cache));
	if (!obj)
		return NULL;
	obj->cookie = 0xfeedULL + i;
	obj->size = sizeof(*obj);
	obj->refs = 1;
	edprint("out cookie=%llx", obj->cookie);
	return obj;
}

static noinline void demo_kmem_cache_free(struct demo_obj *obj)
{
	edprint("in obj=%px refs=%u", obj, obj->refs);
	kmem_cache_free(demo_cache, obj);
	edprint("out");
}

static noinline void *demo_kmalloc(size_t size)
{
	void *p;

	edprint("in size=%zu", size);
	p = kmalloc(size, GFP_KERNEL);
	edprint("out p=%px ksize=%zu", p, p ? ksize(p) : 0);
	return p;
}

static noinline void demo_kfree(const void *p)
{
	edprint("in p=%px", p);
	kfree(p);
	edprint("out");
}

static noinline int demo_allocator(unsigned int i)
{
	struct demo_obj *obj;
	void *buf;
	size_t size = 32 << (i % 8);	/* 32 bytes .. 4 KiB */

	edprint("in iter=%u", i);
	obj = demo_kmem_cache_alloc(i);
	if (!obj)
		return -ENOMEM;
	buf = demo_kmalloc(size);
	edprint("1 obj=%px buf=%px", obj, buf);
	demo_kfree(buf);
	demo_kmem_cache_free(obj);
	edprint("out");
	return buf ? 0 : -ENOMEM;
}

/* --- skb path ---------------------------------------------------------- */

static noinline void demo_kfree_skbmem(struct sk_buff *skb)
{
	edprint("in skb=%px len=%u truesize=%u", skb, skb->len, skb->truesize);
	kfree_skb(skb);
	edprint("out");
}

static noinline int demo_skb(unsigned int i)
{
	struct sk_buff *skb;
	unsigned int len = 64 + (i % 16) * 90;	/* 64 .. 1414 bytes */
	void *data;

	edprint("in len=%u", len);
	skb = alloc_skb(len, GFP_KERNEL);
	edprint("1 skb=%px", skb);
	if (!skb)
		return -ENOMEM;
	data = skb_put(skb, len);
	memset(data, 0x5a, len);
	edprint("2 data=%px tail=%u end=%u", data, skb->tail, skb->end);
	demo_kfree_skbmem(skb);
	edprint("out");
	return 0;
}

/* --- paravirt-sensitive path ------------------------------------------- */

static noinline unsigned long demo_irq_save_restore(unsigned int i)
{
	unsigned long flags, sum = 0;
	unsigned int k;

	edprint("in");
	local_irq_save(flags);
	edprint("1 flags=%lx", flags);
	for (k = 0; k < 16; k++)
		sum += k * i;
	local_irq_restore(flags);
	edprint("out sum=%lu", sum);
	return sum;
}

static noinline int demo_mmap_touch(unsigned int i)
{
	unsigned long addr, len = 2 * PAGE_SIZE;
	u64 val = 0xabcd0000ULL + i;
	int err = 0;

	edprint("in pid=%d len=%lu", current->pid, len);
	addr = vm_mmap(NULL, 0, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, 0);
	edprint("1 addr=%lx", addr);
	if (IS_ERR_VALUE(addr))
		return (int)addr;
	/* First touch: a page fault, the paravirt MMU path under a hypervisor. */
	if (copy_to_user((void __user *)addr + PAGE_SIZE, &val, sizeof(val)))
		err = -EFAULT;
	edprint("2 touched=%lx err=%d", addr + PAGE_SIZE, err);
	vm_munmap(addr, len);
	edprint("out");
	return err;
}

static noinline int demo_paravirt(unsigned int i)
{
	int err;

	edprint("in");
	demo_irq_save_restore(i);
	err = demo_mmap_touch(i);
	edprint("out err=%d", err);
	return err;
}

/* --- driver ------------------------------------------------------------ */

static ssize_t demo_run_write(struct file *f, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	unsigned int n, i;
	int err;

	err = kstrtouint_from_user(ubuf, len, 0, &n);
	if (err)
		return err;
	if (!n || n > 1000000)
		return -EINVAL;
	if (!current->mm)
		return -EINVAL;	/* vm_mmap() needs a user address space */

	edprint("in n=%u comm=%s", n, current->comm);
	for (i = 0; i < n; i++) {
		err = demo_allocator(i);
		if (!err)
			err = demo_skb(i);
		if (!err)
			err = demo_paravirt(i);
		if (err)
			break;
		cond_resched();
	}
	edprint("out done=%u err=%d", i, err);
	return err ? err : len;
}

static const struct file_operations demo_run_fops = {
	.owner = THIS_MODULE,
	.write = demo_run_write,
	.llseek = noop_llseek,
};

static int __init demo_init(void)
{
	demo_cache = kmem_cache_create("logdev_demo_obj", sizeof(struct demo_obj),
				       0, SLAB_HWCACHE_ALIGN, NULL);
	if (!demo_cache)
		return -ENOMEM;
	demo_dir = debugfs_create_dir("logdev_demo", NULL);
	if (IS_ERR(demo_dir)) {
		kmem_cache_destroy(demo_cache);
		return PTR_ERR(demo_dir);
	}
	debugfs_create_file("run", 0200, demo_dir, NULL, &demo_run_fops);
	return 0;
}

static void __exit demo_exit(void)
{
	debugfs_remove_recursive(demo_dir);
	kmem_cache_destroy(demo_cache);
}

module_init(demo_init);
module_exit(demo_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("logdev demo: edprint() probes in allocator, skb and paravirt paths");
