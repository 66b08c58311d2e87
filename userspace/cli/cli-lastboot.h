/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-lastboot.h: CLI: the flight recorder's area (cli-lastboot.c): a
 * previous boot's buffer written as a capture (record --last-boot, --area),
 * a raw area image read by any verb, the banner of a converted capture.
 * (cli_is_area(), which tells an area file, is in cli-opts.c: cli.h.)
 */
#ifndef LOGDEV_CLI_LASTBOOT_H
#define LOGDEV_CLI_LASTBOOT_H

#include "liblogdev.h"

/* where the module keeps the previous boot's area, under its debugfs directory */
#define CLI_LAST_BOOT_FILE	"last_boot/area"

/**
 * cli_kallsyms - --kallsyms FILE (record, and the verbs reading a raw area):
 * vmlinux's symbols of the boot that wrote the area, as /proc/kallsyms or
 * System.map text; NULL: this boot's /proc/kallsyms if its build-id is the
 * area's, else none (one warning)
 */
extern const char *cli_kallsyms;

/**
 * cli_area_input() - convert the area image @path into an unlinked
 * temporary capture (lgd_area_capture(), source "image PATH"), its problems
 * said on stderr (warnings counted: exit 3), with vmlinux's symbols from
 * cli_kallsyms or this boot's /proc/kallsyms (a format prints a symbol).
 * Return: the capture's descriptor, or -1 (unusable, or a --kallsyms FILE
 * without symbols; said why).
 */
int cli_area_input(const char *path);

/**
 * cli_record_area() - `logdev record --last-boot` (@image NULL: @dir's
 * CLI_LAST_BOOT_FILE) or `--area IMAGE`: the area written as a capture to
 * @out ("-": stdout; else through a temporary file renamed at the end, mode
 * 0600), then on stderr what it holds and how the boot ended.  No such
 * file under @dir: says how to get one (persist=memmap:SIZE@ADDR).
 * vmlinux's symbols as cli_area_input() finds them.
 * Return: the exit status: 0, 3 written with warnings (lost sub-buffers, a
 * truncated image), 1 unusable, a --kallsyms FILE without symbols or an I/O
 * error, 2 @out is @image.
 */
int cli_record_area(const char *out, const char *image, const char *dir);

/**
 * cli_last_boot_banner() - if @r's capture came from a previous boot's
 * area (its LAST_BOOT section), on stderr: "logdev: [FILE: ]a previous
 * boot's buffer (OSRELEASE, SOURCE)", its "ended:" line, its "symbols:"
 * line (unless none were needed), and, when
 * sub-buffers were lost, "logdev: warning: [FILE: ]lost: ..." (counted in
 * cli_nwarn: exit 3).  @file: NULL or the capture's name.
 */
void cli_last_boot_banner(const struct lgd_reader *r, const char *file);

#endif /* LOGDEV_CLI_LASTBOOT_H */
