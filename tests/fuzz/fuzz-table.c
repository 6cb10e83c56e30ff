/*
 * Fuzz harness for the formula table loader and the tree evaluator: load
 * a table from the input bytes; when it loads, evaluate its tree with a
 * lookup that knows some names.
 *
 * FUZZ_SOURCES: util/*.c metrics/expr.c metrics/table.c metrics/find.c metrics/tree.c
 * FUZZ_PKGS: jansson
 */
#include <stdint.h>
#include <string.h>

#include "metrics/expr.h"
#include "metrics/table.h"
#include "metrics/tree.h"

static int lookup(void *ctx, const char *name, double *value)
{
	size_t n = strlen(name);

	if (n % 4 == 0)
		return -1;
	*value = (double)(n * 1000 % 997);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct td_table *t = td_table_load_data((const char *)data, size, "fuzz.json", &err);
	struct td_env env = { lookup, NULL };
	struct td_tree_result r;

	if (t) {
		td_tree_eval(t, &env, NULL, &r);
		td_tree_result_release(&r);
		td_table_free(t);
	}
	strbuf_release(&err);
	return 0;
}
