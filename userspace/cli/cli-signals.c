// SPDX-License-Identifier: GPL-2.0
/*
 * cli-signals.c: how `logdev record` ends (layer: CLI): the signals that
 * stop a recording, caught into a flag and a self-pipe that wakes its
 * poll(), and COMMAND stopped when the recording ends before it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli-signals.h"

/*
 * Signals that end a recording.  The handler only notes the first one and
 * wakes the poll() through a self-pipe; the main loop stops, and the normal
 * path restores enable and finishes the capture.  SIGPIPE and SIGXFSZ are
 * caught too, so a write to a closed pipe or past the file size limit fails
 * with EPIPE/EFBIG (a write error) instead of killing us mid-write.
 * A signal ignored when we start (nohup, "cmd &" in a script) stays ignored.
 */
const int cli_stop_sigs[CLI_NR_STOP_SIGS] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM,
	SIGXFSZ, SIGXCPU,
};
volatile sig_atomic_t cli_stop_sig;
int cli_wake_fd[2] = { -1, -1 };

static void on_signal(int sig)
{
	int e = errno;

	if (!cli_stop_sig)
		cli_stop_sig = sig;
	/* pipe full: a wake-up is pending anyway */
	if (cli_wake_fd[1] >= 0 && write(cli_wake_fd[1], "", 1) < 0)
		errno = e;
	errno = e;
}

/* catch cli_stop_sigs (those not ignored on entry); *@caught: mask of them */
void cli_catch_signals(sigset_t *caught)
{
	struct sigaction sa, old;

	sigemptyset(caught);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* poll() still returns EINTR; a write to enable during the cleanup
	 * is not cut short by a second Ctrl-C */
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (int i = 0; i < CLI_NR_STOP_SIGS; i++) {
		if (sigaction(cli_stop_sigs[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		sigaction(cli_stop_sigs[i], &sa, NULL);
		sigaddset(caught, cli_stop_sigs[i]);
	}
}

/*
 * Stop @child (the COMMAND, still running when recording stops early):
 * SIGTERM, up to 5 s to exit, then SIGKILL.  *@status: its wait status.
 */
void cli_stop_child(pid_t child, int *status)
{
	kill(child, SIGTERM);
	for (int i = 0; i < 500; i++) {
		if (waitpid(child, status, WNOHANG) == child)
			return;
		usleep(10000);
	}
	fprintf(stderr, "logdev: the command did not exit 5 s after SIGTERM: SIGKILL\n");
	kill(child, SIGKILL);
	while (waitpid(child, status, 0) < 0 && errno == EINTR)
		;
}
