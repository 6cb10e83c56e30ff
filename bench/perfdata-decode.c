/*
 * Benchmark helper: decode every record of a perf.data in time order with
 * the reader API, as an analysis would (the threads analysis reads these
 * very fields): per sched_switch sample pid, tid, cpu, time, prev_comm,
 * prev_pid, prev_state, next_comm, next_pid and the callchain.  Prints
 * counts and a checksum so that nothing is optimized away.
 *
 * usage: perfdata-decode FILE
 */
#include "parse/parse.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT, comm = STRBUF_INIT;
	const struct td_pd_record *r;
	const struct td_pd_event *sw;
	const struct td_pd_field *prev_pid, *prev_state, *next_pid, *prev_comm, *next_comm;
	unsigned long long samples = 0, records = 0, frames = 0, sum = 0;
	struct td_pd *pd;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: perfdata-decode FILE\n");
		return 2;
	}
	pd = td_pd_open(argv[1], 0, &err);
	if (!pd) {
		fprintf(stderr, "perfdata-decode: %s\n", err.buf);
		return 2;
	}
	sw = td_pd_event_by_name(pd, "sched:sched_switch");
	prev_pid = td_pd_tp_field(sw, "prev_pid");
	prev_state = td_pd_tp_field(sw, "prev_state");
	next_pid = td_pd_tp_field(sw, "next_pid");
	prev_comm = td_pd_tp_field(sw, "prev_comm");
	next_comm = td_pd_tp_field(sw, "next_comm");
	while ((ret = td_pd_next(pd, &r)) > 0) {
		records++;
		if (r->type == TD_PD_SAMPLE && r->has_sample && r->sample.event == sw) {
			const struct td_pd_sample *s = &r->sample;
			int64_t a = 0, b = 0, c = 0;
			size_t i;

			td_pd_field_num(prev_pid, s, &a);
			td_pd_field_num(prev_state, s, &b);
			td_pd_field_num(next_pid, s, &c);
			strbuf_reset(&comm);
			td_pd_field_str(prev_comm, s, &comm);
			td_pd_field_str(next_comm, s, &comm);
			sum += (uint64_t)a + (uint64_t)b + (uint64_t)c + s->time + s->cpu + s->tid + comm.len;
			for (i = 0; i < s->callchain_nr; i++)
				sum ^= s->callchain[i];
			frames += s->callchain_nr;
			samples++;
		}
	}
	if (ret < 0) {
		fprintf(stderr, "perfdata-decode: %s\n", td_pd_error(pd));
		return 2;
	}
	printf("records=%llu sched_switch=%llu frames=%llu checksum=%llx\n", records, samples,
	       frames, sum);
	td_pd_close(pd);
	strbuf_release(&comm);
	strbuf_release(&err);
	return 0;
}
