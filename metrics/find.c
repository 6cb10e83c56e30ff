/*
 * CPU -> table: the built-in tables live in the data directory
 * (td_data_path("metrics/tables")); each names itself, its perf
 * pmu-events directory, aliases and the CPUID patterns it covers.  A CPU
 * is named by any of those or by a CPUID string as perf writes it
 * ("GenuineIntel-6-55-4", "AuthenticAMD-25-61-2": decimal family, hex
 * model and stepping).
 *
 * Choosing a table reads only the tables' identities (td_table_load_identity:
 * the JSON less its events and metrics); a table is loaded in full, formulas
 * and all, only once it is the one chosen.  Loading all 39 to compare five
 * strings cost some 300 ms of CPU on every run.
 */
#include "metrics/table-int.h"

#include <ctype.h>
#include <dirent.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char **builtin_names;
static size_t nr_builtin;
static struct td_table **builtin_tables; /* loaded lazily, parallel to names */
static struct td_table **builtin_ids;    /* identities only, ditto */
static char *builtin_dir;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Scan the data directory once. */
static void scan_builtin(void)
{
	DIR *d;
	struct dirent *de;
	size_t alloc = 0;

	if (builtin_dir)
		return;
	builtin_dir = td_data_path("metrics/tables");
	d = opendir(builtin_dir);
	if (d) {
		while ((de = readdir(d))) {
			size_t n = strlen(de->d_name);

			if (n <= 5 || strcmp(de->d_name + n - 5, ".json") || de->d_name[0] == '.')
				continue;
			TD_GROW(builtin_names, alloc, nr_builtin + 2);
			builtin_names[nr_builtin++] = xstrndup(de->d_name, n - 5);
		}
		closedir(d);
	}
	TD_GROW(builtin_names, alloc, nr_builtin + 1);
	builtin_names[nr_builtin] = NULL;
	qsort(builtin_names, nr_builtin, sizeof(*builtin_names), cmp_str);
	builtin_tables = xcalloc(nr_builtin + 1, sizeof(*builtin_tables));
	builtin_ids = xcalloc(nr_builtin + 1, sizeof(*builtin_ids));
}

const char *const *td_table_names(void)
{
	scan_builtin();
	return (const char *const *)builtin_names;
}

/* Load built-in table i (cached); NULL with the reason in err. */
static struct td_table *builtin(size_t i, struct strbuf *err)
{
	if (!builtin_tables[i]) {
		struct strbuf file = STRBUF_INIT;

		strbuf_addf(&file, "%s/%s.json", builtin_dir, builtin_names[i]);
		builtin_tables[i] = td_table_load(file.buf, err);
		strbuf_release(&file);
		if (builtin_tables[i]) {
			td_table_free(builtin_ids[i]);
			builtin_ids[i] = NULL;
		}
	}
	return builtin_tables[i];
}

/*
 * What built-in table i answers to (name, aliases, CPUIDs, core type),
 * for matching only: the full table once loaded, else its identity.  One
 * whose identity cannot be read is loaded in full, which either works or
 * puts the reason in err, as when every table was loaded to be matched.
 */
static const struct td_table *identity(size_t i, struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT;

	if (builtin_tables[i])
		return builtin_tables[i];
	if (!builtin_ids[i]) {
		strbuf_addf(&file, "%s/%s.json", builtin_dir, builtin_names[i]);
		builtin_ids[i] = td_table_load_identity(file.buf);
		strbuf_release(&file);
	}
	return builtin_ids[i] ? builtin_ids[i] : builtin(i, err);
}

int td_table_matches_cpuid(const struct td_table *t, const char *cpuid)
{
	size_t i;

	for (i = 0; i < t->nr_cpuid; i++) {
		struct strbuf pat = STRBUF_INIT;
		regex_t re;
		int ok = 0;

		strbuf_addf(&pat, "^(%s)$", t->cpuid[i]);
		if (!regcomp(&re, pat.buf, REG_EXTENDED | REG_ICASE | REG_NOSUB)) {
			ok = !regexec(&re, cpuid, 0, NULL, 0);
			regfree(&re);
		}
		strbuf_release(&pat);
		if (ok)
			return 1;
	}
	return 0;
}

static int is_cpuid(const char *s)
{
	return !strncmp(s, "GenuineIntel-", 13) || !strncmp(s, "AuthenticAMD-", 13) ||
	       !strncmp(s, "HygonGenuine-", 13) ||
	       (!strncasecmp(s, "0x", 2) && strlen(s) == 18); /* Arm: perf's MIDR form */
}

static int core_type_ok(const struct td_table *t, const char *core_type)
{
	if (!core_type)
		return !t->info.core_type || !strcmp(t->info.core_type, "core");
	return t->info.core_type && !strcasecmp(t->info.core_type, core_type);
}

static int names_match(const struct td_table *t, const char *name)
{
	size_t i;

	if (!strcasecmp(t->info.name, name) ||
	    (t->info.perf_name && !strcasecmp(t->info.perf_name, name)))
		return 1;
	for (i = 0; i < t->nr_aliases; i++)
		if (!strcasecmp(t->aliases[i], name))
			return 1;
	return 0;
}

/* Match a CPUID with and without its stepping, as perf does. */
static int cpuid_match(const struct td_table *t, const char *cpuid)
{
	char *copy, *dash;
	int ok;

	if (td_table_matches_cpuid(t, cpuid))
		return 1;
	copy = xstrdup(cpuid);
	dash = strrchr(copy, '-');
	ok = 0;
	/* vendor-family-model-stepping: try without the stepping */
	if (dash && dash != strchr(copy, '-') && strchr(copy, '-') != strrchr(copy, '-') &&
	    strchr(strchr(copy, '-') + 1, '-') != dash) {
		*dash = '\0';
		ok = td_table_matches_cpuid(t, copy);
	}
	free(copy);
	return ok;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *row = xcalloc(lb + 1, sizeof(*row)), r;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	r = row[lb];
	free(row);
	return r;
}

/*
 * The closest table: for a CPUID, the nearest model number of the same
 * vendor and family that a table covers; for a name, the most similar
 * table name.  Returns a built-in name or NULL.
 */
static const char *closest(const char *cpu, const char *core_type)
{
	size_t i, best_d = (size_t)-1;
	const char *best = NULL;
	struct strbuf err = STRBUF_INIT;

	if (is_cpuid(cpu) && !strncasecmp(cpu, "0x", 2)) {
		/* Arm: a table of the same implementer (the MIDR's bits 31:24) */
		for (i = 0; i < nr_builtin && !best; i++) {
			const struct td_table *t = identity(i, &err);

			if (t && t->nr_cpuid && !strncasecmp(t->cpuid[0], cpu, 12))
				best = builtin_names[i];
		}
		strbuf_release(&err);
		if (best)
			return best;
	} else if (is_cpuid(cpu)) {
		char vendor[32];
		unsigned family = 0, model = 0;
		int delta;

		if (sscanf(cpu, "%31[^-]-%u-%x", vendor, &family, &model) == 3) {
			for (delta = 1; delta < 256 && !best; delta++) {
				int sign;

				for (sign = -1; sign <= 1 && !best; sign += 2) {
					int m = (int)model + sign * delta;
					struct strbuf probe = STRBUF_INIT;

					if (m < 0)
						continue;
					strbuf_addf(&probe, "%s-%u-%X", vendor, family, (unsigned)m);
					for (i = 0; i < nr_builtin && !best; i++) {
						const struct td_table *t = identity(i, &err);

						if (t && core_type_ok(t, core_type) && cpuid_match(t, probe.buf))
							best = builtin_names[i];
					}
					strbuf_release(&probe);
				}
			}
		}
		strbuf_release(&err);
		if (best)
			return best;
	}
	for (i = 0; i < nr_builtin; i++) {
		size_t d = edit_distance(cpu, builtin_names[i]);

		if (d < best_d) {
			best_d = d;
			best = builtin_names[i];
		}
	}
	strbuf_release(&err);
	return best;
}

const struct td_table *td_table_find_core(const char *cpu, const char *core_type,
					  struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT, lerr = STRBUF_INIT;
	const struct td_table *found = NULL;
	const char *slash, *near;
	size_t i;

	scan_builtin();
	if (!cpu || !*cpu) {
		strbuf_addstr(err, "no CPU given");
		return NULL;
	}
	/* "alderlake/cpu_atom", "GenuineIntel-6-97-2/atom" */
	slash = strchr(cpu, '/');
	strbuf_add(&name, cpu, slash ? (size_t)(slash - cpu) : strlen(cpu));
	if (slash && !core_type) {
		const char *ct = slash + 1;

		core_type = !strcasecmp(ct, "cpu_atom") || !strcasecmp(ct, "atom") ? "atom" :
			    !strcasecmp(ct, "cpu_core") || !strcasecmp(ct, "core") ? "core" : ct;
	}
	if (!strcmp(name.buf, "cpu_atom") || !strcmp(name.buf, "cpu_core")) {
		strbuf_addf(err, "'%s' names a PMU, not a CPU", name.buf);
		strbuf_release(&name);
		return NULL;
	}
	/* a name matches regardless of core type, unless one was asked for */
	for (i = 0; i < nr_builtin && !found; i++) {
		const struct td_table *t = identity(i, &lerr);

		if (t && names_match(t, name.buf) && (!core_type || core_type_ok(t, core_type)))
			found = builtin(i, &lerr);
	}
	/* a hybrid base name with a core type: "alderlake" + atom */
	if (found && core_type && !core_type_ok(found, core_type))
		found = NULL;
	if (!found && core_type) {
		for (i = 0; i < nr_builtin && !found; i++) {
			const struct td_table *t = identity(i, &lerr);
			const char *pn = t ? t->info.perf_name : NULL;

			if (t && pn && !strcasecmp(pn, name.buf) && core_type_ok(t, core_type))
				found = builtin(i, &lerr);
		}
	}
	if (!found && is_cpuid(name.buf)) {
		for (i = 0; i < nr_builtin && !found; i++) {
			const struct td_table *t = identity(i, &lerr);

			if (t && core_type_ok(t, core_type) && cpuid_match(t, name.buf))
				found = builtin(i, &lerr);
		}
	}
	if (!found) {
		if (!nr_builtin) {
			strbuf_addf(err, "no formula tables found in %s", builtin_dir);
		} else {
			near = closest(name.buf, core_type);
			strbuf_addf(err, "no formula table for CPU '%s'", cpu);
			if (near)
				strbuf_addf(err, "; the closest known table is '%s' (force it with --cpu %s,"
					    " or load a newer table with --table FILE)", near, near);
		}
		if (lerr.len)
			strbuf_addf(err, " [%s]", lerr.buf);
	}
	strbuf_release(&name);
	strbuf_release(&lerr);
	return found;
}

const struct td_table *td_table_find(const char *cpu, struct strbuf *err)
{
	return td_table_find_core(cpu, NULL, err);
}

const struct td_table *td_table_atom_partner(const struct td_table *t)
{
	const struct td_table_info *info = td_table_info(t);
	struct strbuf name = STRBUF_INIT, err = STRBUF_INIT;
	const struct td_table *atom = NULL;

	if (info->core_type && !strcmp(info->core_type, "core")) {
		strbuf_addf(&name, "%s/cpu_atom", info->perf_name ? info->perf_name : info->name);
		atom = td_table_find(name.buf, &err);
		if (atom == t || (atom && (!td_table_info(atom)->core_type ||
					   strcmp(td_table_info(atom)->core_type, "atom"))))
			atom = NULL;
	}
	strbuf_release(&name);
	strbuf_release(&err);
	return atom;
}
