/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_sitefind.h: a user's site argument (--inside, --pair, hist and diff's
 * FROM TO) found in a capture's sites, and the closest labels when it names
 * none (sitefind.c; layer: renderer, beside the site labels of render.c),
 * and which probe definitions the records use (siteuse.c).
 */
#ifndef LIBLOGDEV_SITEFIND_H
#define LIBLOGDEV_SITEFIND_H

#include <stdint.h>
#include "lgd_meta.h"

/**
 * lgd_site_find() - the site of @s that @arg names: the one labelled @arg
 * (lgd_site_label(): "func:line", "file:func:line", "...#N"), else the
 * probe named @arg (file "probe", func @arg: "vfs_read",
 * "vfs_read%return") if its sites have one label.
 * Return: the id (of a merged probe site, its lgd_site.canon), -1 if none,
 * -2 if @arg is a probe name with several labels (several definitions or
 * offsets: lgd_site_closest() names them).
 */
int64_t lgd_site_find(const struct lgd_sites *s, const char *arg);
/**
 * lgd_site_closest() - the labels of @s closest to @arg, best first, up to
 * @max of them, malloc'd into @out (the caller frees each): first the
 * labels whose probe name or function is @arg, then those that start with
 * @arg, then those that contain it, then the rest by edit distance
 * (Levenshtein) of @arg to the label or to its function; a merged site is
 * one label.  Return: how many (0 if @s has no site), or -ENOMEM.
 */
int lgd_site_closest(const struct lgd_sites *s, const char *arg, char **out, int max);

struct lgd_reader;

/**
 * lgd_sites_mark_used() - where a probe name of @r's capture stands for
 * several definitions, read the capture's records once (no filter, no
 * warnings) and set lgd_site.unused on each definition no record has
 * whose name has one that does; the labels are then numbered again
 * (lgd_sites_mark_labels()): one definition recorded is "NAME:0" with no
 * "#N", and NAME finds it.  Nothing is read when no name has several.
 * Call it before the filter is set.  Return: 0, -ENOMEM, or a read error.
 */
int lgd_sites_mark_used(struct lgd_reader *r);

#endif /* LIBLOGDEV_SITEFIND_H */
