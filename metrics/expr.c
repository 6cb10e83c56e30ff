/*
 * The metric expression language: the dialect of Linux perf's MetricExpr
 * (the syntax of perf's and Intel's metric tables), parsed once into a
 * tree and evaluated many times.
 *
 * Grammar, loosest binding first:
 *
 *   expr    := or [ "if" or "else" expr ]          (right associative)
 *   or      := xor { "|" xor }
 *   xor     := and { "^" and }
 *   and     := cmp { "&" cmp }
 *   cmp     := sum { ("<" | ">" | "<=" | ">=" | "==" | "!=") sum }
 *   sum     := product { ("+" | "-") product }
 *   product := unary { ("*" | "/" | "%") unary }
 *   unary   := ("-" | "+" | "!") unary | primary
 *   primary := number | name | "(" expr ")"
 *            | ("min" | "max" | "d_ratio") "(" expr "," expr ")"
 *            | ("source_count" | "has_event") "(" name ")"
 *
 * Names are events ("INST_RETIRED.ANY", "UOPS_DECODED.DEC0:c1",
 * "cpu@INST_DECODED.DECODERS\,cmask\=1@", "topdown\-fe\-bound"),
 * literals ("#smt_on", "duration_time") or metric references.  A
 * backslash escapes the next character; "@...@" quotes a PMU term list;
 * ":mod" suffixes are part of the name.  Names are stored unescaped;
 * literals are lower-cased because perf treats them case-insensitively.
 */
#include "metrics/expr-int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------- nodes ---------------- */

struct td_expr *td_expr_new(enum td_op op)
{
	struct td_expr *e = xcalloc(1, sizeof(*e));

	e->op = op;
	e->metric = -1;
	e->slot = -1;
	return e;
}

void td_expr_free(struct td_expr *e)
{
	int i;

	if (!e)
		return;
	for (i = 0; i < 3; i++)
		td_expr_free(e->kid[i]);
	free(e->name);
	free(e);
}

int td_name_is_literal(const char *name)
{
	return name[0] == '#' || !strcmp(name, "duration_time");
}

/* ---------------- lexer ---------------- */

enum tok {
	T_END, T_NUM, T_NAME, T_LP, T_RP, T_COMMA,
	T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PCT,
	T_LT, T_GT, T_LE, T_GE, T_EQ, T_NE, T_AMP, T_BAR, T_CARET, T_BANG,
	T_IF, T_ELSE, T_MIN, T_MAX, T_DRATIO, T_SOURCE_COUNT, T_HAS_EVENT,
	T_ERROR,
};

struct parser {
	const char *text;
	const char *p;           /* next unread character */
	enum tok tok;            /* current token */
	const char *tok_start;
	double num;
	struct strbuf name;      /* unescaped name of a T_NAME */
	struct strbuf *err;
	int failed;
	int depth;
};

/*
 * Say what is wrong and where.  A long expression (a table's formula can be
 * megabytes) is not repeated: the message names the offset and quotes the
 * text there, so it stays one readable line.
 */
static void fail(struct parser *ps, const char *what)
{
	size_t len, at;

	if (ps->failed)
		return;
	ps->failed = 1;
	if (!ps->err)
		return;
	len = strlen(ps->text);
	at = (size_t)(ps->tok_start - ps->text);
	if (len <= 160)
		strbuf_addf(ps->err, "%s at offset %zu in '%s'", what, at, ps->text);
	else
		strbuf_addf(ps->err, "%s at offset %zu of a %zu-character expression, near '%.40s%s'",
			    what, at, len, ps->tok_start, len - at > 40 ? "..." : "");
}

static int name_start(int c)
{
	return isalpha(c) || c == '_' || c == '#' || c == '\\';
}

static int name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '#';
}

/* Read a name (with escapes, @...@ segments, :modifiers) into ps->name. */
static void lex_name(struct parser *ps)
{
	const char *p = ps->p;

	strbuf_reset(&ps->name);
	for (;;) {
		if (*p == '\\') {
			if (!p[1]) {
				ps->p = p + 1;
				fail(ps, "backslash at end of expression");
				return;
			}
			strbuf_addch(&ps->name, p[1]);
			p += 2;
		} else if (*p == '@') {
			/* cpu@EVENT\,cmask\=1@: everything up to the next unescaped '@' */
			strbuf_addch(&ps->name, *p++);
			while (*p && *p != '@') {
				if (*p == '\\' && p[1])
					p++;
				strbuf_addch(&ps->name, *p++);
			}
			if (*p != '@') {
				ps->p = p;
				fail(ps, "unterminated '@' in event name");
				return;
			}
			strbuf_addch(&ps->name, *p++);
		} else if (*p == ':' && (isalnum((unsigned char)p[1]) || p[1] == '_')) {
			/* modifiers: :k :u :c1:e1 :retire_latency :ocr_msr_val=0x1 */
			strbuf_addch(&ps->name, *p++);
			while (isalnum((unsigned char)*p) || *p == '_' || *p == '=' || *p == '.')
				strbuf_addch(&ps->name, *p++);
		} else if (name_char((unsigned char)*p)) {
			strbuf_addch(&ps->name, *p++);
		} else {
			break;
		}
	}
	ps->p = p;
}

static const struct { const char *word; enum tok tok; } keywords[] = {
	{ "if", T_IF }, { "else", T_ELSE }, { "min", T_MIN }, { "max", T_MAX },
	{ "d_ratio", T_DRATIO }, { "source_count", T_SOURCE_COUNT },
	{ "has_event", T_HAS_EVENT },
};

static void next(struct parser *ps)
{
	const char *p = ps->p;
	size_t i;

	while (isspace((unsigned char)*p))
		p++;
	ps->tok_start = p;
	ps->p = p + 1;
	switch (*p) {
	case '\0': ps->p = p; ps->tok = T_END; return;
	case '(': ps->tok = T_LP; return;
	case ')': ps->tok = T_RP; return;
	case ',': ps->tok = T_COMMA; return;
	case '+': ps->tok = T_PLUS; return;
	case '-': ps->tok = T_MINUS; return;
	case '*': ps->tok = T_STAR; return;
	case '/': ps->tok = T_SLASH; return;
	case '%': ps->tok = T_PCT; return;
	case '&': ps->tok = T_AMP; return;
	case '|': ps->tok = T_BAR; return;
	case '^': ps->tok = T_CARET; return;
	case '<':
		if (p[1] == '=') { ps->p = p + 2; ps->tok = T_LE; } else ps->tok = T_LT;
		return;
	case '>':
		if (p[1] == '=') { ps->p = p + 2; ps->tok = T_GE; } else ps->tok = T_GT;
		return;
	case '=':
		if (p[1] == '=') { ps->p = p + 2; ps->tok = T_EQ; return; }
		break;
	case '!':
		if (p[1] == '=') { ps->p = p + 2; ps->tok = T_NE; } else ps->tok = T_BANG;
		return;
	}
	if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
		char *end;

		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			ps->num = (double)strtoull(p, &end, 16);
		else {
			errno = 0;
			ps->num = strtod(p, &end);
		}
		if (end != p && !isalpha((unsigned char)*end) && *end != '_') {
			ps->p = end;
			ps->tok = T_NUM;
			/* 1e999 would be inf and 1e-400 a silent 0: not the number written */
			if (errno == ERANGE && (isinf(ps->num) || ps->num == 0)) {
				ps->tok = T_ERROR;
				fail(ps, "number out of the range of a double");
			}
			return;
		}
		if (end == p || (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))) {
			ps->p = end;
			ps->tok = T_ERROR;
			fail(ps, "malformed number");
			return;
		}
		/* digits then letters: a name such as "4k_aliasing" */
	}
	if (name_start((unsigned char)*p) || isdigit((unsigned char)*p)) {
		ps->p = p;
		lex_name(ps);
		if (ps->failed) {
			ps->tok = T_ERROR;
			return;
		}
		ps->tok = T_NAME;
		for (i = 0; i < TD_ARRAY_SIZE(keywords); i++)
			if (!strcmp(ps->name.buf, keywords[i].word))
				ps->tok = keywords[i].tok;
		return;
	}
	ps->tok = T_ERROR;
	fail(ps, "unexpected character");
}

/* ---------------- parser ---------------- */

static struct td_expr *parse_expr(struct parser *ps);

/*
 * Set e's height from its children's; NULL with an error when the tree got
 * deeper than the walkers may recurse (TD_EXPR_MAX_HEIGHT), e freed.
 */
static struct td_expr *grown(struct parser *ps, struct td_expr *e)
{
	int i;

	e->height = 0;
	for (i = 0; i < 3; i++)
		if (e->kid[i] && e->kid[i]->height + 1 > e->height)
			e->height = e->kid[i]->height + 1;
	if (e->height > TD_EXPR_MAX_HEIGHT) {
		char what[96];

		snprintf(what, sizeof(what), "expression too deep (more than %d operators in a chain)",
			 TD_EXPR_MAX_HEIGHT);
		fail(ps, what);
		td_expr_free(e);
		return NULL;
	}
	return e;
}

static struct td_expr *binary(struct parser *ps, enum td_op op, struct td_expr *a, struct td_expr *b)
{
	struct td_expr *e = td_expr_new(op);

	e->kid[0] = a;
	e->kid[1] = b;
	return grown(ps, e);
}

static struct td_expr *name_node(struct parser *ps)
{
	struct td_expr *e = td_expr_new(TD_OP_NAME);

	e->name = xstrdup(ps->name.buf);
	if (td_name_is_literal(e->name)) {
		char *c;

		e->kind = TD_NAME_LITERAL;
		for (c = e->name; *c; c++)
			*c = (char)tolower((unsigned char)*c);
	} else {
		e->kind = TD_NAME_EVENT;
	}
	return e;
}

static int expect(struct parser *ps, enum tok t, const char *what)
{
	if (ps->tok != t) {
		fail(ps, what);
		return -1;
	}
	next(ps);
	return 0;
}

static struct td_expr *parse_primary(struct parser *ps)
{
	struct td_expr *e = NULL;

	if (++ps->depth > 200) {
		fail(ps, "expression nested too deeply");
		return NULL;
	}
	switch (ps->tok) {
	case T_NUM:
		e = td_expr_new(TD_OP_NUM);
		e->num = ps->num;
		next(ps);
		break;
	case T_NAME:
		e = name_node(ps);
		next(ps);
		break;
	case T_LP:
		next(ps);
		e = parse_expr(ps);
		if (e && expect(ps, T_RP, "expected ')'"))
			goto bad;
		break;
	case T_MIN: case T_MAX: case T_DRATIO: {
		enum td_op op = ps->tok == T_MIN ? TD_OP_MIN :
				ps->tok == T_MAX ? TD_OP_MAX : TD_OP_DRATIO;

		next(ps);
		if (expect(ps, T_LP, "expected '(' after function name"))
			goto bad;
		e = td_expr_new(op);
		if (!(e->kid[0] = parse_expr(ps)) || expect(ps, T_COMMA, "expected ','") ||
		    !(e->kid[1] = parse_expr(ps)) || expect(ps, T_RP, "expected ')'"))
			goto bad;
		e = grown(ps, e);
		break;
	}
	case T_SOURCE_COUNT: case T_HAS_EVENT: {
		enum td_op op = ps->tok == T_HAS_EVENT ? TD_OP_HAS_EVENT : TD_OP_SOURCE_COUNT;

		next(ps);
		if (expect(ps, T_LP, "expected '(' after function name"))
			goto bad;
		if (ps->tok != T_NAME) {
			fail(ps, "expected an event name");
			goto bad;
		}
		e = td_expr_new(op);
		e->kid[0] = name_node(ps);
		next(ps);
		if (expect(ps, T_RP, "expected ')'"))
			goto bad;
		break;
	}
	case T_END:
		fail(ps, "unexpected end of expression");
		break;
	default:
		fail(ps, "expected a number, a name or '('");
		break;
	}
	ps->depth--;
	return e;
bad:
	ps->depth--;
	td_expr_free(e);
	return NULL;
}

static struct td_expr *parse_unary(struct parser *ps)
{
	if (ps->tok == T_MINUS || ps->tok == T_BANG || ps->tok == T_PLUS) {
		enum tok t = ps->tok;
		struct td_expr *e, *k;

		if (++ps->depth > 200) {
			fail(ps, "expression nested too deeply");
			return NULL;
		}
		next(ps);
		k = parse_unary(ps);
		ps->depth--;
		if (!k)
			return NULL;
		if (t == T_PLUS)
			return k;
		e = td_expr_new(t == T_MINUS ? TD_OP_NEG : TD_OP_NOT);
		e->kid[0] = k;
		return grown(ps, e);
	}
	return parse_primary(ps);
}

/* One left-associative precedence level: ops[] maps tokens to operators. */
struct level { enum tok tok; enum td_op op; };

static struct td_expr *parse_level(struct parser *ps, int lvl);

static const struct level levels[][6] = {
	{ { T_BAR, TD_OP_OR } },
	{ { T_CARET, TD_OP_XOR } },
	{ { T_AMP, TD_OP_AND } },
	{ { T_LT, TD_OP_LT }, { T_GT, TD_OP_GT }, { T_LE, TD_OP_LE },
	  { T_GE, TD_OP_GE }, { T_EQ, TD_OP_EQ }, { T_NE, TD_OP_NE } },
	{ { T_PLUS, TD_OP_ADD }, { T_MINUS, TD_OP_SUB } },
	{ { T_STAR, TD_OP_MUL }, { T_SLASH, TD_OP_DIV }, { T_PCT, TD_OP_MOD } },
};

static struct td_expr *parse_level(struct parser *ps, int lvl)
{
	struct td_expr *e;

	if (lvl == (int)TD_ARRAY_SIZE(levels))
		return parse_unary(ps);
	e = parse_level(ps, lvl + 1);
	while (e) {
		const struct level *l = levels[lvl];
		int i, found = -1;
		struct td_expr *r;

		for (i = 0; i < 6 && l[i].tok; i++)
			if (l[i].tok == ps->tok)
				found = i;
		if (found < 0)
			break;
		next(ps);
		r = parse_level(ps, lvl + 1);
		if (!r) {
			td_expr_free(e);
			return NULL;
		}
		e = binary(ps, l[found].op, e, r);
	}
	return e;
}

static struct td_expr *parse_expr(struct parser *ps)
{
	struct td_expr *e, *c, *f, *n;

	if (++ps->depth > 200) {
		fail(ps, "expression nested too deeply");
		return NULL;
	}
	e = parse_level(ps, 0);
	if (e && ps->tok == T_IF) {
		next(ps);
		c = parse_level(ps, 0);
		if (!c || expect(ps, T_ELSE, "expected 'else'")) {
			td_expr_free(c);
			td_expr_free(e);
			ps->depth--;
			return NULL;
		}
		f = parse_expr(ps);
		if (!f) {
			td_expr_free(c);
			td_expr_free(e);
			ps->depth--;
			return NULL;
		}
		n = td_expr_new(TD_OP_IF);
		n->kid[0] = e;
		n->kid[1] = c;
		n->kid[2] = f;
		e = grown(ps, n);
	}
	ps->depth--;
	return e;
}

/* Set literal_only over the tree (its height is bounded by the parser). */
static int mark_literal_only(struct td_expr *e)
{
	int only = e->op == TD_OP_NUM || (e->op == TD_OP_NAME && e->name && e->name[0] == '#');
	size_t i;

	if (e->op != TD_OP_NUM && e->op != TD_OP_NAME) {
		only = 1;
		for (i = 0; i < TD_ARRAY_SIZE(e->kid); i++)
			if (e->kid[i] && !mark_literal_only(e->kid[i]))
				only = 0;
		/* has_event() and source_count() ask about the counts */
		if (e->op == TD_OP_HAS_EVENT || e->op == TD_OP_SOURCE_COUNT)
			only = 0;
	}
	e->literal_only = only;
	return only;
}

struct td_expr *td_expr_parse(const char *text, struct strbuf *err)
{
	struct parser ps = { 0 };
	struct td_expr *e;

	ps.text = ps.p = ps.tok_start = text;
	ps.err = err;
	strbuf_init(&ps.name, 32);
	next(&ps);
	e = ps.failed ? NULL : parse_expr(&ps);
	if (e && !ps.failed && ps.tok != T_END)
		fail(&ps, ps.tok == T_ELSE ? "'else' without 'if'" : "unexpected text after expression");
	if (ps.failed) {
		td_expr_free(e);
		e = NULL;
	}
	if (e)
		mark_literal_only(e);
	strbuf_release(&ps.name);
	return e;
}

/* ---------------- evaluation ---------------- */

/*
 * Does the "; "-separated list 'list' hold 'item' as a whole item?  (A
 * substring test would take "A.B not measured" for "X_A.B not measured".)
 */
static int reason_has_item(const char *list, const char *item, size_t len)
{
	const char *p = list;
	char buf[256];

	if (len < sizeof(buf)) {
		/*
		 * One strstr over the list, then the item's bounds: much faster
		 * than splitting the list for every item (reports of long
		 * interval runs merge thousands of reasons).
		 */
		memcpy(buf, item, len);
		buf[len] = '\0';
		for (p = strstr(list, buf); p; p = strstr(p + 1, buf)) {
			int starts = p == list || (p - list >= 2 && p[-2] == ';' && p[-1] == ' ');
			int ends = !p[len] || (p[len] == ';' && p[len + 1] == ' ');

			if (starts && ends)
				return 1;
		}
		return 0;
	}
	while (*p) {
		const char *end = strstr(p, "; ");
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n == len && !memcmp(p, item, len))
			return 1;
		if (!end)
			break;
		p = end + 2;
	}
	return 0;
}

void td_reason_merge(struct strbuf *why, const char *items)
{
	const char *p = items;

	if (!why || !items)
		return;
	while (*p) {
		const char *end = strstr(p, "; ");
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n && !reason_has_item(why->buf, p, n)) {
			if (why->len)
				strbuf_addstr(why, "; ");
			strbuf_add(why, p, n);
		}
		if (!end)
			break;
		p = end + 2;
	}
}

void td_expr_user_name(struct strbuf *sb, const char *name)
{
	const char *p;

	for (p = name; *p; p++) {
		if (*p == '\\' && p[1])
			strbuf_addch(sb, *++p);
		else
			strbuf_addch(sb, *p == '@' ? '/' : *p);
	}
}

/* A reason names an event as a user writes it, not in the formula's escapes. */
static void add_reason(struct strbuf *why, const char *fmt, const char *arg)
{
	struct strbuf r = STRBUF_INIT, name = STRBUF_INIT;

	if (!why)
		return;
	td_expr_user_name(&name, arg);
	strbuf_addf(&r, fmt, name.buf);
	strbuf_release(&name);
	td_reason_merge(why, r.buf);
	strbuf_release(&r);
}

static double lookup_name(const struct td_expr *e, struct td_eval_ctx *cx)
{
	double v;

	if (e->metric >= 0 && cx->metric)
		return cx->metric(cx, e->metric);
	if (e->slot >= 0 && cx->cache) {
		/* each input is looked up once per evaluation */
		if (!cx->cached[e->slot]) {
			int found = cx->env && cx->env->lookup &&
				    cx->env->lookup(cx->env->ctx, e->name, &v) == 0;

			cx->cached[e->slot] = found ? 1 : 2;
			cx->cache[e->slot] = found ? v : NAN;
		}
		if (cx->cached[e->slot] == 1)
			return cx->cache[e->slot];
	} else if (cx->env && cx->env->lookup && cx->env->lookup(cx->env->ctx, e->name, &v) == 0) {
		return v;
	}
	if (e->correction) {
		cx->approximate = 1;
		add_reason(cx->why, "correction term %s not measured, taken as 0", e->name);
		return 0;
	}
	cx->missing = 1;
	add_reason(cx->why, "%s not measured", e->name);
	return NAN;
}

static int truth(double v)
{
	return v != 0;
}

double td_expr_eval_cx(const struct td_expr *e, struct td_eval_ctx *cx)
{
	double a, b;

	switch (e->op) {
	case TD_OP_NUM:
		return e->num;
	case TD_OP_NAME:
		return lookup_name(e, cx);
	case TD_OP_NEG:
		return -td_expr_eval_cx(e->kid[0], cx);
	case TD_OP_NOT:
		a = td_expr_eval_cx(e->kid[0], cx);
		return isnan(a) ? a : !truth(a);
	case TD_OP_IF:
		a = td_expr_eval_cx(e->kid[1], cx);
		if (isnan(a))
			return a;
		if (!e->kid[1]->literal_only)
			cx->value_dependent++;
		return td_expr_eval_cx(e->kid[truth(a) ? 0 : 2], cx);
	case TD_OP_HAS_EVENT:
		if (cx->env && cx->env->lookup &&
		    cx->env->lookup(cx->env->ctx, e->kid[0]->name, &a) == 0)
			return 1;
		return 0;
	case TD_OP_SOURCE_COUNT: {
		struct strbuf n = STRBUF_INIT;
		int ok;

		strbuf_addf(&n, "source_count(%s)", e->kid[0]->name);
		ok = cx->env && cx->env->lookup && cx->env->lookup(cx->env->ctx, n.buf, &a) == 0;
		strbuf_release(&n);
		return ok ? a : 1;
	}
	case TD_OP_AND:
	case TD_OP_OR:
		/* three-valued: a known deciding side wins over a NAN */
		a = td_expr_eval_cx(e->kid[0], cx);
		b = td_expr_eval_cx(e->kid[1], cx);
		if (e->op == TD_OP_AND) {
			if ((!isnan(a) && !truth(a)) || (!isnan(b) && !truth(b)))
				return 0;
		} else {
			if ((!isnan(a) && truth(a)) || (!isnan(b) && truth(b)))
				return 1;
		}
		return isnan(a) || isnan(b) ? NAN : e->op == TD_OP_AND;
	default:
		break;
	}
	a = td_expr_eval_cx(e->kid[0], cx);
	b = td_expr_eval_cx(e->kid[1], cx);
	if (isnan(a) || isnan(b))
		return NAN;
	switch (e->op) {
	case TD_OP_ADD: return a + b;
	case TD_OP_SUB: return a - b;
	case TD_OP_MUL: return a * b;
	case TD_OP_DIV:
	case TD_OP_MOD:
		if (b == 0) {
			cx->value_dependent++;
			if (cx->why) {
				struct strbuf d = STRBUF_INIT;

				td_expr_print(e->kid[1], &d);
				add_reason(cx->why, "division by zero (%s is 0)", d.buf);
				strbuf_release(&d);
			}
			return NAN;
		}
		return e->op == TD_OP_DIV ? a / b : fmod(a, b);
	case TD_OP_LT: return a < b;
	case TD_OP_GT: return a > b;
	case TD_OP_LE: return a <= b;
	case TD_OP_GE: return a >= b;
	case TD_OP_EQ: return a == b;
	case TD_OP_NE: return a != b;
	case TD_OP_XOR: return truth(a) != truth(b);
	case TD_OP_MIN: return a < b ? a : b;
	case TD_OP_MAX: return a > b ? a : b;
	case TD_OP_DRATIO: return b == 0 ? 0 : a / b;
	default:
		return NAN;
	}
}

double td_expr_eval(const struct td_expr *e, const struct td_env *env, struct strbuf *why)
{
	struct td_eval_ctx cx = { 0 };

	cx.env = env;
	cx.why = why;
	return td_expr_eval_cx(e, &cx);
}

/* ---------------- names ---------------- */

struct names_walk {
	const struct td_env *env;
	int (*is_metric)(void *ctx, const char *name);
	void *is_metric_ctx;
	void (*fn)(void *ctx, const char *name, enum td_name_kind kind);
	void *ctx;
	char **seen;
	size_t nr_seen, alloc_seen;
};

static void report_name(struct names_walk *w, const struct td_expr *e)
{
	enum td_name_kind kind = e->kind;
	size_t i;

	for (i = 0; i < w->nr_seen; i++)
		if (!strcmp(w->seen[i], e->name))
			return;
	TD_GROW(w->seen, w->alloc_seen, w->nr_seen + 1);
	w->seen[w->nr_seen++] = e->name;
	if (kind == TD_NAME_EVENT && (e->metric >= 0 ||
	    (w->is_metric && w->is_metric(w->is_metric_ctx, e->name))))
		kind = TD_NAME_METRIC;
	w->fn(w->ctx, e->name, kind);
}

/* Can 'e' be evaluated from the env alone (literals, numbers)? Sets *v. */
static int fold_with_env(const struct td_expr *e, const struct td_env *env, double *v)
{
	struct td_eval_ctx cx = { 0 };

	if (!env)
		return 0;
	cx.env = env;
	*v = td_expr_eval_cx(e, &cx);
	return !cx.missing && !isnan(*v);
}

static void walk_names(struct names_walk *w, const struct td_expr *e)
{
	double c;
	int i;

	if (!e)
		return;
	if (e->op == TD_OP_NAME) {
		report_name(w, e);
		return;
	}
	if (e->op == TD_OP_HAS_EVENT || e->op == TD_OP_SOURCE_COUNT)
		return; /* probes, not inputs */
	if (e->op == TD_OP_IF && fold_with_env(e->kid[1], w->env, &c)) {
		walk_names(w, e->kid[1]);
		walk_names(w, e->kid[truth(c) ? 0 : 2]);
		return;
	}
	for (i = 0; i < 3; i++)
		walk_names(w, e->kid[i]);
}

void td_expr_names(const struct td_expr *e, const struct td_env *env,
		   int (*is_metric)(void *ctx, const char *name), void *is_metric_ctx,
		   void (*fn)(void *ctx, const char *name, enum td_name_kind kind), void *ctx)
{
	struct names_walk w = { 0 };

	w.env = env;
	w.is_metric = is_metric;
	w.is_metric_ctx = is_metric_ctx;
	w.fn = fn;
	w.ctx = ctx;
	walk_names(&w, e);
	free(w.seen);
}

/* ---------------- constant folding ---------------- */

void td_expr_fold(struct td_expr *e)
{
	struct td_eval_ctx cx = { 0 };
	double v;
	int i, all_num = 1;

	if (!e || e->op == TD_OP_NUM || e->op == TD_OP_NAME)
		return;
	for (i = 0; i < 3; i++) {
		if (!e->kid[i])
			continue;
		td_expr_fold(e->kid[i]);
		if (e->kid[i]->op != TD_OP_NUM)
			all_num = 0;
	}
	if (!all_num || e->op == TD_OP_HAS_EVENT || e->op == TD_OP_SOURCE_COUNT)
		return;
	v = td_expr_eval_cx(e, &cx);
	if (isnan(v))
		return; /* keep 1/0 visible */
	for (i = 0; i < 3; i++) {
		td_expr_free(e->kid[i]);
		e->kid[i] = NULL;
	}
	e->op = TD_OP_NUM;
	e->num = v;
}

/* ---------------- printing ---------------- */

/* Binding strength for printing with the fewest parentheses. */
static int prec(enum td_op op)
{
	switch (op) {
	case TD_OP_IF: return 1;
	case TD_OP_OR: return 2;
	case TD_OP_XOR: return 3;
	case TD_OP_AND: return 4;
	case TD_OP_LT: case TD_OP_GT: case TD_OP_LE: case TD_OP_GE:
	case TD_OP_EQ: case TD_OP_NE: return 5;
	case TD_OP_ADD: case TD_OP_SUB: return 6;
	case TD_OP_MUL: case TD_OP_DIV: case TD_OP_MOD: return 7;
	case TD_OP_NEG: case TD_OP_NOT: return 8;
	default: return 9;
	}
}

static const char *op_text(enum td_op op)
{
	switch (op) {
	case TD_OP_ADD: return "+";
	case TD_OP_SUB: return "-";
	case TD_OP_MUL: return "*";
	case TD_OP_DIV: return "/";
	case TD_OP_MOD: return "%";
	case TD_OP_LT: return "<";
	case TD_OP_GT: return ">";
	case TD_OP_LE: return "<=";
	case TD_OP_GE: return ">=";
	case TD_OP_EQ: return "==";
	case TD_OP_NE: return "!=";
	case TD_OP_AND: return "&";
	case TD_OP_OR: return "|";
	case TD_OP_XOR: return "^";
	case TD_OP_MIN: return "min";
	case TD_OP_MAX: return "max";
	case TD_OP_DRATIO: return "d_ratio";
	case TD_OP_SOURCE_COUNT: return "source_count";
	case TD_OP_HAS_EVENT: return "has_event";
	default: return "?";
	}
}

/* Would the lexer read 'name' (starting with a digit) back as a name? */
static int digits_lex_as_name(const char *name)
{
	char *end;

	if (name[0] == '0' && (name[1] == 'x' || name[1] == 'X'))
		return 0;
	strtod(name, &end);
	return end != name && (isalpha((unsigned char)*end) || *end == '_');
}

static int is_keyword(const char *name)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(keywords); i++)
		if (!strcmp(name, keywords[i].word))
			return 1;
	return 0;
}

/*
 * Print a name so that the lexer reads back exactly the same name: a
 * mirror of lex_name().  Characters the lexer would not take as they are
 * get a backslash.
 */
void td_expr_print_name(struct strbuf *sb, const char *name)
{
	const char *p;
	int in_mod = 0;

	for (p = name; *p; p++) {
		int plain;

		if (p == name) {
			plain = isalpha((unsigned char)*p) || *p == '_' || *p == '#' ||
				(isdigit((unsigned char)*p) && digits_lex_as_name(name));
			if (is_keyword(name))
				plain = 0;
		} else if (*p == '@') {
			/* a quoted segment: up to the next '@'; inside, only '@' and '\' need escapes */
			const char *close = strchr(p + 1, '@');

			if (close) {
				strbuf_addch(sb, '@');
				for (p++; p < close; p++) {
					if (*p == ',' || *p == '=' || *p == '-' || *p == '\\' || *p == '@')
						strbuf_addch(sb, '\\');
					strbuf_addch(sb, *p);
				}
				strbuf_addch(sb, '@');
				in_mod = 0;
				continue;
			}
			plain = 0;
		} else if (*p == ':') {
			plain = isalnum((unsigned char)p[1]) || p[1] == '_';
			if (plain) {
				strbuf_addch(sb, ':');
				in_mod = 1;
				continue;
			}
		} else if (in_mod) {
			plain = isalnum((unsigned char)*p) || *p == '_' || *p == '=' || *p == '.';
		} else {
			plain = isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '#';
		}
		if (!plain) {
			strbuf_addch(sb, '\\');
			in_mod = 0;
		}
		strbuf_addch(sb, *p);
	}
}

static void print_num(struct strbuf *sb, double v)
{
	char buf[64];

	if (isinf(v)) {
		strbuf_addstr(sb, v > 0 ? "1e999" : "-1e999"); /* reads back as infinity */
		return;
	}
	if (fabs(v) < 1e15 && v == (double)(long long)v) {
		strbuf_addf(sb, "%lld", (long long)v);
		return;
	}
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	strbuf_addstr(sb, buf);
}

static void print_rec(const struct td_expr *e, struct strbuf *sb, int outer)
{
	int p = prec(e->op);
	int paren = p < outer;

	if (paren)
		strbuf_addch(sb, '(');
	switch (e->op) {
	case TD_OP_NUM:
		if (e->num < 0 && outer > 6) {
			strbuf_addch(sb, '(');
			print_num(sb, e->num);
			strbuf_addch(sb, ')');
		} else {
			print_num(sb, e->num);
		}
		break;
	case TD_OP_NAME:
		td_expr_print_name(sb, e->name);
		break;
	case TD_OP_NEG:
	case TD_OP_NOT:
		strbuf_addch(sb, e->op == TD_OP_NEG ? '-' : '!');
		print_rec(e->kid[0], sb, 8);
		break;
	case TD_OP_IF:
		print_rec(e->kid[0], sb, 2);
		strbuf_addstr(sb, " if ");
		print_rec(e->kid[1], sb, 2);
		strbuf_addstr(sb, " else ");
		print_rec(e->kid[2], sb, 1);
		break;
	case TD_OP_MIN: case TD_OP_MAX: case TD_OP_DRATIO:
		strbuf_addf(sb, "%s(", op_text(e->op));
		print_rec(e->kid[0], sb, 0);
		strbuf_addstr(sb, ", ");
		print_rec(e->kid[1], sb, 0);
		strbuf_addch(sb, ')');
		break;
	case TD_OP_SOURCE_COUNT: case TD_OP_HAS_EVENT:
		strbuf_addf(sb, "%s(", op_text(e->op));
		td_expr_print_name(sb, e->kid[0]->name);
		strbuf_addch(sb, ')');
		break;
	default:
		/* left-associative: the right operand needs parentheses at equal strength */
		print_rec(e->kid[0], sb, p);
		strbuf_addf(sb, " %s ", op_text(e->op));
		print_rec(e->kid[1], sb, p + 1);
		break;
	}
	if (paren)
		strbuf_addch(sb, ')');
}

void td_expr_print(const struct td_expr *e, struct strbuf *sb)
{
	print_rec(e, sb, 0);
}
