/*
 * The plan of 'tdperf record' (collect/plan.h): groups from the event
 * scheduler, the runs they take and the perf command line of each job.
 */
#include "config.h"
#include "collect/plan.h"
#include "collect/hotspots.h"
#include "collect/run.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char software_events[] = "task-clock,context-switches,cpu-migrations,page-faults";
/* What the thread analysis reads (analyze/threads-load.c says why each). */
static const char sched_events[] =
	"sched:sched_switch,sched:sched_waking,sched:sched_wakeup,sched:sched_wakeup_new,"
	"sched:sched_process_fork,sched:sched_process_exit";

static void plan_warning(struct td_plan *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void plan_warning(struct td_plan *p, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_push(&p->warnings, sb.buf);
	strbuf_release(&sb);
}

/* perf stat's options shared by every counting run. */
static void stat_common_args(const struct td_plan *p, struct strvec *a, const char *file)
{
	strvec_push(a, td_perf_program());
	strvec_push(a, "stat");
	strvec_push(a, "-x,");
	strvec_push(a, "--no-big-num");
	strvec_push(a, "-o");
	strvec_push(a, file);
	if (p->o->interval_ms > 0)
		strvec_pushf(a, "-I%d", p->o->interval_ms);
	if (p->o->system_wide && !p->o->cpu_list)
		strvec_push(a, "-a");
	if (p->o->cpu_list) {
		strvec_push(a, "-C");
		strvec_push(a, p->o->cpu_list);
	}
	if (p->o->per_thread)
		strvec_push(a, "--per-thread");
	if (p->o->per_core)
		strvec_push(a, "--per-core");
	if (p->o->no_aggr)
		strvec_push(a, "-A");
}

/* The perf stat job of one run: software events, then group(s). */
static void plan_stat_job(struct td_plan *p, struct td_plan_job *j, long group)
{
	struct strbuf ev = STRBUF_INIT;
	struct strbuf name = STRBUF_INIT;
	size_t i;

	strbuf_addf(&name, "perf-stat-%zu.csv", ++p->nr_stat_files);
	j->role = "perf-stat";
	j->file = strbuf_detach(&name, NULL);
	j->group = group;
	stat_common_args(p, &j->argv, j->file);
	strbuf_addstr(&ev, software_events);
	/* one group per run: instructions tell whether the runs did the same work */
	if (p->hardware && p->o->no_multiplex && group >= 0)
		strbuf_addstr(&ev, ",instructions");
	if (p->hardware && p->have_sched) {
		/*
		 * duration_time is left out: attached with -D -1, perf counts it
		 * from its own start, not the workload's; meta.json runs[].seconds
		 * has the workload's wall time instead.
		 */
		for (i = 0; i < p->sched.nr_ungrouped; i++)
			if (strcmp(p->sched.ungrouped[i], "duration_time"))
				strbuf_addf(&ev, ",%s", p->sched.ungrouped[i]);
		strbuf_addch(&ev, ',');
		td_sched_group_spec(&p->sched, group, &ev);
	} else if (p->o->events) {
		strbuf_addf(&ev, ",%s", p->o->events); /* no groups to pack them into */
	}
	strvec_push(&j->argv, "-e");
	strvec_push(&j->argv, ev.buf);
	strbuf_release(&ev);
}

static void plan_sched_job(struct td_plan *p, struct td_plan_job *j)
{
	struct strvec *a = &j->argv;

	j->role = "sched";
	j->file = xstrdup("perf.data");
	j->group = -1;
	strvec_push(a, td_perf_program());
	strvec_push(a, "record");
	strvec_push(a, "-q");
	strvec_push(a, "-o");
	strvec_push(a, j->file);
	strvec_push(a, "-e");
	strvec_push(a, sched_events);
	strvec_push(a, "--switch-events"); /* switch-ins of a per-task recording */
	if (p->o->system_wide && !p->o->cpu_list)
		strvec_push(a, "-a");
	if (p->o->cpu_list) {
		strvec_push(a, "-C");
		strvec_push(a, p->o->cpu_list);
	}
}

static struct td_plan_run *new_run(struct td_plan *p, int repeat, long group)
{
	struct td_plan_run *run;

	TD_GROW(p->runs, p->alloc_runs, p->nr_runs + 1);
	run = &p->runs[p->nr_runs++];
	memset(run, 0, sizeof(*run));
	run->repeat = repeat;
	run->group = group;
	run->jobs = xcalloc(3, sizeof(*run->jobs));
	return run;
}

/* The scheduler's budget: detected, then the command line's overrides. */
static void plan_budget(struct td_plan *p, struct td_sched_budget *b)
{
	const struct td_cpu_info *ci = p->table == p->ci->table && !p->o->cpu ? p->ci : NULL;

	/* a --cpu that names this very machine still uses what was detected */
	if (!ci && p->ci->table == p->table && p->ci->hardware_pmu)
		ci = p->ci;
	td_sched_default_budget(p->table, ci, b);
	if (p->o->smt >= 0 && p->o->smt != b->smt) {
		const struct td_table_info *ti = td_table_info(p->table);

		b->smt = p->o->smt;
		b->gp = b->smt ? ti->gp_counters_smt : ti->gp_counters;
		b->gp -= b->nmi_watchdog;
		b->gp_source = "table";
	}
	if (p->o->nmi >= 0 && p->o->nmi != b->nmi_watchdog) {
		b->gp += b->nmi_watchdog - p->o->nmi;
		b->nmi_watchdog = p->o->nmi;
	}
	if (p->o->counters > 0) {
		b->gp = p->o->counters - b->nmi_watchdog;
		b->gp_source = "--counters";
	}
}

/* Do groups share one PMU's counters in time (perf multiplexes them)?  Each PMU counts apart. */
static int time_shared(const struct td_sched *s)
{
	size_t g, h;

	for (g = 0; g < s->nr_groups; g++)
		for (h = g + 1; h < s->nr_groups; h++)
			if (!strcmp(s->groups[g].pmu, s->groups[h].pmu))
				return 1;
	return 0;
}

/*
 * The counters of a second core PMU's groups (hybrid E-cores, another
 * Arm cluster): its table's, since CPUID leaf 0xA describes only the core
 * tdperf runs on, less the one the NMI watchdog holds on every core.
 */
static void partner_budget(const struct td_plan *p, const struct td_table *t,
			   struct td_sched_budget *b)
{
	td_sched_default_budget(t, NULL, b);
	b->nmi_watchdog = p->o->nmi >= 0 ? p->o->nmi : p->ci->nmi_watchdog > 0;
	b->gp -= b->nmi_watchdog;
	if (p->o->counters > 0)
		b->gp = p->o->counters - b->nmi_watchdog;
}

/*
 * Hybrid CPUs (Alder Lake, Raptor Lake): the E-cores have a PMU of their
 * own (cpu_atom) with other events and another tree.  A workload moves
 * between core types, so both are counted, each PMU in groups of its own
 * (the scheduler cannot mix them), and the run keeps both tables.  Done
 * when this machine has both PMUs, or when --cpu names a hybrid P-core
 * table (a dry run or a perf test double shows what such a machine gets).
 */
static int plan_atom(struct td_plan *p, struct strbuf *err)
{
	const struct td_table *atom = td_table_atom_partner(p->table);
	struct td_sched s;
	struct strbuf why = STRBUF_INIT;
	struct td_sched_request req = p->req;

	if (!atom || !(p->ci->hybrid || p->o->cpu))
		return 0;
	partner_budget(p, atom, &p->atom_budget);
	if (td_sched_build(atom, &req, &p->atom_budget, &s, &why) < 0) {
		/* nodes, metrics or stacks of the P-core tree the E-core tree lacks */
		plan_warning(p, "cpu_atom (%s): %s; the E-cores get Top-Down Level 1-%d only",
			     td_table_info(atom)->name, why.buf, req.level ? req.level : 2);
		strbuf_reset(&why);
		req.nodes = req.metrics = req.stacks = NULL;
		if (!req.level)
			req.level = 2;
		if (td_sched_build(atom, &req, &p->atom_budget, &s, &why) < 0) {
			strbuf_addf(err, "cpu_atom (%s): %s", td_table_info(atom)->name, why.buf);
			strbuf_release(&why);
			return -1;
		}
	}
	p->atom_table = atom;
	td_sched_append(&p->sched, &s);
	strbuf_release(&why);
	return 0;
}

/* Is this big.LITTLE Arm machine's detected table the one recorded with? */
static int count_arm_clusters(const struct td_plan *p)
{
	return p->table == p->ci->table && td_cpu_arm_clusters(p->ci) > 1 && !p->o->cpu &&
	       td_table_info(p->table)->vendor && !strcmp(td_table_info(p->table)->vendor, "ARM");
}

/*
 * big.LITTLE Arm systems (phones, laptops, boards): each cluster's core
 * PMU counts only while the workload runs on that cluster's CPUs, and
 * each core type has events and formulas of its own.  As on hybrid Intel
 * parts, every cluster is counted on its own PMU with its core's table
 * and gets a tree of its own.  The detected CPU's cluster was scheduled
 * in record_plan; here the others.  A cluster whose core tdperf has no
 * table for is not counted, and the run says so: its time is missing from
 * every tree.
 */
static int plan_arm_clusters(struct td_plan *p, const struct td_sched_budget *first,
			     struct strbuf *err)
{
	size_t i;

	for (i = 0; i < p->ci->nr_pmus; i++) {
		const struct td_pmu *pmu = &p->ci->pmus[i];
		struct strbuf why = STRBUF_INIT;
		struct td_plan_cluster *c;
		const struct td_table *t;
		struct td_sched s;

		if (!pmu->cpuid || (first->pmu_name && !strcmp(pmu->name, first->pmu_name)))
			continue;
		t = td_table_find(pmu->cpuid, &why);
		if (!t) {
			plan_warning(p, "cluster %s (CPUs %s, MIDR %s) not counted: tdperf has no "
				     "table for its core (tdperf list shows the tables; tdperf tables "
				     "import builds one); the trees cover the time on the other "
				     "clusters only", pmu->name, pmu->cpus ? pmu->cpus : "?", pmu->cpuid);
			strbuf_release(&why);
			continue;
		}
		p->clusters = xrealloc(p->clusters, (p->nr_clusters + 1) * sizeof(*p->clusters));
		c = &p->clusters[p->nr_clusters];
		c->pmu = pmu;
		c->table = t;
		partner_budget(p, t, &c->budget);
		c->budget.pmu_name = pmu->name;
		c->budget.name_pmu = 1;
		if (td_sched_build(t, &p->req, &c->budget, &s, &why) < 0) {
			strbuf_addf(err, "cluster %s (%s): %s", pmu->name, td_table_info(t)->name,
				    why.buf);
			strbuf_release(&why);
			return -1;
		}
		p->nr_clusters++;
		td_sched_append(&p->sched, &s);
		strbuf_release(&why);
	}
	return 0;
}

/* perf record's target options shared by the sampling jobs. */
static void record_common_args(const struct td_plan *p, struct strvec *a, const char *file)
{
	strvec_push(a, td_perf_program());
	strvec_push(a, "record");
	strvec_push(a, "-q");
	strvec_push(a, "-o");
	strvec_push(a, file);
	if (p->o->callgraph)
		strvec_push(a, "-g");
	if (p->o->freq > 0)
		strvec_pushf(a, "-F%d", p->o->freq);
	if (p->o->system_wide && !p->o->cpu_list)
		strvec_push(a, "-a");
	if (p->o->cpu_list) {
		strvec_push(a, "-C");
		strvec_push(a, p->o->cpu_list);
	}
}

/*
 * --hotspots (collect/hotspots.c says what is sampled): with hardware
 * counters a run of its own, so the sampled group does not share counters
 * with perf stat's groups; without them, cpu-clock samples ride along
 * with the first run.  --locate adds a run sampling the precise events.
 */
static int plan_hotspots(struct td_plan *p, struct strbuf *err)
{
	struct strbuf ev = STRBUF_INIT, note = STRBUF_INIT, why = STRBUF_INIT;
	struct td_sched_budget b;
	struct td_plan_run *run;
	struct td_plan_job *j;
	int lv;

	if (p->hardware)
		plan_budget(p, &b);
	lv = td_hotspots_events(p->hardware ? p->table : NULL, &b, p->req.level, &ev, &note, &why);
	if (lv < 0) {
		strbuf_addf(err, "--hotspots: %s", why.buf);
		strbuf_release(&ev);
		strbuf_release(&note);
		strbuf_release(&why);
		return -1;
	}
	if (note.len && p->hardware)
		plan_warning(p, "--hotspots: %s", note.buf);
	run = p->hardware || !p->nr_runs ? new_run(p, 1, -1) : &p->runs[0];
	j = &run->jobs[run->nr_jobs++];
	j->role = "hotspots";
	j->file = xstrdup("hotspots.data");
	j->group = -1;
	record_common_args(p, &j->argv, j->file);
	strvec_push(&j->argv, "-e");
	strvec_push(&j->argv, ev.buf);
	strbuf_reset(&ev);
	if (p->o->locate && !p->hardware)
		plan_warning(p, "--locate ignored: precise events need hardware counters");
	else if (p->o->locate && !td_hotspots_locate_events(p->table, p->req.level ? p->req.level : 2, &ev))
		plan_warning(p, "--locate: table %s names no events to locate its nodes with (no LocateWith)",
			     td_table_info(p->table)->name);
	else if (p->o->locate) {
		run = new_run(p, 1, -1);
		j = &run->jobs[run->nr_jobs++];
		j->role = "locate";
		j->file = xstrdup("locate.data");
		j->group = -1;
		record_common_args(p, &j->argv, j->file);
		strvec_push(&j->argv, "-e");
		strvec_push(&j->argv, ev.buf);
	}
	strbuf_release(&ev);
	strbuf_release(&note);
	strbuf_release(&why);
	return 0;
}

size_t td_plan_add_sample_run(struct td_plan *p, const char *role, const char *file,
			       const char *events)
{
	struct td_plan_run *run = new_run(p, 1, -1);
	struct td_plan_job *j = &run->jobs[run->nr_jobs++];

	j->role = role;
	j->file = xstrdup(file);
	j->group = -1;
	record_common_args(p, &j->argv, j->file);
	strvec_push(&j->argv, "-e");
	strvec_push(&j->argv, events);
	return p->nr_runs - 1;
}

/*
 * The counting run of record --drilldown=2: perf stat of the nodes 'ids'
 * alone, in groups of their own.  The run's software events come along,
 * so the file reads as any perf stat output of the run.
 */
long td_plan_add_count_run(struct td_plan *p, const char *ids, const char *file, struct strbuf *err)
{
	struct td_sched_request req = { 0 };
	struct td_sched s, keep = p->sched;
	struct td_plan_run *run;
	struct td_plan_job *j;
	size_t k;

	req.nodes = ids;
	if (!p->hardware || td_sched_build(p->table, &req, &p->sched.budget, &s, err) < 0)
		return -1;
	run = new_run(p, 1, -1);
	j = &run->jobs[run->nr_jobs++];
	p->sched = s;            /* plan_stat_job writes the groups of p->sched */
	plan_stat_job(p, j, -1);
	p->sched = keep;
	td_sched_release(&s);
	p->nr_stat_files--;      /* not one of the tree's counting files */
	free(j->file);
	j->file = xstrdup(file);
	j->role = "drilldown-count";
	/* the -o of stat_common_args names the file: follow the rename */
	for (k = 0; k + 1 < j->argv.nr; k++)
		if (!strcmp(j->argv.v[k], "-o")) {
			free(j->argv.v[k + 1]);
			j->argv.v[k + 1] = xstrdup(file);
		}
	return (long)(p->nr_runs - 1);
}

/*
 * A table without a Top-Down tree (AMD Zen 1-3, Neoverse N1: their PMUs
 * count no slots) still has info metrics.  When nothing was asked for
 * explicitly, measure all of them rather than refuse; an explicit -l or
 * --nodes is still refused by the scheduler, with what to ask instead.
 */
static void plan_treeless(struct td_plan *p)
{
	const struct td_table *t = p->table;
	size_t i;

	if (td_table_has_tree(t) || p->o->level_given || p->req.nodes || p->req.metrics ||
	    p->req.stacks)
		return;
	for (i = 0; i < td_table_nr_metrics(t); i++)
		strbuf_addf(&p->info_metrics, "%s%s", p->info_metrics.len ? "," : "",
			    td_table_metric(t, i)->id);
	if (!p->info_metrics.len)
		return;
	p->req.level = 0;
	p->req.metrics = p->info_metrics.buf;
	note("no Top-Down tree on this CPU (table %s): measuring its %zu info metrics instead. %s",
	     td_table_info(t)->name, td_table_nr_metrics(t),
	     td_table_info(t)->missing ? td_table_info(t)->missing : "");
}

/* The groups of every core PMU counted, with the scheduler's warnings. */
static int plan_groups(struct td_plan *p, struct strbuf *err)
{
	struct td_sched_budget b;
	size_t g;

	plan_budget(p, &b);
	b.name_pmu = count_arm_clusters(p);
	plan_treeless(p);
	if (td_sched_build(p->table, &p->req, &b, &p->sched, err) < 0)
		return -1;
	p->have_sched = 1;
	if (plan_atom(p, err) < 0)
		return -1;
	p->arm_clusters = b.name_pmu;
	if (p->arm_clusters && plan_arm_clusters(p, &b, err) < 0)
		return -1;
	if (p->o->events && td_sched_add_extra(&p->sched, p->o->events, err) < 0)
		return -1; /* collect/sched-extra.c */
	for (g = 0; g < p->sched.nr_warnings; g++)
		plan_warning(p, "%s", p->sched.warnings[g]);
	return 0;
}

int td_plan_build(struct td_plan *p, const struct td_plan_opts *o, const struct td_cpu_info *ci,
		  struct strbuf *err)
{
	int rep;
	size_t g;

	memset(p, 0, sizeof(*p));
	p->o = o;
	p->ci = ci;
	p->table = ci->table;
	p->req = o->req;
	strbuf_init(&p->info_metrics, 0);
	p->hardware = p->table && (p->ci->hardware_pmu || p->o->dry_run);
	if (p->hardware && plan_groups(p, err) < 0)
		return -1;
	if (p->o->sched >= 0)
		p->sched_tracepoints = p->o->sched;
	else
		p->sched_tracepoints = !p->hardware && p->ci->tracepoints_ok;
	if (p->sched_tracepoints && !p->ci->tracepoints_ok && !p->o->dry_run) {
		plan_warning(p, "sched tracepoints not recorded: %s", p->ci->tracepoints_why);
		p->sched_tracepoints = 0;
	}
	if (p->o->no_multiplex && !p->hardware)
		plan_warning(p, "--no-multiplex ignored: nothing is multiplexed without hardware counters");

	for (rep = 1; rep <= p->o->repeats; rep++) {
		if (p->hardware && p->o->no_multiplex && time_shared(&p->sched)) {
			for (g = 0; g < p->sched.nr_groups; g++) {
				struct td_plan_run *run = new_run(p, rep, (long)g);

				plan_stat_job(p, &run->jobs[run->nr_jobs++], (long)g);
				/* tracepoints once, with the first group */
				if (p->sched_tracepoints && rep == 1 && g == 0)
					plan_sched_job(p, &run->jobs[run->nr_jobs++]);
			}
		} else {
			struct td_plan_run *run = new_run(p, rep, -1);

			plan_stat_job(p, &run->jobs[run->nr_jobs++], -1);
			if (p->sched_tracepoints && rep == 1)
				plan_sched_job(p, &run->jobs[run->nr_jobs++]);
		}
	}
	if (p->o->hotspots && plan_hotspots(p, err) < 0)
		return -1;
	return 0;
}

void td_plan_release(struct td_plan *p)
{
	size_t i, j;

	for (i = 0; i < p->nr_runs; i++) {
		for (j = 0; j < p->runs[i].nr_jobs; j++) {
			free(p->runs[i].jobs[j].file);
			strvec_clear(&p->runs[i].jobs[j].argv);
		}
		free(p->runs[i].jobs);
	}
	free(p->runs);
	p->runs = NULL;
	p->nr_runs = p->alloc_runs = 0;
	free(p->clusters);
	p->clusters = NULL;
	p->nr_clusters = 0;
	strbuf_release(&p->info_metrics);
	if (p->have_sched)
		td_sched_release(&p->sched);
	p->have_sched = 0;
	strvec_clear(&p->warnings);
}

int td_plan_multiplexed(const struct td_plan *p)
{
	return p->have_sched && time_shared(&p->sched) && !p->o->no_multiplex;
}

void td_plan_job_command(const struct td_plan *p, const struct td_plan_job *j, struct strvec *out)
{
	strvec_pushv(out, j->argv.v);
	if (p->o->pid > 0) {
		strvec_push(out, "-p");
		strvec_pushf(out, "%d", p->o->pid);
	}
	if (p->o->workload) {
		strvec_push(out, "--");
		strvec_pushv(out, p->o->workload);
	}
}

/* ---------------- the dry run ---------------- */

/* The counters a group was scheduled for: its PMU's. */
static const struct td_sched_budget *group_budget(const struct td_plan *p,
						   const struct td_sched_group *gr)
{
	size_t i;

	if (p->atom_table && gr->pmu && !strcmp(gr->pmu, "cpu_atom"))
		return &p->atom_budget;
	for (i = 0; i < p->nr_clusters; i++)
		if (gr->pmu && !strcmp(gr->pmu, p->clusters[i].pmu->name))
			return &p->clusters[i].budget;
	return &p->sched.budget;
}

/* The CPUs of the detected CPU's cluster (its core PMU's "cpus"). */
static const char *primary_cluster_cpus(const struct td_plan *p)
{
	const struct td_pmu *pmu = p->sched.budget.pmu_name ?
				   td_cpu_find_pmu(p->ci, p->sched.budget.pmu_name) : NULL;

	return pmu && pmu->cpus ? pmu->cpus : "?";
}

static void print_schedule(const struct td_plan *p, FILE *out)
{
	const struct td_table_info *ti = td_table_info(p->table);
	const struct td_sched *s = &p->sched;
	size_t g, e, m;

	fprintf(out, "table %s (%s), level %d%s%s%s%s\n", ti->name, ti->display ? ti->display : "",
		     p->req.level, p->req.nodes ? ", nodes " : "", p->req.nodes ? p->req.nodes : "",
		     p->req.metrics ? ", metrics " : "", p->req.metrics ? p->req.metrics : "");
	if (p->req.stacks)
		fprintf(out, "stacks %s\n", p->req.stacks);
	fprintf(out, "counters: %d general per group (%s, SMT %s, NMI watchdog %s), %d fixed\n",
		     s->budget.gp, s->budget.gp_source, s->budget.smt ? "on" : "off",
		     s->budget.nmi_watchdog ? "on: one counter less" : "off", s->budget.fixed);
	if (p->atom_table)
		fprintf(out, "hybrid: E-cores (cpu_atom) with table %s: %d general per group, %d fixed\n",
			     td_table_info(p->atom_table)->name, p->atom_budget.gp, p->atom_budget.fixed);
	if (p->arm_clusters)
		fprintf(out, "cluster %s (CPUs %s): table %s\n", s->budget.pmu_name,
			     primary_cluster_cpus(p), ti->name);
	for (g = 0; g < p->nr_clusters; g++)
		fprintf(out, "cluster %s (CPUs %s): table %s, %d general per group, %d fixed\n",
			     p->clusters[g].pmu->name, p->clusters[g].pmu->cpus ? p->clusters[g].pmu->cpus : "?",
			     td_table_info(p->clusters[g].table)->name, p->clusters[g].budget.gp,
			     p->clusters[g].budget.fixed);
	fprintf(out, "metrics: %zu, events: ", s->nr_metrics);
	{
		size_t n = 0;

		for (g = 0; g < s->nr_groups; g++)
			n += s->groups[g].nr_events;
		fprintf(out, "%zu in groups, %zu outside groups\n", n, s->nr_ungrouped);
	}
	for (g = 0; g < s->nr_groups; g++) {
		const struct td_sched_group *gr = &s->groups[g];

		fprintf(out, "group %zu (%s): %d/%d general counters\n", g + 1, gr->pmu, gr->gp_used,
			     group_budget(p, gr)->gp);
		for (e = 0; e < gr->nr_events; e++) {
			const struct td_sched_event *ev = &gr->events[e];

			if (ev->extra)
				fprintf(out, "  %-40s no counter fixed here: extra event (-e), "
					     "perf's driver picks one\n", ev->name);
			else if (ev->fixed >= 0)
				fprintf(out, "  %-40s fixed %d\n", ev->name, ev->fixed);
			else if (ev->counter >= 0)
				fprintf(out, "  %-40s counter %d\n", ev->name, ev->counter);
			else
				fprintf(out, "  %-40s %s\n", ev->name, "no counter (PERF_METRICS)");
		}
		if (!gr->nr_metrics && gr->nr_events && gr->events[0].extra) {
			fprintf(out, "  extra events only (-e)\n");
			continue;
		}
		if (!gr->nr_metrics) {
			/* never an empty list: say what the group is for */
			fprintf(out, "  no formula whole here%s\n",
				     s->nr_split ? ": its events serve formulas split over groups" : "");
			continue;
		}
		fprintf(out, "  formulas whole here:");
		for (m = 0; m < gr->nr_metrics; m++)
			fprintf(out, " %s", gr->metrics[m]);
		fprintf(out, "\n");
	}
	if (s->nr_ungrouped) {
		fprintf(out, "outside groups:");
		for (e = 0; e < s->nr_ungrouped; e++)
			fprintf(out, " %s", s->ungrouped[e]);
		fprintf(out, "\n");
	}
	if (s->nr_split) {
		fprintf(out, "formulas split over groups (too many events for one group):");
		for (e = 0; e < s->nr_split; e++)
			fprintf(out, " %s", s->split[e]);
		fprintf(out, "\n");
	}
}

void td_plan_print(const struct td_plan *p, FILE *out)
{
	size_t i, j;

	if (p->have_sched)
		print_schedule(p, out);
	else
		fprintf(out, "no hardware counters: software events%s only\n",
			     p->sched_tracepoints ? " and sched tracepoints" : "");
	for (i = 0; i < p->nr_runs; i++) {
		for (j = 0; j < p->runs[i].nr_jobs; j++) {
			struct strvec a = STRVEC_INIT;
			struct strbuf sb = STRBUF_INIT;

			td_plan_job_command(p, &p->runs[i].jobs[j], &a);
			td_quote_argv(&sb, a.v);
			fprintf(out, "run %zu: %s\n", i + 1, sb.buf);
			strbuf_release(&sb);
			strvec_clear(&a);
		}
	}
	for (i = 0; i < p->warnings.nr; i++)
		if (!strncmp(p->warnings.v[i], "--hotspots", 10) || !strncmp(p->warnings.v[i], "--locate", 8))
			fprintf(out, "%s\n", p->warnings.v[i]);
	fprintf(out, "groups: %zu, runs: %zu%s\n", p->have_sched ? p->sched.nr_groups : (size_t)0,
		p->nr_runs, td_plan_multiplexed(p) ? " (multiplexed)" : "");
}
