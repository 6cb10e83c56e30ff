/*
 * The regression gate's text and JUnit XML (analyze/gate.h builds the
 * document; docs/diff-schema.md, "Regression gate").
 *
 * JUnit XML as Jenkins' junit plugin and GitLab's test reports read it:
 * <testsuites> holding one <testsuite> with tests/failures/errors/skipped
 * counts, one <testcase name classname time> per rule, a broken rule with
 * <failure message type>, a rule that could not be checked with <skipped
 * message>.
 */
#include "config.h"
#include "report/render.h"
#include "analyze/doc.h"

#include <math.h>
#include <string.h>
#include <time.h>

static void put_printable(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_printable(&sb, s ? s : "");
	fputs(sb.buf, out);
	strbuf_release(&sb);
}

/* A mean with its unit's natural precision. */
static void fmt_value(struct strbuf *sb, double v, const char *kind)
{
	if (isnan(v))
		strbuf_addstr(sb, "-");
	else if (!strcmp(kind, "fraction"))
		strbuf_addf(sb, "%.2f%%", 100 * v);
	else
		strbuf_addf(sb, "%.4g", v);
}

static void metric_row(json_t *m, double confidence, FILE *out)
{
	const char *kind = td_json_str(m, "kind"), *unit = td_json_str(m, "unit");
	const char *cu = td_json_str(m, "change_unit");
	json_t *ci = json_object_get(m, "change_ci"), *base = json_object_get(m, "base"),
	       *new_ = json_object_get(m, "new");
	struct strbuf name = STRBUF_INIT, b = STRBUF_INIT, n = STRBUF_INIT, ch = STRBUF_INIT;
	double t = td_json_num(json_object_get(m, "t")), df = td_json_num(json_object_get(m, "df"));
	double p = td_json_num(json_object_get(m, "p")), c = td_json_num(json_object_get(m, "change"));

	(void)confidence;
	strbuf_add_printable(&name, td_json_str(m, "id"));
	if (unit && strcmp(kind, "fraction"))
		strbuf_addf(&name, " (%s)", unit);
	fmt_value(&b, td_json_num(json_object_get(base, "mean")), kind);
	strbuf_addf(&b, " ±");
	fmt_value(&b, td_json_num(json_object_get(base, "sd")), kind);
	fmt_value(&n, td_json_num(json_object_get(new_, "mean")), kind);
	strbuf_addf(&n, " ±");
	fmt_value(&n, td_json_num(json_object_get(new_, "sd")), kind);
	if (isnan(c))
		strbuf_addstr(&ch, "-");
	else
		strbuf_addf(&ch, "%+.2f%s [%+.2f, %+.2f]", c, strcmp(cu, "pt") ? "%" : "pt",
			    td_json_num(json_array_get(ci, 0)), td_json_num(json_array_get(ci, 1)));
	fprintf(out, "  %-28s %20s %20s  %-30s", name.buf, b.buf, n.buf, ch.buf);
	if (json_is_string(json_object_get(m, "t")))
		fprintf(out, " %7s %6s", td_json_str(m, "t"), "-");
	else if (isnan(t))
		fprintf(out, " %7s %6s", "-", "-");
	else
		fprintf(out, " %7.2f %6.1f", t, df);
	if (isnan(p))
		fprintf(out, " %8s", "-");
	else
		fprintf(out, " %8.2g", p);
	fprintf(out, "  %s%s\n", td_json_str(m, "verdict"),
		json_is_true(json_object_get(m, "approximate")) ? " ~" : "");
	strbuf_release(&name);
	strbuf_release(&b);
	strbuf_release(&n);
	strbuf_release(&ch);
}

static void side_line(json_t *side, FILE *out)
{
	json_t *in;
	size_t i;

	fprintf(out, "%s: %lld run%s (", td_json_str(side, "label"),
		(long long)json_integer_value(json_object_get(side, "runs")),
		json_integer_value(json_object_get(side, "runs")) == 1 ? "" : "s");
	json_array_foreach(json_object_get(side, "inputs"), i, in) {
		if (i)
			fputs(" ", out);
		put_printable(out, json_string_value(in));
	}
	fprintf(out, ")%s%s", json_is_true(json_object_get(side, "hardware_counts")) ? "" : ", software counts only",
		json_is_true(json_object_get(side, "perf_repeats")) ? ", perf stat -r summaries" : "");
	if (td_json_str(side, "pmu"))
		fprintf(out, ", plain ids are %s's, other PMUs' are ID#PMU", td_json_str(side, "pmu"));
	fputc('\n', out);
}

void td_gate_render_text(json_t *gate, FILE *out)
{
	double confidence = td_json_num(json_object_get(gate, "confidence"));
	json_t *m, *r;
	size_t i;
	int approx = 0, failed = td_json_int(json_object_get(gate, "failed"), 0);

	fprintf(out, "Regression gate: Welch's t-test of new - base, %g%% confidence\n", 100 * confidence);
	side_line(json_object_get(gate, "base"), out);
	side_line(json_object_get(gate, "new"), out);
	if (td_json_str(gate, "note"))
		fprintf(out, "note: %s\n", td_json_str(gate, "note"));
	fprintf(out, "\n  %-28s %20s %20s  %-30s %7s %6s %8s  %s\n", "metric", "base mean ±sd",
		"new mean ±sd", "change [interval]", "t", "df", "p", "verdict");
	json_array_foreach(json_object_get(gate, "metrics"), i, m) {
		metric_row(m, confidence, out);
		approx |= json_is_true(json_object_get(m, "approximate"));
	}
	if (approx)
		fputs("  ~ approximate spread: perf stat -r N printed means and standard errors; a formula's are\n"
		      "    propagated first-order, and a printed \"+- 0.00 %\" is taken as 0.005 % (JSON: approximation)\n", out);
	fprintf(out, "\nRules (%s):\n", td_json_str(gate, "rules_source"));
	json_array_foreach(json_object_get(gate, "rules"), i, r) {
		const char *status = td_json_str(r, "status");

		fprintf(out, "  %-12s ", !strcmp(status, "failed") ? "FAIL" : !strcmp(status, "passed") ? "pass" : status);
		put_printable(out, td_json_str(r, "rule"));
		fputs(": ", out);
		put_printable(out, td_json_str(r, "message"));
		fputc('\n', out);
	}
	fprintf(out, "Result: %s: %d of %zu rule%s broken", failed ? "FAIL" : "pass", failed,
		json_array_size(json_object_get(gate, "rules")),
		json_array_size(json_object_get(gate, "rules")) == 1 ? "" : "s");
	if (td_json_int(json_object_get(gate, "unchecked"), 0))
		fprintf(out, ", %d not checked (not measured or not tested)",
			td_json_int(json_object_get(gate, "unchecked"), 0));
	fputc('\n', out);
}

static void put_xml(FILE *out, const char *s)
{
	struct strbuf printable = STRBUF_INIT, xml = STRBUF_INIT;

	strbuf_add_printable(&printable, s ? s : "");
	strbuf_add_html(&xml, printable.buf);
	fputs(xml.buf, out);
	strbuf_release(&printable);
	strbuf_release(&xml);
}

static void junit_case(json_t *r, FILE *out)
{
	const char *status = td_json_str(r, "status");

	fputs("    <testcase classname=\"tdperf.gate\" name=\"", out);
	put_xml(out, td_json_str(r, "rule"));
	fputs("\" time=\"0\">\n", out);
	if (!strcmp(status, "failed")) {
		fputs("      <failure type=\"regression\" message=\"", out);
		put_xml(out, td_json_str(r, "message"));
		fputs("\">", out);
		put_xml(out, td_json_str(r, "message"));
		fputs("</failure>\n", out);
	} else if (strcmp(status, "passed")) {
		fputs("      <skipped message=\"", out);
		put_xml(out, td_json_str(r, "message"));
		fputs("\"/>\n", out);
	} else {
		fputs("      <system-out>", out);
		put_xml(out, td_json_str(r, "message"));
		fputs("</system-out>\n", out);
	}
	fputs("    </testcase>\n", out);
}

void td_gate_render_junit(json_t *gate, FILE *out)
{
	json_t *rules = json_object_get(gate, "rules"), *r;
	size_t i, tests = json_array_size(rules);
	int failed = td_json_int(json_object_get(gate, "failed"), 0);
	int skipped = td_json_int(json_object_get(gate, "unchecked"), 0);
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"tdperf regression gate\" tests=\"%zu\" failures=\"%d\" errors=\"0\" "
		"skipped=\"%d\" time=\"0\">\n", tests, failed, skipped);
	fprintf(out, "  <testsuite name=\"tdperf diff --check\" tests=\"%zu\" failures=\"%d\" errors=\"0\" "
		"skipped=\"%d\" time=\"0\" timestamp=\"%s\">\n", tests, failed, skipped, stamp);
	fputs("    <properties>\n", out);
	fprintf(out, "      <property name=\"confidence\" value=\"%g\"/>\n",
		td_json_num(json_object_get(gate, "confidence")));
	fputs("      <property name=\"method\" value=\"", out);
	put_xml(out, td_json_str(gate, "method_text"));
	fputs("\"/>\n", out);
	if (td_json_str(gate, "note")) {
		fputs("      <property name=\"note\" value=\"", out);
		put_xml(out, td_json_str(gate, "note"));
		fputs("\"/>\n", out);
	}
	fputs("    </properties>\n", out);
	json_array_foreach(rules, i, r)
		junit_case(r, out);
	fputs("  </testsuite>\n</testsuites>\n", out);
}
