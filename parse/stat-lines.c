/*
 * Recognizing single lines of perf stat output, in all three forms:
 *
 *  text   "     1,234,567      cycles:u    #  3.0 GHz    (75.00%)"
 *         with an optional interval time and aggregation label in front
 *         (-I, -A, --per-core/socket/die/node/thread), any locale's digit
 *         grouping, "<not counted>", metric annotations after '#', the
 *         multiplexing "(xx.xx%)" and the -r "( +- x% )" column;
 *  CSV    -x SEP: [time,][label,[cpus,]]count,unit,event,[variance,]
 *         run-time,pcnt-running,metric-value,metric-unit[,threshold]
 *  JSON   -j: one flat object per line (perf 6.1 leaves a ", }").
 *
 * Numbers: perf prints counts with the locale's grouping ("%'.0f", or
 * "%'.2f" for non-integers such as msec), and metric values and times
 * without grouping ("%.2f").  So a count's separators are grouping unless
 * the last group has a length no grouping uses (exactly two digits: the
 * "%.2f" decimals); other numbers have at most one separator, the decimal
 * point.  This needs no guess about the locale.
 */
#include "parse/stat-lines.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void rec_init(struct rec *r, int line)
{
	memset(r, 0, sizeof(*r));
	r->line = line;
	r->time = r->value = r->running_ns = r->pct = r->variance = NAN;
	r->mvalue = r->secs = r->mstep = NAN;
	r->cpus = 0;
	r->repeats = 1;
}

void rec_release(struct rec *r)
{
	int line;

	free(r->label);
	free(r->event);
	free(r->unit);
	free(r->mname);
	free(r->munit);
	free(r->mthreshold);
	free(r->mpmu);
	free(r->m2name);
	free(r->m2unit);
	free(r->text);
	free(r->err);
	free(r->bad_text);
	for (size_t i = 0; i < r->ncols; i++) {
		free(r->cols[i]);
		free(r->col_units[i]);
	}
	free(r->cols);
	free(r->col_units);
	free(r->col_kinds);
	free(r->vals);
	free(r->steps);
	line = r->line;
	memset(r, 0, sizeof(*r));
	r->line = line;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The separators perf's -x may have been given, as we look for them. */
static const char csv_seps[] = ",;\t|:!^~@&*+=$";

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* ---------------- numbers perf can print ---------------- */

/*
 * What perf can print for each number: counts and run times are 64-bit
 * counters, a counter runs at most all of the time it is enabled, and
 * no time, variance or repeat count is negative.  whole: an integer.
 * perf prints counts (scaled or averaged) from its 64-bit readings, so a
 * count of 2^64 or more is a corrupt or made-up line, and a double could
 * not carry its digits anyway; counts above 2^53 are kept as the nearest
 * double (a relative error below 1.2e-16, far below any count's own).
 */
static const struct {
	const char *name;
	double max;
	int whole;
	const char *too_large;
	const char *negative;
} readings[] = {
	[RD_COUNT] = { "count", 0x1p64, 0,
		"larger than any 64-bit counter perf reads (at most 18446744073709551615)",
		"negative (perf's counters never go below 0)" },
	[RD_RUN_TIME] = { "run time", 0x1p64, 0, "larger than any 64-bit time perf reads", "negative" },
	[RD_PCT] = { "running percentage", 100, 0,
		"above 100 % (a counter runs at most all of the time it is enabled)", "negative" },
	[RD_VARIANCE] = { "variance", INFINITY, 0, "", "negative" },
	[RD_TIME] = { "interval time", INFINITY, 0, "", "negative" },
	[RD_ELAPSED] = { "elapsed time", INFINITY, 0, "", "negative" },
	[RD_USER] = { "user time", INFINITY, 0, "", "negative" },
	[RD_SYS] = { "system time", INFINITY, 0, "", "negative" },
	[RD_CPUS] = { "aggregate-number", INT_MAX, 1, "larger than any number of CPUs", "negative" },
	[RD_REPEATS] = { "number of runs", INT_MAX, 1, "larger than any number of runs perf makes",
		"negative" },
};

static int reading_fits(enum rec_reading k, double v)
{
	return isfinite(v) && !signbit(v) && v <= readings[k].max &&
	       (!readings[k].whole || v == floor(v));
}

/*
 * Reading k of r is v: 1 when perf can print it, else 0 with the first
 * such number of the line noted for rec_why_bad.
 */
static int reading(struct rec *r, enum rec_reading k, double v)
{
	if (reading_fits(k, v))
		return 1;
	if (!r->bad) {
		r->bad = k;
		r->bad_value = v;
	}
	return 0;
}

/* Reading k of r is the text s, which is no number at all. */
static void reading_not_a_number(struct rec *r, enum rec_reading k, const char *s)
{
	if (r->bad)
		return;
	r->bad = k;
	r->bad_text = xstrndup(s, strnlen(s, 40));
}

/* v in as few digits as read back the same: "-50", "150.5", "1e+100", "nan" */
static void format_shortest(char *buf, size_t n, double v)
{
	int prec;

	if (v == floor(v) && fabs(v) < 1e17) {
		snprintf(buf, n, "%.0f", v);
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, n, "%.17g", v);
}

int rec_why_bad(const struct rec *r, struct strbuf *why)
{
	const char *name, *ev = r->event ? r->event : "";
	const char *of = r->event ? " for " : "";
	double v = r->bad_value;
	char num[40];

	if (r->bad == RD_NONE)
		return 0;
	name = readings[r->bad].name;
	if (r->bad_text) {
		strbuf_addf(why, "%s%s%s is not a number: \"%s\"", name, of, ev, r->bad_text);
		return 1;
	}
	strbuf_addf(why, "%s out of range%s%s: ", name, of, ev);
	/* digits beyond any double read as +inf: say how large, not "inf" */
	if (v == INFINITY && readings[r->bad].max < INFINITY) {
		strbuf_addstr(why, readings[r->bad].too_large);
		return 1;
	}
	format_shortest(num, sizeof(num), v);
	strbuf_addf(why, "%s is ", num);
	if (!isfinite(v))
		strbuf_addstr(why, "not a finite number");
	else if (signbit(v))
		strbuf_addstr(why, readings[r->bad].negative);
	else if (v > readings[r->bad].max)
		strbuf_addstr(why, readings[r->bad].too_large);
	else
		strbuf_addstr(why, "not a whole number");
	return 1;
}

double rec_printed_step(const char *p, const char *end)
{
	const char *dot = NULL, *q;
	int exp = 0, digits = 0;

	for (q = p; q < end; q++) {
		if (*q == '.' || *q == ',')
			dot = q;
		else if (*q == 'e' || *q == 'E') {
			exp = atoi(q + 1);
			break;
		} else if (!isdigit((unsigned char)*q) && *q != '-' && *q != '+')
			break;
		else if (dot && isdigit((unsigned char)*q))
			digits++;
	}
	if (!strncasecmp(p + (*p == '-' || *p == '+'), "nan", 3))
		return NAN;
	return pow(10, exp - digits);
}

/*
 * The metric value printed from p to end: its value, step and whether
 * perf printed no number (nan, or an empty field).
 */
static void set_metric_value(struct rec *r, double v, const char *p, const char *end)
{
	r->has_metric = 1;
	r->mvalue = v;
	r->mblank = isnan(v);
	r->mstep = r->mblank ? NAN : rec_printed_step(p, end);
}

/* Length of a digit-grouping separator at p (0: none); *space: a blank one. */
static int group_sep_len(const char *p, int *space)
{
	*space = 0;
	if (*p == ',' || *p == '.' || *p == '\'')
		return 1;
	if (*p == ' ')
		return *space = 1, 1;
	if ((unsigned char)p[0] == 0xc2 && (unsigned char)p[1] == 0xa0)
		return *space = 1, 2; /* NO-BREAK SPACE */
	if ((unsigned char)p[0] == 0xe2 && (unsigned char)p[1] == 0x80 &&
	    ((unsigned char)p[2] == 0xaf || (unsigned char)p[2] == 0x89))
		return *space = 1, 3; /* NARROW NO-BREAK SPACE, THIN SPACE */
	if ((unsigned char)p[0] == 0xe2 && (unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0x99)
		return 3; /* RIGHT SINGLE QUOTATION MARK (de_CH) */
	return 0;
}

const char *td_stat_scan_count(const char *p, double *out)
{
	char buf[80];
	size_t len = 0, last_start = 0, lastlen = 0;
	int seps = 0, overflow = 0;
	char lastsep = 0;
	const char *q = p;

	if (!isdigit((unsigned char)*q))
		return NULL;
	while (isdigit((unsigned char)*q)) {
		if (len < sizeof(buf) - 2)
			buf[len++] = *q;
		else
			overflow = 1;
		q++, lastlen++;
	}
	for (;;) {
		int space, l = group_sep_len(q, &space);
		size_t n = 0;
		if (!l || !isdigit((unsigned char)q[l]))
			break;
		while (isdigit((unsigned char)q[l + n]))
			n++;
		if (space && (n < 2 || n > 4))
			break;
		seps++;
		lastsep = *q;
		last_start = len;
		q += l;
		while (isdigit((unsigned char)*q)) {
			if (len < sizeof(buf) - 2)
				buf[len++] = *q;
			else
				overflow = 1;
			q++;
		}
		lastlen = n;
	}
	if (seps && lastlen != 3 && lastlen != 4 && (lastsep == '.' || lastsep == ',')) {
		memmove(buf + last_start + 1, buf + last_start, len - last_start);
		buf[last_start] = '.';
		len++;
	}
	buf[len] = '\0';
	/* digits beyond the buffer: far larger than any count, never cut short */
	*out = overflow ? HUGE_VAL : strtod(buf, NULL);
	return q;
}

const char *td_stat_scan_decimal(const char *p, double *out)
{
	char buf[64];
	size_t len = 0;
	int overflow = 0;
	const char *q = p;

	if (*q == '-' || *q == '+')
		buf[len++] = *q++;
	if (!strncasecmp(q, "nan", 3) || !strncasecmp(q, "inf", 3)) {
		*out = !strncasecmp(q, "nan", 3) ? NAN : (buf[0] == '-' ? -INFINITY : INFINITY);
		return q + 3;
	}
	if (!isdigit((unsigned char)*q))
		return NULL;
	for (; isdigit((unsigned char)*q); q++)
		if (len < sizeof(buf) - 8)
			buf[len++] = *q;
		else
			overflow = 1;
	if ((*q == '.' || *q == ',') && isdigit((unsigned char)q[1])) {
		buf[len++] = '.';
		/* fraction digits beyond the buffer change nothing a double holds */
		for (q++; isdigit((unsigned char)*q); q++)
			if (len < sizeof(buf) - 8)
				buf[len++] = *q;
	}
	if ((*q == 'e' || *q == 'E') && (isdigit((unsigned char)q[1]) ||
	    ((q[1] == '-' || q[1] == '+') && isdigit((unsigned char)q[2])))) {
		buf[len++] = *q++;
		buf[len++] = *q++;
		while (isdigit((unsigned char)*q) && len < sizeof(buf) - 1)
			buf[len++] = *q++;
	}
	buf[len] = '\0';
	*out = strtod(buf, NULL);
	if (overflow) /* an integer part longer than the buffer: never cut short */
		*out = buf[0] == '-' ? -HUGE_VAL : HUGE_VAL;
	return q;
}

/* Interval time: perf prints "%lu.%09lu". */
static const char *scan_time(const char *p, double *out)
{
	const char *q = p;
	int n = 0;

	while (isdigit((unsigned char)*q))
		q++;
	if (q == p || *q != '.')
		return NULL;
	q++;
	while (isdigit((unsigned char)q[n]))
		n++;
	if (n != 9)
		return NULL;
	*out = strtod(p, NULL);
	return q + n;
}

static int is_end_or_ws(const char *p)
{
	return !*p || *p == ' ' || *p == '\t';
}

static const char *token_end(const char *p)
{
	while (*p && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* "CPU12" */
static int is_cpu_label(const char *p, size_t n)
{
	size_t i;

	if (n < 4 || strncmp(p, "CPU", 3))
		return 0;
	for (i = 3; i < n; i++)
		if (!isdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

/*
 * perf's aggregation labels: "S0", "S0-D1", "S0-D0-C3", "S0-C3" (perf 4),
 * "S0-D0-L2-ID3" (per-cache), "N1".  Sets the scope kind.
 */
static int is_aggr_label(const char *p, size_t n, enum td_scope_kind *kind)
{
	size_t i = 1;
	int parts = 0;
	char last = 'S';

	if (n >= 2 && p[0] == 'N') {
		for (i = 1; i < n; i++)
			if (!isdigit((unsigned char)p[i]))
				return 0;
		*kind = TD_SCOPE_NODE;
		return 1;
	}
	if (n < 2 || p[0] != 'S' || !isdigit((unsigned char)p[1]))
		return 0;
	while (i < n && isdigit((unsigned char)p[i]))
		i++;
	while (i < n) {
		if (p[i] != '-' || i + 2 > n)
			return 0;
		i++;
		if (p[i] == 'D' || p[i] == 'C') {
			last = p[i++];
		} else if (p[i] == 'L' && i + 1 < n && isdigit((unsigned char)p[i + 1])) {
			last = 'L';
			i++;
			while (i < n && isdigit((unsigned char)p[i]))
				i++;
			if (i + 3 >= n || strncmp(p + i, "-ID", 3))
				return 0;
			i += 3;
		} else {
			return 0;
		}
		if (i >= n || !isdigit((unsigned char)p[i]))
			return 0;
		while (i < n && isdigit((unsigned char)p[i]))
			i++;
		parts++;
	}
	*kind = last == 'S' ? TD_SCOPE_SOCKET : last == 'D' ? TD_SCOPE_DIE : TD_SCOPE_CORE;
	return 1;
}

/* "comm-1234" (comm may hold '-' and '/') */
static int is_thread_label(const char *p, size_t n)
{
	size_t i = n;

	while (i > 0 && isdigit((unsigned char)p[i - 1]))
		i--;
	return i < n && i >= 2 && p[i - 1] == '-';
}

/*
 * perf --no-merge (and perf on several PMUs of one kind: big.LITTLE
 * clusters, uncore boxes) prints an event with its PMU after it,
 * "cpu_cycles [armv9_neoverse_n2]".  The event ev and the bracketed PMU br
 * as "PMU/EVENT/", the spelling the rest of the reader knows; NULL when
 * they are not of that form.
 */
static char *event_on_pmu(const char *ev, size_t elen, const char *br, size_t blen)
{
	struct strbuf sb = STRBUF_INIT;

	if (!elen || blen < 3 || br[0] != '[' || br[blen - 1] != ']' || memchr(ev, ' ', elen) ||
	    memchr(ev, '/', elen) || strspn(br + 1, "abcdefghijklmnopqrstuvwxyz0123456789_") != blen - 2)
		return NULL;
	strbuf_addf(&sb, "%.*s/%.*s/", (int)(blen - 2), br + 1, (int)elen, ev);
	return strbuf_detach(&sb, NULL);
}

/* The same for one field of n bytes holding both: "cpu_cycles [armv9_neoverse_n2]". */
static char *pmu_bracket_event(const char *text, size_t n)
{
	const char *open = n ? memchr(text, '[', n) : NULL;

	if (!open || open < text + 2 || open[-1] != ' ')
		return NULL;
	return event_on_pmu(text, (size_t)(open - 1 - text), open, (size_t)(text + n - open));
}

static int is_event_name(const char *p, size_t n)
{
	size_t i;

	if (!n || !(isalpha((unsigned char)*p) || *p == '_' || *p == '{'))
		return 0;
	for (i = 0; i < n; i++)
		if (isspace((unsigned char)p[i]) || p[i] == '#' || p[i] == '"')
			return 0;
	if (p[n - 1] == ':' || p[n - 1] == ',')
		return 0;
	return 1;
}

static int is_unit_word(const char *p, size_t n)
{
	size_t i;

	if (!n || n > 12)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalpha((unsigned char)p[i]) && p[i] != '/' && p[i] != '%')
			return 0;
	return 1;
}

/*
 * "MPKI  itlb_mpki", "percent of slots  frontend_bound", "GHz
 * cycles_frequency": perf (6.5 and later, and Arm's ScaleUnits) prints a
 * metric's unit, two or more spaces, then its name, one identifier.  1
 * when s is of that form (unit and name set), 0 otherwise ("insn per
 * cycle" is one unit; "msec  task-clock" is a count's unit and event).
 */
static int split_unit_name(struct rec *r, const char *s, size_t n)
{
	const char *gap = NULL, *name, *p;

	for (p = s; p + 1 < s + n; p++)
		if (p[0] == ' ' && p[1] == ' ') {
			gap = p;
			break;
		}
	if (!gap || gap == s || gap - s > 40)
		return 0;
	for (name = gap; name < s + n && *name == ' '; name++)
		;
	if (name >= s + n)
		return 0;
	for (p = name; p < s + n; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	r->munit = xstrndup(s, (size_t)(gap - s));
	r->mname = xstrndup(name, (size_t)(s + n - name));
	return 1;
}

/* Split "%  tma_backend_bound" / "insn per cycle" into unit and name. */
static void set_metric_text(struct rec *r, const char *s, size_t n)
{
	int table = 0;

	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	free(r->munit);
	free(r->mname);
	if (n && *s == '%') {
		/* "%  tma_retiring": a table metric's unit and name */
		table = n > 2 && s[1] == ' ' && s[2] == ' ';
		s++, n--;
		while (n && isspace((unsigned char)*s))
			s++, n--;
		r->munit = xstrdup("%");
		r->mname = xstrndup(s, n);
	} else if (split_unit_name(r, s, n)) {
		/* "MPKI  itlb_mpki", "percent of slots  retiring": a unit, two spaces, the name */
		table = 1;
	} else {
		r->munit = xstrndup(s, n);
		r->mname = xstrndup(s, n);
	}
	r->mkind = TD_PM_OTHER;
	if (!table && td_perf_metric_is_builtin(r->mname) && !(fabs(r->mstep - 0.01) < 1e-9)) {
		/*
		 * perf prints its built-in Top-Down values as percentages
		 * ("%8.1f%%" right before the name; JSON "%f"), and CSV/JSON
		 * drop the '%': "10.0,Bad Speculation" is 10 %, not a ratio
		 * of 10.  perf 5.x's table metric "Retiring" is a ratio with
		 * two decimals ("0.04 Retiring"), and Arm's table has a
		 * "retiring" with its unit ("percent of slots  retiring").
		 */
		free(r->munit);
		r->munit = xstrdup("%");
		r->mkind = TD_PM_BUILTIN;
	} else {
		struct td_perf_metric m = { .name = r->mname, .unit = r->mname };

		td_perf_metric_classify(&m); /* by the name alone: table or other */
		r->mkind = m.kind;
	}
}

/*
 * A trailing "(71.07%)", "[71.07%]" or "( +-  1.55% )" group ending at
 * end (exclusive).  Returns the group's start, or NULL.
 */
static const char *trailing_paren(const char *start, const char *end, struct rec *r, int apply)
{
	const char *open, *p;
	char close;
	double v;
	int variance = 0;

	while (end > start && isspace((unsigned char)end[-1]))
		end--;
	if (end <= start || (end[-1] != ')' && end[-1] != ']'))
		return NULL;
	close = end[-1];
	for (open = end - 1; open > start && *open != (close == ')' ? '(' : '['); open--)
		;
	if (*open != (close == ')' ? '(' : '['))
		return NULL;
	p = skip_ws(open + 1);
	if (starts_with(p, "+-")) {
		variance = 1;
		p = skip_ws(p + 2);
	}
	p = td_stat_scan_decimal(p, &v);
	if (!p || *p != '%')
		return NULL;
	p = skip_ws(p + 1);
	if (p != end - 1)
		return NULL;
	if (apply) {
		if (variance)
			reading(r, RD_VARIANCE, r->variance = v);
		else
			reading(r, RD_PCT, r->pct = v);
	}
	return open;
}

/* The annotation after '#': "  18.4 %  tma_backend_bound", "3.0 GHz". */
static void parse_annotation(const char *p, const char *end, struct rec *r)
{
	double v;
	const char *q;

	p = skip_ws(p);
	q = td_stat_scan_decimal(p, &v);
	if (!q || q > end)
		return;
	set_metric_value(r, v, p, q);
	set_metric_text(r, q, end - q);
}

/*
 * What follows the event name: '#' annotation and parenthesized groups.
 * Returns 0 when the rest is not perf's (prose).
 */
static int parse_trailer(const char *p, struct rec *r)
{
	const char *end = p + strlen(p), *open;

	while ((open = trailing_paren(p, end, r, 1)) != NULL)
		end = open;
	p = skip_ws(p);
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if (p == end)
		return 1;
	if (*p != '#')
		return 0;
	parse_annotation(p + 1, end, r);
	return 1;
}

/*
 * A count in text.  perf never prints a negative one, but a line that
 * does is a count to refuse (see reading), not prose to skip.
 */
static const char *scan_text_count(const char *p, double *out)
{
	const char *e;

	if (*p == '-' && isdigit((unsigned char)p[1]) && (e = td_stat_scan_count(p + 1, out)) != NULL) {
		*out = -*out;
		return e;
	}
	return td_stat_scan_count(p, out);
}

/* Count, unit, event and trailer of a text line after time and label. */
static int parse_text_body(const char *p, struct rec *r)
{
	const char *e, *w1, *w1e, *w2, *w2e;
	double v = NAN;

	if (*p == '#') {
		r->kind = R_METRIC;
		return parse_trailer(p, r) && r->has_metric;
	}
	if (starts_with(p, "<not counted>")) {
		r->status = TD_COUNT_NOT_COUNTED;
		e = p + 13;
	} else if (starts_with(p, "<not supported>")) {
		r->status = TD_COUNT_NOT_SUPPORTED;
		e = p + 15;
	} else if ((e = scan_text_count(p, &v)) == NULL || !is_end_or_ws(e)) {
		/* perf >= 6.3: "TopdownL1 (cpu_core)   #  17.5 %  tma_..." */
		w1e = token_end(p);
		if (w1e == p || !isalpha((unsigned char)*p))
			return 0;
		w2 = skip_ws(w1e);
		if (*w2 == '(') {
			const char *c = strchr(w2, ')');
			if (!c)
				return 0;
			r->mpmu = xstrndup(w2 + 1, c - w2 - 1);
			w2 = skip_ws(c + 1);
		}
		if (*w2 != '#')
			return 0;
		r->kind = R_METRIC;
		return parse_trailer(w2, r) && r->has_metric;
	}
	r->value = v;
	if (r->status == TD_COUNT_OK)
		reading(r, RD_COUNT, v);
	w1 = skip_ws(e);
	w1e = token_end(w1);
	if (w1e == w1)
		return 0;
	w2 = skip_ws(w1e);
	if (*w2 && *w2 != '#' && *w2 != '(' && *w2 != '[') {
		w2e = token_end(w2);
		if (!is_unit_word(w1, w1e - w1) || !is_event_name(w2, w2e - w2))
			return 0;
		r->unit = xstrndup(w1, w1e - w1);
		r->event = xstrndup(w2, w2e - w2);
		p = w2e;
	} else {
		if (!is_event_name(w1, w1e - w1))
			return 0;
		r->event = xstrndup(w1, w1e - w1);
		p = w1e;
		/* "cpu_cycles [armv9_neoverse_n2]" */
		if (*(w2 = skip_ws(p)) == '[') {
			char *pe = event_on_pmu(w1, (size_t)(w1e - w1), w2, (size_t)(token_end(w2) - w2));

			if (pe) {
				free(r->event);
				r->event = pe;
				p = token_end(w2);
			}
		}
	}
	r->kind = R_COUNT;
	if (!parse_trailer(p, r)) {
		r->kind = R_OTHER;
		return 0;
	}
	return 1;
}

/* A wrapped piece of the previous line: "tma_retiring   (71.07%)", "(85.81%)". */
static int parse_continuation(const char *p, struct rec *r)
{
	const char *end = p + strlen(p), *open, *w;

	open = trailing_paren(p, end, r, 1);
	if (open)
		end = open;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	if (end == p) {
		if (!open)
			return 0;
		r->kind = R_CONT;
		return 1;
	}
	w = token_end(p);
	if (w < end || !(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	r->kind = R_CONT;
	r->mname = xstrndup(p, end - p);
	return 1;
}

static int parse_text_row(const char *p, struct rec *r);
static int parse_text_cols(const char *line, struct rec *r);


/*
 * perf stat -p PID and -t TID print "... stats for process id 'PID'" and
 * "thread id 'TID'": the session is the process's, not a command named
 * by a number.  Which of the two, or NULL.
 */
static const char *attached_to(const char *header, const char *quote)
{
	size_t n = (size_t)(quote - header);

	if (n >= 11 && !strncmp(quote - 11, "process id ", 11))
		return "process";
	if (n >= 10 && !strncmp(quote - 10, "thread id ", 10))
		return "thread";
	return NULL;
}

/* "process 31443" */
static char *xstrfmt_attached(const char *what, const char *id, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s %.*s", what, (int)len, id);
	return strbuf_detach(&sb, NULL);
}

static void parse_text(const char *line, struct rec *r)
{
	const char *p = skip_ws(line), *q, *t;
	double v;

	r->fmt = F_TEXT;
	if (!*p) {
		r->kind = R_BLANK;
		return;
	}
	if ((q = strstr(p, "Performance counter stats for")) != NULL && q - p < 4) {
		const char *a = strchr(q, '\''), *b = a ? strrchr(a + 1, '\'') : NULL;
		const char *runs;
		r->kind = R_HEADER;
		if (a && b && attached_to(q, a))
			r->text = xstrfmt_attached(attached_to(q, a), a + 1, b - a - 1);
		else if (a && b)
			r->text = xstrndup(a + 1, b - a - 1);
		else {
			a = q + strlen("Performance counter stats for");
			a = skip_ws(a);
			b = strchr(a, ':');
			r->text = xstrndup(a, b ? (size_t)(b - a) : strlen(a));
		}
		runs = b ? strstr(b, " runs)") : NULL;
		if (runs) {
			const char *n = runs;
			while (n > b && isdigit((unsigned char)n[-1]))
				n--;
			if (n < runs && reading(r, RD_REPEATS, strtod(n, NULL)))
				r->repeats = atoi(n);
		}
		return;
	}
	if ((q = td_stat_scan_decimal(p, &v)) != NULL) {
		const char *s = skip_ws(q);
		if (starts_with(s, "+-")) { /* -r: "0.000654 +- 0.000327 seconds ..." */
			double dummy;
			s = td_stat_scan_decimal(skip_ws(s + 2), &dummy);
			s = s ? skip_ws(s) : q;
		}
		if (starts_with(s, "seconds time elapsed")) {
			r->kind = R_ELAPSED;
			reading(r, RD_ELAPSED, r->secs = v);
			return;
		}
		if (starts_with(s, "seconds user")) {
			r->kind = R_USER;
			reading(r, RD_USER, r->secs = v);
			return;
		}
		if (starts_with(s, "seconds sys")) {
			r->kind = R_SYS;
			reading(r, RD_SYS, r->secs = v);
			return;
		}
	}
	if (starts_with(p, "perf version ")) {
		r->kind = R_VERSION;
		r->text = xstrndup(p + 13, token_end(p + 13) - (p + 13));
		return;
	}
	if (!strcmp(p, "(...)") || !strcmp(p, "...") || !strcmp(p, "[...]") ||
	    !strcmp(p, "<snip>") || !strcmp(p, "[snip]")) {
		r->kind = R_ELISION;
		return;
	}
	if (*p == '#') {
		/* perf indents its metric lines; '#' in column 0 is a comment */
		q = skip_ws(p + 1);
		if (p > line && td_stat_scan_decimal(q, &v) && parse_text_body(p, r))
			return;
		rec_release(r);
		rec_init(r, r->line);
		if (parse_text_cols(line, r))
			return; /* "#  time  %  tma_retiring ...": -I --metric-only */
		r->fmt = F_TEXT;
		r->kind = R_COMMENT;
		return;
	}

	/* interval time */
	q = p;
	if ((t = scan_time(q, &v)) != NULL && is_end_or_ws(t) && *skip_ws(t)) {
		reading(r, RD_TIME, r->time = v);
		q = skip_ws(t);
	}
	/* aggregation label */
	t = token_end(q);
	if (is_cpu_label(q, t - q)) {
		r->skind = TD_SCOPE_CPU;
		r->label = xstrndup(q, t - q);
		q = skip_ws(t);
	} else if (is_aggr_label(q, t - q, &r->skind)) {
		const char *n = skip_ws(t), *ne = token_end(n);
		size_t i;
		for (i = 0; n + i < ne && isdigit((unsigned char)n[i]); i++)
			;
		if (n + i == ne && i > 0 && *skip_ws(ne)) {
			r->label = xstrndup(q, t - q);
			r->cpus = atoi(n);
			q = skip_ws(ne);
		} else {
			r->skind = TD_SCOPE_TOTAL;
		}
	} else if (!isdigit((unsigned char)*q) && *q != '<' && *q != '#') {
		/* --per-thread: "comm-tid" right-aligned; comm may hold spaces */
		const char *s = q;
		int i;
		for (i = 0; i < 6 && *s; i++) {
			const char *se = token_end(s), *n = skip_ws(se);
			double dummy;
			const char *ce;
			if (is_thread_label(s, se - s) &&
			    (starts_with(n, "<not ") ||
			     ((ce = scan_text_count(n, &dummy)) != NULL && is_end_or_ws(ce)))) {
				r->skind = TD_SCOPE_THREAD;
				r->label = xstrndup(q, se - q);
				q = n;
				break;
			}
			s = n;
		}
	}
	if (r->skind != TD_SCOPE_THREAD && parse_text_row(q, r))
		return; /* --metric-only, --topdown: values alone */
	free(r->vals);
	free(r->steps);
	r->vals = r->steps = NULL;
	r->nvals = 0;
	if (parse_text_body(q, r))
		return;
	/* not a perf line: maybe the wrapped tail of the previous one */
	rec_release(r);
	rec_init(r, r->line);
	r->fmt = F_TEXT;
	if (parse_continuation(p, r))
		return;
	rec_release(r);
	rec_init(r, r->line);
	if (parse_text_cols(line, r))
		return;
	rec_release(r);
	rec_init(r, r->line);
	r->kind = R_OTHER;
}

/* ---------------- CSV ---------------- */

/* The fields of a CSV row: pointers into one copy of the row. */
struct fields {
	char **f;
	size_t n, alloc;
	char *buf;
};
static void fields_release(struct fields *fs)
{
	free(fs->f);
	free(fs->buf);
	memset(fs, 0, sizeof(*fs));
}
/* Cut the row at each separator, in place: a row of perf's has a dozen fields. */
static void split_fields(const char *line, const char *sep, struct fields *fs)
{
	size_t sl = strlen(sep);
	char *p, *q;

	fs->buf = p = xstrdup(line);
	for (;;) {
		q = strstr(p, sep);
		TD_GROW(fs->f, fs->alloc, fs->n + 1);
		fs->f[fs->n++] = p;
		if (!q)
			break;
		*q = '\0';
		p = q + sl;
	}
	/* trim: perf pads the interval time */
	for (size_t i = 0; i < fs->n; i++) {
		char *b = fs->f[i];
		size_t n;
		while (*b == ' ' || *b == '\t')
			b++;
		n = strlen(b);
		while (n && (b[n - 1] == ' ' || b[n - 1] == '\t' || b[n - 1] == '\r'))
			n--;
		b[n] = '\0';
		fs->f[i] = b;
	}
}
static int csv_number(const char *s, double *v)
{
	const char *e = td_stat_scan_decimal(s, v);
	return e && !*e;
}

static int is_csv_time(const char *s, double *v)
{
	const char *e = scan_time(s, v);
	return e && !*e;
}

static int is_csv_count(const char *s)
{
	double v;
	return !strcmp(s, "<not counted>") || !strcmp(s, "<not supported>") || csv_number(s, &v);
}

/*
 * A row of perf's columns (unit, event, then a run time or variance and
 * a number) whose count, field i, is no number: a count to refuse, not
 * a line of prose.
 */
static int is_row_with_bad_count(const struct fields *fs, size_t i)
{
	char **f = fs->f;
	double v;

	return i + 5 <= fs->n && (!f[i + 1][0] || is_unit_word(f[i + 1], strlen(f[i + 1]))) &&
	       is_event_name(f[i + 2], strlen(f[i + 2])) && f[i + 3][0] && csv_number(f[i + 4], &v);
}

/*
 * Could s be the title perf prints for a metric ("%  tma_x", "Bad
 * Speculation", "insn per cycle", "MPKI  itlb_mpki")?  It has letters and
 * is no number.
 */
static int is_metric_title(const char *s)
{
	double v;
	const char *p;

	if (!*s || csv_number(s, &v))
		return 0;
	for (p = s; *p; p++)
		if (isalpha((unsigned char)*p))
			return 1;
	return 0;
}

/*
 * A CSV row with no count, unit or event (fields from i on empty): a
 * metric perf printed alone, "[,...],72.5,%  tma_backend_bound[,thr]".
 * perf 6.1 leaves the value empty when it is negative or nan (its CSV
 * printer keeps only digits and '.'): ",,,,,%  tma_fetch_bandwidth" is
 * the metric with no number, not foreign text.  A row of nothing but
 * separators is perf's empty metric line (a metric it could not print).
 * 1 (kind R_METRIC or R_COMMENT), or 0.
 */
static int parse_csv_metric_row(const struct fields *fs, size_t i, struct rec *r)
{
	char **f = fs->f;
	size_t j, value;
	double v;

	for (j = i + 3; j < fs->n && !f[j][0]; j++)
		;
	if (j == fs->n) {
		r->kind = fs->n >= 4 ? R_COMMENT : R_OTHER;
		return r->kind == R_COMMENT;
	}
	if (j + 1 < fs->n && csv_number(f[j], &v)) {
		value = j++;
	} else if (j > i + 3 && is_metric_title(f[j])) {
		value = j - 1; /* the empty field before the name */
		v = NAN;
	} else {
		return 0;
	}
	r->kind = R_METRIC;
	set_metric_value(r, v, f[value], f[value] + strlen(f[value]));
	set_metric_text(r, f[j], strlen(f[j]));
	if (j + 1 < fs->n && f[j + 1][0])
		r->mthreshold = xstrdup(f[j + 1]);
	return 1;
}

/*
 * Parse one CSV row with separator sep.  Returns 1 when it is perf's
 * (kind COUNT or METRIC), 0 when not, -1 when it starts like perf's but
 * is cut short or malformed (r->err says how).
 */
static int parse_csv(const char *line, const char *sep, struct rec *r)
{
	struct fields fs = { 0 };
	size_t i = 0, j;
	double v;
	int ret = 0;
	char **f;

	if (!strstr(line, sep))
		return 0;
	split_fields(line, sep, &fs);
	f = fs.f;
	r->fmt = F_CSV;
	r->nfields = (int)fs.n;
	if (fs.n >= 2 && is_csv_time(f[0], &v)) {
		reading(r, RD_TIME, r->time = v);
		i = 1;
	}
	if (i < fs.n && is_cpu_label(f[i], strlen(f[i]))) {
		r->skind = TD_SCOPE_CPU;
		r->label = xstrdup(f[i++]);
	} else if (i + 1 < fs.n && is_aggr_label(f[i], strlen(f[i]), &r->skind) &&
		   f[i + 1][0] && strspn(f[i + 1], "0123456789") == strlen(f[i + 1])) {
		r->label = xstrdup(f[i]);
		r->cpus = atoi(f[i + 1]);
		i += 2;
	} else if (i < fs.n && f[i][0] && !is_csv_count(f[i]) && is_thread_label(f[i], strlen(f[i]))) {
		r->skind = TD_SCOPE_THREAD;
		r->label = xstrdup(f[i++]);
	} else {
		r->skind = TD_SCOPE_TOTAL;
	}
	if (i >= fs.n || (f[i][0] && !is_csv_count(f[i]) && !is_row_with_bad_count(&fs, i)))
		goto out; /* not a row of perf's */
	if (i + 3 > fs.n) {
		ret = -1;
		r->err = xstrdup("truncated CSV row: fewer fields than perf writes (count, unit, event, ...)");
		goto out;
	}
	if (!f[i][0] && !f[i + 1][0] && !f[i + 2][0]) {
		ret = parse_csv_metric_row(&fs, i, r);
		goto out;
	}
	if (!f[i][0])
		goto out;
	if (!strcmp(f[i], "<not counted>"))
		r->status = TD_COUNT_NOT_COUNTED;
	else if (!strcmp(f[i], "<not supported>"))
		r->status = TD_COUNT_NOT_SUPPORTED;
	else if (csv_number(f[i], &r->value))
		reading(r, RD_COUNT, r->value);
	else
		reading_not_a_number(r, RD_COUNT, f[i]);
	if (f[i + 1][0] && !is_unit_word(f[i + 1], strlen(f[i + 1])))
		goto out;
	r->unit = f[i + 1][0] ? xstrdup(f[i + 1]) : NULL;
	/* the event may itself hold the separator: "cpu/X,cmask=1/" */
	{
		struct strbuf ev = STRBUF_INIT;
		size_t slashes = 0, k;
		j = i + 2;
		strbuf_addstr(&ev, f[j]);
		for (k = 0; k < ev.len; k++)
			slashes += ev.buf[k] == '/';
		while (slashes % 2 == 1 && j + 1 < fs.n) {
			strbuf_addstr(&ev, sep);
			strbuf_addstr(&ev, f[++j]);
			for (k = 0, slashes = 0; k < ev.len; k++)
				slashes += ev.buf[k] == '/';
		}
		if ((r->event = pmu_bracket_event(ev.buf, ev.len)) != NULL) {
			strbuf_release(&ev);
		} else if (!is_event_name(ev.buf, ev.len)) {
			strbuf_release(&ev);
			goto out;
		} else {
			r->event = strbuf_detach(&ev, NULL);
		}
		j++;
	}
	/* -r: variance "2.93%" */
	if (j < fs.n && f[j][0] && f[j][strlen(f[j]) - 1] == '%') {
		char *t = xstrndup(f[j], strlen(f[j]) - 1);
		if (csv_number(t, &v))
			reading(r, RD_VARIANCE, r->variance = v);
		else
			reading_not_a_number(r, RD_VARIANCE, f[j]);
		free(t);
		j++;
	}
	if (j < fs.n && f[j][0]) {
		if (csv_number(f[j], &v))
			reading(r, RD_RUN_TIME, r->running_ns = v);
		else
			reading_not_a_number(r, RD_RUN_TIME, f[j]);
	}
	if (j + 1 < fs.n && f[j + 1][0]) {
		if (csv_number(f[j + 1], &v))
			reading(r, RD_PCT, r->pct = v);
		else
			reading_not_a_number(r, RD_PCT, f[j + 1]);
	}
	if (j + 3 < fs.n && f[j + 3][0] && (!f[j + 2][0] || csv_number(f[j + 2], &v))) {
		/* an empty value beside a metric's name: perf printed no number */
		if (!f[j + 2][0])
			v = NAN;
		set_metric_value(r, v, f[j + 2], f[j + 2] + strlen(f[j + 2]));
		set_metric_text(r, f[j + 3], strlen(f[j + 3]));
		if (j + 5 < fs.n && csv_number(f[j + 4], &v) && is_metric_title(f[j + 5])) {
			/* perf 6.1's Level-2 pairs: "10.0,Heavy Operations,20.0,Light Operations" */
			struct rec t;
			rec_init(&t, 0);
			set_metric_text(&t, f[j + 5], strlen(f[j + 5]));
			r->m2name = t.mname;
			r->m2unit = t.munit;
			r->m2kind = t.mkind;
			t.mname = t.munit = NULL;
			rec_release(&t);
			r->m2value = v;
			r->m2step = rec_printed_step(f[j + 4], f[j + 4] + strlen(f[j + 4]));
		} else if (j + 4 < fs.n && f[j + 4][0]) {
			r->mthreshold = xstrdup(f[j + 4]);
		}
	}
	r->kind = R_COUNT;
	ret = 1;
out:
	fields_release(&fs);
	if (ret == 0) {
		int lno = r->line;
		rec_release(r);
		rec_init(r, lno);
	}
	return ret;
}


/* ---------------- --metric-only and --topdown columns ---------------- */

/*
 * perf's --topdown prints its built-in values under no header (perf 6.1
 * leaves the titles blank), in the order of its topdown events: Level 1,
 * then with --td-level 2 the Level-2 pairs (tools/perf/util/stat-shadow.c;
 * checked against the names perf prints beside the same events).
 */
static const char *const topdown_names[] = {
	"Retiring", "Bad Speculation", "Frontend Bound", "Backend Bound",
	"Heavy Operations", "Light Operations", "Branch Mispredict", "Machine Clears",
	"Fetch Latency", "Fetch Bandwidth", "Memory Bound", "Core Bound",
};

const char *const *rec_topdown_names(size_t n)
{
	return n == 4 || n == 12 ? topdown_names : NULL;
}

/* The titles perf gives its label columns ("time", "cpu", "core,cpus"). */
static int is_label_title(const char *s, size_t n)
{
	static const char *const titles[] = { "time", "cpu", "core", "cpus", "socket", "die",
					      "node", "thread", "counts" };
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(titles); i++)
		if (n == strlen(titles[i]) && !strncmp(s, titles[i], n))
			return 1;
	return 0;
}

static void add_title(struct rec *r, const char *s, size_t n)
{
	struct rec t;

	rec_init(&t, 0);
	set_metric_text(&t, s, n);
	/*
	 * perf 6.1's --per-core -x header drops the "%  " its -A header
	 * prints ("tma_retiring" for "%  tma_retiring"): the Top-Down
	 * metrics of perf's tables are percentages (ScaleUnit 100%), its
	 * tma_info_* metrics are not.
	 */
	if (!strcmp(t.munit, t.mname) && !strncmp(t.mname, "tma_", 4) &&
	    strncmp(t.mname, "tma_info_", 9)) {
		free(t.munit);
		t.munit = xstrdup("%");
	}
	r->cols = xrealloc(r->cols, (r->ncols + 1) * sizeof(*r->cols));
	r->col_units = xrealloc(r->col_units, (r->ncols + 1) * sizeof(*r->col_units));
	r->col_kinds = xrealloc(r->col_kinds, (r->ncols + 1) * sizeof(*r->col_kinds));
	r->col_kinds[r->ncols] = t.mkind;
	r->cols[r->ncols] = t.mname;
	r->col_units[r->ncols++] = t.munit;
	t.mname = t.munit = NULL;
	rec_release(&t);
}

/* r holds titles that are perf's: 1 (kind R_COLS), else 0 with r cleared. */
static int titles_done(struct rec *r)
{
	size_t i, sure = 0;

	for (i = 0; i < r->ncols; i++) {
		if (!r->cols[i] || !is_metric_title(r->cols[i])) {
			sure = 0;
			break;
		}
		if (td_perf_metric_is_builtin(r->cols[i]) || !strncmp(r->cols[i], "tma_", 4) ||
		    strcmp(r->col_units[i], r->cols[i]))
			sure++;
	}
	if (!sure) {
		int line = r->line;
		rec_release(r);
		rec_init(r, line);
		return 0;
	}
	r->kind = R_COLS;
	return 1;
}

/*
 * A text --metric-only header: right-aligned titles, some holding spaces
 * ("Frontend Bound", "%  tma_retiring"), some longer than the column and
 * so one space from the next.  A unit, two spaces and an identifier are
 * one title; words one space apart are one title unless the next starts
 * a "%  name"; a wider gap ends a title.
 */
/* The end of a "UNIT  identifier" title starting at w ("%  tma_retiring"), or NULL. */
static const char *unit_title_end(const char *w)
{
	const char *we = token_end(w), *n = skip_ws(we), *ne = token_end(n);

	if (!*n || n - we < 2 || we - w > 12 || memchr(w, '_', (size_t)(we - w)) ||
	    strspn(n, "abcdefghijklmnopqrstuvwxyz0123456789_") != (size_t)(ne - n))
		return NULL;
	return ne;
}

static int parse_text_cols(const char *line, struct rec *r)
{
	const char *p = skip_ws(line), *w, *we, *n, *ne;
	int first = 1;

	r->fmt = F_TEXT;
	if (*p == '#')
		p = skip_ws(p + 1);
	while (*p) {
		const char *start = p;

		w = p;
		we = token_end(w);
		if (first && is_label_title(w, (size_t)(we - w))) {
			p = skip_ws(we);
			continue;
		}
		first = 0;
		if ((ne = unit_title_end(w)) != NULL) {
			/* "%  tma_retiring", "MPKI  itlb_mpki" */
			add_title(r, start, (size_t)(ne - start));
			p = skip_ws(ne);
			continue;
		}
		n = skip_ws(we);
		ne = token_end(n);
		while (*n && n - we == 1) {
			if (unit_title_end(n))
				break; /* "%  name" starts the next title */
			we = ne;
			n = skip_ws(we);
			ne = token_end(n);
		}
		add_title(r, start, (size_t)(we - start));
		p = skip_ws(we);
	}
	return titles_done(r);
}

/*
 * A CSV --metric-only header: titles each ended by the separator.  perf
 * 6.1 joins its label titles with ',' whatever the separator ("cpu,%
 * tma_retiring:%  tma_backend_bound:").  found_sep gets the separator.
 */
static int parse_csv_cols(const char *line, struct rec *r, char *found_sep, size_t found_len)
{
	struct fields fs = { 0 };
	size_t n = strlen(line), i;
	char sep[2] = "";

	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	if (!n || !strchr(csv_seps, line[n - 1]))
		return 0;
	sep[0] = line[n - 1];
	split_fields(line, sep, &fs);
	r->fmt = F_CSV;
	for (i = 0; i + 1 < fs.n; i++) {
		char *f = fs.f[i], *c;
		/* the label titles perf joined with ',' */
		while (i == 0 && sep[0] != ',' && (c = strchr(f, ',')) && is_label_title(f, (size_t)(c - f)))
			f = c + 1;
		if (i == 0 && is_label_title(f, strlen(f)))
			continue;
		if (!r->ncols && (c = strchr(f, ',')) && (is_label_title(f, (size_t)(c - f))))
			continue;
		if (!*f)
			break;
		add_title(r, f, strlen(f));
	}
	/* "core,cpus" alone in the first field, and a second label title */
	fields_release(&fs);
	if (!titles_done(r))
		return 0;
	if (found_sep && found_len > 1)
		snprintf(found_sep, found_len, "%s", sep);
	return 1;
}

static void add_value(struct rec *r, double v, double step)
{
	r->vals = xrealloc(r->vals, (r->nvals + 1) * sizeof(*r->vals));
	r->steps = xrealloc(r->steps, (r->nvals + 1) * sizeof(*r->steps));
	r->vals[r->nvals] = v;
	r->steps[r->nvals++] = isnan(v) ? NAN : step;
}

/*
 * A text row of values: [time] [label [cpus]] then numbers, each maybe
 * with '%' ("30.0%": perf's built-in values).  p is after the time and
 * label.  1 (kind R_ROW) or 0.
 */
static int parse_text_row(const char *p, struct rec *r)
{
	double v;
	const char *q;

	while (*p) {
		q = td_stat_scan_decimal(p, &v);
		if (!q || q == p)
			return 0;
		add_value(r, v, rec_printed_step(p, q));
		if (*q == '%')
			q++;
		if (!is_end_or_ws(q))
			return 0;
		p = skip_ws(q);
	}
	if (!r->nvals)
		return 0;
	r->kind = R_ROW;
	r->fmt = F_TEXT;
	return 1;
}

/*
 * A CSV row of values: [time,][label,[cpus,]]value,...,value, -- perf ends
 * it with the separator and leaves a negative or nan value empty.  sep:
 * the block's separator, or NULL to take the one the row ends with.
 */
static int parse_csv_row(const char *line, const char *sep, struct rec *r, char *found_sep,
			 size_t found_len)
{
	struct fields fs = { 0 };
	size_t n = strlen(line), i = 0, numbers = 0;
	char s1[2] = "";
	double v;
	int ret = 0;

	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	if (!sep) {
		if (!n || !strchr(csv_seps, line[n - 1]))
			return 0;
		s1[0] = line[n - 1];
		sep = s1;
	}
	if (n < strlen(sep) || strncmp(line + n - strlen(sep), sep, strlen(sep)))
		return 0;
	split_fields(line, sep, &fs);
	if (fs.n < 2)
		goto out;
	if (is_csv_time(fs.f[0], &v)) {
		reading(r, RD_TIME, r->time = v);
		i++;
	}
	if (i < fs.n && is_cpu_label(fs.f[i], strlen(fs.f[i]))) {
		r->skind = TD_SCOPE_CPU;
		r->label = xstrdup(fs.f[i++]);
	} else if (i + 1 < fs.n && is_aggr_label(fs.f[i], strlen(fs.f[i]), &r->skind)) {
		r->label = xstrdup(fs.f[i++]);
		if (csv_number(fs.f[i], &v) && reading(r, RD_CPUS, v))
			r->cpus = (int)v;
		i++;
	}
	for (; i + 1 < fs.n; i++) {
		const char *f = fs.f[i];
		if (!*f) {
			add_value(r, NAN, NAN);
			continue;
		}
		if (!csv_number(f, &v) || isnan(v))
			goto out;
		add_value(r, v, rec_printed_step(f, f + strlen(f)));
		numbers++;
	}
	if (!numbers || fs.f[fs.n - 1][0])
		goto out;
	r->kind = R_ROW;
	r->fmt = F_CSV;
	if (s1[0] && found_sep && found_len > 1)
		snprintf(found_sep, found_len, "%s", sep);
	ret = 1;
out:
	fields_release(&fs);
	if (!ret) {
		int line_no = r->line;
		rec_release(r);
		rec_init(r, line_no);
	}
	return ret;
}

/* ---------------- JSON (one flat object per line) ---------------- */

struct kv {
	char key[32];
	char val[256];
	int is_string;
};

/* Parse {"k" : v, ...}; tolerant of perf 6.1's ", }".  0 or -1 (err). */
static int parse_flat_object(const char *p, struct kv *kv, size_t max, size_t *n, const char **err)
{
	*n = 0;
	p = skip_ws(p);
	if (*p++ != '{')
		return *err = "expected '{'", -1;
	for (;;) {
		size_t kl = 0, vl = 0;
		struct kv *e;
		p = skip_ws(p);
		if (*p == '}')
			return 0;
		if (*p != '"')
			return *err = "expected a quoted key", -1;
		if (*n >= max)
			return *err = "too many keys", -1;
		e = &kv[(*n)++];
		memset(e, 0, sizeof(*e));
		for (p++; *p && *p != '"'; p++)
			if (kl < sizeof(e->key) - 1)
				e->key[kl++] = *p;
		if (*p != '"')
			return *err = "unterminated key", -1;
		p = skip_ws(p + 1);
		if (*p != ':')
			return *err = "expected ':' after a key", -1;
		p = skip_ws(p + 1);
		if (*p == '"') {
			e->is_string = 1;
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				if (vl < sizeof(e->val) - 1)
					e->val[vl++] = *p;
			}
			if (*p != '"')
				return *err = "unterminated string", -1;
			p++;
		} else {
			while (*p && *p != ',' && *p != '}' && !isspace((unsigned char)*p))
				if (vl < sizeof(e->val) - 1)
					e->val[vl++] = *p++;
				else
					p++;
			if (!vl)
				return *err = "missing value", -1;
		}
		p = skip_ws(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '}')
			return 0;
		return *err = "expected ',' or '}'", -1;
	}
}

static const struct kv *kv_get(const struct kv *kv, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return &kv[i];
	return NULL;
}

static int kv_number(const struct kv *e, double *v)
{
	return e && csv_number(e->val, v);
}

/*
 * Reading k of r from the key e, if the line has it: 1 with *v when
 * perf can print it, 0 when absent or not (r notes which).
 */
static int kv_reading(struct rec *r, enum rec_reading k, const struct kv *e, double *v)
{
	if (!e)
		return 0;
	if (!csv_number(e->val, v)) {
		reading_not_a_number(r, k, e->val);
		return 0;
	}
	return reading(r, k, *v);
}

static int parse_json(const char *line, struct rec *r)
{
	struct kv kv[24];
	size_t n;
	const char *err = NULL;
	const struct kv *e;
	static const struct { const char *key; enum td_scope_kind kind; } aggr[] = {
		{ "core", TD_SCOPE_CORE }, { "die", TD_SCOPE_DIE }, { "socket", TD_SCOPE_SOCKET },
		{ "node", TD_SCOPE_NODE }, { "cache", TD_SCOPE_CORE }, { "cluster", TD_SCOPE_CORE },
	};
	size_t i;
	double v;

	r->fmt = F_JSON;
	if (parse_flat_object(line, kv, TD_ARRAY_SIZE(kv), &n, &err) < 0) {
		if (strstr(line, "\"counter-value\"") || strstr(line, "\"metric-value\"") ||
		    strstr(line, "\"event\"")) {
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "malformed perf JSON line: %s", err);
			r->err = strbuf_detach(&sb, NULL);
			r->kind = R_BAD;
			return -1;
		}
		return 0;
	}
	if (kv_reading(r, RD_TIME, kv_get(kv, n, "interval"), &v))
		r->time = v;
	if ((e = kv_get(kv, n, "cpu")) != NULL) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s%s", isdigit((unsigned char)e->val[0]) ? "CPU" : "", e->val);
		r->skind = TD_SCOPE_CPU;
		r->label = strbuf_detach(&sb, NULL);
	} else if ((e = kv_get(kv, n, "thread")) != NULL) {
		r->skind = TD_SCOPE_THREAD;
		r->label = xstrdup(e->val);
	} else {
		for (i = 0; i < TD_ARRAY_SIZE(aggr); i++)
			if ((e = kv_get(kv, n, aggr[i].key)) != NULL) {
				r->skind = aggr[i].kind;
				r->label = xstrdup(e->val);
				if (kv_reading(r, RD_CPUS, kv_get(kv, n, "aggregate-number"), &v))
					r->cpus = (int)v;
				break;
			}
	}
	if ((e = kv_get(kv, n, "metric-value")) != NULL && kv_number(e, &v)) {
		const struct kv *u = kv_get(kv, n, "metric-unit");
		/* perf 6.1 prints "(null)" beside a count with no metric */
		if (u && u->val[0] && strcmp(u->val, "(null)")) {
			set_metric_value(r, v, e->val, e->val + strlen(e->val));
			set_metric_text(r, u->val, strlen(u->val));
			if ((e = kv_get(kv, n, "metric-threshold")) != NULL)
				r->mthreshold = xstrdup(e->val);
		}
	}
	if ((e = kv_get(kv, n, "counter-value")) != NULL) {
		const struct kv *ev = kv_get(kv, n, "event");
		if (!ev || !ev->val[0]) {
			r->err = xstrdup("perf JSON line has a counter-value but no event");
			r->kind = R_BAD;
			return -1;
		}
		if (!strcmp(e->val, "<not counted>"))
			r->status = TD_COUNT_NOT_COUNTED;
		else if (!strcmp(e->val, "<not supported>"))
			r->status = TD_COUNT_NOT_SUPPORTED;
		else
			kv_reading(r, RD_COUNT, e, &r->value);
		r->event = pmu_bracket_event(ev->val, strlen(ev->val));
		if (!r->event)
			r->event = xstrdup(ev->val);
		if ((e = kv_get(kv, n, "unit")) != NULL && e->val[0])
			r->unit = xstrdup(e->val);
		if (kv_reading(r, RD_RUN_TIME, kv_get(kv, n, "event-runtime"), &v))
			r->running_ns = v;
		if (kv_reading(r, RD_PCT, kv_get(kv, n, "pcnt-running"), &v))
			r->pct = v;
		if (kv_reading(r, RD_VARIANCE, kv_get(kv, n, "variance"), &v))
			r->variance = v;
		r->kind = R_COUNT;
		return 1;
	}
	if (r->has_metric) {
		r->kind = R_METRIC;
		return 1;
	}
	return 0;
}

/*
 * perf 6.1's --topdown -j: one line of objects with no unit,
 * '{"metric-value" : "30.0"}{"metric-value" : "10.0"}...', after the
 * label keys of an unclosed object ('{"core" : "S0-D0-C0",
 * "aggregate-number" : 1, '), which are read as one object.  1 (kind
 * R_ROW) or 0.
 */
static int parse_json_row(const char *line, struct rec *r)
{
	static const char key[] = "{\"metric-value\"";
	const char *first = strstr(line, key), *p;
	double v;

	if (!first || strstr(line, "\"metric-unit\"") || strstr(line, "\"counter-value\""))
		return 0;
	if (first > line) {
		struct strbuf obj = STRBUF_INIT;
		size_t n = (size_t)(first - line);

		while (n && (isspace((unsigned char)line[n - 1]) || line[n - 1] == ','))
			n--;
		strbuf_add(&obj, line, n);
		strbuf_addch(&obj, '}');
		parse_json(obj.buf, r); /* the label keys */
		strbuf_release(&obj);
		if (r->kind == R_BAD)
			return 0;
	}
	for (p = first; *p; ) {
		const char *q;
		if (strncmp(p, key, sizeof(key) - 1))
			return 0;
		p = skip_ws(p + sizeof(key) - 1);
		if (*p++ != ':')
			return 0;
		p = skip_ws(p);
		if (*p == '"')
			p++;
		if (*p == '"') {
			add_value(r, NAN, NAN);
			q = p;
		} else {
			if (!(q = td_stat_scan_decimal(p, &v)))
				return 0;
			add_value(r, v, rec_printed_step(p, q));
		}
		if (*q == '"')
			q++;
		q = skip_ws(q);
		if (*q != '}')
			return 0;
		p = skip_ws(q + 1);
	}
	r->kind = R_ROW;
	r->fmt = F_JSON;
	return 1;
}

/* "{}", "{      }": the header perf 6.1's --topdown -j prints with no titles */
static int is_empty_object(const char *p)
{
	p = skip_ws(p);
	if (*p++ != '{')
		return 0;
	p = skip_ws(p);
	return *p == '}' && !*skip_ws(p + 1);
}

/* ---------------- dispatch ---------------- */

static int ends_with_sep(const char *line)
{
	size_t n = strlen(line);

	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	return n && strchr(csv_seps, line[n - 1]);
}

void rec_parse(const char *line, const char *csv_sep, char *found_sep, size_t found_len,
	       struct rec *r)
{
	const char *p = skip_ws(line);
	int ret;

	if (*p == '{') {
		ret = parse_json_row(p, r);
		if (ret)
			return;
		rec_release(r);
		rec_init(r, r->line);
		if (is_empty_object(p)) {
			r->fmt = F_JSON;
			r->kind = R_COMMENT;
			return;
		}
		ret = parse_json(p, r);
		if (ret)
			return;
		rec_release(r);
		rec_init(r, r->line);
	}
	if (csv_sep && *csv_sep) {
		ret = parse_csv(line, csv_sep, r);
		if (ret > 0)
			return;
		if (ret < 0) {
			r->kind = R_BAD;
			return;
		}
	}
	/* '-': a negative count, which perf never prints, is still a row to refuse */
	if (*p && (isdigit((unsigned char)*p) || *p == '<' || *p == '-' || isalpha((unsigned char)*p))) {
		const char *s;
		for (s = csv_seps; *s; s++) {
			char sep[2] = { *s, '\0' };
			if (csv_sep && !strcmp(sep, csv_sep))
				continue;
			if (!strchr(line, *s))
				continue;
			ret = parse_csv(line, sep, r);
			/* a new CSV block must show all of perf's columns */
			if (ret > 0 && (r->kind != R_COUNT || r->nfields >= 5 + (!isnan(r->time)) +
					(r->label != NULL))) {
				if (found_sep && found_len > 1)
					snprintf(found_sep, found_len, "%s", sep);
				return;
			}
			rec_release(r);
			rec_init(r, r->line);
		}
	}
	/*
	 * --metric-only -x, --topdown -x: rows of values and a header of
	 * titles, each field ended by the separator (no text line of perf's
	 * ends with one but its header, "... for 'x':")
	 */
	if (ends_with_sep(line) && !strstr(line, "Performance counter stats")) {
		if (parse_csv_row(line, csv_sep && *csv_sep ? csv_sep : NULL, r, found_sep, found_len))
			return;
		if (parse_csv_cols(line, r, found_sep, found_len))
			return;
		rec_release(r);
		rec_init(r, r->line);
	}
	parse_text(line, r);
}
