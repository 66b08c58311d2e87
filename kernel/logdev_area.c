// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_area.c - the flight recorder's area: every CPU's ring in a range
 * of reserved memory that a warm reset keeps (persist=memmap:SIZE@ADDR),
 * laid out as include/uapi/linux/logdev.h describes (struct
 * logdev_area_hdr and what follows it), so that the next boot, or a reader
 * given a raw image of the range, finds the records of the boot that died.
 *
 * At load, before any record is written: the range is checked (reserved,
 * not System RAM: logdev never writes memory it was not given), mapped
 * write-back (memremap(MEMREMAP_WB): a record's stores cost what they cost
 * in vmalloc memory; docs/CRASHDUMP.md says why not write-combining), and
 * an area a previous boot or load left there is copied whole into vmalloc
 * memory ("last_boot/area"; the reader validates it).  Then the area is
 * formatted for this load and the rings are placed in it (ld_area_ring()).
 * At the end of the boot (ld_area_end(): panic, reboot, unload) the
 * counters, the end reason and a CRC-32 seal of every whole sub-buffer are
 * stored.  The "formats" text is kept current by the features layer
 * (logdev_persist.c) through ld_area_text_slot()/ld_area_text_publish().
 *
 * Layer: recording core (logdev_core.h); calls the ring.  Its parameter
 * "persist" is logdev.persist= on the command line of a kernel with logdev
 * built in.
 */
#define pr_fmt(fmt) "logdev: " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/crc32.h>
#include <linux/utsname.h>
#include <linux/timekeeping.h>
#include <linux/seq_file.h>
#include "logdev_core.h"
#include "logdev_compat.h"

static_assert(sizeof(struct logdev_area_hdr) == LOGDEV_AREA_HDR_SIZE);
static_assert(offsetof(struct logdev_area_hdr, hdr_crc) == LOGDEV_AREA_CRC_BYTES);
static_assert(sizeof(struct logdev_area_cpu) == LOGDEV_AREA_CPU_SIZE);
static_assert(sizeof(struct logdev_area_seal) == LOGDEV_AREA_SEAL_SIZE);

#define LD_AREA_TEXT_MIN	(16 * 1024)	/* bytes per text slot */
#define LD_AREA_TEXT_MAX	(512 * 1024)

/**
 * struct ld_area - the area of this load
 * @want:   the parameter (all zero: off)
 * @addr:   the range in use: its physical address (from @want; a
 *          reserve_mem= name's found at load)
 * @size:   its bytes
 * @va:     the mapping (NULL: no area)
 * @hdr:    its header (at @va)
 * @prev:   copy of what a previous boot or load left (vmalloc), or NULL
 * @prev_bytes: its size
 * @cbs:    per CPU, the ring placed in the area (ld_area_ring())
 * @released: the copy was freed on request (last_boot/release)
 * @ended:  ld_area_end() stored an end with seals (a later call does
 *          nothing)
 */
static struct ld_area {
	struct ld_persist_spec want;
	u64 addr, size;
	void *va;
	struct logdev_area_hdr *hdr;
	void *prev;
	u64 prev_bytes;
	struct ld_cpu_buf **cbs;
	bool released;
	atomic_t ended;
} ld_area;

/* ------------------------------------------------------------ parameter */

static int ld_persist_set(const char *val, const struct kernel_param *kp)
{
	if (ld_parse_persist(val, &ld_area.want)) {
		pr_err("parameter persist=%s: want off, memmap:SIZE@ADDR (page aligned, as the memmap=SIZE$ADDR that reserved it) or reserve_mem:NAME; %s\n",
		       val, LD_BAD_PARAM);
		return -EINVAL;
	}
	return 0;
}

static int ld_persist_get(char *buf, const struct kernel_param *kp)
{
	if (ld_area.want.name[0])
		return scnprintf(buf, PAGE_SIZE, "reserve_mem:%s\n", ld_area.want.name);
	if (!ld_area.want.size)
		return scnprintf(buf, PAGE_SIZE, "off\n");
	return scnprintf(buf, PAGE_SIZE, "memmap:%llu@0x%llx\n",
			 ld_area.want.size, ld_area.want.addr);
}

static const struct kernel_param_ops ld_persist_ops = {
	.set = ld_persist_set,
	.get = ld_persist_get,
};
module_param_cb(persist, &ld_persist_ops, NULL, 0444);
MODULE_PARM_DESC(persist,
		 "rings in reserved memory a warm reset keeps: off, memmap:SIZE@ADDR or reserve_mem:NAME (docs/CRASHDUMP.md) (off)");

/* ------------------------------------------------------------ the layout */

static struct logdev_area_cpu *ld_area_cpu(u32 cpu)
{
	return (void *)((char *)ld_area.va + ld_area.hdr->cpu_off +
			cpu * ld_area.hdr->cpu_stride);
}

static ld_local_t *ld_area_commits(struct logdev_area_cpu *ac)
{
	return (void *)((char *)ac + ac->commit_off);
}

static struct logdev_area_seal *ld_area_seals(struct logdev_area_cpu *ac)
{
	return (void *)((char *)ac + ac->seal_off);
}

static u32 ld_crc(const void *p, size_t len)
{
	return ~crc32_le(~0U, p, len);	/* zlib's crc32() */
}

/* the header's CRC: of the bytes before hdr_crc */
static u32 ld_area_hdr_crc(const struct logdev_area_hdr *h)
{
	return ld_crc(h, LOGDEV_AREA_CRC_BYTES);
}

/* a CPU block's head: struct logdev_area_cpu, then commit[] at this offset */
#define LD_AREA_CPU_HEAD	128
static_assert(LOGDEV_AREA_CPU_SIZE <= LD_AREA_CPU_HEAD);

/* bytes before a CPU block's sub-buffers, for @nr of them: head, counters, seals */
static u64 ld_area_block_head(u32 nr)
{
	return PAGE_ALIGN(LD_AREA_CPU_HEAD +
			  (u64)nr * (sizeof(ld_local_t) + LOGDEV_AREA_SEAL_SIZE));
}

/*
 * Sub-buffers per CPU for a block of @stride bytes: the largest power of
 * two whose block head, commit counters, seals and data fit; 0 if not 2.
 */
static u32 ld_area_fit(u64 stride, u32 subbuf_size, u64 *data_off)
{
	u32 nr;

	for (nr = 1U << 30; nr >= 2; nr >>= 1) {
		u64 head = ld_area_block_head(nr);

		if (head + (u64)nr * subbuf_size <= stride) {
			*data_off = head;
			return nr;
		}
	}
	return 0;
}

/* the text slots' size for an area of @size bytes */
static u64 ld_area_text(u64 size)
{
	return clamp_t(u64, rounddown(size / 32, PAGE_SIZE), LD_AREA_TEXT_MIN,
		       LD_AREA_TEXT_MAX);
}

/*
 * Bytes an area needs for @nr sub-buffers per possible CPU: the rings use
 * a power of two of sub-buffers, so an area between two such sizes leaves
 * the rest unused (the load's log line says what the next one needs).
 */
static u64 ld_area_need(u32 nr, u32 subbuf_size)
{
	u64 block = ld_area_block_head(nr) + (u64)nr * subbuf_size;
	u64 size = PAGE_SIZE + 2 * LD_AREA_TEXT_MIN + nr_cpu_ids * block;

	/* the text slots grow with the area: add them until it fits */
	while (PAGE_SIZE + 2 * ld_area_text(size) + nr_cpu_ids * block > size)
		size = PAGE_SIZE + 2 * ld_area_text(size) + nr_cpu_ids * block;
	return round_up(size, SZ_1M);
}

/* where things go in an area of ld_area.size bytes (ld_area_layout()) */
struct ld_area_layout {
	u64 text, cpu_off, stride, data_off;
	u32 subbuf_size, nr;
};

/* Lay out the area for @subbuf_size; nothing written.  0 or -EINVAL. */
static int ld_area_layout(u32 subbuf_size, struct ld_area_layout *l)
{
	u64 size = ld_area.size;

	l->subbuf_size = subbuf_size;
	l->text = ld_area_text(size);
	l->cpu_off = PAGE_SIZE + 2 * l->text;
	l->stride = l->cpu_off < size ?
		    rounddown((size - l->cpu_off) / nr_cpu_ids, PAGE_SIZE) : 0;
	l->nr = ld_area_fit(l->stride, subbuf_size, &l->data_off);
	if (!l->nr) {
		pr_err("persist: %llu bytes hold no 2 sub-buffers of %u bytes for each of %u possible CPUs (%lluK would)\n",
		       size, subbuf_size, nr_cpu_ids,
		       ld_area_need(2, subbuf_size) >> 10);
		return -EINVAL;
	}
	return 0;
}

/*
 * Write this load's header and CPU block heads as @l says (commit[] is
 * zeroed by the ring's reset), and read the header back: memory that does
 * not keep what is written (no RAM behind the range) is refused.
 */
static int ld_area_format(const struct ld_area_layout *l, const char *clock)
{
	struct logdev_area_hdr *h = ld_area.hdr;
	u64 size = ld_area.size;
	u32 cpu, k;

	memset(h, 0, PAGE_SIZE);
	memcpy(h->magic, LOGDEV_AREA_MAGIC, sizeof(h->magic));
	h->version = LOGDEV_AREA_VERSION;
	h->hdr_bytes = sizeof(*h);
	h->area_bytes = size;
	h->page_size = PAGE_SIZE;
	h->endian = LOGDEV_AREA_ENDIAN;
	h->nr_cpus = nr_cpu_ids;
	h->subbuf_size = l->subbuf_size;
	h->nr_subbufs = l->nr;
	h->format_version = LOGDEV_FORMAT_VERSION;
	h->local_bytes = sizeof(ld_local_t);
	h->text_bytes = l->text;
	h->text_off = PAGE_SIZE;
	h->cpu_off = l->cpu_off;
	h->cpu_stride = l->stride;
	h->load_wall_ns = ktime_get_real_ns();
	strscpy(h->clock, clock, sizeof(h->clock));
	strscpy(h->osrelease, init_utsname()->release, sizeof(h->osrelease));
	h->hdr_crc = ld_area_hdr_crc(h);
	h->text_cur = LOGDEV_AREA_NO_TEXT;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct logdev_area_cpu *ac = ld_area_cpu(cpu);
		struct logdev_area_seal *seal;

		memset(ac, 0, l->data_off);
		ac->magic = LOGDEV_AREA_CPU_MAGIC;
		ac->cpu = cpu;
		ac->commit_off = LD_AREA_CPU_HEAD;
		ac->seal_off = LD_AREA_CPU_HEAD + (u64)l->nr * sizeof(ld_local_t);
		ac->data_off = l->data_off;
		seal = ld_area_seals(ac);
		for (k = 0; k < l->nr; k++)
			seal[k].seq = ~0ULL;
	}
	barrier();	/* read back what was written, not what the compiler kept */
	if (memcmp(h->magic, LOGDEV_AREA_MAGIC, sizeof(h->magic)) ||
	    READ_ONCE(h->area_bytes) != size) {
		pr_err("persist: [0x%llx +%llu] does not keep what is written: no RAM behind it\n",
		       ld_area.addr, size);
		return -EINVAL;
	}
	return 0;
}

/* ----------------------------------------------------- mapping, the copy */

static const char * const ld_area_end_names[] = {
	[LOGDEV_END_UNKNOWN] = "unknown (hard reset, power loss or hang)",
	[LOGDEV_END_PANIC] = "panic",
	[LOGDEV_END_REBOOT] = "reboot",
	[LOGDEV_END_OOPS] = "oops",
	[LOGDEV_END_UNLOAD] = "module unloaded",
};

/*
 * Keep a copy of what an earlier boot or load left in the area, if
 * anything.  An area it cannot keep whole is left untouched and the load
 * refused: its records are worth more than this load's (the log says how
 * to save or drop them).
 */
static int ld_area_keep_prev(void)
{
	const struct logdev_area_hdr *h = ld_area.hdr;
	bool crc_ok;

	if (memcmp(h->magic, LOGDEV_AREA_MAGIC, sizeof(h->magic))) {
		pr_info("persist: no previous boot's buffer at 0x%llx%s\n", ld_area.addr,
			ld_area.want.name[0] ? " (reserve_mem= may put its memory elsewhere after a reboot: a larger alignment, reserve_mem=SIZE:32M:NAME, makes that rarer)" : "");
		return 0;
	}
	crc_ok = h->hdr_crc == ld_area_hdr_crc(h);
	if (crc_ok && h->area_bytes != ld_area.size) {
		pr_err("persist: the area at 0x%llx holds a previous buffer of %llu bytes, persist= gives %llu: not loaded, so as not to overwrite it; load with that size, or save it (dd if=/dev/mem) first (docs/CRASHDUMP.md)\n",
		       ld_area.addr, h->area_bytes, ld_area.size);
		return -EINVAL;
	}
	ld_area.prev = __vmalloc(ld_area.size, GFP_KERNEL | __GFP_NOWARN |
				 __GFP_RETRY_MAYFAIL);
	if (!ld_area.prev) {
		pr_err("persist: no memory to keep the previous boot's buffer (%llu bytes): not loaded, so as not to overwrite it; save it (dd if=/dev/mem) first (docs/CRASHDUMP.md)\n",
		       ld_area.size);
		return -ENOMEM;
	}
	memcpy(ld_area.prev, ld_area.va, ld_area.size);
	ld_area.prev_bytes = ld_area.size;
	pr_info("persist: previous buffer kept (%llu bytes, %s, ended: %s): logdev record --last-boot\n",
		ld_area.size, crc_ok ? h->osrelease : "header damaged",
		h->end_reason < ARRAY_SIZE(ld_area_end_names) ?
		ld_area_end_names[h->end_reason] : "?");
	return 0;
}

/**
 * ld_area_start() - map the area, keep its previous content, format it
 * @subbuf_size: bytes per sub-buffer
 * @clock:       the trace clock's name
 * @nr_subbufs:  set to the sub-buffers per CPU the area holds
 *
 * Core init, before any ring exists.  No area asked for: 0 and nothing.
 * A previous content that cannot be copied stays unread, and this load
 * records in it anyway (the log says so).
 *
 * Return: 0, or -EINVAL (not reserved, too small), -ENOMEM (no mapping).
 */
int ld_area_start(u32 subbuf_size, const char *clock, u32 *nr_subbufs)
{
	struct ld_area_layout l;
	int ret;

	ret = ld_area_find(&ld_area.want, &ld_area.addr, &ld_area.size);
	if (ret <= 0)
		goto err;
	ret = ld_area_layout(subbuf_size, &l);
	if (ret)
		goto err;
	ret = -ENOMEM;
	ld_area.cbs = kcalloc(nr_cpu_ids, sizeof(*ld_area.cbs), GFP_KERNEL);
	if (!ld_area.cbs)
		goto err;
	ld_area.va = memremap(ld_area.addr, ld_area.size, MEMREMAP_WB);
	if (!ld_area.va) {
		pr_err("persist: cannot map [0x%llx +%llu]\n", ld_area.addr,
		       ld_area.size);
		goto err_cbs;
	}
	ld_area.hdr = ld_area.va;
	ret = ld_area_keep_prev();
	if (ret)
		goto err_map;
	ret = ld_area_format(&l, clock);
	if (ret)
		goto err_map;
	*nr_subbufs = l.nr;
	pr_info("persist: rings in [0x%llx +%llu], %u x %u bytes per CPU, write-back mapped; twice as many from %lluK\n",
		ld_area.addr, ld_area.size, l.nr, subbuf_size,
		ld_area_need(2 * l.nr, subbuf_size) >> 10);
	return 0;

err_map:
	ld_area_prev_release();
	memunmap(ld_area.va);
	ld_area.va = NULL;
err_cbs:
	kfree(ld_area.cbs);
	ld_area.cbs = NULL;
err:
	return ret;
}

/**
 * ld_area_ring() - the area's memory for @cpu's ring
 * @cb:          the ring being made for @cpu (ld_area_end() reads its
 *               counters)
 * @cpu:         the CPU
 * @subbuf_size: bytes per sub-buffer of the ring asked for
 * @nr:          its sub-buffers
 * @mem:         set to its sub-buffers in the area
 * @commit:      set to its commit counters in the area
 *
 * Return: true if the area holds @cpu's ring of that shape.
 */
bool ld_area_ring(struct ld_cpu_buf *cb, int cpu, u32 subbuf_size, u32 nr,
		  void **mem, ld_local_t **commit)
{
	struct logdev_area_cpu *ac;

	if (!ld_area.va || cpu >= ld_area.hdr->nr_cpus ||
	    subbuf_size != ld_area.hdr->subbuf_size ||
	    nr != ld_area.hdr->nr_subbufs)
		return false;
	ac = ld_area_cpu(cpu);
	ld_area.cbs[cpu] = cb;
	*mem = (char *)ac + ac->data_off;
	*commit = ld_area_commits(ac);
	return true;
}

/**
 * ld_area_owns() - is @p memory of the area (not to be freed)?
 * @p: an address
 */
bool ld_area_owns(const void *p)
{
	return ld_area.va && p >= ld_area.va &&
	       (const char *)p < (const char *)ld_area.va + ld_area.size;
}

/**
 * ld_area_set_clock() - the trace clock changed: the header says so
 * @name: the clock's name (debugfs "clock")
 *
 * Under ld_cfg_mutex, the rings just emptied (ld_set_clock()).
 */
void ld_area_set_clock(const char *name)
{
	struct logdev_area_hdr *h = ld_area.hdr;

	if (!ld_area.va)
		return;
	strscpy(h->clock, name, sizeof(h->clock));
	h->hdr_crc = ld_area_hdr_crc(h);
}

/** ld_area_wanted() - does parameter persist ask for an area? */
bool ld_area_wanted(void)
{
	return ld_area.want.size || ld_area.want.name[0];
}

/** ld_area_on() - are the rings in an area? */
bool ld_area_on(void)
{
	return ld_area.va;
}

/* ----------------------------------------------------- identity, text */

/* The value of "KEY" in the vmcoreinfo text @d (@n bytes), into @out. */
static bool ld_note_get(const char *d, u32 n, const char *key, char *out,
			size_t size)
{
	size_t kl = strlen(key), i = 0, j;

	while (i < n) {
		for (j = i; j < n && d[j] != '\n'; j++)
			;
		if (j - i > kl && !memcmp(d + i, key, kl)) {
			size_t vl = min(j - i - kl, size - 1);

			memcpy(out, d + i + kl, vl);
			out[vl] = '\0';
			return true;
		}
		i = j + 1;
	}
	return false;
}

/**
 * ld_area_identify() - store the kernel's build-id and _stext address
 *
 * From the vmcoreinfo note (filled at subsys_initcall: called by the
 * features' init, after it); a kernel without vmcoreinfo (a tinyconfig
 * with logdev built in) leaves them unknown.  Process context.
 */
void ld_area_identify(void)
{
	struct logdev_area_hdr *h = ld_area.hdr;
	const u32 *note;
	const char *desc;
	char v[24];
	u64 a;

	if (!ld_area.va ||
	    !(IS_ENABLED(CONFIG_VMCORE_INFO) || IS_ENABLED(CONFIG_CRASH_CORE)))
		return;	/* no vmcoreinfo: build-id and _stext stay unknown */
	note = phys_to_virt(paddr_vmcoreinfo_note());
	if (note[0] > 64 || note[1] > PAGE_SIZE)	/* namesz, descsz */
		return;
	desc = (const char *)(note + 3) + ALIGN(note[0], 4);
	ld_note_get(desc, note[1], "BUILD-ID=", h->build_id,
		    sizeof(h->build_id));
	if (ld_note_get(desc, note[1], "SYMBOL(_stext)=", v, sizeof(v)) &&
	    !kstrtou64(v, 16, &a))
		h->text_addr = a;
	h->hdr_crc = ld_area_hdr_crc(h);
}

/* the text slot not in use */
static u32 ld_area_next_slot(void)
{
	return READ_ONCE(ld_area.hdr->text_cur) == 0 ? 1 : 0;
}

/**
 * ld_area_text_slot() - where to write the next "formats" text
 * @bytes: set to the slot's size
 *
 * The slot not in use, so that a crash while it is written leaves the
 * current text readable.  Callers serialise (one writer at a time).
 *
 * Return: the slot, or NULL without an area.
 */
char *ld_area_text_slot(u32 *bytes)
{
	struct logdev_area_hdr *h = ld_area.hdr;

	if (!ld_area.va)
		return NULL;
	*bytes = h->text_bytes;
	return (char *)ld_area.va + h->text_off +
	       (u64)ld_area_next_slot() * h->text_bytes;
}

/**
 * ld_area_text_publish() - make the slot of ld_area_text_slot() current
 * @len: the bytes of text written there
 */
void ld_area_text_publish(u32 len)
{
	struct logdev_area_hdr *h = ld_area.hdr;
	u32 next = ld_area_next_slot();
	u32 bytes;
	char *slot = ld_area_text_slot(&bytes);

	if (!slot || len > bytes)
		return;
	h->text_len[next] = len;
	h->text_crc[next] = ld_crc(slot, len);
	smp_wmb();	/* the text, its length and CRC before the switch */
	WRITE_ONCE(h->text_cur, next);
}

/* ------------------------------------------------------------- the end */

static void ld_area_set_msg(const char *msg)
{
	strscpy(ld_area.hdr->end_msg, msg ? msg : "", sizeof(ld_area.hdr->end_msg));
	ld_area.hdr->end_ts = ld_clock_now();
	ld_area.hdr->end_wall_ns = ktime_get_real_fast_ns();
}

/**
 * ld_area_oops() - note an oops unless an end is noted
 * @msg: its text (the die notifier's)
 *
 * Any context (the die notifier, NMI included): plain stores.  The kernel
 * may live on; a panic or reboot that follows seals the area.
 */
void ld_area_oops(const char *msg)
{
	struct logdev_area_hdr *h = ld_area.hdr;

	if (!ld_area.va || READ_ONCE(h->end_reason) != LOGDEV_END_UNKNOWN)
		return;
	ld_area_set_msg(msg);
	smp_wmb();
	WRITE_ONCE(h->end_reason, LOGDEV_END_OOPS);
}

/* Seal @ac's whole sub-buffers: CRC-32 of header and records. */
static void ld_area_seal_cpu(struct logdev_area_cpu *ac, u32 nr, u32 size)
{
	ld_local_t *commit = ld_area_commits(ac);
	struct logdev_area_seal *seal = ld_area_seals(ac);
	const char *data = (const char *)ac + ac->data_off;
	u32 k;

	for (k = 0; k < nr; k++) {
		u64 c = ld_local_read_remote(&commit[k]);
		const struct logdev_subbuf_hdr *sb = (const void *)(data + (u64)k * size);
		u32 db = READ_ONCE(sb->data_bytes);

		if (!c || c % size || db > size - LOGDEV_SUBBUF_HDR_SIZE)
			continue;
		seal[k].seq = ~0ULL;	/* a torn seal reads as none */
		smp_wmb();
		seal[k].data_bytes = db;
		seal[k].crc = ld_crc(sb, LOGDEV_SUBBUF_HDR_SIZE + db);
		smp_wmb();
		seal[k].seq = (c / size - 1) * nr + k;
	}
}

/**
 * ld_area_end() - note how this boot or load ends, with counters and seals
 * @reason: enum logdev_area_end
 * @msg:    the panic message or a word; kept after an oops's message
 *
 * Writers must be stopped (the panic notifier: other CPUs stopped and
 * recording off; reboot and unload: recording off and an RCU grace
 * period).  Any context, no lock, no allocation; once per load.
 */
void ld_area_end(u32 reason, const char *msg)
{
	struct logdev_area_hdr *h = ld_area.hdr;
	u32 cpu;

	if (!ld_area.va || atomic_xchg(&ld_area.ended, 1))
		return;
	for (cpu = 0; cpu < h->nr_cpus; cpu++) {
		struct logdev_area_cpu *ac = ld_area_cpu(cpu);
		struct ld_cpu_buf *cb;
		struct ld_stats st;

		cb = ld_area.cbs[cpu];
		if (!cb)
			continue;
		ld_get_stats(cb, &st);
		ld_get_positions(cb, &ac->write_off, &ac->read_sb);
		ac->written = st.written;
		ac->read = st.read;
		ac->overrun = st.overrun;
		ac->dropped = st.dropped;
		ac->nesting_lost = st.nesting_lost;
		ac->too_big = st.too_big;
		ac->saved = 1;
		ld_area_seal_cpu(ac, h->nr_subbufs, h->subbuf_size);
	}
	if (h->end_reason == LOGDEV_END_OOPS) {
		h->end_ts = ld_clock_now();	/* the oops's message stays */
		h->end_wall_ns = ktime_get_real_fast_ns();
	} else {
		ld_area_set_msg(msg);
	}
	smp_wmb();	/* counters, seals and message before the reason */
	WRITE_ONCE(h->end_reason, reason);
}

/* -------------------------------------------- the previous area, exit */

/**
 * ld_area_prev() - the copy of what an earlier boot or load left
 * @bytes: set to its size
 *
 * The caller (logdev_persist.c) serialises it with ld_area_prev_release().
 *
 * Return: the copy, or NULL (none, or released).
 */
const void *ld_area_prev(u64 *bytes)
{
	*bytes = ld_area.prev_bytes;
	return ld_area.prev;
}

/** ld_area_prev_release() - free the copy (write 1 to last_boot/release) */
void ld_area_prev_release(void)
{
	if (ld_area.prev)
		ld_area.released = true;
	vfree(ld_area.prev);
	ld_area.prev = NULL;
	ld_area.prev_bytes = 0;
}

/** ld_area_show() - the debugfs "persist" text: placement, layout, state */
void ld_area_show(struct seq_file *m)
{
	const struct logdev_area_hdr *h = ld_area.hdr;

	if (!ld_area.va) {
		seq_puts(m, "area: none (persist=off)\n");
		return;
	}
	seq_printf(m, "area: 0x%llx %llu bytes, %s%s, mapped write-back\n",
		   ld_area.addr, ld_area.size,
		   ld_area.want.name[0] ? "reserve_mem " : "memmap",
		   ld_area.want.name);
	seq_printf(m, "cpus: %u\nsubbuf_size: %u\nnr_subbufs: %u\n", h->nr_cpus,
		   h->subbuf_size, h->nr_subbufs);
	seq_printf(m, "cpu_off: %llu\ncpu_stride: %llu\ntext_bytes: %u\n",
		   h->cpu_off, h->cpu_stride, h->text_bytes);
	if (h->text_cur == LOGDEV_AREA_NO_TEXT)
		seq_puts(m, "formats: not stored yet\n");
	else
		seq_printf(m, "formats: slot %u, %u bytes (with the module map)\n", h->text_cur,
			   h->text_len[h->text_cur]);
	seq_printf(m, "build_id: %s\nlast_boot: %s\n", h->build_id,
		   ld_area.prev ? "kept (last_boot/area)" :
		   ld_area.released ? "released" : "none");
}

/**
 * ld_area_exit() - unmap the area and free the copy
 *
 * Module exit (after ld_area_end(LOGDEV_END_UNLOAD) and once the rings are
 * freed), or a failed init.  The area keeps this load's records for the
 * next load, unless a previous boot's copy was never released: that one
 * goes back into the area (a reload must not lose a crash's records).
 */
void ld_area_exit(void)
{
	if (!ld_area.va)
		return;
	if (ld_area.prev) {
		/* never released: a reload must find it, not this load's */
		memcpy(ld_area.va, ld_area.prev, ld_area.prev_bytes);
		pr_info("persist: the previous buffer was not released: put back into the area for the next load (this load's records are not kept there)\n");
	}
	ld_area_prev_release();
	memunmap(ld_area.va);
	ld_area.va = NULL;
	kfree(ld_area.cbs);
	ld_area.cbs = NULL;
}
