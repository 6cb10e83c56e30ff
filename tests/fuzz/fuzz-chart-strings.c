/*
 * Fuzz harness for the gnuplot script writer with hostile strings: the
 * input (any bytes up to the first NUL) becomes a chart's title, axis
 * labels, series names, row labels and notes, as thread names, -j labels
 * and table.json node names do.  The script is then checked the way gnuplot
 * reads it: outside comments and single-quoted strings (where gnuplot
 * substitutes `commands` and expands @macros) no backtick and no '@' may
 * appear, no comment may continue onto the next line, every line must end
 * outside a string, and no "system" call may appear outside a string.  So
 * no input can make gnuplot run a command, without running gnuplot (t1501
 * runs it on hostile inputs).
 *
 * FUZZ_SOURCES: util/*.c analyze/*.c report/*.c metrics/*.c parse/*.c collect/*.c
 * FUZZ_PKGS: jansson libtraceevent libzstd libdw zlib
 */
#include "analyze/report.h"
#include "analyze/compare.h"
#include "report/render.h"
#include "report/html.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static void die_bad(const char *why, const char *script, size_t at)
{
	fprintf(stderr, "unsafe gnuplot script (%s) at byte %zu:\n%s\n", why, at, script);
	abort();
}

/* Check one script as gnuplot's scanner reads it (see the comment above). */
static void check_script(const char *s)
{
	enum { OUT, SQ, DQ, COMMENT } st = OUT;
	size_t i;

	for (i = 0; s[i]; i++) {
		char c = s[i];

		switch (st) {
		case OUT:
			if (c == '#')
				st = COMMENT;
			else if (c == '\'')
				st = SQ;
			else if (c == '"')
				st = DQ;
			else if (c == '`' || c == '@')
				die_bad("substitution outside a single-quoted string", s, i);
			else if (!strncmp(s + i, "system", 6))
				die_bad("system outside a string", s, i);
			break;
		case SQ:
			if (c == '\'' && s[i + 1] == '\'')
				i++;
			else if (c == '\'')
				st = OUT;
			else if (c == '\n')
				die_bad("line break inside a single-quoted string", s, i);
			break;
		case DQ:
			if (c == '\\' && s[i + 1])
				i++;
			else if (c == '"')
				st = OUT;
			else if (c == '`' || c == '@')
				die_bad("substitution inside a double-quoted string", s, i);
			else if (c == '\n')
				die_bad("line break inside a double-quoted string", s, i);
			break;
		case COMMENT:
			if (c == '\n') {
				if (i && s[i - 1] == '\\')
					die_bad("comment continued onto the next line", s, i);
				st = OUT;
			}
			break;
		}
	}
	if (st == SQ || st == DQ)
		die_bad("script ends inside a string", s, i);
}

static void check_file(const char *name)
{
	char path[128];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		abort(); /* the writer said it wrote it */
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	buf[n] = '\0';
	fclose(f);
	/* the script must hold no NUL either: gnuplot would cut the line there */
	if (strlen(buf) != (size_t)n)
		abort();
	check_script(buf);
	free(buf);
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum td_chart_kind kinds[] = { TD_CHART_STACKED, TD_CHART_AREA, TD_CHART_SIGNED,
						    TD_CHART_LINE };
	char *text = strndup((const char *)data, size);
	struct strbuf err = STRBUF_INIT;
	size_t k;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/tdperf-fuzz-gp-%d", (int)getpid());
		td_mkdir_p(dir);
	}
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct td_chart *c = td_chart_new("chart", text, kinds[k]);
		struct td_chart_row *r;

		c->ylabel = strdup(text);
		c->xlabel = strdup(text);
		td_chart_add_series(c, "a", text, "#000000");
		td_chart_add_series(c, text, NULL, "#111111");
		r = td_chart_add_row(c, text);
		r->x = 1;
		r->values[0] = 0.5;
		r->values[1] = 0.25;
		strbuf_addstr(&c->notes, text);
		strbuf_addch(&c->notes, '\n');
		if (td_chart_write(c, dir, "svg", &err) == 0) {
			check_file("chart.gp");
		}
		strbuf_reset(&err);
		td_chart_free(c);
	}
	strbuf_release(&err);
	free(text);
	return 0;
}
