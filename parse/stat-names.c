/*
 * Event names as perf prints them and as formulas spell them, reduced to
 * one canonical key so that "cpu_core/TOPDOWN.SLOTS/", "cpu_core@slots@",
 * "TOPDOWN.SLOTS:u" and "slots" all find the same count.
 *
 * The key is the lower-cased event name followed by its qualifiers
 * (cmask, edge, inv, ...) in a fixed order with numeric values, then
 * mapped through a table of names that denote the very same hardware
 * event ("strong" aliases).  A second, "weak" class groups generic names
 * with the model-specific event that counts the same thing on every CPU
 * we know (cycles = CPU_CLK_UNHALTED.THREAD = ls_not_halted_cyc); lookups
 * fall back to it only when no strong match exists.
 */
#include "parse/parse.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Names of one hardware event; the first is the canonical key. */
static const char *const strong_aliases[][4] = {
	{ "slots", "topdown.slots", "topdown.slots_p", NULL },
	{ "topdown-retiring", "perf_metrics.retiring", NULL },
	{ "topdown-bad-spec", "perf_metrics.bad_speculation", NULL },
	{ "topdown-fe-bound", "perf_metrics.frontend_bound", NULL },
	{ "topdown-be-bound", "perf_metrics.backend_bound", NULL },
	{ "topdown-heavy-ops", "perf_metrics.heavy_operations", NULL },
	{ "topdown-br-mispredict", "perf_metrics.branch_mispredicts", NULL },
	{ "topdown-fetch-lat", "perf_metrics.fetch_latency", NULL },
	{ "topdown-mem-bound", "perf_metrics.memory_bound", NULL },
	{ "cycles", "cpu-cycles", NULL },
	{ "int_misc.clears_count", "int_misc.recovery_cycles,cmask=1,edge=1", NULL },
	{ "branch-misses", "branch-miss", NULL },
	{ "branches", "branch-instructions", NULL },
	{ "instructions", "instruction", NULL },
};

/* Generic names and the model-specific events that count the same. */
/* Arm: the kernel's armv8 PMU counts cycles as CPU_CYCLES (0x11) and instructions as INST_RETIRED (0x08). */
static const char *const weak_aliases[][8] = {
	{ "cycles", "cpu_clk_unhalted.thread", "cpu_clk_unhalted.thread_p",
	  "cpu_clk_unhalted.core", "cpu_clk_unhalted.core_p", "ls_not_halted_cyc", "cpu_cycles", NULL },
	{ "instructions", "inst_retired.any", "inst_retired.any_p", "ex_ret_instr", "inst_retired", NULL },
	{ "ref-cycles", "cpu_clk_unhalted.ref_tsc", NULL },
	{ "branches", "br_inst_retired.all_branches", "ex_ret_brn", NULL },
	{ "branch-misses", "br_misp_retired.all_branches", "ex_ret_brn_misp", NULL },
};

/* Modifier letters perf accepts after ':' (cycles:u, cycles:ppp). */
static int is_modifier_string(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!strchr("ukhIGHpPSDWebR", s[i]))
			return 0;
	return 1;
}

/* What may follow "pmu/terms/": modifiers, in one or more ':'-separated runs ("u", ":u", "u:p"). */
static int is_modifier_tail(const char *s, size_t n)
{
	size_t i, run = 0;

	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] == ':') {
			if (i && !run)
				return 0; /* "::" */
			run = 0;
			continue;
		}
		if (!strchr("ukhIGHpPSDWebR", s[i]))
			return 0;
		run++;
	}
	return run > 0;
}

static int is_pmu_char(int c)
{
	return isalnum(c) || c == '_';
}

struct qual {
	char name[112];
	unsigned long long value;
};

static int qual_cmp(const void *a, const void *b)
{
	return strcmp(((const struct qual *)a)->name, ((const struct qual *)b)->name);
}

/* Long names for perf's and Intel's short qualifier spellings. */
static const char *qual_long_name(const char *n)
{
	if (!strcmp(n, "c") || !strcmp(n, "cmask"))
		return "cmask";
	if (!strcmp(n, "e") || !strcmp(n, "edge"))
		return "edge";
	if (!strcmp(n, "i") || !strcmp(n, "inv"))
		return "inv";
	return n;
}

/*
 * The length of a "PMU." prefix that tdperf record puts in an event's
 * name= term where several core PMUs count the same event: cpu_core. and
 * cpu_atom. on hybrid Intel parts, one armv8_<core>. or armv9_<core>. per
 * cluster on big.LITTLE Arm systems (Arm event names have no dot).  0
 * when the name has none.
 */
static size_t pmu_name_prefix(const char *s, size_t n)
{
	const char *dot = memchr(s, '.', n), *p;

	if (n > 9 && (!strncasecmp(s, "cpu_core.", 9) || !strncasecmp(s, "cpu_atom.", 9)))
		return 9;
	if (!dot || dot + 1 == s + n || !td_arm_is_core_pmu(s))
		return 0;
	for (p = s; p < dot; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return (size_t)(dot - s) + 1;
}

/*
 * Add one "k=v" or "k" term to the qualifier list, or take it as the
 * event's base name ('name=' terms and the first bare word).
 */
static void add_term(const char *t, size_t n, struct strbuf *base, struct strbuf *name,
		     struct qual *q, size_t *nq, size_t maxq)
{
	const char *eq = memchr(t, '=', n);
	char key[112];
	size_t klen = eq ? (size_t)(eq - t) : n;
	char *end;
	unsigned long long v = 1;

	while (n && isspace((unsigned char)*t)) {
		t++, n--;
		if (klen)
			klen--;
	}
	if (!n)
		return;
	if (!eq && !base->len && !name->len) {
		size_t i;
		for (i = 0; i < n; i++)
			strbuf_addch(base, tolower((unsigned char)t[i]));
		return;
	}
	if (klen >= sizeof(key))
		klen = sizeof(key) - 1;
	memcpy(key, t, klen);
	key[klen] = '\0';
	for (end = key; *end; end++)
		*end = tolower((unsigned char)*end);
	if (eq && !strcmp(key, "name")) {
		size_t i = klen + 1;
		strbuf_reset(name);
		/* name=cpu_atom.X (tdperf record on hybrid CPUs): the PMU is the pmu/ prefix */
		i += pmu_name_prefix(t + i, n - i);
		for (; i < n; i++)
			strbuf_addch(name, tolower((unsigned char)t[i]));
		return;
	}
	if (eq) {
		char val[40];
		/* from '=' to the end of the term: klen may have been cut to fit key[] */
		size_t vlen = (size_t)(t + n - eq - 1);
		if (vlen >= sizeof(val))
			vlen = sizeof(val) - 1;
		memcpy(val, eq + 1, vlen);
		val[vlen] = '\0';
		v = strtoull(val, &end, 0);
		if (*end) /* not a number: keep the text in the key */
			v = 0, snprintf(key + strlen(key), sizeof(key) - strlen(key), "=%s", val);
	}
	if (v == 0 && !strchr(key, '='))
		return; /* zero is the default of every qualifier */
	if (*nq < maxq) {
		snprintf(q[*nq].name, sizeof(q[*nq].name), "%s", qual_long_name(key));
		q[*nq].value = v;
		(*nq)++;
	}
}

/* Intel perfmon suffixes (":c1", ":e1", ":i1", ":u0x80") become qualifiers. */
static int add_colon_suffix(const char *s, size_t n, struct qual *q, size_t *nq, size_t maxq)
{
	char *end;
	unsigned long long v;

	if (n >= 2 && strchr("ceiu", s[0]) && isdigit((unsigned char)s[1])) {
		char buf[24];
		if (n >= sizeof(buf))
			return 0;
		memcpy(buf, s + 1, n - 1);
		buf[n - 1] = '\0';
		v = strtoull(buf, &end, 0);
		if (*end)
			return 0;
		if (v && *nq < maxq) {
			snprintf(q[*nq].name, sizeof(q[*nq].name), "%s",
				 s[0] == 'c' ? "cmask" : s[0] == 'e' ? "edge" : s[0] == 'u' ? "umask" : "inv");
			q[*nq].value = v;
			(*nq)++;
		}
		return 1;
	}
	return 0;
}

static void map_alias(struct strbuf *key, const char *const (*table)[4], size_t rows)
{
	size_t r, i;

	for (r = 0; r < rows; r++)
		for (i = 1; i < 4 && table[r][i]; i++)
			if (!strcmp(key->buf, table[r][i])) {
				strbuf_reset(key);
				strbuf_addstr(key, table[r][0]);
				return;
			}
}

void td_event_key(const char *event, struct strbuf *pmu, struct strbuf *key)
{
	struct strbuf body = STRBUF_INIT, base = STRBUF_INIT, name = STRBUF_INIT;
	struct qual q[16];
	size_t nq = 0, i, n, plen;
	const char *s = event, *e, *p;

	strbuf_reset(pmu);
	strbuf_reset(key);
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	e = s + n;

	/*
	 * "cpu_atom.INST_RETIRED.ANY": how tdperf record names the events of
	 * a hybrid PMU (name= term), so that perf prints them apart from the
	 * other PMU's event of the same name.
	 */
	if ((plen = pmu_name_prefix(s, n)) > 0) {
		for (i = 0; i + 1 < plen; i++)
			strbuf_addch(pmu, tolower((unsigned char)s[i]));
		s += plen;
	}

	/* pmu/terms/mods or pmu@terms@ */
	for (p = s; p < e && is_pmu_char((unsigned char)*p); p++)
		;
	if (p > s && p < e && (*p == '/' || *p == '@')) {
		char d = *p;
		const char *close = NULL, *x;
		for (x = e - 1; x > p; x--)
			if (*x == d && (x[-1] != '\\')) {
				close = x;
				break;
			}
		if (close && (d == '@' ? close == e - 1 :
			      (close == e - 1 || is_modifier_tail(close + 1, e - close - 1)))) {
			strbuf_add(pmu, s, p - s);
			for (i = 0; i < pmu->len; i++)
				pmu->buf[i] = tolower((unsigned char)pmu->buf[i]);
			s = p + 1;
			e = close;
		}
	}
	/* unescape "\," "\=" "\-" of the metric expression dialect */
	for (p = s; p < e; p++) {
		if (*p == '\\' && p + 1 < e)
			p++;
		strbuf_addch(&body, *p);
	}
	/* split "name:suffix:suffix" (only outside pmu/.../ forms with terms) */
	if (!strchr(body.buf, ',') && !strchr(body.buf, '=')) {
		char *colon;
		while ((colon = strrchr(body.buf, ':')) != NULL) {
			size_t sl = strlen(colon + 1);
			if (is_modifier_string(colon + 1, sl) ||
			    add_colon_suffix(colon + 1, sl, q, &nq, TD_ARRAY_SIZE(q)) ||
			    !strcasecmp(colon + 1, "perf_metrics") || !strcasecmp(colon + 1, "percore") ||
			    !strcasecmp(colon + 1, "sup") || !strcasecmp(colon + 1, "user"))
				strbuf_setlen(&body, colon - body.buf);
			else
				break;
		}
	}
	/* terms separated by ',' */
	p = body.buf;
	while (*p) {
		const char *t = p;
		while (*p && *p != ',')
			p++;
		add_term(t, p - t, &base, &name, q, &nq, TD_ARRAY_SIZE(q));
		if (*p == ',')
			p++;
	}
	if (name.len) {
		strbuf_addstr(key, name.buf);
	} else {
		strbuf_addstr(key, base.buf);
		qsort(q, nq, sizeof(q[0]), qual_cmp);
		for (i = 0; i < nq; i++)
			strbuf_addf(key, "%s%s=%llu", key->len ? "," : "", q[i].name, q[i].value);
	}
	map_alias(key, strong_aliases, TD_ARRAY_SIZE(strong_aliases));
	if (!strcmp(pmu->buf, "cpu"))
		strbuf_reset(pmu); /* the default core PMU */
	strbuf_release(&body);
	strbuf_release(&base);
	strbuf_release(&name);
}

const char *td_event_weak_class(const char *key)
{
	size_t r, i;

	for (r = 0; r < TD_ARRAY_SIZE(weak_aliases); r++)
		for (i = 0; i < 8 && weak_aliases[r][i]; i++)
			if (!strcmp(key, weak_aliases[r][i]))
				return weak_aliases[r][0];
	return NULL;
}

/* Does a count's PMU fit the PMU asked for ("" / NULL = any)? */
static int pmu_matches(const char *want, const char *have)
{
	if (!want || !*want)
		return 1;
	if (!strcmp(want, "cpu"))
		return !have || !*have || !strcmp(have, "cpu");
	return have && !strcasecmp(want, have);
}

/*
 * The privilege levels a name's trailing modifiers ask for, as a bit set
 * (1 = u, 2 = k, 4 = h); 0 when it has no privilege modifier.  "cycles:u"
 * gives 1, "INST_RETIRED.ANY_P:k" 2, "cpu@X,cmask=1@" 0.
 */
static unsigned privilege_bits(const char *name)
{
	const char *colon, *m;
	unsigned bits = 0;

	if (!name)
		return 0;
	colon = strrchr(name, ':');
	if (!colon || strchr(colon, '@') || strchr(colon, '/') ||
	    !is_modifier_string(colon + 1, strlen(colon + 1)))
		return 0;
	for (m = colon + 1; *m; m++)
		bits |= *m == 'u' ? 1 : *m == 'k' ? 2 : *m == 'h' ? 4 : 0;
	return bits;
}

/*
 * A formula that asks for a privilege level (":k" for kernel cycles) may
 * only use a count of exactly that level: an unmodified count also holds
 * user time, and using it would invent a number (kernel utilization 100 %).
 * A formula without a modifier takes any count, as perf does when it adds
 * ":u" on its own under perf_event_paranoid.
 */
/*
 * ":percore" asks for the sum over the SMT siblings of a core.  A count of
 * one thread (or of one process) is not that sum, and a per-core sum is
 * not a thread's count: each matches only its own kind, or a formula such
 * as Slots Utilization (thread slots / (core slots / 2)) would report 2.
 */
static int has_percore(const char *s)
{
	const char *p;

	for (p = s; p && (p = strchr(p, ':')) != NULL; p++)
		if (!strncasecmp(p + 1, "percore", 7) && (!p[8] || p[8] == ':' || p[8] == '/'))
			return 1;
	return 0;
}

static int percore_matches(int want_percore, const struct td_count *c)
{
	return want_percore == (has_percore(c->event) || has_percore(c->modifiers));
}

static int privilege_matches(unsigned want, const struct td_count *c)
{
	unsigned have;

	if (!want)
		return 1;
	have = privilege_bits(c->modifiers);
	if (!have)
		have = privilege_bits(c->event);
	return have == want;
}

/* A PMU of the cores, whose events a section (cpu_core, cpu_atom) owns. */
static int is_core_pmu_name(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") || !strcmp(name, "cpu_atom") ||
	       td_arm_is_core_pmu(name);
}

const struct td_count *td_scope_find_group(const struct td_scope *s, const char *pmu,
					   const char *event, int group)
{
	struct strbuf wpmu = STRBUF_INIT, wkey = STRBUF_INIT;
	struct strbuf cpmu = STRBUF_INIT, ckey = STRBUF_INIT;
	const struct td_count *found = NULL, *weak = NULL;
	const char *wclass;
	unsigned wprivilege;
	int wpercore, arm_any;
	size_t i;

	wprivilege = privilege_bits(event);
	wpercore = has_percore(event);
	td_event_key(event, &wpmu, &wkey);
	/*
	 * An Arm table names its core PMU in raw encodings
	 * ("armv8_pmuv3_0@event=0x201d@"); the machine's may be called
	 * otherwise (armv8_pmuv3, armv8_cortex_a76), and perf prints a named
	 * event without it.  With no section PMU asked for, any Arm core PMU
	 * and no PMU at all stand for it.
	 */
	arm_any = !pmu && td_arm_is_core_pmu(wpmu.buf);
	/*
	 * An event that names its own PMU keeps it, and so does one of a
	 * PMU outside the cores' (msr/tsc in a cpu_core section of a hybrid
	 * CPU: perf counts it once for all cores).
	 */
	if (wpmu.len && (!pmu || !is_core_pmu_name(wpmu.buf)))
		pmu = wpmu.buf;
	wclass = td_event_weak_class(wkey.buf);
	for (i = 0; i < s->nr_counts && !found; i++) {
		const struct td_count *c = &s->counts[i];
		const char *cpmu_name, *ck;

		if (group >= 0 && c->group != group)
			continue;
		if (c->key) {
			ck = c->key; /* made once when the count was added */
			strbuf_reset(&cpmu);
		} else {
			td_event_key(c->event, &cpmu, &ckey);
			ck = ckey.buf;
		}
		cpmu_name = c->pmu ? c->pmu : cpmu.buf;
		if (!(arm_any ? !*cpmu_name || td_arm_is_core_pmu(cpmu_name) : pmu_matches(pmu, cpmu_name)) ||
		    !privilege_matches(wprivilege, c) ||
		    !percore_matches(wpercore, c))
			continue;
		if (!strcmp(ck, wkey.buf) || !strcasecmp(c->event, event))
			found = c;
		else if (!weak && wclass) {
			const char *cc = td_event_weak_class(ck);
			if (cc && !strcmp(cc, wclass))
				weak = c;
		}
	}
	strbuf_release(&wpmu);
	strbuf_release(&wkey);
	strbuf_release(&cpmu);
	strbuf_release(&ckey);
	return found ? found : weak;
}

const struct td_count *td_scope_find(const struct td_scope *s, const char *pmu,
				     const char *event)
{
	return td_scope_find_group(s, pmu, event, -1);
}
