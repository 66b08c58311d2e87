// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_parse.c - parsing and checking of control values, shared by the
 * debugfs control files (logdev_debugfs.c and logdev_dump.c: a write is
 * made a word by ld_parse_write(), then given to the file's parser) and the
 * module parameters (logdev_main.c): one parser, so "logdev.mode=discard" at
 * boot and "echo discard > mode" accept and refuse the same words.  Each
 * takes a NUL-terminated word and returns 0 or -EINVAL; none changes any
 * state.
 *
 * Layer: recording core (declared in logdev_parse.h, which logdev_core.h
 * includes); calls nothing of logdev.  Portable: built unchanged in
 * userspace by the fuzzer (tests/fuzz/fuzz_ctlparse.c), as the ring core
 * is by tests/ring, through logdev_shim.h and the few kernel helpers
 * tests/fuzz/kshim/ldk_parse.h supplies (kstrtou64, is_power_of_2).
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#endif
#include "logdev_parse.h"

/**
 * ld_parse_write() - the word of a control file's write
 * @buf:   the @count bytes written, followed by a NUL (@buf[@count] == '\0')
 * @count: bytes written
 *
 * Drops one trailing newline (as echo writes it), in place; what is left
 * is the word for the file's ld_parse_*().  Nothing else is taken away:
 * spaces, a second newline or junk stay in the word, for its parser to
 * refuse.
 *
 * Return: 0, or -EINVAL if the word is empty or holds a NUL.
 */
int ld_parse_write(char *buf, size_t count)
{
	if (count && buf[count - 1] == '\n')
		buf[--count] = '\0';
	if (!count || strlen(buf) != count)
		return -EINVAL;
	return 0;
}

#ifdef __KERNEL__
/**
 * ld_get_word() - the word of a control file's write, from userspace
 * @ubuf:  the bytes written
 * @count: how many
 * @buf:   where the word goes
 * @size:  its bytes
 *
 * The bytes, NUL-terminated, through ld_parse_write(): one trailing
 * newline dropped.  Empty, too long or embedded NUL: -EINVAL.  The word
 * then goes to the file's parser (ld_parse_*(), shared with the module
 * parameters).  Kernel only (the fuzzer calls ld_parse_write() itself).
 *
 * Return: 0, -EINVAL or -EFAULT.
 */
int ld_get_word(const char __user *ubuf, size_t count, char *buf, size_t size)
{
	if (!count || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return ld_parse_write(buf, count);
}
#endif

/**
 * ld_parse_u64() - a decimal number
 * @s:   the word: digits only (no sign, no spaces, no 0x, no newline)
 * @val: the number
 *
 * Return: 0, or -EINVAL if empty, not all digits, or above U64_MAX.
 */
int ld_parse_u64(const char *s, u64 *val)
{
	const char *p;

	if (!*s)
		return -EINVAL;
	for (p = s; *p; p++)
		if (!isdigit(*p))
			return -EINVAL;
	return kstrtou64(s, 10, val) ? -EINVAL : 0;
}

/**
 * ld_parse_name() - which of @nr names @s is (mode, clock)
 * @s:     the word, compared exactly (case matters, no abbreviation)
 * @names: the names
 * @nr:    how many
 *
 * Return: the index, or -EINVAL.
 */
int ld_parse_name(const char *s, const char * const *names, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -EINVAL;
}

/**
 * ld_parse_enable() - the value of a switch ("enable", "dump_on_oops"):
 * the one character 0 or 1
 * @s:  the word
 * @on: the value
 *
 * "01" or "00" are refused too, as the dump_on_oops file always did: a
 * switch has two words, not the numbers that equal them.
 *
 * Return: 0 or -EINVAL.
 */
int ld_parse_enable(const char *s, bool *on)
{
	if ((s[0] != '0' && s[0] != '1') || s[1])
		return -EINVAL;
	*on = s[0] == '1';
	return 0;
}

/**
 * ld_parse_subbuf_size() - the value of "subbuf_size"
 * @s:    the word
 * @size: bytes: a power of two from LD_SUBBUF_MIN to LD_SUBBUF_MAX
 *
 * Return: 0 or -EINVAL.
 */
int ld_parse_subbuf_size(const char *s, u32 *size)
{
	u64 v;

	if (ld_parse_u64(s, &v) || v < LD_SUBBUF_MIN || v > LD_SUBBUF_MAX ||
	    !is_power_of_2(v))
		return -EINVAL;
	*size = v;
	return 0;
}

/**
 * ld_parse_size_kb() - the value of "buffer_size_kb"
 * @s:  the word
 * @kb: KiB per CPU, 1 to LD_BUF_KB_MAX (whether it suits the sub-buffer
 *      size is ld_size_kb_subbufs()'s question)
 *
 * Return: 0 or -EINVAL.
 */
int ld_parse_size_kb(const char *s, u64 *kb)
{
	u64 v;

	if (ld_parse_u64(s, &v) || !v || v > LD_BUF_KB_MAX)
		return -EINVAL;
	*kb = v;
	return 0;
}

/**
 * ld_parse_clear() - the value of "clear": any word
 * @s: the word: one or more visible ASCII bytes, '!' to '~' ("1" as the
 *     docs write it, or "clear", "0"...)
 *
 * A space, a tab, a newline or any other control byte, or a byte above
 * 0x7e, is no word: " ", "\t", "1 x" and "1\n" (a second newline after
 * ld_parse_write() dropped the first) are refused, as the other files
 * refuse them around their words.
 *
 * Return: 0 or -EINVAL.
 */
int ld_parse_clear(const char *s)
{
	if (!*s)
		return -EINVAL;
	for (; *s; s++)
		if (*s < '!' || *s > '~')
			return -EINVAL;
	return 0;
}

/**
 * ld_parse_flush() - the value of "flush": the one character 1
 * @s: the word
 *
 * "01" or "001" are refused, as the switches refuse them
 * (ld_parse_enable()): a word, not the numbers that equal it.
 *
 * Return: 0 or -EINVAL.
 */
int ld_parse_flush(const char *s)
{
	return strcmp(s, "1") ? -EINVAL : 0;
}

/**
 * ld_size_kb_subbufs() - sub-buffers per CPU for @kb KiB of @subbuf_size
 * @kb:          KiB per CPU
 * @subbuf_size: bytes per sub-buffer (a valid subbuf_size)
 * @nr:          the number of sub-buffers, before ld_buf_size_ok()
 *               rounds it down to a power of two
 *
 * Return: 0, or -EINVAL if @kb is not a whole number of sub-buffers or
 * fewer than two.
 */
int ld_size_kb_subbufs(u64 kb, u32 subbuf_size, u32 *nr)
{
	u32 sb_kb = subbuf_size / 1024;

	if (!sb_kb || kb > LD_BUF_KB_MAX || kb % sb_kb || kb / sb_kb < 2)
		return -EINVAL;
	*nr = kb / sb_kb;
	return 0;
}


/* a number: decimal, or hex after 0x; *@end: first byte after it */
static int ld_parse_num(const char *s, u64 *val, const char **end)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	u64 v = 0, base = hex ? 16 : 10;
	const char *p = hex ? s + 2 : s;
	const char *start = p;

	for (;; p++) {
		u64 d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (hex && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (hex && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (v > (~0ULL - d) / base)
			return -EINVAL;
		v = v * base + d;
	}
	if (p == start)
		return -EINVAL;
	*val = v;
	*end = p;
	return 0;
}

/**
 * ld_parse_persist() - the value of parameter "persist"
 * @s:    "off"; "memmap:SIZE@ADDR": SIZE in bytes with an optional K, M or
 *        G (KiB, MiB, GiB; either case, as memmap= takes them), ADDR decimal or 0x hex, both multiples of 4096
 *        (the memmap=SIZE$ADDR of the kernel command line that reserved
 *        the range, written with '@' because '$' is awkward in shells and
 *        boot loaders); or "reserve_mem:NAME", the NAME of a
 *        reserve_mem=SIZE:ALIGN:NAME (1 to LD_PERSIST_NAME_MAX letters,
 *        digits, '_' or '-')
 * @p:    the placement (all zero for "off")
 *
 * Whether the range is really reserved is the caller's question.
 *
 * Return: 0 or -EINVAL (then @p is unchanged).
 */
int ld_parse_persist(const char *s, struct ld_persist_spec *p)
{
	static const char pre[] = "memmap:", rpre[] = "reserve_mem:";
	const char *q;
	u64 sz, a, mul = 1;
	size_t n;

	if (!strcmp(s, "off")) {
		memset(p, 0, sizeof(*p));
		return 0;
	}
	if (!strncmp(s, rpre, sizeof(rpre) - 1)) {
		q = s + sizeof(rpre) - 1;
		n = strlen(q);
		if (!n || n > LD_PERSIST_NAME_MAX)
			return -EINVAL;
		for (s = q; *s; s++)
			if (!isdigit(*s) && !(*s >= 'a' && *s <= 'z') &&
			    !(*s >= 'A' && *s <= 'Z') && *s != '_' && *s != '-')
				return -EINVAL;
		memset(p, 0, sizeof(*p));
		memcpy(p->name, q, n);
		return 0;
	}
	if (strncmp(s, pre, sizeof(pre) - 1) ||
	    ld_parse_num(s + sizeof(pre) - 1, &sz, &q))
		return -EINVAL;
	switch (*q) {	/* as the kernel's memparse(): either case */
	case 'G':
	case 'g':
		mul <<= 10;
		fallthrough;
	case 'M':
	case 'm':
		mul <<= 10;
		fallthrough;
	case 'K':
	case 'k':
		mul <<= 10;
		q++;
	}
	if (*q != '@' || sz > (~0ULL) / mul || ld_parse_num(q + 1, &a, &q) || *q)
		return -EINVAL;
	sz *= mul;
	if (!sz || (sz | a) & 4095 || a + sz < a)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->size = sz;
	p->addr = a;
	return 0;
}
