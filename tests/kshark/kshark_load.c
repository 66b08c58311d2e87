/*
 * kshark_load: load a trace.dat through libkshark (KernelShark's library),
 * as the GUI does, and print what it saw, for tests/kshark/run.sh to compare
 * with `logdev report --raw` of the capture the file was converted from.
 *
 *   kshark_load FILE.dat
 *
 * Output, one item a line:
 *   entries N                  entries kshark_load_entries() returned
 *   event NAME COUNT           entries per event name (sorted by the caller)
 *   missed CPU TS              each missed-events entry (KS_EVENT_OVERFLOW):
 *                              its CPU and time in ns
 *   order ok|bad               entries sorted by time (KernelShark's order)
 * Exit status: 0 loaded, 1 usage or load error (message on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "libkshark.h"

struct count {
	char *name;
	long n;
};

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	struct count *counts = NULL;
	size_t ncounts = 0, i, j;
	ssize_t n;
	int sd, order_ok = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: kshark_load FILE.dat\n");
		return 1;
	}
	if (!kshark_instance(&ctx)) {
		fprintf(stderr, "kshark_load: kshark_instance failed\n");
		return 1;
	}
	sd = kshark_open(ctx, argv[1]);
	if (sd < 0) {
		fprintf(stderr, "kshark_load: kshark_open %s: %d\n", argv[1], sd);
		kshark_free(ctx);
		return 1;
	}
	n = kshark_load_entries(ctx, sd, &rows);
	if (n < 0) {
		fprintf(stderr, "kshark_load: kshark_load_entries: %zd\n", n);
		kshark_free(ctx);
		return 1;
	}
	printf("entries %zd\n", n);
	for (i = 0; i < (size_t)n; i++) {
		struct kshark_entry *e = rows[i];
		char *name;

		if (i && e->ts < rows[i - 1]->ts)
			order_ok = 0;
		if (e->event_id == KS_EVENT_OVERFLOW) {
			printf("missed %d %lld\n", e->cpu, (long long)e->ts);
			continue;
		}
		name = kshark_get_event_name(e);
		if (!name)
			name = strdup("(null)");
		for (j = 0; j < ncounts; j++)
			if (!strcmp(counts[j].name, name))
				break;
		if (j == ncounts) {
			struct count *c = realloc(counts, (ncounts + 1) * sizeof(*c));

			if (!c) {
				fprintf(stderr, "kshark_load: out of memory\n");
				return 1;
			}
			counts = c;
			counts[ncounts].name = name;
			counts[ncounts].n = 0;
			ncounts++;
		} else {
			free(name);
		}
		counts[j].n++;
	}
	for (j = 0; j < ncounts; j++) {
		printf("event %s %ld\n", counts[j].name, counts[j].n);
		free(counts[j].name);
	}
	printf("order %s\n", order_ok ? "ok" : "bad");
	free(counts);
	for (i = 0; i < (size_t)n; i++)
		free(rows[i]);
	free(rows);
	kshark_close(ctx, sd);
	kshark_free(ctx);
	return 0;
}
