/*
 * The machine part of meta.json (docs/run-format.md), built from what
 * td_cpu_detect() found.  Unknown values are JSON null, never guesses.
 */
#include "collect/cpu.h"
#include "metrics/table.h"

#include <string.h>

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *int_or_null(int v)
{
	return v == TD_UNKNOWN ? json_null() : json_integer(v);
}

static json_t *bool_or_null(int v)
{
	return v == TD_UNKNOWN ? json_null() : json_boolean(v);
}

static json_t *pmus_json(const struct td_cpu_info *ci)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < ci->nr_pmus; i++) {
		const struct td_pmu *p = &ci->pmus[i];
		json_t *o = json_pack("{s:s, s:o, s:b, s:b}", "name", p->name, "type",
				      p->type < 0 ? json_null() : json_integer(p->type),
				      "hybrid", p->hybrid, "core", p->core);

		if (p->caps)
			json_object_set(o, "caps", p->caps);
		json_array_append_new(arr, o);
	}
	return arr;
}

/* Add the machine description to a meta.json object (run-format.md). */
void td_meta_add_machine(json_t *meta, const struct td_cpu_info *ci)
{
	const struct td_table_info *ti = ci->table ? td_table_info(ci->table) : NULL;
	json_t *cpu;

	json_object_set_new(meta, "host",
		json_pack("{s:o, s:o, s:o}", "hostname", str_or_null(ci->hostname),
			  "kernel", str_or_null(ci->kernel),
			  "perf_version", str_or_null(ci->perf_version)));
	cpu = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:s, s:b}",
			"vendor", str_or_null(ci->vendor),
			"family", int_or_null(ci->family),
			"model", int_or_null(ci->model),
			"stepping", int_or_null(ci->stepping),
			"name", str_or_null(ci->name),
			"cpuid", str_or_null(ci->cpuid),
			"microarchitecture", str_or_null(ti ? ti->name : NULL),
			"source", "detected",
			"confidence", "certain",
			"virtual_machine", ci->hypervisor);
	json_object_set_new(meta, "cpu", cpu);
	json_object_set_new(meta, "smt",
		json_pack("{s:o, s:o, s:s}", "on", bool_or_null(ci->smt),
			  "control", str_or_null(ci->smt_control), "source", "detected"));
	json_object_set_new(meta, "cpus_online", str_or_null(ci->cpus_online));
	json_object_set_new(meta, "nr_cpus_online", int_or_null(ci->nr_cpus_online));
	json_object_set_new(meta, "pmus", pmus_json(ci));
	json_object_set_new(meta, "hybrid", json_boolean(ci->hybrid));
	json_object_set_new(meta, "hardware_pmu", json_boolean(ci->hardware_pmu));
	json_object_set_new(meta, "counters",
		json_pack("{s:o, s:o, s:o, s:o, s:o}",
			  "general", int_or_null(ci->gp_counters),
			  "fixed", int_or_null(ci->fixed_counters),
			  "source", str_or_null(ci->counters_source),
			  "arch_perfmon_version", int_or_null(ci->arch_perfmon_version),
			  "nmi_watchdog", bool_or_null(ci->nmi_watchdog)));
	json_object_set_new(meta, "perf_event_paranoid",
			    ci->paranoid == -100 ? json_null() : json_integer(ci->paranoid));
}

/* Everything detected, for 'tdperf check --json'. */
json_t *td_cpu_info_json(const struct td_cpu_info *ci)
{
	const struct td_table_info *ti = ci->table ? td_table_info(ci->table) : NULL;
	json_t *o = json_object();

	td_meta_add_machine(o, ci);
	json_object_set_new(o, "perf",
		json_pack("{s:o, s:o}", "path", str_or_null(ci->perf_path),
			  "version", str_or_null(ci->perf_version)));
	json_object_set_new(o, "table",
		ti ? json_pack("{s:s, s:o}", "name", ti->name, "display", str_or_null(ti->display))
		   : json_pack("{s:n, s:o}", "name", "reason", str_or_null(ci->table_error)));
	json_object_set_new(o, "cycles",
		json_pack("{s:b, s:o}", "ok", ci->cycles_ok, "reason", str_or_null(ci->cycles_why)));
	json_object_set_new(o, "tracepoints",
		json_pack("{s:b, s:o, s:o}", "ok", ci->tracepoints_ok,
			  "tracefs", str_or_null(ci->tracefs),
			  "reason", str_or_null(ci->tracepoints_why)));
	json_object_set_new(o, "root", json_boolean(ci->root));
	return o;
}
