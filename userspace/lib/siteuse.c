// SPDX-License-Identifier: GPL-2.0
/*
 * siteuse.c: which probe definitions a capture's records use (layer:
 * library, read; lgd_sitefind.h).  A probe removed and added again with
 * other arguments leaves its old definition in the module's formats, and
 * every later capture carries both: without this pass the one recorded
 * would be labelled "NAME:0#2" and NAME alone refused as standing for two
 * definitions, though only one has records (a fresh user's finding).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

/* does a probe name of @s stand for several definitions (a "#N" label)? */
static int probe_numbered(const struct lgd_sites *s)
{
	for (uint32_t i = 0; i < s->nr; i++) {
		const struct lgd_site *st = s->by_id[i];

		if (st && st->label_seq && !st->canon && !strcmp(st->file, "probe"))
			return 1;
	}
	return 0;
}

/*
 * the definitions @used (by id) marks: a merged site and the site it is
 * (lgd_site.canon) stand together
 */
static void spread_used(const struct lgd_sites *s, uint8_t *used)
{
	for (uint32_t i = 0; i < s->nr; i++) {
		const struct lgd_site *st = s->by_id[i];

		if (st && st->canon && st->canon < s->nr)
			used[st->canon] |= used[i];
	}
	for (uint32_t i = 0; i < s->nr; i++) {
		const struct lgd_site *st = s->by_id[i];

		if (st && st->canon && st->canon < s->nr)
			used[i] |= used[st->canon];
	}
}

int lgd_sites_mark_used(struct lgd_reader *r)
{
	struct lgd_sites *s = &r->sites;
	lgd_warn_fn warn = r->warn;
	struct lgd_merge m;
	struct lgd_item it;
	uint8_t *used;
	int ret, any = 0;

	if (!probe_numbered(s))
		return 0;
	used = calloc(s->nr, 1);
	if (!used)
		return -ENOMEM;
	r->warn = NULL;	/* the verb's own pass says what is wrong */
	ret = lgd_merge_init(&m, r);
	if (!ret) {
		while ((ret = lgd_merge_next(&m, &it)) == 1)
			if (it.kind == LGD_ITEM_REC && it.rec.site < s->nr)
				used[it.rec.site] = 1;
		lgd_merge_free(&m);
	}
	r->warn = warn;
	if (ret < 0)
		goto out;
	spread_used(s, used);
	/* an unused definition is left out only where its name has a used one */
	for (uint32_t i = 0; i < s->nr; i++) {
		struct lgd_site *st = s->by_id[i];

		if (!st || used[i] || strcmp(st->file, "probe"))
			continue;
		for (uint32_t j = 0; j < s->nr && !st->unused; j++) {
			const struct lgd_site *o = s->by_id[j];

			if (o && used[j] && o->line == st->line && !strcmp(o->file, "probe") &&
			    !strcmp(o->func, st->func))
				st->unused = any = 1;
		}
	}
	ret = any ? lgd_sites_mark_labels(s) : 0;
out:
	free(used);
	return ret;
}
