/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_callees.h: discovery (layer above the metadata): the functions a
 * kernel function calls, from its machine code (callees.c), the x86-64
 * branch walk by a real instruction decoder, Capstone (insn.c), and the
 * bytes of the running kernel's text from /proc/kcore (kcore.c).  The
 * library returns data; the CLI (logdev callees, record --callees) prints.
 */
#ifndef LIBLOGDEV_CALLEES_H
#define LIBLOGDEV_CALLEES_H

#include <stddef.h>
#include <stdint.h>

struct lgd_ksyms;

/* ---- insn.c: the branches of a piece of x86-64 code -------------------- */

/** enum lgd_branch_kind - a branch that may leave a function */
enum lgd_branch_kind {
	LGD_BR_CALL,		/* call rel32 */
	LGD_BR_JMP,		/* jmp rel8/rel32 */
	LGD_BR_JCC,		/* jcc rel8/rel32 (a conditional tail call) */
};

/** struct lgd_branch - a direct branch: where it is and where it goes */
struct lgd_branch {
	uint64_t at, target;
	enum lgd_branch_kind kind;
};

/**
 * struct lgd_branches - lgd_insn_branches()'s result
 * @v, @nr:          the direct calls and jumps, in code order
 * @indirect_calls:  call *reg / call *mem (no target to read)
 * @indirect_jmps:   jmp *reg / jmp *mem (switch tables or tail calls)
 * @bad_bytes:       bytes no instruction decoded from (each skipped alone:
 *                   the boundaries after them may be wrong)
 * @insns:           instructions decoded
 */
struct lgd_branches {
	struct lgd_branch *v;
	size_t nr, cap;
	unsigned int indirect_calls, indirect_jmps;
	size_t bad_bytes, insns;
};

/**
 * lgd_insn_branches() - decode @len bytes of x86-64 code at address @addr,
 * one instruction after the other from the first byte, and collect its
 * direct calls and jumps (targets absolute) and count the indirect ones.
 * Return: 0, -ENOMEM, or -ENOSYS (the decoder cannot be opened).
 */
int lgd_insn_branches(const uint8_t *code, size_t len, uint64_t addr,
		      struct lgd_branches *out);
void lgd_branches_free(struct lgd_branches *b);

/* ---- kcore.c: kernel memory through /proc/kcore ------------------------ */

struct lgd_kcore;
/**
 * lgd_kcore_open() - open @path (NULL: /proc/kcore), an ELF core file whose
 * PT_LOAD segments map kernel addresses.  Return: 0 or negative errno
 * (-ENOEXEC: not a 64-bit ELF core).
 */
int lgd_kcore_open(struct lgd_kcore **kc, const char *path);
/**
 * lgd_kcore_read() - @len bytes at kernel address @addr into @buf, from
 * one segment.  Return: 0, -EFAULT (no segment holds them) or -errno.
 */
int lgd_kcore_read(void *kc, uint64_t addr, void *buf, size_t len);
void lgd_kcore_close(struct lgd_kcore *kc);

/* ---- callees.c: the callees of a function ------------------------------ */

/**
 * typedef lgd_text_read_fn - read @len bytes of kernel text at @addr
 * (lgd_kcore_read(), or a test's byte blobs).  Return: 0 or -errno.
 */
typedef int (*lgd_text_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/** enum lgd_callee_skip - why a callee gets no probe (LGD_CALLEE_PROBE: it does) */
enum lgd_callee_skip {
	LGD_CALLEE_PROBE,
	LGD_SKIP_FENTRY,	/* __fentry__ or ftrace's trampolines: ftrace's hook */
	LGD_SKIP_KPROBE,	/* an optimised kprobe's jump to its slot */
	LGD_SKIP_RETURN,	/* __x86_return_thunk: a return */
	LGD_SKIP_NORETURN,	/* never returns (__stack_chk_fail, ...) */
	LGD_SKIP_INSTR,		/* compiler instrumentation (__sanitizer_cov_*, __asan_*, ...) */
	LGD_SKIP_BLACKLIST,	/* in the kprobes blacklist */
	LGD_SKIP_SELF,		/* the function itself (recursion) */
	LGD_SKIP_NOSYM,		/* the target is no symbol */
	LGD_SKIP_MIDDLE,	/* the target is inside a function, not its start */
	LGD_SKIP_STATIC_CALL,	/* a static call trampoline whose target is not read */
	LGD_SKIP_PRIMITIVE,	/* a lock or RCU primitive (_raw_spin_lock, ...) */
	LGD_SKIP_NR
};

/**
 * struct lgd_callee - one function the code branches to
 * @name, @mod:  its symbol (@mod NULL: vmlinux)
 * @addr:        its address (the branch's target, or the static call
 *               trampoline's target when @via is set)
 * @off:         the target's offset in @name (LGD_SKIP_MIDDLE)
 * @calls:       call sites;  @tails: jumps to it (tail calls)
 * @skip:        whether it gets a probe, and why not
 * @dup:         @name is defined more than once (probe it by address)
 * @via:         the static call trampoline (__SCT__*) it was reached through
 */
struct lgd_callee {
	char *name, *mod, *via;
	uint64_t addr, off;
	unsigned int calls, tails;
	enum lgd_callee_skip skip;
	int dup;
};

/**
 * struct lgd_callees - the callees of one function
 * @name, @mod, @addr, @size: the function (size: to the next symbol)
 * @cold:        bytes of its FUNC.cold* parts decoded with it
 * @dup:         its name is defined more than once (probed by address)
 * @v, @nr:      callees in order of their first branch
 * @br:          the function's branches, with its indirect counts
 */
struct lgd_callees {
	char *name, *mod;
	uint64_t addr, size, cold;
	int dup;
	struct lgd_callee *v;
	size_t nr;
	struct lgd_branches br;
};

/** LGD_CALLEES_MAX_BYTES: the longest function (with its cold parts) read */
#define LGD_CALLEES_MAX_BYTES (1u << 20)

/**
 * lgd_callees_find() - the functions @func calls or tail-calls: its bytes
 * (from its symbol to the next one in @k, read through @rd) decoded by
 * lgd_insn_branches(), every branch leaving it resolved to a symbol of @k,
 * each callee marked LGD_CALLEE_PROBE or with the reason it is skipped.
 * @func: NAME (defined once), MOD:NAME or 0xADDR (a symbol's start).
 * @blacklist: the text of debugfs kprobes/blacklist ("0xSTART-0xEND\tSYM"
 * lines), or NULL.
 * Return: 0; -ENOENT (no such function), -EADDRNOTAVAIL (defined more than
 * once), -ERANGE (its end unknown, or longer than LGD_CALLEES_MAX_BYTES),
 * -ENOMEM, or @rd's error.
 */
int lgd_callees_find(const struct lgd_ksyms *k, const char *func,
		     lgd_text_read_fn rd, void *ctx, const char *blacklist,
		     struct lgd_callees *out);
/** lgd_callee_skip_str() - why a callee is skipped, a few words */
const char *lgd_callee_skip_str(enum lgd_callee_skip s);
/**
 * lgd_callee_probe() - the probes-file line of a return probe on @c (or on
 * the function itself when @c is NULL) into @buf: "r:NAME" (MOD:NAME for a
 * module's function), "r:NAME=0xADDR" when the name is defined more than
 * once or is no probe name.  Return: the line's length, or -ENOSPC.
 */
int lgd_callee_probe(const struct lgd_callees *cs, const struct lgd_callee *c,
		     char *buf, size_t size);
void lgd_callees_free(struct lgd_callees *cs);

#endif /* LIBLOGDEV_CALLEES_H */
