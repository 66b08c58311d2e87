/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-signals.h: the signals that end `logdev record` and COMMAND's stop
 * (cli-signals.c; layer: CLI).
 */
#ifndef LOGDEV_CLI_SIGNALS_H
#define LOGDEV_CLI_SIGNALS_H

#include <signal.h>
#include <sys/types.h>

#define CLI_NR_STOP_SIGS	10
/* INT TERM HUP QUIT PIPE USR1 USR2 ALRM XFSZ XCPU: each ends a recording */
extern const int cli_stop_sigs[CLI_NR_STOP_SIGS];
/* the first stop signal caught, 0 before */
extern volatile sig_atomic_t cli_stop_sig;
/* the self-pipe the handler writes a byte to: [0] for poll(), made by the caller */
extern int cli_wake_fd[2];
/** cli_catch_signals() - catch cli_stop_sigs (not those ignored on entry); *@caught their mask. */
void cli_catch_signals(sigset_t *caught);
/**
 * cli_stop_child() - stop @child (COMMAND, still running when recording
 * stops early): SIGTERM, up to 5 s to exit, then SIGKILL (said on stderr).
 * *@status: its wait status.
 */
void cli_stop_child(pid_t child, int *status);

#endif /* LOGDEV_CLI_SIGNALS_H */
