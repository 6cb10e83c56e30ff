/*
 * stat-dump: print the count model that parse/ builds from a perf stat
 * output, one line per session, scope, count and perf metric, in a stable
 * form the end-to-end tests can grep.  A test tool, not installed.
 */
#include "parse/parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void print_num(const char *name, double v)
{
	if (!isnan(v))
		printf(" %s=%.15g", name, v);
}

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	struct td_stat_file *f;
	size_t i, j, k;

	if (argc != 2) {
		fprintf(stderr, "usage: stat-dump FILE\n");
		return 2;
	}
	if (!(f = td_stat_parse_file(argv[1], &err))) {
		fprintf(stderr, "tdperf: %s\n", err.buf);
		return 2;
	}
	for (i = 0; i < f->nr_sessions; i++) {
		const struct td_stat *st = &f->sessions[i];
		printf("session %zu format=%s line=%d target=%s repeats=%d interval=%d hybrid=%d legacy=%d variance=%d elided=%d",
		       i + 1, st->format, st->line, st->target ? st->target : "-", st->repeats,
		       st->interval, st->hybrid, st->legacy_topdown, st->has_variance, st->elided);
		if (st->metric_only)
			printf(" metric_only=1");
		if (st->elapsed_from_duration)
			printf(" elapsed_from=duration_time");
		if (st->perf_version)
			printf(" perf=%s", st->perf_version);
		print_num("elapsed", st->elapsed_s);
		print_num("user", st->user_s);
		print_num("sys", st->sys_s);
		printf("\n");
		for (j = 0; j < st->nr_scopes; j++) {
			const struct td_scope *s = &st->scopes[j];
			printf(" scope %s label=%s cpus=%d groups=%d", td_scope_kind_name(s->kind),
			       s->label ? s->label : "-", s->cpus, s->nr_groups);
			print_num("time", s->time);
			printf("\n");
			for (k = 0; k < s->nr_counts; k++) {
				const struct td_count *c = &s->counts[k];
				printf("  count %s pmu=%s key=%s group=%d status=%d", c->event,
				       c->pmu ? c->pmu : "-", c->key ? c->key : "-", c->group, (int)c->status);
				print_num("value", c->value);
				if (c->unit)
					printf(" unit=%s", c->unit);
				if (c->modifiers)
					printf(" mods=%s", c->modifiers);
				print_num("pct", c->running_pct);
				print_num("run_ns", c->running_ns);
				print_num("var", c->variance_pct);
				printf(" line=%d\n", c->line);
			}
			for (k = 0; k < s->nr_perf_metrics; k++) {
				const struct td_perf_metric *m = &s->perf_metrics[k];
				printf("  metric '%s' pmu=%s value=%.15g unit=%s group=%d", m->name,
				       m->pmu ? m->pmu : "-", m->value, m->unit ? m->unit : "-", m->group);
				if (m->threshold)
					printf(" threshold=%s", m->threshold);
				printf(" kind=%s", m->kind == TD_PM_TMA ? "tma" :
				       m->kind == TD_PM_BUILTIN ? "builtin" : "other");
				print_num("res", m->resolution);
				if (m->blank)
					printf(" blank");
				print_num("share", td_perf_metric_share(m, NULL));
				printf(" line=%d\n", m->line);
			}
		}
	}
	td_stat_file_free(f);
	strbuf_release(&err);
	return 0;
}
