// SPDX-License-Identifier: GPL-2.0
/*
 * records.c: the records pipeline every verb reads a capture through
 * (layer: library, analysis): return probes paired in a pass of their own
 * (durations.c: a return can come before its entry in merge order), the
 * merge with the reader's filter (merge.c), each record's step to its
 * stream's previous one (streams.c), one close for all of it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

int lgd_records_open(struct lgd_records *rs, struct lgd_reader *r,
		     const struct lgd_records_opts *o)
{
	size_t i;
	int ret;

	memset(rs, 0, sizeof(*rs));
	rs->r = r;
	rs->o = *o;
	lgd_streams_init(&rs->st, o->by);
	if (lgd_bd_site_marks(&r->sites, &rs->bd_marks))
		return -ENOMEM;
	rs->st.skip = rs->bd_marks;
	rs->st.nr_skip = r->sites.nr;
	if (o->durations && lgd_dur_init(&rs->du, &r->sites))
		return -ENOMEM;
	for (i = 0; o->durations && i < o->nr_pairs; i++) {
		ret = lgd_dur_pair_sites(&rs->du, &r->sites, o->pairs[i][0], o->pairs[i][1]);
		if (ret) {
			rs->bad_pair = i;
			goto err;
		}
	}
	rs->has_dur = o->durations && lgd_dur_has_returns(&rs->du);
	ret = -ENOMEM;
	if (rs->has_dur && lgd_dur_collect(r, &rs->du, &rs->marks))
		goto err;
	if (lgd_merge_open_part(&rs->m, r, o->items, o->part, o->nparts ? o->nparts : 1))
		goto err;
	return 0;
err:
	i = rs->bad_pair;
	free(rs->bd_marks);
	lgd_dur_marks_free(&rs->marks);
	lgd_dur_free(&rs->du);
	memset(rs, 0, sizeof(*rs));	/* lgd_records_close() harmless */
	rs->bad_pair = i;
	return ret;
}

int lgd_records_next(struct lgd_records *rs, struct lgd_record *rec)
{
	int ret = lgd_merge_next(&rs->m, &rec->it);

	if (ret <= 0)
		return ret;
	if (!rs->o.steps)	/* else lgd_streams_add() fills it */
		memset(&rec->step, 0, sizeof(rec->step));
	else if (lgd_streams_add(&rs->st, &rec->it, &rec->step))
		return -ENOMEM;
	rec->dur = rs->has_dur && rec->it.kind == LGD_ITEM_REC ?
		   lgd_dur_mark_find(&rs->marks, rec->it.file_off) : NULL;
	return 1;
}

unsigned int lgd_records_mark(const struct lgd_records *rs, const struct lgd_item *it)
{
	return it->kind == LGD_ITEM_REC && rs->bd_marks && it->rec.site < rs->r->sites.nr ?
	       rs->bd_marks[it->rec.site] : 0;
}

void lgd_records_close(struct lgd_records *rs)
{
	lgd_merge_free(&rs->m);
	lgd_streams_free(&rs->st);
	lgd_dur_marks_free(&rs->marks);
	lgd_dur_free(&rs->du);
	free(rs->bd_marks);
	memset(rs, 0, sizeof(*rs));
}
