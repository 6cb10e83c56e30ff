/*
 * The roofline analysis (docs/roofline.md): one run, or one interval,
 * against the machine's calibrated roofs.
 *
 * Classic model (Williams et al. 2009): P <= min(pi, I_x * beta_x) for every
 * memory level x, with I_x = FLOPs / bytes moved at level x (the
 * hierarchical, cache-aware form: each level's traffic against that level's
 * bandwidth).  pi is the peak at the run's own mix of precisions and vector
 * widths: executing W_pw FLOPs of each kind at its peak pi_pw takes
 * sum(W_pw / pi_pw) seconds, so pi_mix = W / sum(W_pw / pi_pw).
 *
 * The extensions of Cabezas and Püschel 2014, as far as counters allow
 * (counters cannot give the per-node-type issue/latency schedule that the
 * paper derives from the computation's DAG):
 *  - utilization roofs U * roof, where U is the measured fraction of time
 *    the resource was busy (e.g. cycles with L1D misses outstanding): if
 *    traffic only flows while the resource is busy, Q_x <= U_x * beta_x * T
 *    and so P <= U_x * I_x * beta_x;
 *  - stall roofs (1 - T_b / T) * min-roof for each out-of-order buffer b
 *    (ROB, RS, SB, LB, fill buffers), assuming nothing useful is issued
 *    while b is full (the paper's eq. 14 without its issue/stall overlap
 *    term).
 * Both are approximations and say so.  The binding roof is the classic
 * roof giving the lowest bound at the run's point; the tightest roof is
 * the lowest bound of any kind that the point does not exceed.
 */
#include "config.h"
#include "metrics/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A measured point may exceed a roof by this much before we call it violated. */
#define VIOLATION_TOLERANCE 0.01

static const char *const kind_names[] = { "compute", "memory", "utilization", "stall" };

const char *td_rl_roof_kind_name(enum td_rl_roof_kind k)
{
	return k <= TD_RL_ROOF_STALL ? kind_names[k] : "?";
}

/* Names of the quantities, built once: "flops_dp_512", "bytes_l2", ... */
static char qty_names[TD_RL_NR_QTY][24];

static void init_qty_names(void)
{
	if (qty_names[0][0])
		return;
	snprintf(qty_names[TD_RL_Q_SECONDS], 24, "seconds");
	snprintf(qty_names[TD_RL_Q_CYCLES], 24, "cycles");
	snprintf(qty_names[TD_RL_Q_FLOPS], 24, "flops");
	for (int p = 0; p < TD_RL_NR_PREC; p++)
		for (int w = 0; w < TD_RL_NR_WIDTH; w++)
			snprintf(qty_names[TD_RL_Q_FLOPS_PW(p, w)], 24, "flops_%s_%s",
				 td_rl_prec_name(p), td_rl_width_name(w));
	for (int l = 0; l < TD_RL_NR_LEVEL; l++) {
		char *d = qty_names[TD_RL_Q_BYTES + l];
		snprintf(d, 24, "bytes_%s", td_rl_level_name(l));
		for (; *d; d++)
			if (*d >= 'A' && *d <= 'Z')
				*d += 'a' - 'A';
	}
	for (int b = 0; b < TD_RL_NR_BUFFER; b++)
		snprintf(qty_names[TD_RL_Q_STALL + b], 24, "stall_%s", td_rl_buffer_name(b));
	for (int r = 0; r < TD_RL_NR_RESOURCE; r++)
		snprintf(qty_names[TD_RL_Q_UTIL + r], 24, "util_%s", td_rl_resource_name(r));
}

const char *td_rl_qty_name(enum td_rl_qty q)
{
	init_qty_names();
	return q < TD_RL_NR_QTY ? qty_names[q] : "?";
}

int td_rl_qty_lookup(const char *name)
{
	init_qty_names();
	for (int q = 0; q < TD_RL_NR_QTY; q++)
		if (!strcmp(qty_names[q], name))
			return q;
	return -1;
}

void td_rl_input_init(struct td_rl_input *in)
{
	for (int q = 0; q < TD_RL_NR_QTY; q++) {
		in->v[q] = NAN;
		in->note[q] = NULL;
	}
}

static char *xfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

/* Add a note once (the same approximation is said once). */
static void add_note(struct td_rl_result *r, const char *note)
{
	if (!note || !*note)
		return;
	for (size_t i = 0; i < r->nr_notes; i++)
		if (!strcmp(r->notes[i], note))
			return;
	r->notes = xrealloc(r->notes, (r->nr_notes + 1) * sizeof(*r->notes));
	r->notes[r->nr_notes++] = xstrdup(note);
}

static struct td_rl_roof *add_roof(struct td_rl_result *r, enum td_rl_roof_kind kind,
				   char *id, char *label, double peak, double scale, double bound)
{
	struct td_rl_roof *roof;

	r->roofs = xrealloc(r->roofs, (r->nr_roofs + 1) * sizeof(*r->roofs));
	roof = &r->roofs[r->nr_roofs++];
	memset(roof, 0, sizeof(*roof));
	roof->id = id;
	roof->label = label;
	roof->kind = kind;
	roof->level = -1;
	roof->peak = peak;
	roof->scale = scale;
	roof->bound = bound;
	return roof;
}

/* Join an input note and our own into the roof's note (and the list). */
static void roof_note(struct td_rl_result *r, struct td_rl_roof *roof, const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;

	if (a && *a)
		strbuf_addstr(&sb, a);
	if (b && *b) {
		if (sb.len)
			strbuf_addstr(&sb, "; ");
		strbuf_addstr(&sb, b);
	}
	if (sb.len) {
		free(roof->note);
		roof->note = strbuf_detach(&sb, NULL);
		add_note(r, roof->note);
	}
	strbuf_release(&sb);
}

static const char *prec_upper(int p)
{
	return p == TD_RL_SP ? "SP" : "DP";
}

static const char *width_label(int w)
{
	static const char *const l[] = { "scalar", "128-bit", "256-bit", "512-bit" };

	return l[w];
}

/* The highest calibrated FP peak; its precision and width in *pp, *pw. */
static double max_peak(const struct td_peaks *pk, int *pp, int *pw)
{
	double best = NAN;

	for (int p = 0; p < TD_RL_NR_PREC; p++)
		for (int w = 0; w < TD_RL_NR_WIDTH; w++) {
			double v = pk->gflops[p][w].value;
			if (isfinite(v) && v > 0 && !(v <= best)) {
				best = v;
				*pp = p;
				*pw = w;
			}
		}
	return best;
}

/*
 * The classic compute roof at the run's mix; returns its index or -1.
 * W is the FLOP total, split says whether per-kind counts exist.
 */
static int compute_roof(const struct td_peaks *pk, const struct td_rl_input *in, int split,
			struct td_rl_result *r)
{
	double time_at_peak = 0, W = 0;
	int missing_p = -1, missing_w = -1, kinds = 0, lp = 0, lw = 0, mp = 0, mw = 0;
	double pi, top = max_peak(pk, &mp, &mw);
	struct td_rl_roof *roof;

	if (!isfinite(top))
		return -1;
	if (split) {
		for (int p = 0; p < TD_RL_NR_PREC; p++)
			for (int w = 0; w < TD_RL_NR_WIDTH; w++) {
				double n = in->v[TD_RL_Q_FLOPS_PW(p, w)], peak = pk->gflops[p][w].value;
				if (!(n > 0))
					continue;
				if (!(peak > 0)) {
					missing_p = p;
					missing_w = w;
					continue;
				}
				time_at_peak += n / (peak * 1e9);
				W += n;
				kinds++;
				lp = p;
				lw = w;
			}
	}
	if (split && kinds && missing_p < 0) {
		pi = W / time_at_peak / 1e9;
		if (kinds == 1)
			roof = add_roof(r, TD_RL_ROOF_COMPUTE, xstrdup("fp_mix"),
					xfmt("%s %s peak (all of this run's FP work)", prec_upper(lp), width_label(lw)),
					pi, 1, pi);
		else
			roof = add_roof(r, TD_RL_ROOF_COMPUTE, xstrdup("fp_mix"),
					xfmt("FP peak at this run's mix of %d precisions/widths", kinds), pi, 1, pi);
		roof->classic = 1;
		roof_note(r, roof, NULL, "compute roofs are FMA peaks: code without FMAs reaches at most half");
		return (int)(roof - r->roofs);
	}
	roof = add_roof(r, TD_RL_ROOF_COMPUTE, xstrdup("fp_mix"),
			xfmt("highest FP peak (%s %s)", prec_upper(mp), width_label(mw)), top, 1, top);
	roof->classic = 1;
	if (missing_p >= 0) {
		char *why = xfmt("the run did %s %s FP work but the calibration has no %s %s peak: "
				 "compute roof is the highest calibrated peak instead",
				 prec_upper(missing_p), width_label(missing_w), prec_upper(missing_p),
				 width_label(missing_w));
		roof_note(r, roof, NULL, why);
		free(why);
	} else {
		roof_note(r, roof, NULL, "FP work not split by precision and vector width: "
			  "compute roof is the highest calibrated peak");
	}
	return (int)(roof - r->roofs);
}

/*
 * The run's FP work W: the sum over precisions and widths when counted so
 * (*split set), else the total.  Notes what was not counted.
 */
static double count_work(const struct td_rl_input *in, struct td_rl_result *r, int *split)
{
	double W = NAN;
	const char *flops_note = NULL;

	*split = 0;
	for (int p = 0; p < TD_RL_NR_PREC; p++)
		for (int w = 0; w < TD_RL_NR_WIDTH; w++) {
			double n = in->v[TD_RL_Q_FLOPS_PW(p, w)];
			if (isfinite(n)) {
				W = *split ? W + n : n;
				*split = 1;
				if (in->note[TD_RL_Q_FLOPS_PW(p, w)])
					flops_note = in->note[TD_RL_Q_FLOPS_PW(p, w)];
			}
		}
	if (!*split) {
		W = in->v[TD_RL_Q_FLOPS];
		flops_note = in->note[TD_RL_Q_FLOPS];
	} else {
		struct strbuf missing = STRBUF_INIT;
		for (int q = TD_RL_Q_FLOPS_SPLIT; q < TD_RL_Q_BYTES; q++)
			if (isnan(in->v[q]))
				strbuf_addf(&missing, "%s%s", missing.len ? ", " : "", td_rl_qty_name(q));
		if (missing.len) {
			char *why = xfmt("FP operations not counted for %s: the point leaves them out", missing.buf);
			add_note(r, why);
			free(why);
		}
		strbuf_release(&missing);
	}
	add_note(r, flops_note);
	return W;
}

/* Roofs for reference: every calibrated peak, whatever the run's mix. */
static void reference_roofs(const struct td_peaks *pk, struct td_rl_result *r)
{
	for (int p = 0; p < TD_RL_NR_PREC; p++)
		for (int w = 0; w < TD_RL_NR_WIDTH; w++) {
			double peak = pk->gflops[p][w].value;
			struct td_rl_roof *roof;
			if (!(peak > 0))
				continue;
			roof = add_roof(r, TD_RL_ROOF_COMPUTE,
					xfmt("fp_%s_%s", td_rl_prec_name(p), td_rl_width_name(w)),
					xfmt("%s %s peak", prec_upper(p), width_label(w)), peak, 1, peak);
			roof->reference = 1;
		}
}

/*
 * Memory roofs I_x * beta_x, one per calibrated level; level_roof[x] gets
 * the index of level x's roof (-1 when the level has no bandwidth).
 */
static void memory_roofs(const struct td_peaks *pk, const struct td_rl_input *in, double W,
			 struct td_rl_result *r, int level_roof[TD_RL_NR_LEVEL])
{
	for (int l = 0; l < TD_RL_NR_LEVEL; l++) {
		double beta = pk->load_gbs[l].value, Q = in->v[TD_RL_Q_BYTES + l], bound = NAN;
		struct td_rl_roof *roof;
		const char *why = NULL;

		if (!(beta > 0))
			continue;
		if (isfinite(Q) && Q > 0 && isfinite(W)) {
			r->intensity[l] = W / Q;
			bound = r->intensity[l] * beta;
		} else if (Q == 0) {
			bound = INFINITY;
			why = "no traffic counted at this level: it does not constrain the run";
		} else if (!isfinite(Q)) {
			why = "traffic at this level not counted";
		}
		roof = add_roof(r, TD_RL_ROOF_MEMORY, xfmt("bw_%s", td_rl_level_name(l)),
				xfmt("%s bandwidth", td_rl_level_name(l)), beta, 1, bound);
		roof->level = l;
		roof->classic = 1;
		roof_note(r, roof, isfinite(Q) ? in->note[TD_RL_Q_BYTES + l] : NULL, why);
		level_roof[l] = (int)(roof - r->roofs);
	}
	if (pk->load_gbs[TD_RL_L1].reps && in->v[TD_RL_Q_BYTES + TD_RL_L1] > 0)
		add_note(r, "memory roofs use the calibrated load bandwidth; store-heavy traffic gets less");
}

/* The run's point, P = W / T, or the reason there is none. */
static void place_point(struct td_rl_result *r, double W, double T, int fp)
{
	if (!isfinite(W))
		r->reason = xstrdup("FP operations not counted (needs FP_ARITH_INST_RETIRED.* on Intel, "
				    "fp_ret_sse_avx_ops.* on AMD)");
	else if (!(T > 0))
		r->reason = xstrdup("run time unknown");
	else if (!(W > 0))
		r->reason = xstrdup("no FP operations counted: a run without floating point has no place "
				    "on a roofline");
	else if (fp < 0)
		r->reason = xstrdup("no calibrated FP peak: run 'tdperf calibrate' on the machine of the run");
	else
		r->gflops = W / T / 1e9;
}

/* Binding: the lowest classic roof at the point, and so what it can attain. */
static void find_binding(struct td_rl_result *r)
{
	for (size_t i = 0; isfinite(r->gflops) && i < r->nr_roofs; i++) {
		struct td_rl_roof *roof = &r->roofs[i];
		if (roof->classic && isfinite(roof->bound) &&
		    (r->binding < 0 || roof->bound < r->roofs[r->binding].bound))
			r->binding = (int)i;
	}
	if (r->binding >= 0)
		r->attainable = r->roofs[r->binding].bound;
}

/*
 * Utilization roofs of Cabezas and Püschel 2014: the compute roof (fp) or
 * a level's memory roof scaled by the measured share of time its resource
 * was busy.
 */
static void utilization_roofs(const struct td_rl_input *in, struct td_rl_result *r, int fp,
			      const int level_roof[TD_RL_NR_LEVEL])
{
	for (int u = 0; u < TD_RL_NR_RESOURCE; u++) {
		double U = in->v[TD_RL_Q_UTIL + u];
		int base = u == TD_RL_U_FP ? fp : level_roof[u - TD_RL_U_L1];
		struct td_rl_roof *roof, *b;
		char *why;

		if (!isfinite(U) || base < 0 || !isfinite(r->roofs[base].bound))
			continue;
		b = &r->roofs[base];
		if (U < 0 || U > 1 + VIOLATION_TOLERANCE) {
			why = xfmt("%s utilization %.3f is outside 0..1: its counts disagree, no roof drawn",
				   td_rl_resource_name(u), U);
			add_note(r, why);
			free(why);
			continue;
		}
		{
			/* add_roof moves the array: nothing of b is read after it */
			int level = b->level;
			char *label = xfmt("%s x %.0f%% utilization", b->label, 100 * U);

			roof = add_roof(r, TD_RL_ROOF_UTIL, xfmt("util_%s", td_rl_resource_name(u)),
					label, b->peak, U, U * b->bound);
			roof->level = level;
		}
		roof_note(r, roof, in->note[TD_RL_Q_UTIL + u],
			  "U x roof: the resource delivers its peak whenever it is busy, and only then");
	}
}

/*
 * Stall roofs of Cabezas and Püschel 2014: the attainable performance
 * scaled by the share of cycles each out-of-order buffer was not full.
 */
static void stall_roofs(const struct td_rl_input *in, struct td_rl_result *r, double cycles)
{
	for (int s = 0; s < TD_RL_NR_BUFFER; s++) {
		double stalled = in->v[TD_RL_Q_STALL + s], f;
		struct td_rl_roof *roof;
		char *why;

		if (!isfinite(stalled) || !(cycles > 0) || r->binding < 0)
			continue;
		f = 1 - stalled / cycles;
		if (f < 0 || f > 1) {
			why = xfmt("%s full for %.0f of %.0f cycles: counts disagree, no stall roof",
				   td_rl_buffer_name(s), stalled, cycles);
			add_note(r, why);
			free(why);
			continue;
		}
		roof = add_roof(r, TD_RL_ROOF_STALL, xfmt("stall_%s", td_rl_buffer_name(s)),
				xfmt("%s-full stalls (%.0f%% of cycles)", td_rl_buffer_name(s), 100 * (1 - f)),
				r->attainable, f, f * r->attainable);
		roof_note(r, roof, in->note[TD_RL_Q_STALL + s],
			  "stall roof: nothing useful issues while the buffer is full");
	}
}

/*
 * What the point says about each roof: one it exceeds is violated (its
 * calibration or approximation does not hold here); of the others, the
 * lowest is the tightest.
 */
static void judge_roofs(struct td_rl_result *r)
{
	for (size_t i = 0; isfinite(r->gflops) && i < r->nr_roofs; i++) {
		struct td_rl_roof *roof = &r->roofs[i];
		if (roof->reference || !isfinite(roof->bound))
			continue;
		if (r->gflops > roof->bound * (1 + VIOLATION_TOLERANCE)) {
			char *why;
			roof->violated = 1;
			if (roof->classic)
				why = xfmt("the run exceeds the calibrated %s (%.3g > %.3g GFLOP/s): was the "
					   "calibration made on another machine or thread count?",
					   roof->label, r->gflops, roof->bound);
			else
				why = xfmt("the run exceeds the %s roof (%.3g > %.3g GFLOP/s): its approximation "
					   "does not hold here", roof->id, r->gflops, roof->bound);
			roof_note(r, roof, roof->note, why);
			free(why);
			continue;
		}
		if (r->tightest < 0 || roof->bound < r->roofs[r->tightest].bound)
			r->tightest = (int)i;
	}
}

int td_rl_analyze(const struct td_peaks *pk, const struct td_rl_input *in, struct td_rl_result *r)
{
	double W, T = in->v[TD_RL_Q_SECONDS], cycles = in->v[TD_RL_Q_CYCLES];
	int split, fp, level_roof[TD_RL_NR_LEVEL];

	memset(r, 0, sizeof(*r));
	r->gflops = r->attainable = r->efficiency = NAN;
	r->binding = r->tightest = -1;
	for (int l = 0; l < TD_RL_NR_LEVEL; l++) {
		r->intensity[l] = NAN;
		level_roof[l] = -1;
	}

	W = count_work(in, r, &split);
	add_note(r, in->note[TD_RL_Q_SECONDS]);
	r->flops = W;
	r->seconds = T;

	reference_roofs(pk, r);
	fp = compute_roof(pk, in, split, r);
	memory_roofs(pk, in, W, r, level_roof);
	place_point(r, W, T, fp);
	find_binding(r);
	utilization_roofs(in, r, fp, level_roof);
	stall_roofs(in, r, cycles);
	judge_roofs(r);
	if (isfinite(r->gflops) && r->attainable > 0)
		r->efficiency = r->gflops / r->attainable;
	return isfinite(r->gflops) ? 0 : -1;
}

void td_rl_result_release(struct td_rl_result *r)
{
	for (size_t i = 0; i < r->nr_roofs; i++) {
		free(r->roofs[i].id);
		free(r->roofs[i].label);
		free(r->roofs[i].note);
	}
	free(r->roofs);
	for (size_t i = 0; i < r->nr_notes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r->reason);
	memset(r, 0, sizeof(*r));
}
