// SPDX-License-Identifier: GPL-2.0
/*
 * cli-lastboot.c: the flight recorder's area in the CLI (layer: CLI):
 * `logdev record --last-boot` (the module's copy, debugfs last_boot/area)
 * and `logdev record --area IMAGE` (a raw image: dd of /dev/mem, QEMU's
 * pmemsave) write a previous boot's buffer as a capture; a raw area given
 * to a verb as its FILE is converted into an unlinked temporary capture
 * (cli_open_input()); a capture converted from one says so (its LAST_BOOT
 * section: how the boot ended, what was lost) on stderr.  The validation
 * and conversion are the library's (lgd_area.h); here they are said.
 * vmlinux's symbols of that boot (for %pS) come from --kallsyms FILE, else
 * from this boot's /proc/kallsyms when its build-id (/sys/kernel/notes) is
 * the area's; $LOGDEV_KALLSYMS and $LOGDEV_NOTES name other files (tests).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "cli.h"

/* an image in memory: mapped (@map bytes) or read (@map 0) */
struct image {
	uint8_t *p;
	size_t len, map;
};

/* the whole of @path: mapped if it is a regular file, else read (debugfs); 0 or errno */
static int image_load(struct image *im, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(im, 0, sizeof(*im));
	if (fd < 0)
		return errno;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p != MAP_FAILED) {
			close(fd);
			im->p = p;
			im->len = im->map = (size_t)st.st_size;
			return 0;
		}
	}
	close(fd);
	im->p = (uint8_t *)lgd_rec_read_text(NULL, path, &im->len);
	return im->p ? 0 : errno ? errno : EIO;
}

static void image_free(struct image *im)
{
	if (im->map)
		munmap(im->p, im->map);
	else
		free(im->p);
	im->p = NULL;
}

/* @s with every byte a terminal could take as a control shown as '?' (in place) */
static char *printable(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			*p = '?';
	return s;
}

static const char *envor(const char *var, const char *def)
{
	const char *v = getenv(var);

	return v && *v ? v : def;
}

/*
 * This kernel's build-id (GNU note of /sys/kernel/notes) into @hex, or why
 * not into @hex as "(no /sys/kernel/notes: REASON)"; 1 if found
 */
static int running_build_id(char *hex, size_t n)
{
	const char *path = envor("LOGDEV_NOTES", "/sys/kernel/notes");
	size_t len;
	char *notes = lgd_rec_read_text(NULL, path, &len);
	int ret;

	if (!notes) {
		snprintf(hex, n, "unknown (%s: %s)", path, strerror(errno));
		return 0;
	}
	ret = lgd_build_id_note((const uint8_t *)notes, len, hex, n);
	free(notes);
	if (ret)
		snprintf(hex, n, "unknown (%s: no GNU build-id note)", path);
	return !ret;
}

/* @path's symbols through lgd_area_vmlinux_syms(); 0, or an errno-style failure said in @why */
static int syms_from(const struct lgd_area *a, const char *path, struct lgd_area_syms *sy,
		     char *why, size_t n)
{
	struct lgd_diag d = { 0 };
	size_t len;
	char *t = lgd_rec_read_text(NULL, path, &len);
	int ret;

	if (!t) {
		snprintf(why, n, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = lgd_area_vmlinux_syms(a, t, len, sy, &d);
	free(t);
	if (ret)
		snprintf(why, n, "%s: %s", path, d.msg);
	return ret;
}

/*
 * vmlinux's symbols of the boot that wrote @a into @sy: --kallsyms FILE;
 * else this boot's /proc/kallsyms if its build-id is the area's; else none
 * and one warning saying how to get them.  Only when a format prints a
 * symbol.  Return: 0, or 1 after saying why --kallsyms FILE is unusable.
 */
static int area_syms(const struct lgd_area *a, const char *path, struct lgd_area_syms *sy)
{
	const struct logdev_area_hdr *h = &a->hdr;
	char bid[200], why[sizeof(((struct lgd_diag *)0)->msg) + 600], os[80], abid[48];
	const char *proc = envor("LOGDEV_KALLSYMS", "/proc/kallsyms");

	memset(sy, 0, sizeof(*sy));
	if (cli_kallsyms) {
		if (syms_from(a, cli_kallsyms, sy, why, sizeof(why))) {
			fprintf(stderr, "logdev: --kallsyms %s\n", printable(why));
			return 1;
		}
		snprintf(sy->from, sizeof(sy->from), "%s (--kallsyms)", cli_kallsyms);
		if (sy->shift & 0xfff)
			fprintf(stderr, "logdev: warning: %s: --kallsyms %s: _stext is 0x%llx in the "
				"area, which is no page away from the file's: the file is not that "
				"kernel's, its names may be wrong\n", path, cli_kallsyms,
				(unsigned long long)h->text_addr);
		return 0;
	}
	if (!lgd_area_needs_syms(a))
		return 0;
	if (h->build_id[0] && running_build_id(bid, sizeof(bid)) && !strcasecmp(bid, h->build_id)) {
		if (!syms_from(a, proc, sy, why, sizeof(why))) {
			snprintf(sy->from, sizeof(sy->from), "%s (same build-id)", proc);
			return 0;
		}
		snprintf(sy->none_why, sizeof(sy->none_why), "%.500s", why);
		fprintf(stderr, "logdev: warning: %s: this kernel is the previous boot's (build-id "
			"%s), but %s: vmlinux addresses in %%pS print as hex\n", path, bid,
			printable(why));
		return 0;
	}
	if (h->build_id[0] && !strchr(bid, ' '))
		snprintf(sy->none_why, sizeof(sy->none_why), "the previous boot's build-id is not "
			 "this kernel's: give --kallsyms FILE");
	else
		snprintf(sy->none_why, sizeof(sy->none_why), "%s: give --kallsyms FILE",
			 h->build_id[0] ? "this kernel's build-id unknown" :
			 "the area does not name its kernel's build-id");
	snprintf(os, sizeof(os), "%s", h->osrelease[0] ? h->osrelease : "an unknown kernel");
	snprintf(abid, sizeof(abid), "%s", h->build_id[0] ? h->build_id : "unknown");
	fprintf(stderr, "logdev: warning: %s: the previous boot ran %s build-id %s, this kernel is "
		"%s: vmlinux addresses in %%pS print as hex; give --kallsyms FILE (that kernel's "
		"/proc/kallsyms saved while it ran, or the System.map of its linux-image-...-dbg "
		"package; Debian's /boot/System.map is a placeholder)\n", path, printable(os),
		printable(abid), h->build_id[0] ? printable(bid) : "not compared");
	return 0;
}

/* the value of line "KEY: VALUE" of @text into @v (@n bytes, cut); 1 if found */
static int text_value(const char *text, const char *key, char *v, size_t n)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t ll = strcspn(l, "\n");

		if (ll > kl + 1 && !strncmp(l, key, kl) && l[kl] == ':' && l[kl + 1] == ' ') {
			snprintf(v, n, "%.*s", (int)(ll - kl - 2), l + kl + 2);
			printable(v);
			return 1;
		}
	}
	return 0;
}

/* the banner of a LAST_BOOT @text (see cli_last_boot_banner()) */
static void banner_text(const char *text, const char *file)
{
	char os[128], src[600], ended[600], lost[600], name[600];

	snprintf(name, sizeof(name), "%s%s", file ? file : "", file ? ": " : "");
	printable(name);
	if (!text_value(text, "osrelease", os, sizeof(os)))
		snprintf(os, sizeof(os), "kernel unknown");
	if (!text_value(text, "source", src, sizeof(src)))
		snprintf(src, sizeof(src), "source unknown");
	fprintf(stderr, "logdev: %sa previous boot's buffer (%s, %s)\n", name, os, src);
	if (text_value(text, "ended", ended, sizeof(ended)))
		fprintf(stderr, "logdev: %sended: %s\n", name, ended);
	if (text_value(text, "lost", lost, sizeof(lost)) && strcmp(lost, "none")) {
		cli_nwarn++;	/* records are missing: exit 3 */
		fprintf(stderr, "logdev: warning: %slost: %s\n", name, lost);
	}
	/* said, not counted: the reader's lost events (overrun) count them */
	if (text_value(text, "overwritten", lost, sizeof(lost)))
		fprintf(stderr, "logdev: %soverwritten: %s\n", name, lost);
	if (text_value(text, "symbols", lost, sizeof(lost)) && strncmp(lost, "none needed", 11))
		fprintf(stderr, "logdev: %ssymbols: %s\n", name, lost);
}

void cli_last_boot_banner(const struct lgd_reader *r, const char *file)
{
	if (r->last_boot)
		banner_text(r->last_boot, file);
}

/* @a of @im (@path) validated; 0, or 1 after saying why it is unusable */
static int area_open(struct lgd_area *a, const struct image *im, const char *path)
{
	struct lgd_diag d = { 0 };

	if (!lgd_area_open(a, im->p, im->len, cli_warn, NULL, &d))
		return 0;
	fprintf(stderr, "logdev: %s: %s", path, cli_diag_text(d.msg));
	if (d.offset >= 0)
		fprintf(stderr, " (byte %" PRId64 ")", d.offset);
	fputc('\n', stderr);
	return 1;
}

int cli_area_input(const char *path)
{
	struct lgd_area_syms sy;
	struct lgd_cap_writer w;
	struct lgd_area a;
	struct image im;
	char *src = NULL;
	FILE *tf;
	int fd, ret = image_load(&im, path);

	if (ret) {
		fprintf(stderr, "logdev: %s: %s\n", path, strerror(ret));
		return -1;
	}
	if (area_open(&a, &im, path)) {
		image_free(&im);
		return -1;
	}
	if (area_syms(&a, path, &sy)) {
		lgd_area_close(&a);
		image_free(&im);
		return -1;
	}
	tf = tmpfile();
	fd = tf ? dup(fileno(tf)) : -1;
	if (tf)
		fclose(tf);
	ret = fd < 0 ? -errno : lgd_cap_writer_start(&w, fd);
	if (!ret)
		ret = asprintf(&src, "image %s", path) < 0 ? -ENOMEM :
		      lgd_area_capture(&a, &w, src, &sy, NULL);
	free(src);
	lgd_area_syms_free(&sy);
	lgd_area_close(&a);
	image_free(&im);
	if (ret) {
		fprintf(stderr, "logdev: %s: converting the area to a temporary capture: %s\n",
			path, strerror(-ret));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* why @path (the module's copy, @err an errno) cannot be read, and what to do */
static void no_last_boot(const char *path, int err)
{
	if (err == ENOENT || err == ENOTDIR)
		fprintf(stderr, "logdev: no previous boot's buffer at %s (%s): load logdev with "
			"persist=memmap:SIZE@ADDR, see docs/CRASHDUMP.md\n", path, strerror(err));
	else if (err == ENODATA)	/* last_boot/release freed the copy */
		fprintf(stderr, "logdev: %s: the previous boot's buffer was released "
			"(last_boot/release): it is gone\n", path);
	else if (err == EACCES || err == EPERM)
		fprintf(stderr, "logdev: %s: %s: debugfs is for root only, run logdev with sudo\n",
			path, strerror(err));
	else
		fprintf(stderr, "logdev: %s: %s\n", path, strerror(err));
}

/* @a written to @out as a capture (source @src); 0 or 1 (said why) */
static int write_capture(const struct lgd_area *a, const char *out, const char *image,
			 const char *src, const struct lgd_area_syms *sy, struct lgd_area_conv *st)
{
	const char *inputs[1] = { image };
	struct lgd_cap_writer w;
	struct cli_out o;
	int ret = cli_out_open(&o, out, "record", inputs, image ? 1 : 0);

	if (ret)
		return ret;
	if (o.tmp) {	/* a capture holds kernel addresses (docs/SECURITY.md) */
		if (fchmod(fileno(o.f), 0600)) {
			/* not fatal: mkstemp() made it 0600 */
		}
		cli_give_to_sudo_user(fileno(o.f), out);
	}
	ret = lgd_cap_writer_start(&w, fileno(o.f));
	if (!ret)
		ret = lgd_area_capture(a, &w, src, sy, st);
	if (ret) {
		fprintf(stderr, "logdev: %s: %s\n", o.path, strerror(-ret));
		cli_out_abort(&o);
		return 1;
	}
	return cli_out_commit(&o);
}

int cli_record_area(const char *out, const char *image, const char *dir)
{
	struct lgd_area_conv st = { 0 };
	struct lgd_area_syms sy = { 0 };
	struct lgd_area a;
	struct image im;
	char *path = NULL, *src = NULL, *text;
	size_t tl;
	int ret;

	if (image ? !(path = strdup(image)) :
	    asprintf(&path, "%s/%s", dir, CLI_LAST_BOOT_FILE) < 0) {
		fprintf(stderr, "logdev: out of memory\n");
		return 1;
	}
	ret = image_load(&im, path);
	if (ret) {
		if (image)
			fprintf(stderr, "logdev: %s: %s\n", path, strerror(ret));
		else
			no_last_boot(path, ret);
		free(path);
		return 1;
	}
	ret = area_open(&a, &im, path);
	if (!ret && asprintf(&src, "%s %s", image ? "image" : "debugfs", path) < 0) {
		fprintf(stderr, "logdev: out of memory\n");
		src = NULL;
		ret = 1;
	}
	if (!ret)
		ret = area_syms(&a, path, &sy);
	if (!ret)
		ret = write_capture(&a, out, image, src, &sy, &st);
	if (!ret) {
		fprintf(stderr, "logdev: %s: %" PRIu64 " records in %" PRIu64 " sub-buffers -> %s\n",
			path, st.records, st.subbufs, strcmp(out, "-") ? out : "stdout");
		text = lgd_area_last_boot_text(&a, src, &sy, &tl);
		if (text)
			banner_text(text, NULL);
		free(text);
	}
	lgd_area_close(&a);	/* nothing to close after a failed open: a no-op */
	lgd_area_syms_free(&sy);
	image_free(&im);
	free(src);
	free(path);
	return ret ? ret : cli_exit_status(0);
}
