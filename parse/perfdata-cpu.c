/*
 * The CPU a perf.data file was recorded on, from its own header: the
 * CPUID feature ("GenuineIntel,6,85,4": vendor, family, model, stepping,
 * as perf writes it on x86), CPUDESC (the model name), NRCPUS,
 * CPU_TOPOLOGY (thread siblings tell SMT) and PMU_MAPPINGS (cpu_core and
 * cpu_atom tell a hybrid part).  A 'perf stat record' file names its CPU
 * this way for sure, where the events would only let us guess.
 */
#include "parse/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int td_pd_cpu(const struct td_pd *pd, struct td_pd_cpu *out)
{
	const char *id = td_pd_feature_string(pd, TD_PD_FEAT_CPUID);
	char vendor[32];
	int family, model, stepping;

	memset(out, 0, sizeof(*out));
	out->family = out->model = out->stepping = -1;
	out->raw_cpuid = id;
	out->desc = td_pd_feature_string(pd, TD_PD_FEAT_CPUDESC);
	out->nr_online = td_pd_nr_cpus_online(pd);
	out->smt = td_pd_topology_smt(pd);
	out->hybrid = td_pd_has_pmu(pd, "cpu_core") && td_pd_has_pmu(pd, "cpu_atom");
	if (!id || sscanf(id, "%31[^,],%d,%d,%d", vendor, &family, &model, &stepping) != 4 ||
	    family < 0 || model < 0 || stepping < 0)
		return -1; /* not x86, or not written: the events will have to tell */
	snprintf(out->vendor, sizeof(out->vendor), "%s", vendor);
	out->family = family;
	out->model = model;
	out->stepping = stepping;
	/* the form the tables match: family in decimal, model and stepping in hex */
	snprintf(out->cpuid, sizeof(out->cpuid), "%s-%d-%X-%X", vendor, family, model, stepping);
	return 0;
}
