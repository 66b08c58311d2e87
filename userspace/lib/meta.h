/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meta.h - internal to liblogdev's metadata layer (meta.c: header, formats,
 * probe lines; ksyms.c: symbol tables and lookups; modlog.c: the module
 * log): the line splitter they all use and the symbol table builders of
 * ksyms.c that modlog.c uses.  Not installed, not for other files.
 */
#ifndef LGD_META_H
#define LGD_META_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "liblogdev.h"

/*
 * lgd_next_line() - the next line of [*@p, @end): returns its start and
 * sets *@llen to its length without the '\n', advances *@p past it;
 * NULL at @end.  The last line need not end in '\n'.
 */
static inline const char *lgd_next_line(const char **p, const char *end, size_t *llen)
{
	const char *s = *p, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	*llen = nl ? (size_t)(nl - s) : (size_t)(end - s);
	*p = nl ? nl + 1 : end;
	return s;
}

/*
 * lgd_ksym_line() - one "ADDR TYPE NAME [MOD]" line (@ll bytes at @l, no
 * NUL needed) into *@addr, *@type, @name, @mod ("" without [MOD]).
 * Return: 1 parsed, 0 not a symbol line (also one longer than the kernel
 * writes: a name of LGD_KSYM_NAME_LEN or more bytes).
 */
int lgd_ksym_line(const char *l, size_t ll, uint64_t *addr, char *type,
		  char name[LGD_KSYM_NAME_LEN], char mod[LGD_KMOD_NAME_LEN]);
/*
 * lgd_ksym_add() - append a symbol (names copied) to *@syms, *@nr used,
 * *@cap allocated (grown by doubling from 64).  Return: 0 or -ENOMEM.
 */
int lgd_ksym_add(struct lgd_ksym **syms, size_t *nr, size_t *cap, uint64_t addr,
		 char type, const char *name, const char *mod);
/*
 * lgd_kmod_new() - a new module table at the end of @k->mods, named @name,
 * valid from 0 to LGD_TS_END, init never finished (live_ts LGD_TS_END),
 * no layout, no symbols.  Pointers into @k->mods are stale after it.
 * Return: the table, or NULL (out of memory).
 */
struct lgd_kmod *lgd_kmod_new(struct lgd_ksyms *k, const char *name);
/*
 * lgd_ksyms_sort() - sort @nr symbols by address, stable (the kernel names
 * the first of several symbols at one address).  Return: 0 or -ENOMEM.
 */
int lgd_ksyms_sort(struct lgd_ksym *syms, size_t nr);

#endif
