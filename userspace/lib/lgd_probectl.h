/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_probectl.h: probes attached for the length of a recording
 * (probectl.c; layer: library, beside the recorder).  Lines of the debugfs
 * "probes" grammar are written one per write (the kernel parses them); the
 * probes each line added are found by comparing the listing before and
 * after, so lgd_probes_detach() removes exactly those, by name ("-:NAME"),
 * and never a probe that was there before.  Never prints: errors are
 * negative errno values, with the kernel's error_log text in the set.
 */
#ifndef LIBLOGDEV_PROBECTL_H
#define LIBLOGDEV_PROBECTL_H

#include <stddef.h>

/**
 * struct lgd_probe_set - the probes one caller added
 * @names:   the names ("NAME", or "GRP/NAME" as listed) of the probes
 *           added, in the order attached; malloc'd
 * @nr:      how many
 * @failed:  after a failed lgd_probes_attach(): the index of the spec the
 *           kernel refused (its write failed) or the library refused (a
 *           removal, too long), else -1 (the probes file could not be
 *           opened or read: no logdev, not root; or out of memory)
 * @err:     after a failed lgd_probes_attach(): the kernel's error_log
 *           text of the refusal (its last entry), or a reason of the
 *           library's own; "" if none
 * @detach_failed: after lgd_probes_detach(): how many could not be removed
 * @pending: of the probes added, those the kernel lists as pending (on a
 *           module not loaded yet: they record once it loads)
 * @pending_name: the first of them
 * @pending_spec: the spec that added it (cut to fit)
 */
struct lgd_probe_set {
	char **names;
	size_t nr;
	long failed;
	char err[1024];
	size_t detach_failed;
	size_t pending;
	char pending_name[128];
	char pending_spec[256];
};

/**
 * lgd_probes_attach() - attach the probes of @specs[@n] in @dir/probes
 * @dir:   the logdev debugfs directory (its files "probes", "error_log")
 * @specs: lines of the probes file's grammar (p:, r:, t:, short forms,
 *         globs); blank lines and lines starting with '#' are skipped; a
 *         removal ("-NAME", "-:NAME") is refused with -EINVAL
 * @n:     how many
 * @set:   zeroed by the caller (or from lgd_probe_set_init()) before the
 *         first call; the names of the probes added are appended to it, so
 *         several calls may share it
 *
 * Writes each spec in order, one write each (with its newline, as echo
 * does); a spec the library refuses fails the call before anything is
 * written.  On the first refusal by the kernel, the probes this call added
 * are removed again (those of earlier calls stay in
 * @set), @set->failed and @set->err say which spec and why.
 * Return: 0, or negative errno (the kernel's, for a refused spec).
 */
int lgd_probes_attach(const char *dir, const char *const *specs, size_t n,
		      struct lgd_probe_set *set);
/**
 * lgd_probes_detach() - remove every probe of @set from @dir/probes, by
 * name, last added first, and empty @set (a probe already gone is not an
 * error).  Safe to call twice.  @set->detach_failed: how many could not be
 * removed.  Return: 0, or the first negative errno.
 */
int lgd_probes_detach(const char *dir, struct lgd_probe_set *set);
/** lgd_probe_set_init() - an empty set (no names, @failed -1). */
void lgd_probe_set_init(struct lgd_probe_set *set);
/** lgd_probe_set_free() - free @set's names (does not detach). */
void lgd_probe_set_free(struct lgd_probe_set *set);
/**
 * lgd_probes_read_file() - the lines of probe file @path (as in the probes
 * file; '#' comments and blank lines dropped, trailing blanks cut) as a
 * malloc'd array of malloc'd strings in *@lines, *@n of them, and (if
 * @linenos is not NULL) each one's line number in the file (from 1) in
 * the malloc'd array *@linenos.
 * Return: 0 or negative errno (unreadable, out of memory; -E2BIG for a
 * line over 1023 bytes, *@n then its 1-based line number).
 */
int lgd_probes_read_file(const char *path, char ***lines, size_t **linenos, size_t *n);

#endif /* LIBLOGDEV_PROBECTL_H */
