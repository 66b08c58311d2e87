// SPDX-License-Identifier: GPL-2.0
/*
 * test_callees_cli.c - `logdev callees` and record --callees' probe lines,
 * run on files of our own in place of the kernel's ($LOGDEV_KALLSYMS,
 * $LOGDEV_KCORE, $LOGDEV_KPROBES_BLACKLIST): an ELF core file like
 * /proc/kcore (one PT_LOAD segment of "kernel text" at a kernel address),
 * a kallsyms text and a blacklist (c is a compiler's clone, c.part.0:
 * its probe is named c_part_0).  Checks the listing, --probes, the
 * blacklist's skip, the warning (exit 3) when the blacklist is unreadable,
 * and the errors: no such function, bytes outside the core, not an ELF
 * core, no FUNC (exit 1, 1, 1, 2).
 * Usage: test_callees_cli PATH-TO-logdev
 */
#define _GNU_SOURCE
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-callees-cli-XXXXXX";

#define TEXT 0xffffffff81000000ull
#define SEG_OFF 0x1000

/* a: endbr64; call b; jmp c (tail call); b: ret; c: ret */
static void write_kcore(void)
{
	static uint8_t f[SEG_OFF + 0x100];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)f;
	Elf64_Phdr *ph = (Elf64_Phdr *)(f + sizeof(*eh));
	uint8_t *t = f + SEG_OFF;
	int32_t rel;

	memset(f, 0, sizeof(f));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	ph->p_type = PT_LOAD;
	ph->p_offset = SEG_OFF;
	ph->p_vaddr = TEXT;
	ph->p_filesz = ph->p_memsz = 0x100;
	memset(t, 0xcc, 0x100);
	memcpy(t, "\xf3\x0f\x1e\xfa", 4);
	t[4] = 0xe8;			/* call b (0x40) */
	rel = 0x40 - 9;
	memcpy(t + 5, &rel, 4);
	t[9] = 0xe9;			/* jmp c (0x50) */
	rel = 0x50 - 14;
	memcpy(t + 10, &rel, 4);
	t[0x40] = 0xc3;
	t[0x50] = 0xc3;
	write_tmp("kcore", f, sizeof(f));
	write_tmp("notcore", "hello", 5);
}

static const char ksyms[] =
	"ffffffff81000000 T a\n"
	"ffffffff81000040 T b\n"
	"ffffffff81000050 T c.part.0\n"
	"ffffffff81000060 T d\n"
	"ffffffff81000200 T far\n"
	"ffffffff81000300 T end\n";

static int run(const char *core, const char *bl, const char *args, char **out, char **err)
{
	char env[2000];

	snprintf(env, sizeof(env), "LOGDEV_KALLSYMS=%s LOGDEV_KCORE=%s LOGDEV_KPROBES_BLACKLIST=%s",
		 tmp_path("kallsyms"), tmp_path(core), tmp_path(bl));
	return run_cli_env(env, args, out, err);
}

int main(int argc, char **argv)
{
	char *out, *err;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: test_callees_cli PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	write_kcore();
	write_tmp("kallsyms", ksyms, strlen(ksyms));
	write_tmp("bl-none", "", 0);
	write_tmp("bl-b", "0xffffffff81000040-0xffffffff81000050\tb\n", 40);

	st = run("kcore", "bl-none", "callees a", &out, &err);
	CHECK_EQ(st, 0, "callees a: exit 0");
	CHECK_STR_CONTAINS(out, "a: 0xffffffff81000000, 64 bytes, ", "the function, its address and size");
	CHECK_STR_CONTAINS(out, "2 callees to probe, 0 skipped", "two callees");
	CHECK_STR_CONTAINS(out, "\n  probe b calls=1\n", "b: called once");
	CHECK_STR_CONTAINS(out, "\n  probe c.part.0 tail=1 (probe name c_part_0)\n",
			   "c.part.0: a tail call, and the probe's name, which deltas prints");
	free(out), free(err);

	st = run("kcore", "bl-none", "callees --probes a", &out, &err);
	CHECK_EQ(st, 0, "callees --probes a: exit 0");
	CHECK_STR_EQ(out, "r:a\nr:b\nr:c_part_0=0xffffffff81000050\n", "--probes: the probes-file lines");
	free(out), free(err);

	st = run("kcore", "bl-b", "callees a", &out, &err);
	CHECK_STR_CONTAINS(out, "\n  skip  b calls=1: in the kprobes blacklist\n", "b blacklisted: skipped, saying why");
	free(out), free(err);

	st = run("kcore", "bl-missing", "callees a", &out, &err);
	CHECK_EQ(st, 3, "blacklist unreadable: exit 3");
	CHECK_STR_CONTAINS(err, "warning: cannot read ", "blacklist unreadable: a warning");
	free(out), free(err);

	st = run("kcore", "bl-none", "callees nosuch", &out, &err);
	CHECK_EQ(st, 2, "no such function: exit 2, a bad argument (as record --callees)");
	CHECK_STR_CONTAINS(err, "nosuch: no such function", "no such function: said");
	free(out), free(err);

	st = run("kcore", "bl-none", "callees --probes nosuch", &out, &err);
	CHECK_EQ(st, 2, "--probes, no such function: exit 2");
	free(out), free(err);

	st = run("kcore", "bl-none", "callees far", &out, &err);
	CHECK_EQ(st, 1, "bytes not in the core: exit 1");
	CHECK_STR_CONTAINS(err, "far: its bytes are not in /proc/kcore", "bytes not in the core: said");
	free(out), free(err);

	st = run("notcore", "bl-none", "callees a", &out, &err);
	CHECK_EQ(st, 1, "not an ELF core: exit 1");
	CHECK_STR_CONTAINS(err, "not an ELF core file", "not an ELF core: said");
	free(out), free(err);

	st = run("kcore", "bl-none", "callees", &out, &err);
	CHECK_EQ(st, 2, "no FUNC: a usage error");
	free(out), free(err);

	tmpdir_remove();
	printf("callees_cli: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
