/*
 * tdperf dump: print a perf.data file's header, events, features and
 * records in the stable text form documented in docs/dump-format.md.
 */
#include "src/builtin.h"
#include "parse/parse.h"
#include "util/parse-options.h"
#include "util/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dump_usage[] = {
	"tdperf dump [options] FILE",
	"",
	"Print a perf.data file (file or pipe mode, a --threads directory, or -",
	"for stdin) as text: header, events, features, every record, and a",
	"summary of record counts per type.  Format: docs/dump-format.md.",
	NULL,
};

/* Record counts for the summary: per type, and samples per event. */
struct dump_counts {
	uint64_t total;
	uint64_t by_type[256];
	uint64_t other;
	uint64_t *samples;  /* per event */
	size_t nr_samples;
	uint64_t unknown_id;
};

/* Fast number formatting for the per-record lines (printf dominated). */
static void add_u64(struct strbuf *sb, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	strbuf_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

static void add_hex(struct strbuf *sb, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[16], *p = buf + sizeof(buf);

	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v);
	strbuf_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

/* A signed 32-bit field (pid, tid, cpu: -1 means none). */
static void add_kv_s32(struct strbuf *sb, const char *key, uint32_t v)
{
	strbuf_addstr(sb, key);
	if ((int32_t)v < 0) {
		strbuf_addch(sb, '-');
		add_u64(sb, (uint64_t)(-(int64_t)(int32_t)v));
	} else {
		add_u64(sb, v);
	}
}

/* " key=" then a decimal number */
static void add_kv(struct strbuf *sb, const char *key, uint64_t v)
{
	strbuf_addstr(sb, key);
	add_u64(sb, v);
}

static void print_header(struct td_pd *pd, const char *path, struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, "# tdperf dump 1: %s\n", td_printable(path));
	strbuf_addf(out, "header: mode=%s byte_order=%s%s\n",
		    td_pd_pipe_mode(pd) ? "pipe" : "file",
		    td_pd_needs_swap(pd) ? "swapped" : "native",
		    td_pd_is_directory(pd) ? " directory" : "");
	for (i = 0; i < td_pd_nr_events(pd); i++) {
		const struct td_pd_event *ev = td_pd_event(pd, i);
		size_t k;

		strbuf_addf(out, "event %zu: name=%s type=%u config=0x%" PRIx64
			    " attr_size=%u sample_type=0x%" PRIx64 " read_format=0x%" PRIx64
			    " flags=0x%" PRIx64 " %s=%" PRIu64,
			    i, td_printable(ev->name), ev->type, ev->config, ev->attr_size, ev->sample_type,
			    ev->read_format, ev->flags, ev->freq ? "sample_freq" : "sample_period",
			    ev->sample_period);
		if (ev->unit)
			strbuf_addf(out, " unit=%s", td_printable(ev->unit));
		if (ev->scale != 1.0)
			strbuf_addf(out, " scale=%g", ev->scale);
		strbuf_addf(out, " ids=%zu", ev->nr_ids);
		for (k = 0; k < ev->nr_ids && k < 8; k++)
			strbuf_addf(out, "%c%" PRIu64, k ? ',' : ':', ev->ids[k]);
		if (ev->nr_ids > 8)
			strbuf_addstr(out, ",...");
		if (ev->type == 2)
			strbuf_addstr(out, ev->tp ? " format=yes" : " format=no");
		strbuf_addch(out, '\n');
	}
	td_pd_describe_features(pd, out);
}

static void print_sample_id(const struct td_pd_sample *s, struct strbuf *out)
{
	if (s->fields & (1u << 1)) {
		add_kv_s32(out, " pid=", s->pid);
		add_kv_s32(out, " tid=", s->tid);
	}
	if (s->fields & (1u << 2))
		add_kv(out, " time=", s->time);
	if (s->fields & (1u << 7))
		add_kv_s32(out, " cpu=", s->cpu);
	if (s->fields & ((1u << 6) | (1u << 16)))
		add_kv(out, " id=", s->id);
	if (s->fields & (1u << 9))
		add_kv(out, " stream_id=", s->stream_id);
}

static void print_sample(const struct td_pd_record *r, struct strbuf *out, struct strbuf *tmp)
{
	const struct td_pd_sample *s = &r->sample;
	size_t i;

	if (!r->has_sample) {
		strbuf_addstr(out, " event=? (unknown sample id)\n");
		return;
	}
	strbuf_addstr(out, " event=");
	strbuf_add_printable(out, s->event->name);
	print_sample_id(s, out);
	if (s->fields & TD_PD_S_IP) {
		strbuf_addstr(out, " ip=0x");
		add_hex(out, s->ip);
	}
	if (s->fields & TD_PD_S_ADDR) {
		strbuf_addstr(out, " addr=0x");
		add_hex(out, s->addr);
	}
	if (s->fields & TD_PD_S_PERIOD)
		add_kv(out, " period=", s->period);
	strbuf_addch(out, '\n');
	if (s->fields & TD_PD_S_READ) {
		uint64_t rf = s->event->read_format;

		strbuf_addstr(out, "  read:");
		if (rf & TD_PD_F_TOTAL_TIME_ENABLED)
			strbuf_addf(out, " enabled=%" PRIu64, s->time_enabled);
		if (rf & TD_PD_F_TOTAL_TIME_RUNNING)
			strbuf_addf(out, " running=%" PRIu64, s->time_running);
		for (i = 0; i < s->nr_values; i++) {
			const struct td_pd_read_value *v = &s->values[i];

			strbuf_addf(out, " [%s value=%" PRIu64,
				    v->event ? td_printable(v->event->name) : "?", v->value);
			if (rf & TD_PD_F_ID)
				strbuf_addf(out, " id=%" PRIu64, v->id);
			if (rf & TD_PD_F_LOST)
				strbuf_addf(out, " lost=%" PRIu64, v->lost);
			strbuf_addch(out, ']');
		}
		strbuf_addch(out, '\n');
	}
	if (s->fields & TD_PD_S_CALLCHAIN) {
		add_kv(out, "  callchain: nr=", s->callchain_nr);
		for (i = 0; i < s->callchain_nr; i++) {
			strbuf_addch(out, ' ');
			add_hex(out, s->callchain[i]);
		}
		strbuf_addch(out, '\n');
	}
	if (s->fields & TD_PD_S_RAW) {
		strbuf_reset(tmp);
		add_kv(out, "  raw: size=", s->raw_size);
		if (td_pd_tp_print(s, tmp) == 0) {
			strbuf_addch(out, ' ');
			strbuf_add_printable_mem(out, tmp->buf, tmp->len);
		}
		strbuf_addch(out, '\n');
	}
	if (s->fields & (1u << 11))
		strbuf_addf(out, "  branch_stack: nr=%" PRIu64 "\n", s->branch_nr);
}

/* One record: "@OFFSET TYPE size=N misc=0xM fields...". */
static void print_record(const struct td_pd_record *r, struct strbuf *out, struct strbuf *tmp)
{
	strbuf_addstr(out, r->compressed ? "@z0x" : "@0x");
	add_hex(out, r->offset);
	if (r->stream)
		add_kv(out, " stream=", (uint64_t)r->stream);
	strbuf_addch(out, ' ');
	strbuf_addstr(out, td_pd_record_name(r->type));
	if (!strcmp(td_pd_record_name(r->type), "UNKNOWN"))
		strbuf_addf(out, "(%u)", r->type);
	add_kv(out, " size=", r->size);
	strbuf_addstr(out, " misc=0x");
	add_hex(out, r->misc);
	switch (r->type) {
	case TD_PD_SAMPLE:
		print_sample(r, out, tmp);
		return;
	case TD_PD_MMAP:
	case TD_PD_MMAP2:
		strbuf_addf(out, " pid=%d tid=%d addr=0x%" PRIx64 " len=0x%" PRIx64
			    " pgoff=0x%" PRIx64, (int)r->u.mmap.pid, (int)r->u.mmap.tid, r->u.mmap.addr,
			    r->u.mmap.len, r->u.mmap.pgoff);
		if (r->type == TD_PD_MMAP2) {
			if (r->u.mmap.has_build_id) {
				int i;

				strbuf_addstr(out, " build_id=");
				for (i = 0; i < r->u.mmap.build_id_size; i++)
					strbuf_addf(out, "%02x", r->u.mmap.build_id[i]);
			} else {
				strbuf_addf(out, " maj=%u min=%u ino=%" PRIu64 " ino_generation=%" PRIu64,
					    r->u.mmap.maj, r->u.mmap.min, r->u.mmap.ino,
					    r->u.mmap.ino_generation);
			}
			strbuf_addf(out, " prot=%u flags=%u", r->u.mmap.prot, r->u.mmap.flags);
		}
		strbuf_addf(out, " filename=%s", td_printable(r->u.mmap.filename));
		break;
	case TD_PD_COMM:
		strbuf_addf(out, " pid=%d tid=%d comm=%s%s", (int)r->u.comm.pid, (int)r->u.comm.tid,
			    td_printable(r->u.comm.comm), r->u.comm.exec ? " exec" : "");
		break;
	case TD_PD_FORK:
	case TD_PD_EXIT:
		strbuf_addf(out, " pid=%d ppid=%d tid=%d ptid=%d time=%" PRIu64, (int)r->u.fork.pid,
			    (int)r->u.fork.ppid, (int)r->u.fork.tid, (int)r->u.fork.ptid, r->u.fork.time);
		break;
	case TD_PD_LOST:
		strbuf_addf(out, " id=%" PRIu64 " lost=%" PRIu64, r->u.lost.id, r->u.lost.lost);
		break;
	case TD_PD_LOST_SAMPLES:
		strbuf_addf(out, " lost=%" PRIu64, r->u.lost_samples.lost);
		break;
	case TD_PD_STAT:
		strbuf_addf(out, " id=%" PRIu64 " cpu=%d thread=%u val=%" PRIu64 " ena=%" PRIu64
			    " run=%" PRIu64, r->u.stat.id, (int)r->u.stat.cpu, r->u.stat.thread,
			    r->u.stat.val, r->u.stat.ena, r->u.stat.run);
		break;
	case TD_PD_STAT_ROUND:
		strbuf_addf(out, " type=%s time=%" PRIu64,
			    r->u.stat_round.type == 0 ? "interval" :
			    r->u.stat_round.type == 1 ? "final" : "?", r->u.stat_round.time);
		break;
	case TD_PD_EVENT_UPDATE:
		strbuf_addf(out, " type=%" PRIu64 " id=%" PRIu64, r->u.event_update.type,
			    r->u.event_update.id);
		if (r->u.event_update.type == 1)
			strbuf_addf(out, " scale=%g", r->u.event_update.scale);
		else if (r->u.event_update.str)
			strbuf_addf(out, " %s=%s", r->u.event_update.type ? "name" : "unit",
				    td_printable(r->u.event_update.str));
		break;
	case TD_PD_HEADER_FEATURE:
		strbuf_addf(out, " feature=%" PRIu64, r->u.header_feature.feat_id);
		break;
	case TD_PD_HEADER_TRACING_DATA:
		strbuf_addf(out, " tracing_data_size=%u", r->u.tracing_data.size);
		break;
	default:
		break;
	}
	if (r->has_sample && r->type != TD_PD_SAMPLE) {
		strbuf_addstr(out, " |");
		print_sample_id(&r->sample, out);
	}
	strbuf_addch(out, '\n');
}

static void count_record(const struct td_pd_record *r, struct dump_counts *c)
{
	c->total++;
	if (r->type < 256)
		c->by_type[r->type]++;
	else
		c->other++;
	if (r->type == TD_PD_SAMPLE) {
		if (r->has_sample)
			c->samples[r->sample.event->index]++;
		else
			c->unknown_id++;
	}
}

static void print_counts(struct td_pd *pd, const struct dump_counts *c, struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, "summary: TOTAL %" PRIu64 "\n", c->total);
	for (i = 0; i < 256; i++)
		if (c->by_type[i])
			strbuf_addf(out, "summary: %s %" PRIu64 "\n", td_pd_record_name((uint32_t)i),
				    c->by_type[i]);
	if (c->other)
		strbuf_addf(out, "summary: UNKNOWN %" PRIu64 "\n", c->other);
	for (i = 0; i < td_pd_nr_events(pd); i++)
		if (c->samples[i])
			strbuf_addf(out, "summary: event %s SAMPLE %" PRIu64 "\n",
				    td_printable(td_pd_event(pd, i)->name), c->samples[i]);
	if (c->unknown_id)
		strbuf_addf(out, "summary: unknown-id SAMPLE %" PRIu64 "\n", c->unknown_id);
}

/*
 * --stat: "count TIME SCOPE EVENT VALUE UNIT running=PCT" per count, TIME
 * "-" for totals, SCOPE "total" or the CPU/thread label, VALUE with up to
 * 6 decimals or <not counted>/<not supported>, UNIT "-" when none.
 */
static int dump_stat(const char *path)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct td_stat_file *f = td_pd_read_stat(path, &err);
	size_t i, k, c;

	if (!f) {
		error("%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	strbuf_addf(&out, "# tdperf dump 1 stat: %s\n", td_printable(path));
	for (i = 0; i < f->nr_sessions; i++) {
		const struct td_stat *st = &f->sessions[i];

		strbuf_addf(&out, "session: interval=%d elapsed=%.9f target=%s\n", st->interval,
			    st->elapsed_s, st->target ? td_printable(st->target) : "-");
		for (k = 0; k < st->nr_scopes; k++) {
			const struct td_scope *sc = &st->scopes[k];

			for (c = 0; c < sc->nr_counts; c++) {
				const struct td_count *n = &sc->counts[c];

				strbuf_addstr(&out, "count ");
				if (isnan(sc->time))
					strbuf_addstr(&out, "-");
				else
					strbuf_addf(&out, "%.9f", sc->time);
				strbuf_addf(&out, " %s %s ", sc->label ? td_printable(sc->label) : "total",
					    td_printable(n->event));
				if (n->status == TD_COUNT_OK)
					strbuf_addf(&out, "%.6f", n->value);
				else
					strbuf_addstr(&out, n->status == TD_COUNT_NOT_COUNTED ?
						      "<not-counted>" : "<not-supported>");
				strbuf_addf(&out, " %s running=%.2f\n", n->unit ? td_printable(n->unit) : "-",
					    n->running_pct);
			}
		}
	}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
	td_stat_file_free(f);
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT, tmp = STRBUF_INIT;
	struct dump_counts counts;
	const struct td_pd_record *r;
	struct td_pd *pd;
	int time_order = 0, summary = 0, header_only = 0, stat = 0, ret;
	unsigned flags;
	const struct td_option options[] = {
		TD_OPT_BOOL('t', "time-order", &time_order,
			    "records in time order (as perf processes them); the default is file order"),
		TD_OPT_BOOL('s', "summary", &summary, "only the header, events, features and counts"),
		TD_OPT_BOOL(0, "header", &header_only, "only the header, events and features"),
		TD_OPT_BOOL(0, "stat", &stat,
			    "a 'perf stat record' file as counts (what 'perf stat report' shows): "
			    "one line per count"),
		TD_OPT_END(),
	};

	argc = td_parse_options(argc, argv, options, dump_usage, 0);
	if (argc != 1)
		return td_usage_error(dump_usage, "expected one FILE");
	if (stat)
		return dump_stat(argv[0]);
	flags = time_order ? TD_PD_KEEP_RAW : (TD_PD_FILE_ORDER | TD_PD_KEEP_RAW);
	pd = td_pd_open(argv[0], flags, &err);
	if (!pd) {
		error("%s", err.buf);
		strbuf_release(&err);
		return 2;
	}
	print_header(pd, argv[0], &out);
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_reset(&out);
	if (header_only) {
		td_pd_close(pd);
		strbuf_release(&out);
		return 0;
	}
	memset(&counts, 0, sizeof(counts));
	counts.nr_samples = td_pd_nr_events(pd);
	counts.samples = xcalloc(counts.nr_samples + 1, sizeof(*counts.samples));
	while ((ret = td_pd_next(pd, &r)) > 0) {
		size_t n = td_pd_nr_events(pd);

		/* pipe mode: events arrive as records */
		if (n > counts.nr_samples) {
			counts.samples = xrealloc(counts.samples, n * sizeof(*counts.samples));
			memset(counts.samples + counts.nr_samples, 0,
			       (n - counts.nr_samples) * sizeof(*counts.samples));
			counts.nr_samples = n;
		}
		count_record(r, &counts);
		if (!summary) {
			print_record(r, &out, &tmp);
			if (out.len > 65536) {
				fwrite(out.buf, 1, out.len, stdout);
				strbuf_reset(&out);
			}
		}
	}
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_reset(&out);
	if (ret < 0) {
		fflush(stdout);
		error("%s", td_pd_error(pd));
		td_pd_close(pd);
		free(counts.samples);
		strbuf_release(&out);
		strbuf_release(&tmp);
		return 2;
	}
	print_counts(pd, &counts, &out);
	fwrite(out.buf, 1, out.len, stdout);
	td_pd_close(pd);
	free(counts.samples);
	strbuf_release(&out);
	strbuf_release(&tmp);
	strbuf_release(&err);
	return 0;
}
