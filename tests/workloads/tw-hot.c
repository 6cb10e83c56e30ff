/*
 * tw-hot: a single-threaded program whose time is spread over functions
 * with known names in every kind of place a profiler must symbolize, for
 * the hotspot tests (tests/e2e/t0640-hotspots.sh):
 *
 *   tw_hot_a, tw_hot_b   in the executable, called from tw_hot_outer
 *                        (a: about twice b's work)
 *   tw_hot_inl           its loop body is tw_inl_step, always inlined
 *   tw_lib_spin          in a shared library, loaded with dlopen (LIB)
 *   the kernel           reads of /dev/zero (copying pages to user space)
 *   tw_jit_loop          machine code generated at run time into anonymous
 *                        executable memory, named in /tmp/perf-PID.map as
 *                        perf's JIT interface asks
 *
 * usage: tw-hot [SCALE [LIB]]   (SCALE 1: about 0.5 s of CPU time)
 * TW_JIT_NAME in the environment names the JIT code instead.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile uint64_t sink;

/* Integer work the compiler cannot fold away. */
static __attribute__((noinline)) uint64_t spin(uint64_t n, uint64_t x)
{
	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

__attribute__((noinline)) void tw_hot_a(uint64_t n)
{
	uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++)
		x = x * 2862933555777941757ull + 3037000493ull;
	sink += x;
}

__attribute__((noinline)) void tw_hot_b(uint64_t n)
{
	uint64_t x = 7;

	for (uint64_t i = 0; i < n; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b97f4a7c15ull;
	sink += x;
}

/* Always inlined, even with -fno-inline: its samples fall in tw_hot_inl. */
static inline __attribute__((always_inline)) uint64_t tw_inl_step(uint64_t x, uint64_t i)
{
	x ^= x << 13;
	x ^= x >> 7;
	return x + i;
}

__attribute__((noinline)) void tw_hot_inl(uint64_t n)
{
	uint64_t x = 11;

	for (uint64_t i = 0; i < n; i++)
		x = tw_inl_step(x, i);
	sink += x;
}

__attribute__((noinline)) void tw_hot_outer(uint64_t n)
{
	tw_hot_a(2 * n);
	tw_hot_b(n);
}

/* Kernel time: copying zero pages out of /dev/zero. */
static __attribute__((noinline)) void in_kernel(long rounds)
{
	static char buf[1 << 16];
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return;
	for (long i = 0; i < rounds; i++)
		if (read(fd, buf, sizeof(buf)) < 0)
			break;
	close(fd);
}

/*
 * A counted loop in this machine's code, copied into anonymous executable
 * memory: "decrement the argument until zero, return".
 */
static void in_jit(uint64_t n)
{
#if defined(__x86_64__)
	/* mov rax,rdi; L: dec rax; jnz L; ret */
	static const unsigned char code[] = { 0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8, 0x75, 0xfb, 0xc3 };
#elif defined(__aarch64__)
	/* L: subs x0,x0,#1; b.ne L; ret */
	static const unsigned char code[] = { 0x00, 0x04, 0x00, 0xf1, 0xe1, 0xff, 0xff, 0x54,
					      0xc0, 0x03, 0x5f, 0xd6 };
#else
	static const unsigned char code[] = { 0 };
	(void)n;
	return;
#endif
	char path[64];
	FILE *map;
	void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		return;
	memcpy(mem, code, sizeof(code));
	__builtin___clear_cache((char *)mem, (char *)mem + sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (map) {
		const char *name = getenv("TW_JIT_NAME"); /* tests give hostile names */

		fprintf(map, "%lx %zx %s\n", (unsigned long)(uintptr_t)mem, sizeof(code),
			name && *name ? name : "tw_jit_loop");
		fclose(map);
	}
	((void (*)(uint64_t))mem)(n);
}

int main(int argc, char **argv)
{
	double scale = argc > 1 ? strtod(argv[1], NULL) : 1.0;
	uint64_t unit = (uint64_t)(20e6 * (scale > 0 ? scale : 1.0));

	if (argc > 2) {
		void *lib = dlopen(argv[2], RTLD_NOW);
		void (*lib_spin)(uint64_t) = lib ? (void (*)(uint64_t))dlsym(lib, "tw_lib_spin") : NULL;

		if (!lib_spin) {
			fprintf(stderr, "tw-hot: %s: %s\n", argv[2], dlerror());
			return 2;
		}
		lib_spin(unit);
	}
	tw_hot_outer(2 * unit);
	sink += spin(unit / 4, 3);
	tw_hot_inl(unit / 2);
	in_kernel((long)(unit / 20000));
	in_jit(2 * unit);
	return 0;
}
