/*
 * Test tool: print every tracepoint sample of a perf.data in time order
 * through the field accessors of the reader API (the ones analyses use),
 * one line per sample: "EVENT pid=P tid=T cpu=C time=T FIELD=VALUE ...".
 * Numbers print in decimal, char arrays as strings.
 *
 * usage: perfdata-fields FILE
 */
#include "parse/parse.h"

#include <inttypes.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	const struct td_pd_record *r;
	struct td_pd *pd;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: perfdata-fields FILE\n");
		return 2;
	}
	pd = td_pd_open(argv[1], 0, &err);
	if (!pd) {
		fprintf(stderr, "perfdata-fields: %s\n", err.buf);
		return 2;
	}
	while ((ret = td_pd_next(pd, &r)) > 0) {
		const struct td_pd_sample *s = &r->sample;
		const char *names[64];
		size_t n, i;

		if (r->type != TD_PD_SAMPLE || !r->has_sample || !s->event->tp)
			continue;
		strbuf_reset(&line);
		/* pid/tid -1 (exiting tasks) print signed, as perf does */
		strbuf_addf(&line, "%s pid=%d tid=%d cpu=%d time=%" PRIu64, s->event->name,
			    (int32_t)s->pid, (int32_t)s->tid, (int32_t)s->cpu, s->time);
		n = td_pd_tp_field_names(s->event, names, 64);
		for (i = 0; i < n; i++) {
			const struct td_pd_field *f = td_pd_tp_field(s->event, names[i]);
			int64_t v;

			strbuf_addf(&line, " %s=", names[i]);
			if (td_pd_field_num(f, s, &v) == 0)
				strbuf_addf(&line, "%" PRId64, v);
			else if (td_pd_field_str(f, s, &line) < 0)
				strbuf_addstr(&line, "?");
		}
		puts(line.buf);
	}
	if (ret < 0) {
		fprintf(stderr, "perfdata-fields: %s\n", td_pd_error(pd));
		return 2;
	}
	td_pd_close(pd);
	strbuf_release(&line);
	strbuf_release(&err);
	return 0;
}
