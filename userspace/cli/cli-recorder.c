// SPDX-License-Identifier: GPL-2.0
/*
 * cli-recorder.c: the CLI's side of the recorder (layer: CLI): the
 * library's recorder steps (lib/recorder.c) with their problems said on
 * stderr, and how long `logdev record` naps between drains.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* why a format that needs symbols will print them as hex */
static void ksyms_note(const struct lgd_rec_status *st)
{
	if (st->ksyms == LGD_REC_KSYMS_UNREADABLE)
		fprintf(stderr, "logdev: warning: cannot read /proc/kallsyms (%s): %%pS will print as hex\n",
			strerror(st->ksyms_errno));
	else if (st->ksyms == LGD_REC_KSYMS_HIDDEN)
		fprintf(stderr, "logdev: warning: /proc/kallsyms shows no addresses "
				"(not root, or kptr_restrict): %%pS will print as hex\n");
}

int cli_write_formats(struct lgd_cap_writer *w, const char *dir, const char *formats,
		      size_t len, int *ksyms_done)
{
	struct lgd_rec_status st = { 0 };
	int ret = lgd_rec_formats(w, dir, formats, len, ksyms_done, &st);

	ksyms_note(&st);
	return ret;
}

int cli_write_meta(struct lgd_cap_writer *w, const char *dir,
		   uint32_t *subbuf_size, int *ksyms_done)
{
	struct lgd_rec_status st;
	int ret = lgd_rec_meta(w, dir, subbuf_size, ksyms_done, &st);

	ksyms_note(&st);
	switch (ret ? st.stage : 0) {
	case 0:
		break;
	case LGD_REC_READ_HEADER:
		fprintf(stderr, "logdev: cannot read %s/header: %s\n", dir, strerror(-ret));
		break;
	case LGD_REC_PARSE_HEADER:
		fprintf(stderr, "logdev: %s/header: %s\n", dir, cli_diag_text(st.d.msg));
		break;
	case LGD_REC_READ_FORMATS:
		fprintf(stderr, "logdev: cannot read %s/formats: %s\n", dir, strerror(-ret));
		break;
	default:
		fprintf(stderr, "logdev: writing capture: %s\n", strerror(-ret));
		break;
	}
	return ret;
}

int cli_nap_ms(uint64_t most, double dt, uint64_t buf_bytes)
{
	double ms;

	if (!most || !buf_bytes || !(dt > 0))
		return 0;
	/* the time @most bytes took, scaled to a quarter of the buffer */
	ms = 1000.0 * dt * ((double)buf_bytes / 4) / (double)most;
	return ms >= CLI_NAP_MAX_MS ? CLI_NAP_MAX_MS : (int)ms;
}
