// SPDX-License-Identifier: GPL-2.0
/*
 * test_nap.c: cli_nap_ms(), how long `logdev record` waits after a drain
 * before it polls again (docs/log/PERFORMANCE-history.md, "4. Sustained
 * recording"): never more than CLI_NAP_MAX_MS; never longer than the
 * fastest CPU takes, at the rate just seen, to fill a quarter of its
 * buffer; no wait when nothing was read, the buffer size is unknown or no
 * time passed.
 * Usage: test_nap.  Output: PASS/FAIL lines; exit 1 if anything failed.
 */
#include <stdint.h>
#include <stdio.h>
#include "cli.h"
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-nap-XXXXXX";

int main(void)
{
	const uint64_t mib = 1024 * 1024;

	CHECK_EQ(cli_nap_ms(0, 0.5, mib), 0, "nothing read: poll at once");
	CHECK_EQ(cli_nap_ms(4096, 0.5, 0), 0, "buffer size unknown: poll at once");
	CHECK_EQ(cli_nap_ms(4096, 0, mib), 0, "no time since the last drain: poll at once");
	CHECK_EQ(cli_nap_ms(4096, -1, mib), 0, "time going backwards: poll at once");
	/* one sub-buffer in 50 ms into 1 MiB: a quarter lasts 3.2 s */
	CHECK_EQ(cli_nap_ms(4096, 0.05, mib), CLI_NAP_MAX_MS, "slow writer: the full wait");
	CHECK_EQ(CLI_NAP_MAX_MS, 10, "the wait is at most 10 ms");
	/* 8 KiB buffer, 4 KiB read in 10 ms: a quarter (2 KiB) lasts 5 ms */
	CHECK_EQ(cli_nap_ms(4096, 0.010, 8192), 5, "small buffer: a quarter's fill time");
	/* 256 KiB in 1 ms into 1 MiB: a quarter fills in 1 ms */
	CHECK_EQ(cli_nap_ms(256 * 1024, 0.001, mib), 1, "fast writer: 1 ms");
	/* faster still: under 1 ms, no wait */
	CHECK_EQ(cli_nap_ms(mib, 0.001, mib), 0, "a quarter fills in under 1 ms: no wait");
	/* 200,000 records/s of 32 bytes, drained after 5 ms: 10 ms (cap) */
	CHECK_EQ(cli_nap_ms(32000, 0.005, mib), CLI_NAP_MAX_MS, "200k records/s into 1 MiB: 10 ms");
	CHECK_LE(cli_nap_ms(UINT64_MAX, 1e9, UINT64_MAX), CLI_NAP_MAX_MS, "huge values stay bounded");
	printf("nap: %d passed, %d failed\n", passes, failures);
	return ldc_exit_status();
}
