/*
 * The micro-benchmark kernels of 'tdperf calibrate': FP throughput (chains
 * of multiply-adds on independent accumulators), load and store bandwidth
 * (streaming over a buffer with the widest vectors the CPU has), latency
 * (a pointer chase) and the core clock (a chain of dependent integer adds).
 *
 * Each kernel is compiled for its instruction set with a target attribute,
 * so that one binary built for baseline x86-64 runs the AVX-512 kernels on
 * CPUs that have it and never executes them elsewhere (callers ask
 * td_cal_fp_supported() first).  The kernels are what is measured, so they
 * must not depend on how tdperf was built: they are always optimized and
 * never instrumented by the sanitizers (an instrumented load would halve the
 * bandwidth we report).
 */
#if defined(__GNUC__) && !defined(__clang__)
/* Accumulators must live in registers even in an -O0 build. */
#pragma GCC optimize("O2")
#endif

#include "config.h"
#include "collect/calibrate.h"
#include "metrics/roofline.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define TD_X86 1
#include <immintrin.h>
#endif

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define NO_SANITIZE __attribute__((no_sanitize("address", "undefined")))
#else
#define NO_SANITIZE
#endif
#define KERNEL __attribute__((noinline)) NO_SANITIZE

/*
 * Loop-invariant operands are read from volatile objects so that the
 * compiler cannot fold "x * 1.0 + 0" away.  With m = 1 and a tiny c the
 * accumulators grow slowly and never become denormal, which would slow
 * some CPUs down by orders of magnitude.
 */
static volatile double fp_mul_operand = 1.0;
static volatile double fp_add_operand = 1e-12;

/* Independent accumulators per FP kernel: enough to cover latency (4-5
 * cycles) times FMA ports (2) on current cores with margin, and still fit
 * in the 16 vector registers of SSE/AVX2 with the two operands. */
#define FP_ACCS 12

#define REP12(X, ...) X(0, __VA_ARGS__) X(1, __VA_ARGS__) X(2, __VA_ARGS__) X(3, __VA_ARGS__) \
	X(4, __VA_ARGS__) X(5, __VA_ARGS__) X(6, __VA_ARGS__) X(7, __VA_ARGS__)                \
	X(8, __VA_ARGS__) X(9, __VA_ARGS__) X(10, __VA_ARGS__) X(11, __VA_ARGS__)

/*
 * FP_KERNEL(name, attr, type, set1, fma, lanes, reduce) defines
 * "double name(uint64_t iters)" running iters * FP_ACCS multiply-adds of
 * 'lanes' lanes each and returning a value that depends on all of them.
 */
#define FP_DECL(i, type, set1) type a##i = set1(1.0 + i);
#define FP_STEP(i, fma) a##i = fma(a##i, m, c);
#define FP_SUM(i, reduce) s += reduce(a##i);
#define FP_KERNEL(name, attr, type, set1, fma, reduce)                       \
	attr KERNEL static double name(uint64_t iters)                       \
	{                                                                    \
		type m = set1(fp_mul_operand), c = set1(fp_add_operand);     \
		double s = 0;                                                \
		REP12(FP_DECL, type, set1)                                               \
		for (uint64_t n = 0; n < iters; n++) {                       \
			REP12(FP_STEP, fma)                                       \
		}                                                            \
		REP12(FP_SUM, reduce)                                                \
		return s;                                                    \
	}

/* Without FMA: half the accumulators multiply, half add (two ports). */
#define FP_STEP_NOFMA(i, mul, add) a##i = (i & 1) ? add(a##i, c) : mul(a##i, m);
#define FP_KERNEL_NOFMA(name, attr, type, set1, mul, add, reduce)            \
	attr KERNEL static double name(uint64_t iters)                       \
	{                                                                    \
		type m = set1(fp_mul_operand), c = set1(fp_add_operand);     \
		double s = 0;                                                \
		REP12(FP_DECL, type, set1)                                               \
		for (uint64_t n = 0; n < iters; n++) {                       \
			REP12(FP_STEP_NOFMA, mul, add)                                 \
		}                                                            \
		REP12(FP_SUM, reduce)                                                \
		return s;                                                    \
	}

#ifdef TD_X86
#define T_FMA __attribute__((target("fma")))
#define T_AVX __attribute__((target("avx")))
#define T_AVX_FMA __attribute__((target("avx,fma")))
#define T_AVX512 __attribute__((target("avx512f")))
#define T_NONE

/* reductions to one double (only to keep results alive) */
#define RED_SD(v) _mm_cvtsd_f64(v)
#define RED_SS(v) (double)_mm_cvtss_f32(v)
#define RED_PD(v) _mm_cvtsd_f64(v)
#define RED_PS(v) (double)_mm_cvtss_f32(v)
#define RED_PD256(v) _mm_cvtsd_f64(_mm256_castpd256_pd128(v))
#define RED_PS256(v) (double)_mm_cvtss_f32(_mm256_castps256_ps128(v))
#define RED_PD512(v) _mm_cvtsd_f64(_mm512_castpd512_pd128(v))
#define RED_PS512(v) (double)_mm_cvtss_f32(_mm512_castps512_ps128(v))
#define SET_PS(x) _mm_set1_ps((float)(x))
#define SET_PS256(x) _mm256_set1_ps((float)(x))
#define SET_PS512(x) _mm512_set1_ps((float)(x))

FP_KERNEL(fma_sd, T_FMA, __m128d, _mm_set1_pd, _mm_fmadd_sd, RED_SD)
FP_KERNEL(fma_ss, T_FMA, __m128, SET_PS, _mm_fmadd_ss, RED_SS)
FP_KERNEL(fma_pd128, T_FMA, __m128d, _mm_set1_pd, _mm_fmadd_pd, RED_PD)
FP_KERNEL(fma_ps128, T_FMA, __m128, SET_PS, _mm_fmadd_ps, RED_PS)
FP_KERNEL(fma_pd256, T_AVX_FMA, __m256d, _mm256_set1_pd, _mm256_fmadd_pd, RED_PD256)
FP_KERNEL(fma_ps256, T_AVX_FMA, __m256, SET_PS256, _mm256_fmadd_ps, RED_PS256)
FP_KERNEL(fma_pd512, T_AVX512, __m512d, _mm512_set1_pd, _mm512_fmadd_pd, RED_PD512)
FP_KERNEL(fma_ps512, T_AVX512, __m512, SET_PS512, _mm512_fmadd_ps, RED_PS512)

FP_KERNEL_NOFMA(ma_sd, T_NONE, __m128d, _mm_set1_pd, _mm_mul_sd, _mm_add_sd, RED_SD)
FP_KERNEL_NOFMA(ma_ss, T_NONE, __m128, SET_PS, _mm_mul_ss, _mm_add_ss, RED_SS)
FP_KERNEL_NOFMA(ma_pd128, T_NONE, __m128d, _mm_set1_pd, _mm_mul_pd, _mm_add_pd, RED_PD)
FP_KERNEL_NOFMA(ma_ps128, T_NONE, __m128, SET_PS, _mm_mul_ps, _mm_add_ps, RED_PS)
FP_KERNEL_NOFMA(ma_pd256, T_AVX, __m256d, _mm256_set1_pd, _mm256_mul_pd, _mm256_add_pd, RED_PD256)
FP_KERNEL_NOFMA(ma_ps256, T_AVX, __m256, SET_PS256, _mm256_mul_ps, _mm256_add_ps, RED_PS256)

typedef double (*fp_kernel_fn)(uint64_t);

static const struct {
	fp_kernel_fn fma, nofma;
} fp_kernels[TD_RL_NR_PREC][TD_RL_NR_WIDTH] = {
	[TD_RL_SP] = { { fma_ss, ma_ss }, { fma_ps128, ma_ps128 },
		       { fma_ps256, ma_ps256 }, { fma_ps512, NULL } },
	[TD_RL_DP] = { { fma_sd, ma_sd }, { fma_pd128, ma_pd128 },
		       { fma_pd256, ma_pd256 }, { fma_pd512, NULL } },
};

/* What the CPU supports; __builtin_cpu_supports needs its init once. */
static int cpu_has(const char *feature)
{
	static int inited;

	if (!inited) {
		__builtin_cpu_init();
		inited = 1;
	}
	if (!strcmp(feature, "fma"))
		return __builtin_cpu_supports("fma");
	if (!strcmp(feature, "avx"))
		return __builtin_cpu_supports("avx");
	if (!strcmp(feature, "avx512f"))
		return __builtin_cpu_supports("avx512f");
	return 0;
}

int td_cal_fp_supported(enum td_rl_width w, int *uses_fma)
{
	int fma = cpu_has("fma");

	*uses_fma = fma;
	switch (w) {
	case TD_RL_SCALAR:
	case TD_RL_V128:
		return 1;
	case TD_RL_V256:
		return cpu_has("avx");
	case TD_RL_V512:
		*uses_fma = 1;
		return cpu_has("avx512f");
	default:
		return 0;
	}
}

double td_cal_fp_run(enum td_rl_prec p, enum td_rl_width w, uint64_t iters, double *sink)
{
	int fma;
	static const int lanes[TD_RL_NR_PREC][TD_RL_NR_WIDTH] = {
		[TD_RL_SP] = { 1, 4, 8, 16 }, [TD_RL_DP] = { 1, 2, 4, 8 },
	};
	fp_kernel_fn fn;

	if (!td_cal_fp_supported(w, &fma))
		return 0;
	fn = fma ? fp_kernels[p][w].fma : fp_kernels[p][w].nofma;
	if (!fn)
		return 0;
	*sink += fn(iters);
	/* an FMA is two FLOPs; a lone add or multiply is one */
	return (double)iters * FP_ACCS * lanes[p][w] * (fma ? 2 : 1);
}

/* ---- memory ---- */

#define MEM_UNROLL 8

#define LOAD_KERNEL(name, attr, vec, zero, load, combine, tou64)               \
	attr KERNEL static uint64_t name(const void *buf, size_t bytes, uint64_t passes) \
	{                                                                    \
		vec x0 = zero(), x1 = zero(), x2 = zero(), x3 = zero();      \
		vec x4 = zero(), x5 = zero(), x6 = zero(), x7 = zero();      \
		const vec *end = (const vec *)((const char *)buf + bytes);   \
		for (uint64_t p = 0; p < passes; p++) {                      \
			for (const vec *q = buf; q < end; q += MEM_UNROLL) { \
				x0 = combine(x0, load(q + 0));               \
				x1 = combine(x1, load(q + 1));               \
				x2 = combine(x2, load(q + 2));               \
				x3 = combine(x3, load(q + 3));               \
				x4 = combine(x4, load(q + 4));               \
				x5 = combine(x5, load(q + 5));               \
				x6 = combine(x6, load(q + 6));               \
				x7 = combine(x7, load(q + 7));               \
			}                                                    \
		}                                                            \
		x0 = combine(combine(combine(x0, x1), combine(x2, x3)),      \
			     combine(combine(x4, x5), combine(x6, x7)));     \
		return tou64(x0);                                            \
	}

#define STORE_KERNEL(name, attr, vec, set1, store)                             \
	attr KERNEL static void name(void *buf, size_t bytes, uint64_t passes) \
	{                                                                    \
		vec *end = (vec *)((char *)buf + bytes);                     \
		for (uint64_t p = 0; p < passes; p++) {                      \
			vec v = set1((long long)p);                          \
			for (vec *q = buf; q < end; q += MEM_UNROLL) {       \
				store(q + 0, v); store(q + 1, v);            \
				store(q + 2, v); store(q + 3, v);            \
				store(q + 4, v); store(q + 5, v);            \
				store(q + 6, v); store(q + 7, v);            \
			}                                                    \
			/* every pass's stores must really happen */         \
			__asm__ __volatile__("" ::: "memory");               \
		}                                                            \
	}

/*
 * The "unaligned" load and store intrinsics, on buffers that are aligned
 * (page-aligned, stepped by the vector size): they run at the same speed,
 * and, being builtins rather than inline functions that dereference a
 * vector pointer, they carry no UndefinedBehaviorSanitizer alignment check
 * into the kernel (no_sanitize does not reach inlined header code: the
 * checks halved the L1 bandwidth of a sanitizer build).
 */
#define LD128(q) _mm_loadu_si128(q)
#define ST128(q, v) _mm_storeu_si128(q, v)
#define U64_128(x) (uint64_t)_mm_cvtsi128_si64(x)
#define LD256(q) _mm256_loadu_ps((const float *)(q))
#define U64_256(x) (uint64_t)_mm256_movemask_ps(x)
#define ST256(q, v) _mm256_storeu_ps((float *)(q), v)
#define SET256(x) _mm256_castsi256_ps(_mm256_set1_epi64x(x))
#define LD512(q) _mm512_loadu_si512(q)
#define U64_512(x) (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(x))
#define ST512(q, v) _mm512_storeu_si512(q, v)

LOAD_KERNEL(load128, T_NONE, __m128i, _mm_setzero_si128, LD128, _mm_xor_si128, U64_128)
LOAD_KERNEL(load256, T_AVX, __m256, _mm256_setzero_ps, LD256, _mm256_xor_ps, U64_256)
LOAD_KERNEL(load512, T_AVX512, __m512i, _mm512_setzero_si512, LD512, _mm512_xor_si512, U64_512)
STORE_KERNEL(store128, T_NONE, __m128i, _mm_set1_epi64x, ST128)
STORE_KERNEL(store256, T_AVX, __m256, SET256, ST256)
STORE_KERNEL(store512, T_AVX512, __m512i, _mm512_set1_epi64, ST512)

unsigned td_cal_mem_vector_bits(void)
{
	if (cpu_has("avx512f"))
		return 512;
	if (cpu_has("avx"))
		return 256;
	return 128;
}

uint64_t td_cal_load(const void *buf, size_t bytes, uint64_t passes)
{
	switch (td_cal_mem_vector_bits()) {
	case 512:
		return load512(buf, bytes, passes);
	case 256:
		return load256(buf, bytes, passes);
	default:
		return load128(buf, bytes, passes);
	}
}

void td_cal_store(void *buf, size_t bytes, uint64_t passes)
{
	switch (td_cal_mem_vector_bits()) {
	case 512:
		store512(buf, bytes, passes);
		break;
	case 256:
		store256(buf, bytes, passes);
		break;
	default:
		store128(buf, bytes, passes);
	}
}

/*
 * A chain of dependent one-cycle integer adds: 'iters' * 100 cycles on any
 * x86 core, whatever its frequency, so time / cycles gives the clock.
 * Register-register adds: recent Intel cores fold chains of adds of an
 * immediate at rename (zero latency), which would make the clock look
 * several times faster than it is.
 */
static volatile uint64_t clock_addend = 1;

KERNEL uint64_t td_cal_clock_chain(uint64_t iters)
{
	uint64_t x = 0, one = clock_addend;

	for (uint64_t n = 0; n < iters; n++)
		__asm__ __volatile__(".rept 100\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(one));
	return x;
}
int td_cal_clock_supported(void) { return 1; }

/* Write back and evict every line of buf (SSE2 clflush: all x86-64 CPUs). */
NO_SANITIZE int td_cal_flush(const void *buf, size_t bytes)
{
	for (size_t off = 0; off < bytes; off += 64)
		_mm_clflush((const char *)buf + off);
	_mm_mfence();
	return 0;
}

#else /* !TD_X86: portable scalar kernels, no clock measurement */

#define MUL_C(a, b) ((a) * (b))
#define ADD_C(a, b) ((a) + (b))
#define SET_D(x) ((double)(x))
#define SET_F(x) ((float)(x))
#define RED_C(x) ((double)(x))
FP_KERNEL_NOFMA(ma_d, , double, SET_D, MUL_C, ADD_C, RED_C)
FP_KERNEL_NOFMA(ma_f, , float, SET_F, MUL_C, ADD_C, RED_C)

int td_cal_fp_supported(enum td_rl_width w, int *uses_fma)
{
	*uses_fma = 0;
	return w == TD_RL_SCALAR;
}

double td_cal_fp_run(enum td_rl_prec p, enum td_rl_width w, uint64_t iters, double *sink)
{
	if (w != TD_RL_SCALAR)
		return 0;
	*sink += p == TD_RL_SP ? ma_f(iters) : ma_d(iters);
	return (double)iters * FP_ACCS;
}

unsigned td_cal_mem_vector_bits(void)
{
	return 64;
}

KERNEL uint64_t td_cal_load(const void *buf, size_t bytes, uint64_t passes)
{
	const uint64_t *end = (const uint64_t *)((const char *)buf + bytes);
	uint64_t x0 = 0, x1 = 0, x2 = 0, x3 = 0;

	for (uint64_t p = 0; p < passes; p++)
		for (const uint64_t *q = buf; q < end; q += 4) {
			x0 ^= q[0]; x1 ^= q[1]; x2 ^= q[2]; x3 ^= q[3];
		}
	return x0 ^ x1 ^ x2 ^ x3;
}

KERNEL void td_cal_store(void *buf, size_t bytes, uint64_t passes)
{
	uint64_t *end = (uint64_t *)((char *)buf + bytes);

	for (uint64_t p = 0; p < passes; p++) {
		for (uint64_t *q = buf; q < end; q += 4) {
			q[0] = p; q[1] = p; q[2] = p; q[3] = p;
		}
		__asm__ __volatile__("" ::: "memory");
	}
}

uint64_t td_cal_clock_chain(uint64_t iters)
{
	return 0;
}
int td_cal_clock_supported(void) { return 0; }

int td_cal_flush(const void *buf, size_t bytes)
{
	return -1;
}

#endif

/*
 * Follow 'hops' pointers from 'start'; each load depends on the previous
 * one, so the time per hop is the load-to-use latency of wherever the
 * chain lives.
 */
KERNEL void *td_cal_chase(void *start, uint64_t hops)
{
	void **p = start;

	for (uint64_t n = 0; n < hops; n += 8) {
		p = *p; p = *p; p = *p; p = *p;
		p = *p; p = *p; p = *p; p = *p;
	}
	return p;
}
