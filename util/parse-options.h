/*
 * util/parse-options.h: one option parser for every command, driven by a
 * table that also writes the command's help.
 *
 * A command declares its options and its usage lines:
 *
 *	const char *out = NULL;
 *	int verbose = 0;
 *	const struct td_option options[] = {
 *		TD_OPT_STRING('o', "output", &out, "DIR", "write the run to DIR"),
 *		TD_OPT_COUNT('v', "verbose", &verbose, "say more"),
 *		TD_OPT_END(),
 *	};
 *	static const char *const usage[] = {
 *		"tdperf cmd [options] FILE",
 *		"",
 *		"What the command does (printed before the options).",
 *		NULL,
 *	};
 *
 *	argc = td_parse_options(argc, argv, options, usage, 0);
 *
 * after which argv[0] .. argv[argc - 1] are the arguments that are not
 * options, in their order (argv[argc] is NULL).
 *
 * Usage lines: the first entries are the synopsis ("tdperf CMD ...", the
 * second and later printed as "or:" lines, or as the line before's
 * continuation when they start with a space); after an empty string come
 * paragraphs printed before the option list, and after a second empty
 * string paragraphs printed after it.  An entry may hold newlines.
 *
 * On the command line: "--name value", "--name=value", unique prefixes of
 * a long name ("--verb" for "--verbose"), "-o value", "-ovalue", bundled
 * flags ("-nv", "-vl2"), and "--" to end the options.  -h and --help print
 * the help made from the table on stdout and exit 0 (unless the table has
 * its own "help").  Every mistake is one line on stderr,
 *	tdperf: CMD: what is wrong; see 'tdperf help CMD'
 * (CMD is the word after "tdperf" in the first usage line), and exit 2.
 *
 * Ownership: the values stored are argv's own strings; argv is reordered
 * in place, so a caller that owns the array and its strings passes a
 * copy.  td_options_filter() appends copies to its strvec.
 *
 * Errors: printed here, one line, never returned as text; see
 * td_parse_options() for the exit status.
 *
 * Name prefix: td_option, td_parse_, TD_OPT_ (the table's entries).
 */
#ifndef TD_PARSE_OPTIONS_H
#define TD_PARSE_OPTIONS_H

#include <limits.h>

struct strbuf;
struct strvec;
struct td_option;

/*
 * A callback option's parser: arg is the value (NULL for an option that
 * takes none, or an optional value not given); opt->value is where it
 * keeps what it parsed.  Returns 0, or -1 with err saying what is wrong
 * (one line without the "tdperf: CMD: " prefix).
 */
typedef int td_option_cb(const struct td_option *opt, const char *arg, struct strbuf *err);

enum td_option_type {
	TD_OPTION_END,
	TD_OPTION_GROUP,    /* a heading in the help, no option */
	/* options without a value */
	TD_OPTION_BOOL,     /* *(int *)value = 1 */
	TD_OPTION_COUNT,    /* ++*(int *)value, for -v -v */
	TD_OPTION_SET_INT,  /* *(int *)value = defval */
	/* options with a value */
	TD_OPTION_STRING,   /* *(const char **)value = the argument */
	TD_OPTION_INT,      /* *(int *)value = the argument, a number in [min, max] */
	TD_OPTION_CHOICE,   /* *(const char **)value = the argument, one of argh's "a|b|c" */
	TD_OPTION_CALLBACK, /* callback(opt, arg, err) */
};

/* td_option.flags */
#define TD_OPTION_NOARG  (1u << 0) /* a callback taking no value */
#define TD_OPTION_OPTARG (1u << 1) /* the value is optional: only "--name=value" gives one */

struct td_option {
	enum td_option_type type;
	int short_name;         /* 'o' for -o; 0 for none */
	const char *long_name;  /* "output" for --output; NULL for none */
	void *value;
	const char *argh;       /* the value's name in the help: "DIR" */
	const char *help;       /* one sentence; wrapped to the terminal width of 80 */
	unsigned flags;
	td_option_cb *callback;
	int defval;             /* TD_OPTION_SET_INT */
	int min, max;           /* TD_OPTION_INT */
	/*
	 * TD_OPTION_OPTARG: may the next word be the value ("--html out.html"
	 * as well as "--html=out.html")?  NULL: only "=value" gives one.
	 */
	int (*takes_word)(const char *word);
};

#define TD_OPT_END()             { TD_OPTION_END, 0, NULL, NULL, NULL, NULL, 0, NULL, 0, 0, 0, NULL }
#define TD_OPT_GROUP(h)          { TD_OPTION_GROUP, 0, NULL, NULL, NULL, (h), 0, NULL, 0, 0, 0, NULL }
#define TD_OPT_BOOL(s, l, v, h)  { TD_OPTION_BOOL, (s), (l), (v), NULL, (h), 0, NULL, 0, 0, 0, NULL }
#define TD_OPT_COUNT(s, l, v, h) { TD_OPTION_COUNT, (s), (l), (v), NULL, (h), 0, NULL, 0, 0, 0, NULL }
#define TD_OPT_SET_INT(s, l, v, i, h) \
	{ TD_OPTION_SET_INT, (s), (l), (v), NULL, (h), 0, NULL, (i), 0, 0, NULL }
#define TD_OPT_STRING(s, l, v, a, h) \
	{ TD_OPTION_STRING, (s), (l), (v), (a), (h), 0, NULL, 0, 0, 0, NULL }
#define TD_OPT_INT(s, l, v, a, h) \
	{ TD_OPTION_INT, (s), (l), (v), (a), (h), 0, NULL, 0, INT_MIN, INT_MAX, NULL }
#define TD_OPT_INT_RANGE(s, l, v, lo, hi, a, h) \
	{ TD_OPTION_INT, (s), (l), (v), (a), (h), 0, NULL, 0, (lo), (hi), NULL }
#define TD_OPT_CHOICE(s, l, v, a, h) \
	{ TD_OPTION_CHOICE, (s), (l), (v), (a), (h), 0, NULL, 0, 0, 0, NULL }
#define TD_OPT_CALLBACK(s, l, v, a, h, cb) \
	{ TD_OPTION_CALLBACK, (s), (l), (v), (a), (h), 0, (cb), 0, 0, 0, NULL }
#define TD_OPT_CALLBACK_F(s, l, v, a, h, f, cb) \
	{ TD_OPTION_CALLBACK, (s), (l), (v), (a), (h), (f), (cb), 0, 0, 0, NULL }
/* an optional value, given as "=value" or as the next word when word(next) says it is one */
#define TD_OPT_CALLBACK_WORD(s, l, v, a, h, cb, word) \
	{ TD_OPTION_CALLBACK, (s), (l), (v), (a), (h), TD_OPTION_OPTARG, (cb), 0, 0, 0, (word) }

/* td_parse_options() flags */
#define TD_PARSE_STOP_AT_NON_OPTION (1u << 0) /* options end at the first other argument */
#define TD_PARSE_NO_EXIT            (1u << 1) /* return TD_PARSE_HELP or TD_PARSE_ERROR */

#define TD_PARSE_HELP  (-1) /* the help was printed */
#define TD_PARSE_ERROR (-2) /* a usage error was printed */

/*
 * Parse argv[1..] with the table: store each option's value, gather the
 * other arguments into argv[0..] and return their number.  The help and
 * usage errors exit (0 and 2), or with TD_PARSE_NO_EXIT return
 * TD_PARSE_HELP or TD_PARSE_ERROR.
 */
int td_parse_options(int argc, char **argv, const struct td_option *options,
		     const char *const *usage, unsigned flags);

/* The help text the table makes (what --help prints). */
void td_options_help(struct strbuf *sb, const char *const *usage, const struct td_option *options);

/*
 * A usage error found after parsing, in the same one-line form; returns 2
 * (the exit code for bad usage): return td_usage_error(usage, "...").
 */
int td_usage_error(const char *const *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The options of argv[1..] as td_parse_options() reads them (nothing is
 * stored or checked), for running a command again with some options
 * replaced: each option is appended to out as typed unless drop(opt,
 * data) is true; a bundle of short options loses only the dropped ones.
 * Stops at "--" (skipped) or, with TD_PARSE_STOP_AT_NON_OPTION, at the
 * first other argument; returns the index in argv where it stopped.
 */
int td_options_filter(int argc, char **argv, const struct td_option *options, unsigned flags,
		      int (*drop)(const struct td_option *opt, void *data), void *data,
		      struct strvec *out);

#endif
