/*
 * Fuzz harness for the perf stat parser (text, CSV, JSON) and the
 * event-name canonicalizer: any input must parse or fail with a message,
 * never crash, leak or read out of bounds.  Also checks invariants of the
 * model: every count has a key and a group, every failure has a message.
 *
 * FUZZ_SOURCES: parse/stat.c parse/stat-lines.c parse/stat-model.c parse/stat-names.c parse/stat-infer.c util/strbuf.c util/message.c util/file.c util/cpulist.c
 * Seeds: tests/fuzz/seed-stat.sh (the published fixtures and tests/fuzz/stat-inputs/).
 */
#include "parse/parse.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct td_stat_file *f = td_stat_parse((const char *)data, size, "fuzz", &err);
	size_t i, j, k;

	if (!f) {
		if (!err.len)
			abort(); /* a failure must say why */
	} else {
		struct td_cpu_guess g;
		for (i = 0; i < f->nr_sessions; i++)
			for (j = 0; j < f->sessions[i].nr_scopes; j++) {
				const struct td_scope *s = &f->sessions[i].scopes[j];
				for (k = 0; k < s->nr_counts; k++) {
					const struct td_count *c = &s->counts[k];
					if (!c->key || !c->event || c->group < 0 || c->group >= s->nr_groups)
						abort();
					if (td_scope_find(s, c->pmu, c->event) == NULL)
						abort(); /* a count must find itself */
				}
				for (k = 0; k < s->nr_perf_metrics; k++) {
					const struct td_perf_metric *m = &s->perf_metrics[k];
					double res;
					/* no number printed <=> blank; a number has its step */
					if (!m->name || !!isnan(m->value) != !!m->blank)
						abort();
					if (!m->blank && !(m->resolution > 0))
						abort();
					td_perf_metric_share(m, &res);
				}
			}
		td_stat_infer_cpu(f, &g);
		td_cpu_guess_release(&g);
		td_stat_file_free(f);
	}
	strbuf_release(&err);
	/* the canonicalizer on the raw bytes as an event name */
	if (size < 512) {
		char *name = malloc(size + 1);
		struct strbuf pmu = STRBUF_INIT, key = STRBUF_INIT;
		memcpy(name, data, size);
		name[size] = '\0';
		td_event_key(name, &pmu, &key);
		strbuf_release(&pmu);
		strbuf_release(&key);
		free(name);
	}
	return 0;
}
