/*
 * The option parser of every command (util/parse-options.h).  One table
 * per command both parses and writes the help, so that the two cannot
 * drift apart, and every usage error has the same one-line form.
 */
#include "util/parse-options.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HELP_WIDTH 80 /* help lines are wrapped to fit a terminal this wide */
#define LEFT_WIDTH 26 /* an option wider than this has its help on the next line */

/* -h and --help, for a table without a "help" of its own. */
static const struct td_option help_option = TD_OPT_BOOL('h', "help", NULL, "this text");

struct parser {
	const struct td_option *options;
	struct strbuf err; /* what is wrong, for the one-line message */
};

static int takes_value(const struct td_option *o)
{
	switch (o->type) {
	case TD_OPTION_STRING:
	case TD_OPTION_INT:
	case TD_OPTION_CHOICE:
		return 1;
	case TD_OPTION_CALLBACK:
		return !(o->flags & TD_OPTION_NOARG);
	default:
		return 0;
	}
}

static int needs_value(const struct td_option *o)
{
	return takes_value(o) && !(o->flags & TD_OPTION_OPTARG);
}

static int own_help(const struct td_option *options)
{
	const struct td_option *o;

	for (o = options; o->type != TD_OPTION_END; o++)
		if (o->long_name && !strcmp(o->long_name, "help"))
			return 1;
	return 0;
}

/*
 * Two long names for one option (--color and --colour) do the same:
 * a prefix of both is not ambiguous.
 */
static int same_option(const struct td_option *a, const struct td_option *b)
{
	return a->type == b->type && a->value == b->value && a->callback == b->callback &&
	       a->defval == b->defval;
}

static const struct td_option *find_short(const struct td_option *options, int c)
{
	const struct td_option *o;

	for (o = options; o->type != TD_OPTION_END; o++)
		if (o->type != TD_OPTION_GROUP && o->short_name == c)
			return o;
	return c == 'h' ? &help_option : NULL;
}

/* Does o's long name start with name[0..len)?  2 when it is that name. */
static int long_match(const struct td_option *o, const char *name, size_t len)
{
	if (o->type == TD_OPTION_GROUP || !o->long_name || strncmp(o->long_name, name, len))
		return 0;
	return o->long_name[len] ? 1 : 2;
}

static void list_candidates(struct parser *p, const char *name, size_t len)
{
	const struct td_option *o;
	const char *sep = "";

	strbuf_addf(&p->err, "option '--%.*s' is ambiguous: it could be ", (int)len, name);
	for (o = p->options; o->type != TD_OPTION_END; o++)
		if (long_match(o, name, len)) {
			strbuf_addf(&p->err, "%s--%s", sep, o->long_name);
			sep = ", ";
		}
	if (!own_help(p->options) && long_match(&help_option, name, len))
		strbuf_addf(&p->err, "%s--help", sep);
}

/* "unknown option '--levle' (did you mean '--level'?)" */
static void unknown_long(struct parser *p, const char *name, size_t len)
{
	char *word = xstrndup(name, len);
	const struct td_option *o;
	struct td_suggest sg;
	const char *best;

	td_suggest_init(&sg, word);
	for (o = p->options; o->type != TD_OPTION_END; o++)
		if (o->type != TD_OPTION_GROUP && o->long_name)
			td_suggest_offer(&sg, o->long_name, o->value ? o->value : (const void *)o);
	if (!own_help(p->options))
		td_suggest_offer(&sg, help_option.long_name, &help_option);
	best = td_suggest_result(&sg);
	strbuf_addf(&p->err, "unknown option '--%s'", word);
	if (best)
		strbuf_addf(&p->err, " (did you mean '--%s'?)", best);
	free(word);
}

/*
 * The option named by name[0..len): the one of that name, else the only
 * one whose name it begins.  NULL with p->err set when there is none or
 * more than one.
 */
static const struct td_option *find_long(struct parser *p, const char *name, size_t len)
{
	const struct td_option *o, *found = NULL;
	int ambiguous = 0;

	if (!len) {
		strbuf_addstr(&p->err, "unknown option '--'");
		return NULL;
	}
	for (o = p->options; o->type != TD_OPTION_END; o++) {
		int m = long_match(o, name, len);

		if (m == 2)
			return o;
		if (m && found && !same_option(found, o))
			ambiguous = 1;
		else if (m && !found)
			found = o;
	}
	if (!own_help(p->options)) {
		int m = long_match(&help_option, name, len);

		if (m == 2)
			return &help_option;
		if (m && found)
			ambiguous = 1;
		else if (m)
			found = &help_option;
	}
	if (ambiguous) {
		list_candidates(p, name, len);
		return NULL;
	}
	if (!found)
		unknown_long(p, name, len);
	return found;
}

/* How an option is named in messages: its long name, else its letter. */
static void add_name(struct strbuf *sb, const struct td_option *o)
{
	if (o->long_name)
		strbuf_addf(sb, "--%s", o->long_name);
	else
		strbuf_addf(sb, "-%c", o->short_name);
}

/* What an integer option takes: its range, or the bound a number passed. */
static void add_expected_number(struct strbuf *sb, const struct td_option *o, int side)
{
	if (o->min > INT_MIN && o->max < INT_MAX)
		strbuf_addf(sb, "a number from %d to %d", o->min, o->max);
	else if (side < 0 || (!side && o->min > INT_MIN))
		strbuf_addf(sb, "a number >= %d", o->min);
	else if (side > 0 || (!side && o->max < INT_MAX))
		strbuf_addf(sb, "a number <= %d", o->max);
	else
		strbuf_addstr(sb, "a number");
}

static int parse_int(struct parser *p, const struct td_option *o, const char *arg)
{
	char *end;
	long v;
	int side = 0; /* -1 below the range, 1 above it */

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end != arg && !*end && !isspace((unsigned char)*arg)) {
		if (v < o->min || (errno == ERANGE && v < 0))
			side = -1;
		else if (v > o->max || errno == ERANGE)
			side = 1;
		else {
			*(int *)o->value = (int)v;
			return 0;
		}
	}
	add_name(&p->err, o);
	strbuf_addstr(&p->err, " takes ");
	add_expected_number(&p->err, o, side);
	strbuf_addf(&p->err, ", not '%s'", arg);
	return TD_PARSE_ERROR;
}

/* argh "a|b|c": arg must be one of them. */
static int parse_choice(struct parser *p, const struct td_option *o, const char *arg)
{
	const char *c = o->argh;
	size_t len = strlen(arg), n;

	while (*c) {
		n = strcspn(c, "|");
		if (n == len && !strncmp(c, arg, n)) {
			*(const char **)o->value = arg;
			return 0;
		}
		c += n + (c[n] == '|');
	}
	add_name(&p->err, o);
	strbuf_addstr(&p->err, " takes ");
	for (c = o->argh; *c; c += n + (c[n] == '|')) {
		n = strcspn(c, "|");
		strbuf_add(&p->err, c, n);
		if (c[n] && strchr(c + n + 1, '|'))
			strbuf_addstr(&p->err, ", ");
		else if (c[n])
			strbuf_addstr(&p->err, " or ");
	}
	strbuf_addf(&p->err, ", not '%s'", arg);
	return TD_PARSE_ERROR;
}

/* Store what the option says; 0, TD_PARSE_HELP or TD_PARSE_ERROR. */
static int apply(struct parser *p, const struct td_option *o, const char *arg)
{
	if (o == &help_option)
		return TD_PARSE_HELP;
	switch (o->type) {
	case TD_OPTION_BOOL:
		*(int *)o->value = 1;
		return 0;
	case TD_OPTION_COUNT:
		(*(int *)o->value)++;
		return 0;
	case TD_OPTION_SET_INT:
		*(int *)o->value = o->defval;
		return 0;
	case TD_OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case TD_OPTION_INT:
		return parse_int(p, o, arg);
	case TD_OPTION_CHOICE:
		return parse_choice(p, o, arg);
	case TD_OPTION_CALLBACK:
		if (!o->callback(o, arg, &p->err))
			return 0;
		if (!p->err.len) {
			add_name(&p->err, o);
			strbuf_addf(&p->err, ": bad value '%s'", arg ? arg : "");
		}
		return TD_PARSE_ERROR;
	default:
		return 0;
	}
}

/* An optional value given as the next word ("--html out.html"), wherever the option stands. */
static int next_word_is_value(const struct td_option *o, int argc, char **argv, int i)
{
	const char *next = i + 1 < argc ? argv[i + 1] : NULL;

	return o->takes_word && next && next[0] != '-' && o->takes_word(next);
}

/* argv[*i] is "--name" or "--name=value". */
static int parse_long(struct parser *p, int argc, char **argv, int *i)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct td_option *o = find_long(p, name, len);

	if (!o)
		return TD_PARSE_ERROR;
	if (!takes_value(o)) {
		if (eq) {
			strbuf_addf(&p->err, "option '--%s' takes no value", o->long_name);
			return TD_PARSE_ERROR;
		}
		return apply(p, o, NULL);
	}
	if (eq)
		return apply(p, o, eq + 1);
	if (!needs_value(o) && next_word_is_value(o, argc, argv, *i))
		return apply(p, o, argv[++*i]);
	if (!needs_value(o))
		return apply(p, o, NULL);
	if (*i + 1 >= argc) {
		strbuf_addf(&p->err, "option '--%s' needs a value", o->long_name);
		return TD_PARSE_ERROR;
	}
	return apply(p, o, argv[++*i]);
}

/* argv[*i] is "-x", a bundle "-xyz", or "-ovalue". */
static int parse_short(struct parser *p, int argc, char **argv, int *i)
{
	const char *s;
	int ret;

	for (s = argv[*i] + 1; *s; s++) {
		const struct td_option *o = find_short(p->options, (unsigned char)*s);

		if (!o) {
			if (isalnum((unsigned char)*s))
				strbuf_addf(&p->err, "unknown option '-%c'", *s);
			else
				strbuf_addf(&p->err, "unknown option '%s'", argv[*i]);
			return TD_PARSE_ERROR;
		}
		if (!takes_value(o)) {
			if ((ret = apply(p, o, NULL)) != 0)
				return ret;
			continue;
		}
		if (s[1])
			return apply(p, o, s + 1);
		if (!needs_value(o))
			return apply(p, o, NULL);
		if (*i + 1 >= argc) {
			strbuf_addf(&p->err, "option '-%c' needs a value", *s);
			return TD_PARSE_ERROR;
		}
		return apply(p, o, argv[++*i]);
	}
	return 0;
}

int td_parse_options(int argc, char **argv, const struct td_option *options,
		     const char *const *usage, unsigned flags)
{
	struct parser p = { options, STRBUF_INIT };
	int i, nr = 0, ret = 0;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-' || !arg[1]) { /* "-" alone names stdin */
			if (flags & TD_PARSE_STOP_AT_NON_OPTION)
				break;
			argv[nr++] = argv[i];
			continue;
		}
		ret = arg[1] == '-' ? parse_long(&p, argc, argv, &i) : parse_short(&p, argc, argv, &i);
		if (ret)
			break;
	}
	if (ret == TD_PARSE_HELP) {
		struct strbuf sb = STRBUF_INIT;

		td_options_help(&sb, usage, options);
		fputs(sb.buf, stdout);
		strbuf_release(&sb);
		strbuf_release(&p.err);
		if (!(flags & TD_PARSE_NO_EXIT))
			exit(td_finish_stdout(0));
		return ret;
	}
	if (ret) {
		td_usage_error(usage, "%s", p.err.buf);
		strbuf_release(&p.err);
		if (!(flags & TD_PARSE_NO_EXIT))
			exit(2);
		return ret;
	}
	while (i < argc)
		argv[nr++] = argv[i++];
	argv[nr] = NULL;
	strbuf_release(&p.err);
	return nr;
}

int td_usage_error(const char *const *usage, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT, cmd = STRBUF_INIT;
	const char *u = usage && usage[0] ? usage[0] : "";
	va_list ap;

	if (!strncmp(u, "tdperf ", 7))
		strbuf_add(&cmd, u + 7, strcspn(u + 7, " \n["));
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (cmd.len)
		error("%s: %s%ssee 'tdperf help %s'", cmd.buf, msg.buf, msg.len ? "; " : "", cmd.buf);
	else
		error("%s%ssee 'tdperf help'", msg.buf, msg.len ? "; " : "");
	strbuf_release(&msg);
	strbuf_release(&cmd);
	return 2;
}

/* ---- the help ---- */

/* "  -o, --output DIR": what the option list shows left of the help. */
static void add_left(struct strbuf *sb, const struct td_option *o, int any_short)
{
	strbuf_addstr(sb, "  ");
	if (o->short_name)
		strbuf_addf(sb, "-%c%s", o->short_name, o->long_name ? ", " : "");
	else if (any_short)
		strbuf_addstr(sb, "    ");
	if (o->long_name)
		strbuf_addf(sb, "--%s", o->long_name);
	if (takes_value(o) && o->argh)
		strbuf_addf(sb, needs_value(o) ? " %s" : o->long_name ? "[=%s]" : "[%s]", o->argh);
}

static void pad_to(struct strbuf *sb, size_t line_start, size_t col)
{
	while (sb->len - line_start < col)
		strbuf_addch(sb, ' ');
}

/* text from column col, its words wrapped to HELP_WIDTH; a newline in it breaks the line. */
static void add_wrapped(struct strbuf *sb, const char *text, size_t col)
{
	size_t line_start = sb->len - col;
	int at_start = 1;

	while (*text) {
		size_t w = strcspn(text, " \n");

		if (*text == ' ') {
			text++;
			continue;
		}
		if (*text == '\n' || (!at_start && sb->len - line_start + 1 + w > HELP_WIDTH)) {
			strbuf_addch(sb, '\n');
			line_start = sb->len;
			pad_to(sb, line_start, col);
			at_start = 1;
			text += *text == '\n';
			continue;
		}
		if (!at_start)
			strbuf_addch(sb, ' ');
		strbuf_add(sb, text, w);
		text += w;
		at_start = 0;
	}
	strbuf_addch(sb, '\n');
}

static void add_option(struct strbuf *sb, const struct td_option *o, int any_short, size_t col)
{
	size_t start = sb->len;

	add_left(sb, o, any_short);
	if (!o->help || !*o->help) {
		strbuf_addch(sb, '\n');
		return;
	}
	if (sb->len - start + 2 > col) {
		strbuf_addch(sb, '\n');
		start = sb->len;
	}
	pad_to(sb, start, col);
	add_wrapped(sb, o->help, col);
}

/* The help column: past the widest option that is not too wide. */
static size_t left_width(struct strbuf *tmp, const struct td_option *o, int any_short, size_t width)
{
	strbuf_reset(tmp);
	add_left(tmp, o, any_short);
	return tmp->len <= LEFT_WIDTH && tmp->len > width ? tmp->len : width;
}

/* Lines up to the next "" (skipped) or the end; returns where it stopped. */
static const char *const *add_lines(struct strbuf *sb, const char *const *u)
{
	for (; *u && **u; u++)
		strbuf_addf(sb, "%s\n", *u);
	return *u ? u + 1 : u;
}

void td_options_help(struct strbuf *sb, const char *const *usage, const struct td_option *options)
{
	const char *const *u = usage;
	const struct td_option *o;
	struct strbuf left = STRBUF_INIT;
	size_t width = 0;
	int any_short, first = 1;

	for (; *u && **u; u++)
		strbuf_addf(sb, "%s%s\n", u == usage ? "usage: " : **u == ' ' ? "       " : "   or: ", *u);
	if (*u)
		u++;
	if (*u && **u) {
		strbuf_addch(sb, '\n');
		u = add_lines(sb, u);
	} else if (*u) {
		u++;
	}

	any_short = !own_help(options); /* -h */
	for (o = options; o->type != TD_OPTION_END; o++)
		any_short |= o->type != TD_OPTION_GROUP && o->short_name;
	for (o = options; o->type != TD_OPTION_END; o++)
		if (o->type != TD_OPTION_GROUP)
			width = left_width(&left, o, any_short, width);
	if (!own_help(options))
		width = left_width(&left, &help_option, any_short, width);
	strbuf_release(&left);

	strbuf_addch(sb, '\n');
	for (o = options; o->type != TD_OPTION_END; o++) {
		if (o->type == TD_OPTION_GROUP) {
			strbuf_addf(sb, "%s%s\n", first ? "" : "\n", o->help);
		} else {
			add_option(sb, o, any_short, width + 2);
		}
		first = 0;
	}
	if (!own_help(options))
		add_option(sb, &help_option, any_short, width + 2);

	if (*u) {
		strbuf_addch(sb, '\n');
		for (; *u; u++)
			strbuf_addf(sb, "%s\n", *u);
	}
}

/* ---- reading the options again, to pass some of them on ---- */

static void filter_long(struct parser *p, int argc, char **argv, int *i,
			int (*drop)(const struct td_option *, void *), void *data, struct strvec *out)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct td_option *o = find_long(p, name, len);
	int keep = !o || !drop(o, data);

	if (keep)
		strvec_push(out, argv[*i]);
	if (o && !eq && (needs_value(o) || next_word_is_value(o, argc, argv, *i)) && *i + 1 < argc) {
		++*i;
		if (keep)
			strvec_push(out, argv[*i]);
	}
	strbuf_reset(&p->err);
}

static void filter_short(struct parser *p, int argc, char **argv, int *i,
			 int (*drop)(const struct td_option *, void *), void *data, struct strvec *out)
{
	struct strbuf kept = STRBUF_INIT;
	const char *s, *value = NULL;

	strbuf_addch(&kept, '-');
	for (s = argv[*i] + 1; *s; s++) {
		const struct td_option *o = find_short(p->options, (unsigned char)*s);
		int keep = !o || !drop(o, data);

		if (!o || !takes_value(o)) {
			if (keep)
				strbuf_addch(&kept, *s);
			continue;
		}
		if (keep)
			strbuf_addstr(&kept, s); /* the letter and any value glued to it */
		if (!s[1] && needs_value(o) && *i + 1 < argc) {
			++*i;
			value = keep ? argv[*i] : NULL;
		}
		break;
	}
	if (kept.len > 1)
		strvec_push(out, kept.buf);
	if (value)
		strvec_push(out, value);
	strbuf_release(&kept);
}

int td_options_filter(int argc, char **argv, const struct td_option *options, unsigned flags,
		      int (*drop)(const struct td_option *opt, void *data), void *data,
		      struct strvec *out)
{
	struct parser p = { options, STRBUF_INIT };
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-' || !arg[1]) {
			if (flags & TD_PARSE_STOP_AT_NON_OPTION)
				break;
			continue;
		}
		if (arg[1] == '-')
			filter_long(&p, argc, argv, &i, drop, data, out);
		else
			filter_short(&p, argc, argv, &i, drop, data, out);
	}
	strbuf_release(&p.err);
	return i;
}
