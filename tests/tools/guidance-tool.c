/*
 * guidance-tool: where each Top-Down node of some table files takes its
 * guidance from (metrics/guidance.h), for t1300.
 *
 *   guidance-tool TABLE.json...   one line per node: "TABLE NODE FILE",
 *                                 FILE "-" when no guidance applies
 *
 * Exit 0, 2 when a table or a guidance file cannot be read.
 */
#include "metrics/guidance.h"
#include "metrics/table.h"

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT;
	int i;

	for (i = 1; i < argc; i++) {
		struct td_table *t = td_table_load(argv[i], &err);
		const struct td_table_info *info;
		size_t k;

		if (!t)
			die("%s", err.buf);
		info = td_table_info(t);
		for (k = 0; k < td_table_nr_metrics(t); k++) {
			const struct td_metric *m = td_table_metric(t, k);
			json_t *g;

			if (m->level < 1)
				continue;
			if (td_guidance_find(info->name, info->vendor, m->id, &g, &err) < 0)
				die("%s", err.buf);
			printf("%s %s %s\n", info->name, m->id, g ? json_string_value(json_object_get(g, "from")) : "-");
			json_decref(g);
		}
		td_table_free(t);
	}
	return 0;
}
