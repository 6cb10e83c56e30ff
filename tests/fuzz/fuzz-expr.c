/*
 * Fuzz harness for the metric expression parser and evaluator: parse,
 * print, parse the printed form again (it must parse and print the same),
 * evaluate both with a lookup that knows some names.
 *
 * FUZZ_SOURCES: util/*.c metrics/expr.c metrics/table.c metrics/find.c metrics/tree.c
 * FUZZ_PKGS: jansson
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"

static int lookup(void *ctx, const char *name, double *value)
{
	size_t n = strlen(name);

	if (n % 3 == 0)
		return -1;
	*value = (double)(n % 7);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT, out = STRBUF_INIT, out2 = STRBUF_INIT;
	struct strbuf why = STRBUF_INIT;
	struct td_env env = { lookup, NULL };
	struct td_expr *e, *e2;

	if (size > 4096)
		return 0;
	strbuf_add(&text, data, size);
	if (strlen(text.buf) != size)
		goto out;      /* embedded NUL: not an expression string */
	e = td_expr_parse(text.buf, &err);
	if (!e)
		goto out;
	td_expr_print(e, &out);
	e2 = td_expr_parse(out.buf, &err);
	if (!e2)
		abort();       /* what we print must parse */
	td_expr_print(e2, &out2);
	if (strcmp(out.buf, out2.buf))
		abort();       /* and print the same */
	(void)td_expr_eval(e, &env, &why);
	(void)td_expr_eval(e2, &env, NULL);
	td_expr_free(e);
	td_expr_free(e2);
out:
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&out2);
	strbuf_release(&why);
	return 0;
}
