/*
 * Test generator: writes a small SYNTHETIC perf.data from the documented
 * layout (shared perf.data format notes), in either byte order, so that
 * tests can check that an other-endian file reads the same as a native
 * one (perf here only writes native files).  Content: two software events
 * in a group (sample_type IP|TID|TIME|ID|CPU|PERIOD|READ|CALLCHAIN,
 * read_format GROUP|ID|ENABLED|RUNNING|LOST, sample_id_all), COMM, FORK,
 * MMAP2, EXIT and SAMPLE records, FINISHED_ROUND, and HOSTNAME, NRCPUS,
 * TOTAL_MEM, CMDLINE and EVENT_DESC features.
 *
 * usage: perfdata-synth --big-endian|--little-endian [--pid N] [--mmap PATH]
 *                       [--build-id HEX] OUT
 *
 * --pid: the process's pid (100); --mmap: the file its MMAP2 record maps
 * at 0x400000 (0x2000 bytes from file offset 0x1000), where every sample
 * falls ("/usr/bin/synth"), "//anon" for JIT code; --build-id: the MMAP2
 * record carries this build-id instead of device and inode numbers;
 * --file-offsets A,B,C: the three samples' addresses as offsets into that
 * file (hex; default 0x1010,0x1020,0x1030), to name a chosen instruction;
 * the mapping then starts at the page of the first, and each sample's call
 * chain is its address alone.
 */
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int big;                 /* write big-endian */
static uint32_t the_pid = 100;
static const char *mmap_path = "/usr/bin/synth";
static unsigned char build_id[20];
static int build_id_size;
static struct strbuf out = STRBUF_INIT;
static uint64_t sample_offsets[3] = { 0x1010, 0x1020, 0x1030 };
static uint64_t map_pgoff = 0x1000;     /* the file offset mapped at 0x400000 */
static int chain_of_ip;                 /* each call chain is the sample's ip alone */

static uint64_t mapped(uint64_t off)
{
	return 0x400000 + off - map_pgoff;
}

static void parse_offsets(const char *list)
{
	int i;
	char *end;

	for (i = 0; i < 3; i++) {
		sample_offsets[i] = strtoull(list, &end, 16);
		if (end == list || *end != (i == 2 ? '\0' : ','))
			die("perfdata-synth: --file-offsets wants three hex offsets A,B,C");
		list = end + 1;
	}
	chain_of_ip = 1;
	/* the mapping is 0x2000 bytes long, from the page of the first offset */
	map_pgoff = sample_offsets[0] & ~(uint64_t)0xfff;
	for (i = 0; i < 3; i++)
		if (sample_offsets[i] < map_pgoff || sample_offsets[i] >= map_pgoff + 0x2000)
			die("perfdata-synth: --file-offsets must lie within 0x2000 bytes of the first's page");
}

static void put(uint64_t v, int bytes)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < bytes; i++)
		b[big ? bytes - 1 - i : i] = (unsigned char)(v >> (8 * i));
	strbuf_add(&out, b, (size_t)bytes);
}

static void put64(uint64_t v) { put(v, 8); }
static void put32(uint32_t v) { put(v, 4); }
static void put16(uint16_t v) { put(v, 2); }

static void put_bytes(const void *p, size_t n)
{
	strbuf_add(&out, p, n);
}

static void patch64(size_t at, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		out.buf[at + (size_t)(big ? 7 - i : i)] = (char)(v >> (8 * i));
}

static void patch16(size_t at, uint16_t v)
{
	unsigned char b[2];

	b[big ? 1 : 0] = (unsigned char)v;
	b[big ? 0 : 1] = (unsigned char)(v >> 8);
	memcpy(out.buf + at, b, 2);
}

/*
 * The attr flag word: on a big-endian writer the bitfields fill each byte
 * from its top bit, so bit n lands at bit 7 - n % 8 of byte n / 8.
 */
static void put_flags(uint64_t flags)
{
	unsigned char b[8] = { 0 };
	int n;

	for (n = 0; n < 64; n++)
		if (flags & (1ull << n))
			b[n / 8] |= (unsigned char)(1u << (big ? 7 - n % 8 : n % 8));
	put_bytes(b, 8);
}

#define SAMPLE_TYPE (1u | 2u | 4u | 16u | 32u | 64u | 128u | 256u) /* IP TID TIME READ CALLCHAIN ID CPU PERIOD */
#define READ_FORMAT (1u | 2u | 4u | 8u | 16u)

/* A perf_event_attr of 128 bytes (VER7). */
static void put_attr(uint32_t type, uint64_t config, uint64_t period, uint64_t flags)
{
	put32(type);
	put32(128);
	put64(config);
	put64(period);
	put64(SAMPLE_TYPE);
	put64(READ_FORMAT);
	put_flags(flags);
	put32(0);               /* wakeup_events */
	put32(0);               /* bp_type */
	put64(0);               /* config1 */
	put64(0);               /* config2 */
	put64(0);               /* branch_sample_type */
	put64(0);               /* sample_regs_user */
	put32(0);               /* sample_stack_user */
	put32(0);               /* clockid */
	put64(0);               /* sample_regs_intr */
	put32(0);               /* aux_watermark */
	put16(127);             /* sample_max_stack */
	put16(0);
	put32(0);               /* aux_sample_size */
	put32(0);
	put64(0);               /* sig_data */
}

static size_t rec_begin(uint32_t type, uint16_t misc)
{
	size_t at = out.len;

	put32(type);
	put16(misc);
	put16(0);
	return at;
}

static void rec_end(size_t at)
{
	while ((out.len - at) % 8)
		strbuf_addch(&out, '\0');
	patch16(at + 6, (uint16_t)(out.len - at));
}

/* The sample_id_all trailer for SAMPLE_TYPE: tid, time, id, cpu. */
static void trailer(uint32_t pid, uint32_t tid, uint64_t time, uint64_t id, uint32_t cpu)
{
	put32(pid);
	put32(tid);
	put64(time);
	put64(id);
	put32(cpu);
	put32(0);
}

static void put_string(const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 7) & ~(size_t)7;

	put32((uint32_t)padded);
	put_bytes(s, n);
	while (n++ < padded)
		strbuf_addch(&out, '\0');
}

static void sample(uint64_t ip, uint32_t pid, uint32_t tid, uint64_t time, uint64_t id,
		   uint32_t cpu, uint64_t period, uint64_t v1, uint64_t v2, int nr_chain)
{
	size_t at = rec_begin(9, 2);
	int i;

	put64(ip);
	put32(pid);
	put32(tid);
	put64(time);
	put64(id);
	put32(cpu);
	put32(0);
	put64(period);
	put64(2);               /* READ: nr */
	put64(5000 + time);     /* enabled */
	put64(4000 + time);     /* running */
	put64(v1); put64(11); put64(0);
	put64(v2); put64(21); put64(3);
	if (chain_of_ip) {
		put64(2);
		put64(0xfffffffffffffe00ull);   /* PERF_CONTEXT_USER */
		put64(ip);
		rec_end(at);
		return;
	}
	put64((uint64_t)nr_chain + 1);
	put64(0xfffffffffffffe00ull);   /* PERF_CONTEXT_USER */
	for (i = 0; i < nr_chain; i++)
		put64(0x400000 + 16 * (uint64_t)i);
	rec_end(at);
}

int main(int argc, char **argv)
{
	size_t attrs_at, ids_at, data_at, data_end, table_at, at;
	static const int feats[] = { 3, 7, 10, 11, 12 };
	size_t feat_off[5], feat_size[5];
	uint64_t flags_leader = (1ull << 0) | (1ull << 1) | (1ull << 8) | (1ull << 9) |
				(1ull << 10) | (1ull << 18) | (1ull << 23);
	uint64_t flags_member = (1ull << 1) | (1ull << 18);
	FILE *f;
	size_t i;
	int a;

	if (argc < 3 || (strcmp(argv[1], "--big-endian") && strcmp(argv[1], "--little-endian")))
		die("usage: perfdata-synth --big-endian|--little-endian [--pid N] [--mmap PATH] "
		    "[--build-id HEX] [--file-offsets A,B,C] OUT");
	big = !strcmp(argv[1], "--big-endian");
	for (a = 2; a + 2 < argc; a += 2) {
		if (!strcmp(argv[a], "--pid"))
			the_pid = (uint32_t)strtoul(argv[a + 1], NULL, 10);
		else if (!strcmp(argv[a], "--mmap"))
			mmap_path = argv[a + 1];
		else if (!strcmp(argv[a], "--file-offsets"))
			parse_offsets(argv[a + 1]);
		else if (!strcmp(argv[a], "--build-id"))
			while (build_id_size < 20 &&
			       sscanf(argv[a + 1] + 2 * build_id_size, "%2hhx", &build_id[build_id_size]) == 1)
				build_id_size++;
		else
			die("perfdata-synth: unknown option %s", argv[a]);
	}
	if (a != argc - 1)
		die("usage: perfdata-synth --big-endian|--little-endian [--pid N] [--mmap PATH] "
		    "[--build-id HEX] [--file-offsets A,B,C] OUT");

	/* header, patched at the end */
	put64(0x32454c4946524550ull);   /* "PERFILE2" as a u64 */
	put64(104);
	put64(128 + 16);
	for (i = 0; i < 6 + 4; i++)
		put64(0);

	/* ids, then attrs pointing at them */
	ids_at = out.len;
	put64(11);
	put64(21);
	attrs_at = out.len;
	put_attr(1, 0, 4000, flags_leader);     /* cpu-clock, freq */
	put64(ids_at);
	put64(8);
	put_attr(1, 1, 0, flags_member);        /* task-clock */
	put64(ids_at + 8);
	put64(8);

	data_at = out.len;
	at = rec_begin(3, 1 << 13);             /* COMM exec */
	put32(the_pid); put32(the_pid + 1);
	put_bytes("synth-comm\0\0\0\0\0", 16);
	trailer(the_pid, the_pid + 1, 1000, 11, 1);
	rec_end(at);
	at = rec_begin(7, 0);                   /* FORK */
	put32(the_pid); put32(1); put32(the_pid + 2); put32(the_pid + 1); put64(1100);
	trailer(the_pid, the_pid + 2, 1100, 11, 0);
	rec_end(at);
	at = rec_begin(10, build_id_size ? 2 | 1 << 14 : 2); /* MMAP2 (MISC_MMAP_BUILD_ID) */
	put32(the_pid); put32(the_pid + 1);
	put64(0x400000); put64(0x2000); put64(map_pgoff);
	if (build_id_size) {
		put_bytes((unsigned char[4]){ (unsigned char)build_id_size, 0, 0, 0 }, 4);
		put_bytes(build_id, 20);
	} else {
		put32(8); put32(1); put64(123456); put64(7);
	}
	put32(5); put32(2);
	put_bytes(mmap_path, strlen(mmap_path) + 1);
	while ((out.len - at) % 8)
		strbuf_addch(&out, '\0');
	trailer(the_pid, the_pid + 1, 1200, 11, 1);
	rec_end(at);
	sample(mapped(sample_offsets[0]), the_pid, the_pid + 1, 2000, 11, 1, 250000, 1000000, 999000, 3);
	sample(mapped(sample_offsets[1]), the_pid, the_pid + 2, 1500, 11, 0, 250000, 2000000, 1999000, 1);
	at = rec_begin(68, 0);                  /* FINISHED_ROUND */
	rec_end(at);
	sample(mapped(sample_offsets[2]), the_pid, the_pid + 1, 3000, 11, 1, 250000, 3000000, 2999000, 0);
	at = rec_begin(4, 0);                   /* EXIT */
	put32(the_pid); put32(1); put32(the_pid + 2); put32(the_pid + 1); put64(3100);
	trailer(the_pid, the_pid + 2, 3100, 11, 0);
	rec_end(at);
	at = rec_begin(68, 0);
	rec_end(at);
	data_end = out.len;

	/* feature table, then payloads */
	table_at = out.len;
	for (i = 0; i < TD_ARRAY_SIZE(feats); i++) {
		put64(0);
		put64(0);
	}
	for (i = 0; i < TD_ARRAY_SIZE(feats); i++) {
		feat_off[i] = out.len;
		switch (feats[i]) {
		case 3: put_string("synth-host"); break;
		case 7: put32(8); put32(4); break;
		case 10: put64(16384000); break;
		case 11: put32(3); put_string("/usr/bin/perf"); put_string("record");
			put_string("synth"); break;
		case 12:
			put32(2); put32(128);
			put_attr(1, 0, 4000, flags_leader);
			put32(1); put_string("cpu-clock:u"); put64(11);
			put_attr(1, 1, 0, flags_member);
			put32(1); put_string("task-clock:u"); put64(21);
			break;
		}
		feat_size[i] = out.len - feat_off[i];
	}
	for (i = 0; i < TD_ARRAY_SIZE(feats); i++) {
		patch64(table_at + 16 * i, feat_off[i]);
		patch64(table_at + 16 * i + 8, feat_size[i]);
	}
	patch64(24, attrs_at);
	patch64(32, 2 * (128 + 16));
	patch64(40, data_at);
	patch64(48, data_end - data_at);
	{
		uint64_t bits = 0;

		for (i = 0; i < TD_ARRAY_SIZE(feats); i++)
			bits |= 1ull << feats[i];
		patch64(72, bits);
	}
	f = fopen(argv[argc - 1], "wb");
	if (!f || fwrite(out.buf, 1, out.len, f) != out.len || fclose(f))
		die("cannot write %s", argv[argc - 1]);
	strbuf_release(&out);
	return 0;
}
