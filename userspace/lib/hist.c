// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c: log2-bucket labels and the SVG histogram chart of logdev hist and
 * logdev diff --svg (our own code; the bucket rule is bpftrace's hist():
 * [0], [1], [2, 4), [4, 8), ... with binary suffixes).
 *
 * The chart (lgd_svg_hist()) is one self-contained SVG 1.1 file, no script,
 * no external reference, no font file: a title, the y axis (count of
 * records, ticks at 1, 2 or 5 times a power of ten), one slot per log2
 * bucket from the lowest to the highest non-empty one of all series
 * (negative durations left of [0]), in each slot one bar per series (two
 * colours), the count above each bar, bucket labels
 * under the slots, the x axis title (ns, log2 buckets, suffixes), and a
 * legend line per series (count, min, median, max in us).  Text from a
 * capture goes through lgd_escape() (no control byte) and then XML's five
 * entities; U+FFFE and U+FFFF, which XML 1.0 does not allow, become \xHH
 * text: the file is well-formed XML (xmllint and python's ElementTree read
 * it; tests/decode/cli/test_export.sh checks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

/* @v (a power of two, or 0) with a binary suffix where one divides it */
static int pow2_text(char *b, size_t n, unsigned int e)
{
	static const char sfx[] = "KMGTPE";

	if (e >= 10)
		return snprintf(b, n, "%" PRIu64 "%c", (uint64_t)1 << (e % 10), sfx[e / 10 - 1]);
	return snprintf(b, n, "%" PRIu64, (uint64_t)1 << e);
}

int lgd_log2_label(char *b, size_t n, unsigned int k, int neg)
{
	char lo[16], hi[16];

	if (k == 0)
		return snprintf(b, n, "[0]");
	if (k == 1)
		return snprintf(b, n, neg ? "[-1]" : "[1]");
	pow2_text(lo, sizeof(lo), k - 1);
	if (k == 64)
		snprintf(hi, sizeof(hi), "16E");
	else
		pow2_text(hi, sizeof(hi), k);
	if (neg)
		return snprintf(b, n, "(-%s, -%s]", hi, lo);
	return snprintf(b, n, "[%s, %s)", lo, hi);
}

/* ---- SVG --------------------------------------------------------------- */

/* axis order: j 0..63 negative buckets 64..1, j 64..128 buckets 0..64 */
#define NSLOT	(64 + LGD_HIST_LOG2_N)

static uint64_t slot_count(const struct lgd_svg_series *s, int j)
{
	return j < 64 ? s->neg[64 - j] : s->pos[j - 64];
}

static void slot_label(char *b, size_t n, int j)
{
	if (j < 64)
		lgd_log2_label(b, n, (unsigned int)(64 - j), 1);
	else
		lgd_log2_label(b, n, (unsigned int)(j - 64), 0);
}

/* @s escaped for a terminal (lgd_escape()), then for XML text or attributes */
static void xml_text(FILE *f, const char *s)
{
	char *e = lgd_escape_alloc(s ? s : "");
	const unsigned char *p = (const unsigned char *)(e ? e : "?");

	while (*p) {
		uint32_t cp = 0;
		int l = lgd_utf8_len(p, 4, &cp);

		if (l <= 0) {	/* lgd_escape() leaves none; never loop */
			fprintf(f, "\\x%02x", *p++);
			continue;
		}
		if (cp == 0xfffe || cp == 0xffff) {	/* not XML 1.0 characters */
			for (int i = 0; i < l; i++)
				fprintf(f, "\\x%02x", p[i]);
		} else if (*p == '&') {
			fputs("&amp;", f);
		} else if (*p == '<') {
			fputs("&lt;", f);
		} else if (*p == '>') {
			fputs("&gt;", f);
		} else if (*p == '"') {
			fputs("&quot;", f);
		} else if (*p == '\'') {
			fputs("&apos;", f);
		} else {
			fwrite(p, 1, (size_t)l, f);
		}
		p += l;
	}
	free(e);
}

/* the smallest 1, 2 or 5 times a power of ten >= @x (x >= 1) */
static uint64_t nice_step(double x)
{
	uint64_t p = 1;

	for (;;) {
		if ((double)p >= x)
			return p;
		if ((double)(2 * p) >= x)
			return 2 * p;
		if ((double)(5 * p) >= x)
			return 5 * p;
		if (p > UINT64_MAX / 100)
			return p * 10;
		p *= 10;
	}
}

static void us_text(char *b, size_t n, int64_t ns)
{
	uint64_t m = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(b, n, "%s%" PRIu64 ".%03" PRIu64 " us", ns < 0 ? "-" : "", m / 1000, m % 1000);
}

/* the series' colours */
static const char *const colour[2] = { "#3b75af", "#ef8636" };

/* colours of a stacked bar's parts (the breakdown: own, hardirq, ...) */
static const char *const stack_colour[] = { "#3b75af", "#d62728", "#ff7f0e", "#9467bd",
					    "#2ca02c", "#7f7f7f", "#8c564b", "#e377c2" };
#define NSTACK_MAX	(sizeof(stack_colour) / sizeof(stack_colour[0]))

/*
 * the bar of bucket @k of @s (at @bx, @by, @bw wide, @h high) in parts by
 * @s->stack: drawn and 1, or 0 (no stack, or nothing in it: a plain bar)
 */
static int stacked(FILE *f, const struct lgd_svg_series *s, int k, double bx, double by,
		   double bw, double h)
{
	const int64_t *v = s->stack ? s->stack + (size_t)k * s->nstack : NULL;
	double sum = 0, y = by + h;

	for (unsigned int i = 0; v && i < s->nstack && i < NSTACK_MAX; i++)
		sum += v[i] > 0 ? (double)v[i] : 0;
	if (!v || sum <= 0)
		return 0;
	for (unsigned int i = 0; i < s->nstack && i < NSTACK_MAX; i++) {
		double part = v[i] > 0 ? h * (double)v[i] / sum : 0;

		if (part <= 0)
			continue;
		y -= part;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.2f\" "
			"fill=\"%s\"><title>", bx, y, bw, part, stack_colour[i]);
		xml_text(f, s->stack_names[i]);
		fprintf(f, ": %.1f %%</title></rect>\n", 100.0 * (double)v[i] / sum);
	}
	return 1;
}

/* the legend of a stacked chart's parts, one line at @y from @x */
static void stack_legend(FILE *f, const struct lgd_svg_series *s, double x, double y)
{
	for (unsigned int i = 0; i < s->nstack && i < NSTACK_MAX; i++) {
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
			"fill=\"%s\"/>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">", x, y - 10,
			stack_colour[i], x + 16, y);
		xml_text(f, s->stack_names[i]);
		fputs("</text>\n", f);
		x += 100;
	}
}

/* the chart's plot area: left x, top and bottom y, a slot's width, a bar's, the y scale */
struct frame {
	double x0, y0, y1, slot, bw;
	uint64_t ymax;
};

/* the bars of slots @lo..@hi of @n series, each with its count, and the slots' labels */
static void bars(FILE *f, const struct lgd_svg_series *s, int n, int lo, int hi,
		 struct frame fr)
{
	const double x0 = fr.x0, y0 = fr.y0, y1 = fr.y1, slot = fr.slot, bw = fr.bw;
	const uint64_t ymax = fr.ymax;
	char lab[48];

	for (int j = lo; j <= hi; j++) {
		double sx = x0 + slot * (j - lo);

		for (int k = 0; k < n; k++) {
			uint64_t c = slot_count(&s[k], j);
			double h = (y1 - y0) * (double)c / (double)ymax;

			double bx = sx + slot * 0.1 + bw * k;

			if (!c)
				continue;
			if (h < 2)	/* a count of 1 among thousands stays visible */
				h = 2;
			if (n == 1 && j >= 64 && stacked(f, &s[k], j - 64, bx, y1 - h, bw, h))
				goto count;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>", bx, y1 - h, bw, h, colour[k]);
			slot_label(lab, sizeof(lab), j);
			xml_text(f, s[k].name);
			fprintf(f, " %s ns: %" PRIu64 "</title></rect>\n", lab, c);
count:
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" "
					"text-anchor=\"middle\">%" PRIu64 "</text>\n",
				bx + bw / 2, y1 - h - 3, n == 1 ? 10 : 8, c);
		}
		slot_label(lab, sizeof(lab), j);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" "
			"transform=\"rotate(-40 %.1f %.1f)\">%s</text>\n", sx + slot / 2,
			y1 + 14, sx + slot / 2, y1 + 14, lab);
	}
}

int lgd_svg_hist(FILE *f, const char *title, const struct lgd_svg_series *s, int n)
{
	const double W = 860, x0 = 80, x1 = W - 30, y0 = 70, y1 = 330;
	int lo = NSLOT, hi = -1, nb;
	uint64_t maxc = 0, step, ymax;
	double slot, bw, H;

	if (n < 1 || n > 2)
		return -EINVAL;
	for (int k = 0; k < n; k++)
		for (int j = 0; j < NSLOT; j++) {
			uint64_t c = slot_count(&s[k], j);

			if (!c)
				continue;
			lo = j < lo ? j : lo;
			hi = j > hi ? j : hi;
			maxc = c > maxc ? c : maxc;
		}
	if (hi < 0)		/* no value: one empty [0] slot, axes still drawn */
		lo = hi = 64;
	nb = hi - lo + 1;
	step = nice_step(maxc ? (double)maxc / 5.0 : 1.0);
	ymax = maxc ? (maxc + step - 1) / step * step : step * 5;
	slot = (x1 - x0) / nb;
	bw = slot * 0.8 / n;
	H = y1 + 110 + 20.0 * n;
	for (int k = 0; k < n; k++)	/* marks: a line of their own under the legend */
		if (s[k].marks && *s[k].marks)
			H += 18;
	if (n == 1 && s[0].stack)	/* the parts' legend */
		H += 22;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
		W, H, W, H);
	fputs("<title>", f);
	xml_text(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", W, H);
	fprintf(f, "<text x=\"%.1f\" y=\"30\" font-size=\"15\" text-anchor=\"middle\">", W / 2);
	xml_text(f, title);
	fputs("</text>\n", f);

	/* y axis: grid lines and ticks */
	for (uint64_t v = 0; v <= ymax; v += step) {
		double y = y1 - (y1 - y0) * (double)v / (double)ymax;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%" PRIu64
			"</text>\n", x0, y, x1, y, x0 - 6, y + 4, v);
		if (ymax - v < step)
			break;
	}
	fprintf(f, "<text x=\"20\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 20 %.1f)\">count (pairs)</text>\n",
		(y0 + y1) / 2, (y0 + y1) / 2);

	bars(f, s, n, lo, hi, (struct frame){ x0, y0, y1, slot, bw, ymax });
	/* axes */
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n",
		x0, y1, x1, y1, x0, y0, x0, y1);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">"
		"time, ns (log2 buckets [low, high); K = 2^10, M = 2^20, G = 2^30)</text>\n",
		(x0 + x1) / 2, y1 + 75);
	/* legend */
	double y = y1 + 100 - 20;

	for (int k = 0; k < n; k++) {
		char a[32], b[32], c[32];

		y += 20;
		us_text(a, sizeof(a), s[k].min);
		us_text(b, sizeof(b), s[k].median);
		us_text(c, sizeof(c), s[k].max);
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">", x0, y - 10, colour[k],
			x0 + 18, y);
		xml_text(f, s[k].name);
		fprintf(f, ": count %" PRIu64 ", min %s, median %s, max %s", s[k].count, a, b, c);
		fputs("</text>\n", f);
		if (s[k].marks && *s[k].marks) {
			y += 18;
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">", x0 + 18, y);
			xml_text(f, s[k].marks);
			fputs("</text>\n", f);
		}
	}
	if (n == 1 && s[0].stack)
		stack_legend(f, &s[0], x0, y + 22);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
