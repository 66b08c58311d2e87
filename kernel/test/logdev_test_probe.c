// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_test_probe.c - logdev_test.ko: a known workload for the run-time probes
 * (tests/vm/guest-probes*.sh): probe targets of set signatures, a
 * tracepoint of this module, probe_work, probe_callees (a function
 * whose callees logdev callees finds: tests/vm/guest-callees.sh) and
 * probe_nest (a function whose only work is to call another:
 * tests/vm/guest-probecost.sh)
 */
#include "logdev_test.h"

static struct kmem_cache *lt_probe_cache;
unsigned long lt_probe_sink;

/*
 * A tracepoint of this module (no trace event: a bare DECLARE_TRACE), hit
 * once per lt_probe_target() call: "t:logdev_test:lt_probe_tp" reaches it
 * through logdev's tracepoint module notifier, and is gone while this
 * module is away (tests/vm/guest-probes-reload.sh).
 */
LD_DECLARE_TRACE_TP(lt_probe, TP_PROTO(unsigned long i, unsigned long magic),
		    TP_ARGS(i, magic));
DEFINE_TRACE(lt_probe_tp, TP_PROTO(unsigned long i, unsigned long magic),
	     TP_ARGS(i, magic));

/* Probe targets: kept out of line and unchanged in signature. */
static noinline __noclone unsigned long lt_probe_target(unsigned long i,
							unsigned long magic)
{
	barrier();
	trace_lt_probe_tp(i, magic);
	return i * 2 + magic;
}

/*
 * Called 3 times (i = 0..2) from lt_init(), in .init.text: a probe written
 * while this module is not loaded ("p logdev_test:lt_probe_init_target",
 * pending) fires during its init, then is gone when the init text is freed
 * (tests/vm/guest-probes-reload.sh).
 */
static noinline __noclone __init unsigned long lt_probe_init_target(unsigned long i)
{
	barrier();
	return i + 1;
}

/*
 * Target of the typed-argument probes (tests/vm/guest-probes.sh, ftrace's
 * fetch arguments): a string, a structure to dereference (+0, +8, +16 of
 * @o on x86-64: neg, val, name), a signed number, a function pointer for
 * :symbol, and lt_probe_magic for @SYM.
 */
struct lt_probe_obj {
	long neg;		/* +0 */
	u32 val;		/* +8 */
	const char *name;	/* +16 */
};
u32 lt_probe_magic = 0x1234;

static noinline __noclone long lt_probe_typed(const char *s,
					       struct lt_probe_obj *o, long n,
					       void *fn)
{
	barrier();
	return n + o->val + (s[0] == 'h') + (fn != NULL);
}

/*
 * Busy-wait @us microseconds of trace_clock_local(), logdev's default clock
 * (call with migration disabled).  Not udelay(): under QEMU TCG the delay
 * loop calibration is off (udelay(500) measured 203 us on a secondary CPU).
 */
static noinline __noclone unsigned long lt_probe_delay(unsigned long us)
{
	u64 t0 = trace_clock_local();

	while (trace_clock_local() - t0 < us * NSEC_PER_USEC)
		cpu_relax();
	return us;
}

/*
 * The callees of lt_cal_parent() (tests/vm/guest-callees.sh, `logdev
 * callees` and `record --callees`): two calls of a fast function, one of a
 * slow one (lt_probe_delay(), @us microseconds) and a tail call.
 */
static noinline __noclone unsigned long lt_cal_fast(unsigned long i)
{
	barrier();
	return i + 1;
}

static noinline __noclone unsigned long lt_cal_tail(unsigned long i)
{
	barrier();
	return i ^ 0x55;
}

static noinline __noclone unsigned long lt_cal_parent(unsigned long us)
{
	unsigned long r = lt_cal_fast(us);

	r += lt_probe_delay(us);
	r += lt_cal_fast(r);
	return lt_cal_tail(r);
}

/* "N US": N calls of lt_cal_parent(US), without migrating */
static ssize_t lt_probe_callees_write(struct file *f, const char __user *ubuf,
				      size_t len, loff_t *ppos)
{
	unsigned long n, us, i;
	char buf[32];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%lu %lu", &n, &us) != 2 || n > 10000 || us > 100000)
		return -EINVAL;
	migrate_disable();
	for (i = 0; i < n; i++)
		lt_probe_sink += lt_cal_parent(us);
	migrate_enable();
	return len;
}

static const struct file_operations lt_probe_callees_fops = {
	.owner = THIS_MODULE,
	.write = lt_probe_callees_write,
	.llseek = noop_llseek,
};

/*
 * "N US D": between two edprint() markers, in this task, without migrating:
 * N calls of lt_probe_target(i, 0xabcd), N kmem_cache_alloc() then N
 * kmem_cache_free() on our own cache, and D calls of lt_probe_delay(US)
 * (returns US after US microseconds of trace_clock_local()), then 3 calls of
 * lt_probe_typed() (i = 0..2: n = -5 - i, o->neg = -7 - i, o->val =
 * 0xfffffff0 + i).
 */
static ssize_t lt_probe_work_write(struct file *f, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	unsigned long n, us, d, i;
	char buf[64];
	void **objs;
	int ret = 0;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%lu %lu %lu", &n, &us, &d) != 3 || n > 100000 ||
	    us > 100000 || d > 10000)
		return -EINVAL;
	objs = kcalloc(n ?: 1, sizeof(*objs), GFP_KERNEL);
	if (!objs)
		return -ENOMEM;
	mutex_lock(&lt_lock);
	if (!lt_probe_cache)
		lt_probe_cache = kmem_cache_create("logdev_test_probe", 64, 0, 0, NULL);
	if (!lt_probe_cache) {
		ret = -ENOMEM;
		goto out;
	}
	migrate_disable();
	edprint("probe_work begin n=%lu us=%lu d=%lu", n, us, d);
	for (i = 0; i < n; i++)
		lt_probe_sink += lt_probe_target(i, 0xabcd);
	for (i = 0; i < n; i++)
		objs[i] = kmem_cache_alloc(lt_probe_cache, GFP_KERNEL);
	for (i = 0; i < n; i++)
		if (objs[i])
			kmem_cache_free(lt_probe_cache, objs[i]);
	for (i = 0; i < d; i++)
		lt_probe_sink += lt_probe_delay(us);
	for (i = 0; i < 3; i++) {
		struct lt_probe_obj o = { -7 - (long)i, 0xfffffff0 + i, "obj-name" };

		lt_probe_sink += lt_probe_typed("hello \"typed\"", &o, -5 - (long)i,
						lt_probe_delay);
	}
	edprint("probe_work end");
	migrate_enable();
out:
	mutex_unlock(&lt_lock);
	kfree(objs);
	return ret ? ret : len;
}

static const struct file_operations lt_probe_work_fops = {
	.owner = THIS_MODULE,
	.write = lt_probe_work_write,
	.llseek = noop_llseek,
};


/*
 * lt_nest_outer() does nothing but call lt_nest_inner(): with return
 * probes on both, the outer's self time is the probes' cost alone
 * (tests/vm/guest-probecost.sh: logdev's correction must take it to 0).
 */
static noinline __noclone unsigned long lt_nest_inner(unsigned long i)
{
	barrier();
	return i * 3 + 1;
}

static noinline __noclone unsigned long lt_nest_outer(unsigned long i)
{
	return lt_nest_inner(i);
}

/* "N": N calls of lt_nest_outer(), without migrating */
static ssize_t lt_probe_nest_write(struct file *f, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	unsigned long n, i;
	char buf[32];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (kstrtoul(strim(buf), 10, &n) || n > 1000000)
		return -EINVAL;
	migrate_disable();
	for (i = 0; i < n; i++)
		lt_probe_sink += lt_nest_outer(i);
	migrate_enable();
	return len;
}

static const struct file_operations lt_probe_nest_fops = {
	.owner = THIS_MODULE,
	.write = lt_probe_nest_write,
	.llseek = noop_llseek,
};

/* lt_probe_target's address, for the printf table's symbols */
unsigned long lt_addr_of_probe_target(void)
{
	return (unsigned long)lt_probe_target;
}

/* module init: a probe on lt_probe_init_target fires here */
void __init lt_probe_init(void)
{
	unsigned long i;

	for (i = 0; i < 3; i++)
		lt_probe_sink += lt_probe_init_target(i);
}

void lt_probe_exit(void)
{
	kmem_cache_destroy(lt_probe_cache);
}

void lt_probe_files(struct dentry *dir)
{
	debugfs_create_file("probe_work", 0200, dir, NULL, &lt_probe_work_fops);
	debugfs_create_file("probe_callees", 0200, dir, NULL, &lt_probe_callees_fops);
	debugfs_create_file("probe_nest", 0200, dir, NULL, &lt_probe_nest_fops);
}
