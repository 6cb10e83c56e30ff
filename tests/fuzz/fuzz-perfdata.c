/*
 * libFuzzer harness for the perf.data reader (parse/perfdata*.c): any
 * byte string is opened as a perf.data, every record read in file order
 * and in time order, samples' tracepoints printed and fields read, and
 * the features described.  Must never crash, hang or leak.
 *
 * FUZZ_SOURCES: util/*.c parse/*.c
 * FUZZ_PKGS: libtraceevent libzstd libdw
 * Seeds: tests/fuzz/seed-perfdata.sh (files perf records here).
 */
#include "parse/parse.h"

#include <stdint.h>
#include <stdlib.h>

/* Read every record; touch what a caller would touch. */
static void read_all(const uint8_t *data, size_t size, unsigned flags)
{
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	const struct td_pd_record *r;
	struct td_pd *pd = td_pd_open_mem(data, size, "fuzz", flags, &err);
	int64_t v;
	size_t n = 0;

	if (!pd) {
		strbuf_release(&err);
		return;
	}
	td_pd_describe_features(pd, &sb);
	td_pd_cmdline(pd);
	{
		struct td_pd_cpu cpu;   /* the header's CPU, as tdperf import reads it */

		td_pd_cpu(pd, &cpu);
	}
	while (td_pd_next(pd, &r) > 0 && n++ < 1000000) {
		if (r->type == TD_PD_SAMPLE && r->has_sample && r->sample.event->tp) {
			strbuf_reset(&sb);
			td_pd_tp_print(&r->sample, &sb);
			td_pd_tp_num(&r->sample, "prev_pid", &v);
			td_pd_tp_str(&r->sample, "prev_comm", &sb);
			td_pd_tp_str(&r->sample, "comm", &sb);
		}
	}
	td_pd_error(pd);
	td_pd_close(pd);
	strbuf_release(&sb);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_all(data, size, TD_PD_FILE_ORDER | TD_PD_KEEP_RAW);
	read_all(data, size, 0);
	return 0;
}
