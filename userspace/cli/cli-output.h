/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-output.h: output files and the csv/json string writers (cli-output.c;
 * layer: CLI).
 */
#ifndef LOGDEV_CLI_OUTPUT_H
#define LOGDEV_CLI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* ---- output files: cli-output.c ---------------------------------------- */

/**
 * struct cli_out - an output file being written (cli_out_open())
 * @f:    write here
 * @path: the name given ("stdout" for none or "-")
 * @tmp:  the temporary name renamed over @path at commit, or NULL (written
 *        directly: stdout, a device, a FIFO, a symlink)
 * @verb: for messages
 * @real: a symlink's regular target (realpath()), replaced through @tmp, or NULL
 */
struct cli_out {
	FILE *f;
	const char *path;
	char *tmp;
	const char *verb;
	char *real;
};

/**
 * cli_out_open() - open @path (NULL or "-": stdout) for writing: a regular
 * file or a new name through a temporary file in its directory, renamed at
 * cli_out_commit(); anything else directly.  Refuses a @path that is one of
 * @inputs[@ninputs] (exit 2).  Return: 0, or the exit status (said why).
 */
int cli_out_open(struct cli_out *o, const char *path, const char *verb,
		 const char *const *inputs, int ninputs);
/** cli_out_commit() - finish @o: flushed, synced, renamed.  Return: 0, or 1 (said why). */
int cli_out_commit(struct cli_out *o);
/** cli_out_abort() - give @o up: its temporary file removed, an older file kept. */
void cli_out_abort(struct cli_out *o);

/**
 * cli_json_str() - @s as a JSON string (quotes included) on @f: valid
 * UTF-8 kept as is; '"' and '\\' backslash-escaped; bytes below 0x20, DEL,
 * C1 controls (U+0080-U+009F) and bidi overrides (U+202A-U+202E,
 * U+2066-U+2069) as \uXXXX (valid JSON that is also terminal-safe); every byte that is not part of a valid UTF-8 sequence (stray
 * continuation, overlong, surrogate, above U+10FFFF, cut short) as \ufffd,
 * one per byte.  The one JSON string writer: every JSON output uses it.
 */
void cli_json_str(FILE *f, const char *s);
/**
 * cli_csv_field() - @s as one RFC 4180 field on @f: quoted ("" for a
 * quote) when it holds a comma, a quote, CR, LF or any other control byte;
 * bytes not part of valid UTF-8 written as U+FFFD (EF BF BD), one per byte,
 * so the file is UTF-8.  The one CSV field writer.
 */
void cli_csv_field(FILE *f, const char *s);
/** cli_json_strn() - cli_json_str() of @len bytes (a NUL byte as \u0000). */
void cli_json_strn(FILE *f, const char *s, size_t len);
/** cli_csv_fieldn() - cli_csv_field() of @len bytes (a NUL byte as U+FFFD). */
void cli_csv_fieldn(FILE *f, const char *s, size_t len);
/** cli_csv_needs_quote() - does cli_csv_fieldn() quote these @len bytes? */
int cli_csv_needs_quote(const char *s, size_t len);
/**
 * cli_csv_put() - cli_csv_fieldn() into @dst instead of a FILE, for rows
 * built in memory: @dst needs room for 3 * @len + 2 bytes (CLI_CSV_MAX()).
 * Return: the bytes written (no NUL).
 */
size_t cli_csv_put(char *dst, const char *s, size_t len);
#define CLI_CSV_MAX(len) (3 * (size_t)(len) + 2)
/**
 * cli_out_buffer() - make @f (a verb's output of up to millions of lines)
 * fully buffered in CLI_OUT_BUFFER bytes when it is not a terminal: one
 * write(2) per MiB instead of one per 4 KiB.  Call before anything is
 * written to @f; once per process (later calls do nothing).
 */
void cli_out_buffer(FILE *f);
/**
 * cli_out_batch() - write @n bytes at @b to @f: through @f's buffer when
 * short, else what @f holds first, then @b with write(2) directly (a batch
 * of lines made in memory is not copied into the buffer).  Return: 0, or -1
 * with errno set when the write failed (the caller says so and fails).
 */
int cli_out_batch(FILE *f, const char *b, size_t n);
/**
 * cli_stdout_done() - flush a verb's stdout; a failed write (a full disk, a
 * closed terminal) is named on stderr, "logdev: stdout: REASON".  Return: 0,
 * or 1 (the verb's exit status) when it failed.
 */
int cli_stdout_done(void);
#define CLI_OUT_BUFFER (1 << 20)

/* a capture made under sudo given to the sudo user (cli-output.c) */
void cli_give_to_sudo_user(int fd, const char *path);

#endif /* LOGDEV_CLI_OUTPUT_H */
