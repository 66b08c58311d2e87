// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_main.c - the logdev module: per-CPU buffers, the edprint() back
 * end, the call-site table, the trace clock and the control operations
 * behind the debugfs files (logdev_debugfs.c).
 *
 * Recording path (__logdev_print, logdev_write_raw): preemption disabled,
 * no locks, no allocation, no text formatting; safe in NMI and on PREEMPT_RT.
 * Buffers are only replaced or reset while recording is off and after
 * synchronize_rcu(), so a writer never sees a buffer change under it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/cpu.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/timer.h>
#include <linux/string.h>
#include <linux/trace_clock.h>
#include <linux/timekeeping.h>
#include <linux/jump_label.h>
#include <linux/bitmap.h>
#include <linux/irq_work.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include "logdev_internal.h"

DEFINE_STATIC_KEY_FALSE(logdev_key);
EXPORT_SYMBOL_GPL(logdev_key);

struct ld_config ld_cfg = {
	.subbuf_size = LD_SUBBUF_DEFAULT,
	.nr_subbufs = LD_BUF_KB_DEFAULT * 1024 / LD_SUBBUF_DEFAULT,
	.mode = LD_MODE_OVERWRITE,
	.clock = LD_CLOCK_LOCAL,
};
DEFINE_MUTEX(ld_cfg_mutex);
DECLARE_RWSEM(ld_buf_rwsem);	/* write: buffers reset or replaced; read: consume */
DEFINE_MUTEX(ld_sites_mutex);	/* site table entries repointed / printed */

struct ld_pcpu __percpu *ld_pcpu;
struct ld_reader *ld_readers;
bool logdev_recording;		/* writers record only while true */
/*
 * True once recording is off AND every CPU's buffer was flushed after the
 * last writer left: published with smp_store_release() after that flush,
 * cleared before recording starts.  Readers end (EOF, POLLHUP) only on it,
 * never on logdev_recording, which is also cleared for a while by "clear"
 * and before the final flush.  docs/DEBUGFS.md "End of data".
 */
static bool ld_stopped = true;
static int ld_clock_sel;	/* enum ld_clock_id, read by ld_clock_now() */

const char * const ld_clock_names[LD_NR_CLOCKS] = {
	[LD_CLOCK_LOCAL] = "local",
	[LD_CLOCK_GLOBAL] = "global",
	[LD_CLOCK_MONO] = "mono",
};

const char * const ld_mode_names[2] = {
	[LD_MODE_OVERWRITE] = "overwrite",
	[LD_MODE_DISCARD] = "discard",
};

/* ------------------------------------------------------------------ clock */

/**
 * ld_clock_now() - the selected trace clock, for the ring core
 *
 * Return: nanoseconds of trace_clock_local(), trace_clock_global() or
 * ktime_get_mono_fast_ns(), as selected by the debugfs "clock" file.
 */
u64 notrace ld_clock_now(void)
{
	switch (READ_ONCE(ld_clock_sel)) {
	case LD_CLOCK_GLOBAL:
		return trace_clock_global();
	case LD_CLOCK_MONO:
		return ktime_get_mono_fast_ns();
	default:
		return trace_clock_local();
	}
}

/* ------------------------------------------------------------- call sites */

static struct logdev_site *ld_sites[LD_MAX_SITES];
static DECLARE_BITMAP(ld_site_owned, LD_MAX_SITES);	/* entry is our copy */
static atomic_t ld_next_site = ATOMIC_INIT(0);

/**
 * logdev_site_id() - the id of a call site, registering it if needed
 * @site: the call site
 *
 * Lock-free and NMI-safe: a new id comes from an atomic counter and is
 * installed with cmpxchg(); if two CPUs race, the loser's id stays a hole.
 *
 * Return: the id (>= 1), or 0 if the site table is full.
 */
u32 notrace logdev_site_id(struct logdev_site *site)
{
	u32 id = READ_ONCE(site->id);
	u32 old;
	int new;

	if (likely(id))
		return id;
	if (atomic_read(&ld_next_site) >= LD_MAX_SITES - 1)
		return 0;
	new = atomic_inc_return(&ld_next_site);
	if (new >= LD_MAX_SITES)
		return 0;
	old = cmpxchg(&site->id, 0, (u32)new);
	if (old)
		return old;
	WRITE_ONCE(ld_sites[new], site);
	return new;
}
EXPORT_SYMBOL_GPL(logdev_site_id);

/**
 * logdev_site_enc() - decide once how an edprint() site stores its arguments
 * @site:     the call site
 * @nargs:    number of arguments
 * @strmask:  bit i set: argument i is a char pointer
 * @widemask: bit i set: argument i is 8 bytes and not a char pointer
 *
 * Any context, NMI included: a pure function of the format and the
 * argument types, so racing first calls store the same answer.
 *
 * Return: LOGDEV_SITE_SLOTS or LOGDEV_SITE_VBIN.
 */
u32 notrace logdev_site_enc(struct logdev_site *site, u32 nargs, u32 strmask,
			    u32 widemask)
{
	u16 sprec[EDP_MAX_ARGS];
	u32 enc = edp_fmt_slots_ok(site->fmt, nargs, strmask, widemask, sprec) ?
		  LOGDEV_SITE_SLOTS : LOGDEV_SITE_VBIN;
	int i;

	/* racing callers store the same values: never a transient 0 */
	for (i = 0; i < EDP_MAX_ARGS; i++)
		WRITE_ONCE(site->sprec[i], sprec[i]);
	smp_store_release(&site->enc, enc);	/* sprec before enc */
	return enc;
}
EXPORT_SYMBOL_GPL(logdev_site_enc);

/* Highest id handed out so far. */
u32 ld_nr_sites(void)
{
	return min_t(u32, atomic_read(&ld_next_site), LD_MAX_SITES - 1);
}

/* Entry @id of the table, or NULL; call with ld_sites_mutex held. */
struct logdev_site *ld_site_get(u32 id)
{
	if (!id || id >= LD_MAX_SITES)
		return NULL;
	return READ_ONCE(ld_sites[id]);
}

static void ld_site_free(struct logdev_site *s)
{
	kfree(s->fmt);
	kfree(s->file);
	kfree(s->func);
	kfree(s);
}

static struct logdev_site *ld_site_copy(const struct logdev_site *s)
{
	struct logdev_site *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	c->fmt = kstrdup(s->fmt, GFP_KERNEL);
	c->file = kstrdup(s->file, GFP_KERNEL);
	c->func = kstrdup(s->func, GFP_KERNEL);
	c->line = s->line;
	c->id = s->id;
	if (!c->fmt || !c->file || !c->func) {
		ld_site_free(c);
		return NULL;
	}
	return c;
}

/*
 * Every load, end of init and unload goes to the module log (symbols for
 * %pS at record time); a module that goes away keeps its sites' strings
 * readable in "formats".
 */
static int ld_module_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct module *mod = data;
	struct logdev_site *s, *c;
	u32 i, n;

	ld_modlog_event(mod, action);
	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;

	mutex_lock(&ld_sites_mutex);
	n = ld_nr_sites();
	for (i = 1; i <= n; i++) {
		s = READ_ONCE(ld_sites[i]);
		if (!s || test_bit(i, ld_site_owned) ||
		    !within_module((unsigned long)s, mod))
			continue;
		c = ld_site_copy(s);
		WRITE_ONCE(ld_sites[i], c);	/* NULL: out of memory, site lost */
		if (c)
			__set_bit(i, ld_site_owned);
		else
			pr_warn("site %u of %s: out of memory, format lost\n",
				i, mod->name);
	}
	mutex_unlock(&ld_sites_mutex);
	return NOTIFY_OK;
}

static struct notifier_block ld_module_nb = {
	.notifier_call = ld_module_notify,
};

/**
 * ld_site_adopt() - hand a kmalloc'd call site over to the site table
 * @s: site whose fmt, file and func are kmalloc'd strings
 *
 * For a site that is going away (a removed probe) but whose id records may
 * still refer to: the table keeps it listed in "formats" and frees it at
 * module exit.  A site that never got an id is freed now.
 */
void ld_site_adopt(struct logdev_site *s)
{
	u32 id = READ_ONCE(s->id);

	mutex_lock(&ld_sites_mutex);
	if (id && id < LD_MAX_SITES && ld_sites[id] == s) {
		__set_bit(id, ld_site_owned);
		s = NULL;
	}
	mutex_unlock(&ld_sites_mutex);
	if (s)
		ld_site_free(s);
}

static void ld_sites_free(void)
{
	u32 i;

	for_each_set_bit(i, ld_site_owned, LD_MAX_SITES) {
		ld_site_free(ld_sites[i]);
		ld_sites[i] = NULL;
	}
}

/* -------------------------------------------------------------- recording */

static __always_inline u8 ld_ctx(void)
{
	if (in_nmi())
		return LOGDEV_CTX_NMI;
	if (in_hardirq())
		return LOGDEV_CTX_HARDIRQ;
	if (in_serving_softirq())
		return LOGDEV_CTX_SOFTIRQ;
	return LOGDEV_CTX_TASK;
}

/*
 * A sub-buffer of this CPU just became complete: if its reader sleeps, wake
 * it through this CPU's irq_work (writers may be in NMI, so they never call
 * wake_up themselves).
 */
static __always_inline void ld_kick_reader(struct ld_pcpu *pc)
{
	if (READ_ONCE(ld_readers[smp_processor_id()].waiting))
		irq_work_queue(&pc->wake_work);
}

/* bytes of one number vbin_printf() stores for length @q of conversion @c */
static __always_inline u32 ld_vbin_num_size(char q, char c)
{
	if (c == 'c' || q == 'H')
		return 1;
	if (q == 'h')
		return 2;
	if (q == 'l' || q == 'L' || q == 'z' || q == 't')
		return 8;
	return 4;
}

/*
 * vbin_printf() needed more than LOGDEV_MAX_PAYLOAD bytes in a scratch
 * buffer larger than that: its first LOGDEV_MAX_PAYLOAD bytes hold the
 * arguments laid out as if nothing were cut (except a %s that crossed the
 * scratch end).  Walk @fmt with vbin_printf()'s layout (lib/vsprintf.c:
 * numbers aligned to min(size, 4), strings and pointer texts NUL-terminated,
 * unaligned) to find where the arguments that fit end; a %s or pointer text
 * (%pI4...) that does not fit with its NUL is kept as the prefix that does,
 * NUL-terminated at the last byte (the reader's cut mark goes there).
 *
 * Return: payload bytes to keep: LOGDEV_MAX_PAYLOAD if a string or pointer
 * text ends there (cut, or whole with its NUL last), else the offset of the
 * first argument left out.
 */
#define LD_CUT_INT() do {						\
	off = ALIGN(off, 4);						\
	(void)va_arg(ap, int);						\
	if (off + 4 > end)						\
		return off;						\
	off += 4;							\
} while (0)

static u32 notrace ld_vbin_cut(u8 *buf, const char *fmt, va_list ap)
{
	const u32 end = LOGDEV_MAX_PAYLOAD;
	u32 off = 0, size, len;
	const char *s;
	char q;

	while (*fmt) {
		if (*fmt++ != '%')
			continue;
		while (*fmt == '-' || *fmt == '+' || *fmt == ' ' || *fmt == '#' ||
		       *fmt == '0')
			fmt++;
		if (*fmt == '*') {		/* width argument: an int */
			fmt++;
			LD_CUT_INT();
		} else {
			while (isdigit(*fmt))
				fmt++;
		}
		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {	/* precision argument: an int */
				fmt++;
				LD_CUT_INT();
			} else {
				while (isdigit(*fmt))
					fmt++;
			}
		}
		q = 0;
		if (*fmt == 'h' || *fmt == 'l' || *fmt == 'L' || *fmt == 'z' ||
		    *fmt == 't') {
			q = *fmt++;
			if (q == *fmt && (q == 'l' || q == 'h'))
				q = *fmt++ == 'l' ? 'L' : 'H';
		}
		switch (*fmt) {
		case '%':
			fmt++;
			continue;
		case 's':
			fmt++;
			s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			else if ((unsigned long)s < PAGE_SIZE || IS_ERR_VALUE(s))
				s = "(efault)";
			if (off >= end)
				return end;
			len = strnlen(s, end - off);
			if (off + len + 1 < end) {	/* stored by vbin_printf() */
				off += len + 1;
				continue;
			}
			memcpy(buf + off, s, end - off - 1);
			buf[end - 1] = '\0';
			return end;
		case 'p':
			fmt++;
			if (!isalnum(*fmt) || strchr("SsxKe", *fmt)) {
				size = 8;
				(void)va_arg(ap, void *);
				goto num;
			}
			while (isalnum(*fmt))
				fmt++;
			(void)va_arg(ap, void *);
			if (off >= end)
				return end;
			len = strnlen((const char *)buf + off, end - off);
			if (off + len + 1 >= end) {	/* its NUL is last, or cut */
				buf[end - 1] = '\0';
				return end;
			}
			off += len + 1;
			continue;
		case 'c': case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
			size = ld_vbin_num_size(q, *fmt++);
			if (size == 8)
				(void)va_arg(ap, unsigned long long);
			else
				(void)va_arg(ap, int);
num:
			off = ALIGN(off, min_t(u32, size, 4));
			if (off + size > end)
				return off;
			off += size;
			continue;
		default:	/* vbin_printf() stops here too */
			return min(off, end);
		}
	}
	return min(off, end);
}

/**
 * __logdev_print() - record one edprint() hit; use edprint() instead
 * @site: the call site (assigned an id on first use)
 * @fmt:  the site's format
 *
 * Packs the arguments with vbin_printf() into a per-CPU scratch buffer of
 * the current nesting level and stores a LOGDEV_REC_PRINT record.  The
 * scratch buffer is twice LOGDEV_MAX_PAYLOAD: vbin_printf() loses data only
 * at the end of its buffer (a string whose NUL would be the last byte is
 * skipped, a pointer text's NUL there is overwritten by a 1-byte number),
 * so every record of at most LOGDEV_MAX_PAYLOAD bytes comes out exact.
 * Arguments beyond LOGDEV_MAX_PAYLOAD bytes are cut (ld_vbin_cut()) and the
 * record is flagged LOGDEV_REC_F_CUT.  The scratch buffers are all zero
 * between calls (each call clears what vbin_printf() and it wrote), so
 * alignment gaps vbin_printf() skips are zero: every byte of the record
 * comes from this call.  Any context, NMI included.
 */
void notrace __logdev_print(struct logdev_site *site, const char *fmt, ...)
{
	struct ld_cpu_buf *cb;
	struct ld_pcpu *pc;
	struct ld_resv r;
	va_list ap, aq;
	int depth, words;
	u32 id, bytes, pad, used;
	u8 *buf;
	u8 flags = 0;

	preempt_disable_notrace();
	if (unlikely(!READ_ONCE(logdev_recording)))
		goto out;
	pc = this_cpu_ptr(ld_pcpu);
	cb = rcu_dereference_sched(pc->cb);
	id = logdev_site_id(site);

	depth = pc->depth;
	if (unlikely(depth >= LD_MAX_NESTING)) {
		ld_lost_nesting(cb);
		goto out;
	}
	pc->depth = depth + 1;
	barrier();	/* an interrupt now sees our level taken */

	buf = (u8 *)pc->scratch[depth];
	va_start(ap, fmt);
	va_copy(aq, ap);
	words = vbin_printf(pc->scratch[depth], ARRAY_SIZE(pc->scratch[0]), fmt, ap);
	va_end(ap);
	used = words > 0 ? (u32)words * sizeof(u32) : 0;
	if (likely(used <= LOGDEV_MAX_PAYLOAD)) {
		bytes = used;
	} else {
		bytes = ld_vbin_cut(buf, fmt, aq);
		used = min_t(u32, used, sizeof(pc->scratch[0]));
		flags = LOGDEV_REC_F_CUT;
	}
	va_end(aq);

	if (likely(!ld_reserve(cb, bytes, &r))) {
		r.rec->site = id;
		r.rec->type = LOGDEV_REC_PRINT;
		r.rec->ctx = ld_ctx() | flags;
		r.rec->pid = current->pid;
		r.rec->arg_bytes = bytes;
		memcpy(r.rec + 1, buf, bytes);
		pad = r.rec->len - LOGDEV_REC_HDR_SIZE - bytes;
		if (pad)
			memset((char *)(r.rec + 1) + bytes, 0, pad);
		if (ld_commit(cb, &r))
			ld_kick_reader(pc);
	}
	memset(buf, 0, used);	/* the next call at this level starts from zeros */

	barrier();
	pc->depth = depth;
out:
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__logdev_print);

/**
 * __logdev_reserve() - reserve a LOGDEV_REC_PRINT_SLOTS record; edprint() only
 * @site:  the call site (assigned an id on first use)
 * @bytes: payload bytes
 * @res:   filled in for __logdev_commit()
 *
 * Fills in the record header; the caller stores the payload and calls
 * __logdev_commit().  Preemption stays disabled in between.  Any context,
 * NMI included (the ring core nests).
 *
 * Return: the payload address, or NULL if recording is off or the record
 * was lost (counted by the ring core).
 */
notrace void *__logdev_reserve(struct logdev_site *site, u32 bytes, struct logdev_resv *res)
{
	struct ld_resv *r = (struct ld_resv *)res;
	struct ld_cpu_buf *cb;
	u32 id;

	BUILD_BUG_ON(sizeof(struct ld_resv) > sizeof(struct logdev_resv));
	BUILD_BUG_ON(__EDPRINT_SLOTS_MAX != LOGDEV_MAX_PAYLOAD);
	preempt_disable_notrace();
	if (unlikely(!READ_ONCE(logdev_recording)))
		goto out;
	cb = rcu_dereference_sched(this_cpu_ptr(ld_pcpu)->cb);
	id = logdev_site_id(site);
	if (unlikely(ld_reserve(cb, bytes, r)))
		goto out;
	r->rec->site = id;
	r->rec->type = LOGDEV_REC_PRINT_SLOTS;
	r->rec->ctx = ld_ctx();
	r->rec->pid = current->pid;
	r->rec->arg_bytes = bytes;
	return r->rec + 1;
out:
	preempt_enable_notrace();
	return NULL;
}
EXPORT_SYMBOL_GPL(__logdev_reserve);

/**
 * __logdev_commit() - commit a record reserved by __logdev_reserve()
 * @res: the reservation
 */
void notrace __logdev_commit(struct logdev_resv *res)
{
	struct ld_resv *r = (struct ld_resv *)res;
	struct ld_pcpu *pc = this_cpu_ptr(ld_pcpu);
	u32 pad = r->rec->len - LOGDEV_REC_HDR_SIZE - r->rec->arg_bytes;

	if (pad)
		memset((char *)(r->rec + 1) + r->rec->arg_bytes, 0, pad);
	if (ld_commit(rcu_dereference_sched(pc->cb), r))
		ld_kick_reader(pc);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__logdev_commit);

/* One whole record of @type with a ready payload; see the two callers. */
static int notrace ld_write_ready(u8 type, u32 site_id, const void *payload,
				  u32 bytes)
{
	struct ld_cpu_buf *cb;
	int ret = -ENODATA;

	preempt_disable_notrace();
	if (likely(READ_ONCE(logdev_recording))) {
		cb = rcu_dereference_sched(this_cpu_ptr(ld_pcpu)->cb);
		ret = ld_write(cb, site_id, type, ld_ctx(), current->pid,
			       payload, bytes);
		if (ret > 0) {
			ld_kick_reader(this_cpu_ptr(ld_pcpu));
			ret = 0;
		}
	}
	preempt_enable_notrace();
	return ret;
}

/**
 * logdev_write_raw() - store an opaque record in this CPU's buffer
 * @site_id: call-site id for the record (from logdev_site_id(), or 0)
 * @payload: bytes to store
 * @bytes:   length of @payload in bytes
 *
 * Any context, NMI included; never sleeps, locks or allocates.
 *
 * Return: 0 on success, -ENODATA if recording is off, or the negative
 * errno of the ring core.
 */
int notrace logdev_write_raw(u32 site_id, const void *payload, u32 bytes)
{
	return ld_write_ready(LOGDEV_REC_RAW, site_id, payload, bytes);
}
EXPORT_SYMBOL_GPL(logdev_write_raw);

/**
 * ld_write_print() - store a LOGDEV_REC_PRINT record with a ready payload
 * @site_id: call-site id (0: unknown)
 * @payload: vbin_printf()-compatible argument words for the site's format
 * @bytes:   length of @payload in bytes (<= LOGDEV_MAX_PAYLOAD)
 *
 * For the run-time probes (logdev_probes.c): any context, NMI included,
 * never sleeps, locks or allocates.
 *
 * Return: 0, -ENODATA if recording is off, or the ring core's errno.
 */
int notrace ld_write_print(u32 site_id, const void *payload, u32 bytes)
{
	return ld_write_ready(LOGDEV_REC_PRINT, site_id, payload, bytes);
}

/* ---------------------------------------------------------------- buffers */

static struct ld_cpu_buf *ld_cb(int cpu)
{
	/* callers hold ld_cfg_mutex or ld_buf_rwsem: no replacement can run */
	return rcu_dereference_protected(per_cpu_ptr(ld_pcpu, cpu)->cb, true);
}

static void ld_buf_free(struct ld_cpu_buf *cb)
{
	if (!cb)
		return;
	vfree(cb->mem);
	kvfree(cb->commit);
	kfree(cb);
}

static struct ld_cpu_buf *ld_buf_alloc(int cpu, u32 subbuf_size, u32 nr,
				       enum ld_mode mode)
{
	int node = cpu_to_node(cpu);
	struct ld_cpu_buf *cb;
	void *mem;
	ld_local_t *commit;

	cb = kzalloc_node(sizeof(*cb), GFP_KERNEL, node);
	if (!cb)
		goto err;
	/* fail rather than wake the OOM killer: a too-big size is -ENOMEM */
	mem = __vmalloc((size_t)subbuf_size * nr,
			GFP_KERNEL | __GFP_ZERO | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!mem)
		goto err_cb;
	commit = kvcalloc(nr, sizeof(*commit), GFP_KERNEL);
	if (!commit)
		goto err_mem;
	if (ld_cpu_buf_init(cb, mem, commit, cpu, subbuf_size, nr, mode))
		goto err_commit;
	return cb;

err_commit:
	kvfree(commit);
err_mem:
	vfree(mem);
err_cb:
	kfree(cb);
err:
	return NULL;
}

/*
 * Replace every CPU's buffer by a new one of @nr_subbufs sub-buffers of
 * @subbuf_size bytes.  All new buffers are allocated first: on failure the
 * old ones stay in place.  Recording must be off.
 */
int ld_resize(u32 subbuf_size, u32 nr_subbufs)
{
	struct ld_cpu_buf **tmp;
	int cpu, ret = -ENOMEM;

	lockdep_assert_held(&ld_cfg_mutex);
	if (ld_cfg.enabled)
		return -EBUSY;
	/* the ring uses a power of two of sub-buffers: allocate what it uses */
	nr_subbufs = rounddown_pow_of_two(nr_subbufs);
	/* like ftrace's resize: never take more than half of what is free */
	if ((u64)subbuf_size * nr_subbufs * num_possible_cpus() / PAGE_SIZE >
	    si_mem_available() / 2)
		return -ENOMEM;
	tmp = kcalloc(nr_cpu_ids, sizeof(*tmp), GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		tmp[cpu] = ld_buf_alloc(cpu, subbuf_size, nr_subbufs, ld_cfg.mode);
		if (!tmp[cpu])
			goto out;
	}

	down_write(&ld_buf_rwsem);
	for_each_possible_cpu(cpu) {
		tmp[cpu] = rcu_replace_pointer(per_cpu_ptr(ld_pcpu, cpu)->cb,
					       tmp[cpu], true);
		ld_readers[cpu].have = false;
	}
	ld_cfg.subbuf_size = subbuf_size;
	ld_cfg.nr_subbufs = nr_subbufs;
	up_write(&ld_buf_rwsem);
	synchronize_rcu();	/* pollers may still look at the old rings */
	ret = 0;
out:
	for_each_possible_cpu(cpu)
		ld_buf_free(tmp[cpu]);
	kfree(tmp);
	return ret;
}

/* Empty every buffer in @mode; writers must be stopped. */
static void ld_reset_all(enum ld_mode mode)
{
	int cpu;

	down_write(&ld_buf_rwsem);
	for_each_possible_cpu(cpu) {
		ld_cpu_buf_reset(ld_cb(cpu), mode);
		ld_readers[cpu].have = false;
	}
	up_write(&ld_buf_rwsem);
}

int ld_set_mode(enum ld_mode mode)
{
	lockdep_assert_held(&ld_cfg_mutex);
	if (ld_cfg.enabled)
		return -EBUSY;
	ld_reset_all(mode);
	ld_cfg.mode = mode;
	return 0;
}

int ld_set_clock(enum ld_clock_id clock)
{
	lockdep_assert_held(&ld_cfg_mutex);
	if (ld_cfg.enabled)
		return -EBUSY;
	WRITE_ONCE(ld_clock_sel, clock);
	ld_cfg.clock = clock;
	ld_reset_all(ld_cfg.mode);
	return 0;
}

void ld_clear_all(void)
{
	lockdep_assert_held(&ld_cfg_mutex);
	if (ld_cfg.enabled) {
		WRITE_ONCE(logdev_recording, false);
		synchronize_rcu();
	}
	ld_reset_all(ld_cfg.mode);
	if (ld_cfg.enabled)
		WRITE_ONCE(logdev_recording, true);
}

static void ld_flush_ipi(void *info)
{
	ld_flush(info);
}

/* Close every CPU's partial sub-buffer, on its own CPU if it is online. */
void ld_flush_all(void)
{
	int cpu;

	lockdep_assert_held(&ld_cfg_mutex);
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu))
			smp_call_function_single(cpu, ld_flush_ipi, ld_cb(cpu), 1);
		else
			ld_flush(ld_cb(cpu));
	}
	cpus_read_unlock();
	ld_wake_readers();
}

/**
 * ld_flush_stopped() - flush one CPU's buffer if recording is stopped
 * @cpu: the CPU
 *
 * For a consumer at the end of its data: with recording stopped no writer
 * can run, so the flush may run here; it also emits losses still pending
 * once the consumer has made room (discard mode).
 *
 * Return: true if it flushed.
 */
bool ld_flush_stopped(int cpu)
{
	bool done = false;

	mutex_lock(&ld_cfg_mutex);
	if (!ld_cfg.enabled) {
		down_read(&ld_buf_rwsem);
		done = ld_flush(ld_cb(cpu));
		up_read(&ld_buf_rwsem);
	}
	mutex_unlock(&ld_cfg_mutex);
	return done;
}

/**
 * ld_is_stopped() - has recording stopped and the final flush completed?
 *
 * Acquire: a caller that sees true also sees every sub-buffer the final
 * flush completed, so "nothing readable" checked after this call returned
 * true means nothing is left but losses still pending (ld_flush_stopped()).
 *
 * Return: true from the end of ld_set_enabled(false) until the next
 * ld_set_enabled(true).
 */
bool ld_is_stopped(void)
{
	return smp_load_acquire(&ld_stopped);
}

int ld_set_enabled(bool on)
{
	lockdep_assert_held(&ld_cfg_mutex);
	if (on == ld_cfg.enabled)
		return 0;
	if (on) {
		WRITE_ONCE(ld_stopped, false);
		ld_cfg.enabled = true;
		WRITE_ONCE(logdev_recording, true);
		static_branch_enable(&logdev_key);
		return 0;
	}
	WRITE_ONCE(logdev_recording, false);
	static_branch_disable(&logdev_key);
	synchronize_rcu();	/* no writer is inside a record any more */
	ld_cfg.enabled = false;
	ld_flush_all();
	/* only now may a reader that finds nothing conclude end-of-data */
	smp_store_release(&ld_stopped, true);
	ld_wake_readers();
	return 0;
}

void ld_cpu_stats(int cpu, struct ld_stats *st)
{
	down_read(&ld_buf_rwsem);
	ld_get_stats(ld_cb(cpu), st);
	up_read(&ld_buf_rwsem);
}

/* ---------------------------------------------------------------- readers */

#define LD_WAKE_JIFFIES	max(1, HZ / 20)	/* 50 ms */

static struct timer_list ld_wake_timer;

/* Whether @cpu has a complete sub-buffer; any context but NMI. */
bool ld_cpu_readable(int cpu)
{
	struct ld_cpu_buf *cb;
	bool ret;

	rcu_read_lock();
	cb = rcu_dereference(per_cpu_ptr(ld_pcpu, cpu)->cb);
	ret = cb && ld_readable(cb);
	rcu_read_unlock();
	return ret;
}

/*
 * Writers never wake readers (they may run in NMI).  A sleeping reader sets
 * its waiting flag and arms this timer, which polls every 50 ms.
 */
static void ld_wake_fn(struct timer_list *t)
{
	bool again = false;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ld_reader *r = &ld_readers[cpu];

		if (!READ_ONCE(r->waiting))
			continue;
		if (ld_is_stopped() || ld_cpu_readable(cpu)) {
			WRITE_ONCE(r->waiting, false);
			wake_up_interruptible_all(&r->wq);
		} else {
			again = true;
		}
	}
	if (again)
		mod_timer(&ld_wake_timer, jiffies + LD_WAKE_JIFFIES);
}

static void ld_wake_work_fn(struct irq_work *w)
{
	struct ld_reader *r = &ld_readers[container_of(w, struct ld_pcpu, wake_work)->cpu];

	WRITE_ONCE(r->waiting, false);
	wake_up_interruptible_all(&r->wq);
}

void ld_reader_arm(int cpu)
{
	WRITE_ONCE(ld_readers[cpu].waiting, true);
	if (!timer_pending(&ld_wake_timer))
		mod_timer(&ld_wake_timer, jiffies + LD_WAKE_JIFFIES);
}

void ld_wake_readers(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		WRITE_ONCE(ld_readers[cpu].waiting, false);
		wake_up_interruptible_all(&ld_readers[cpu].wq);
	}
}

/* ------------------------------------------------------------ module init */

static void ld_free_all(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		irq_work_sync(&per_cpu_ptr(ld_pcpu, cpu)->wake_work);
		ld_buf_free(ld_cb(cpu));
		RCU_INIT_POINTER(per_cpu_ptr(ld_pcpu, cpu)->cb, NULL);
		kvfree(ld_readers[cpu].bounce);
	}
}

static int __init logdev_init(void)
{
	struct ld_cpu_buf *cb;
	int cpu, ret = -ENOMEM;

	ld_pcpu = alloc_percpu(struct ld_pcpu);
	if (!ld_pcpu)
		goto err;
	ld_readers = kcalloc(nr_cpu_ids, sizeof(*ld_readers), GFP_KERNEL);
	if (!ld_readers)
		goto err_pcpu;
	for_each_possible_cpu(cpu) {
		per_cpu_ptr(ld_pcpu, cpu)->cpu = cpu;
		init_irq_work(&per_cpu_ptr(ld_pcpu, cpu)->wake_work, ld_wake_work_fn);
		mutex_init(&ld_readers[cpu].lock);
		init_waitqueue_head(&ld_readers[cpu].wq);
		cb = ld_buf_alloc(cpu, ld_cfg.subbuf_size, ld_cfg.nr_subbufs,
				  ld_cfg.mode);
		if (!cb)
			goto err_bufs;
		RCU_INIT_POINTER(per_cpu_ptr(ld_pcpu, cpu)->cb, cb);
	}
	timer_setup(&ld_wake_timer, ld_wake_fn, 0);

	ret = register_module_notifier(&ld_module_nb);
	if (ret)
		goto err_bufs;
	ret = ld_debugfs_init();
	if (ret)
		goto err_notifier;
	return 0;

err_notifier:
	unregister_module_notifier(&ld_module_nb);
err_bufs:
	ld_free_all();
	kfree(ld_readers);
err_pcpu:
	free_percpu(ld_pcpu);
err:
	return ret;
}

static void __exit logdev_exit(void)
{
	/* no file can be open: each holds a module reference */
	ld_debugfs_exit();
	ld_probes_exit();
	mutex_lock(&ld_cfg_mutex);
	ld_set_enabled(false);
	mutex_unlock(&ld_cfg_mutex);
	unregister_module_notifier(&ld_module_nb);
	ld_modlog_exit();
	del_timer_sync(&ld_wake_timer);
	synchronize_rcu();
	ld_free_all();
	ld_sites_free();
	kfree(ld_readers);
	free_percpu(ld_pcpu);
}

module_init(logdev_init);
module_exit(logdev_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("logdev: binary per-CPU print probes (edprint)");
