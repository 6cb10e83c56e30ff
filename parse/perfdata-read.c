/*
 * perf.data records: reading them from a stream (mapped or piped),
 * decompressing PERF_RECORD_COMPRESSED, putting them in time order with
 * perf's FINISHED_ROUND rule, and decoding them field by field.
 *
 * Nothing is allocated per record: mapped records are used in place;
 * records from a pipe or from the decompressed stream are copied into
 * recycled 1 MiB blocks while they wait in the sort heap.
 */
#include "parse/perfdata-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PD_BLOCK_SIZE (1u << 20)
/* A COMPRESSED record of at most 64 KiB may not expand beyond this. */
#define PD_MAX_DECOMPRESSED (256u << 20)

static const char *const record_names[] = {
	[1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT", [5] = "THROTTLE",
	[6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ", [9] = "SAMPLE", [10] = "MMAP2",
	[11] = "AUX", [12] = "ITRACE_START", [13] = "LOST_SAMPLES", [14] = "SWITCH",
	[15] = "SWITCH_CPU_WIDE", [16] = "NAMESPACES", [17] = "KSYMBOL",
	[18] = "BPF_EVENT", [19] = "CGROUP", [20] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[64] = "ATTR", [65] = "EVENT_TYPE", [66] = "TRACING_DATA",
	[67] = "BUILD_ID", [68] = "FINISHED_ROUND", [69] = "ID_INDEX",
	[70] = "AUXTRACE_INFO", [71] = "AUXTRACE", [72] = "AUXTRACE_ERROR",
	[73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG", [76] = "STAT",
	[77] = "STAT_ROUND", [78] = "EVENT_UPDATE", [79] = "TIME_CONV",
	[80] = "FEATURE", [81] = "COMPRESSED", [82] = "FINISHED_INIT",
	[83] = "COMPRESSED2",
};

const char *td_pd_record_name(uint32_t type)
{
	if (type < TD_ARRAY_SIZE(record_names) && record_names[type])
		return record_names[type];
	return "UNKNOWN";
}

void pd_stream_release(struct pd_stream *st)
{
	struct pd_block *b, *next;

	if (st->map)
		munmap(st->map, st->map_len);
	if (st->zds)
		ZSTD_freeDStream(st->zds);
	free(st->zbuf);
	free(st->buf);
	free(st->heap);
	for (b = st->all_blocks; b; b = next) {
		next = b->all_next;
		free(b);
	}
	free(st->chain);
	free(st->values);
	free(st->strbuf);
	free(st->copy);
	free(st->name);
}

/*
 * Make [off, off + n) of a stream readable and return a pointer to it,
 * valid until the next call; NULL when the stream ends before (*short_by
 * then says how many bytes are there).
 */
static const unsigned char *st_get(struct td_pd *pd, struct pd_stream *st, uint64_t off,
				   size_t n, uint64_t *avail)
{
	if (st->fd < 0) {
		if (off > st->end || n > st->end - off) {
			*avail = off <= st->end ? st->end - off : 0;
			return NULL;
		}
		return st->base + off;
	}
	/* piped: keep [buf_off, buf_off + buf_end) and slide forward */
	if (off < st->buf_off)
		return NULL;
	if (off + n > st->buf_off + st->buf_end) {
		size_t keep_from = (size_t)(off - st->buf_off);

		if (keep_from > st->buf_end)
			keep_from = st->buf_end;
		memmove(st->buf, st->buf + keep_from, st->buf_end - keep_from);
		st->buf_end -= keep_from;
		st->buf_off += keep_from;
		if (st->buf_alloc < n + 65536) {
			st->buf_alloc = n + 65536;
			st->buf = xrealloc(st->buf, st->buf_alloc);
		}
		while (st->buf_off + st->buf_end < off + n && !st->eof) {
			ssize_t r = read(st->fd, st->buf + st->buf_end, st->buf_alloc - st->buf_end);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				st->eof = 1;
				break;
			}
			st->buf_end += (size_t)r;
		}
		if (st->buf_off + st->buf_end < off + n) {
			*avail = st->buf_off + st->buf_end > off ? st->buf_off + st->buf_end - off : 0;
			return NULL;
		}
	}
	return st->buf + (off - st->buf_off);
}

/* Feed one COMPRESSED payload to the stream's zstd decoder, appending the
 * output after what is left of the previous chunk. */
static int decompress(struct td_pd *pd, struct pd_stream *st, const unsigned char *src, size_t n,
		      uint64_t off)
{
	ZSTD_inBuffer in = { src, n, 0 };
	size_t produced = 0;

	if (!st->zds) {
		st->zds = ZSTD_createDStream();
		if (!st->zds || ZSTD_isError(ZSTD_initDStream(st->zds)))
			return pd_fail_at(pd, st, 0, off, "cannot start a zstd decoder");
	}
	if (st->zpos) {
		memmove(st->zbuf, st->zbuf + st->zpos, st->zlen - st->zpos);
		st->zlen -= st->zpos;
		st->zpos = 0;
	}
	while (in.pos < in.size) {
		ZSTD_outBuffer out;
		size_t ret;

		if (st->zalloc - st->zlen < ZSTD_DStreamOutSize()) {
			if (produced > PD_MAX_DECOMPRESSED)
				return pd_fail_at(pd, st, 0, off,
						  "COMPRESSED record expands beyond %u MiB",
						  PD_MAX_DECOMPRESSED >> 20);
			st->zalloc = st->zalloc ? 2 * st->zalloc : 4 * ZSTD_DStreamOutSize();
			st->zbuf = xrealloc(st->zbuf, st->zalloc);
		}
		out.dst = st->zbuf + st->zlen;
		out.size = st->zalloc - st->zlen;
		out.pos = 0;
		ret = ZSTD_decompressStream(st->zds, &out, &in);
		if (ZSTD_isError(ret))
			return pd_fail_at(pd, st, 0, off, "corrupt zstd data in COMPRESSED record: %s",
					  ZSTD_getErrorName(ret));
		st->zlen += out.pos;
		produced += out.pos;
	}
	return 0;
}

/* Metadata that arrives as records (pipe mode, perf stat): apply it when
 * read, in file order, before any sorting. */
static int apply_metadata(struct td_pd *pd, struct pd_stream *st, const unsigned char *rec,
			  uint32_t type, uint32_t size, uint64_t off)
{
	int s = pd->swap;

	switch (type) {
	case TD_PD_HEADER_ATTR: {
		uint32_t asz;
		int idx;
		uint64_t k;

		if (size < 8 + 8)
			return pd_fail_at(pd, st, 0, off, "HEADER_ATTR record too short (%u bytes)", size);
		asz = pd_get32(rec + 12, s);
		if (!asz)
			asz = 64;
		idx = pd_add_event(pd, rec + 8, size - 8, off + 8);
		if (idx < 0)
			return -1;
		for (k = 8 + (uint64_t)asz; k + 8 <= size; k += 8)
			if (pd_add_id(pd, pd_get64(rec + k, s), idx) < 0)
				return -1;
		pd_name_events(pd);
		pd_attach_tracepoints(pd);
		return 0;
	}
	case TD_PD_HEADER_FEATURE:
		if (size < 16)
			return pd_fail_at(pd, st, 0, off, "HEADER_FEATURE record too short (%u bytes)", size);
		return pd_apply_feature(pd, pd_get64(rec + 8, s) < PD_NR_FEATURES ?
					(int)pd_get64(rec + 8, s) : -1,
					rec + 16, size - 16, off + 16);
	case TD_PD_EVENT_UPDATE: {
		uint64_t utype, id;
		struct td_pd_event *ev;

		if (size < 24)
			return pd_fail_at(pd, st, 0, off, "EVENT_UPDATE record too short (%u bytes)", size);
		utype = pd_get64(rec + 8, s);
		id = pd_get64(rec + 16, s);
		ev = (struct td_pd_event *)pd_event_for(pd, id);
		if (!ev)
			return 0;   /* perf ignores updates for unknown ids too */
		if (utype == 0) {
			free((char *)ev->unit);
			ev->unit = xstrndup((const char *)rec + 24, strnlen((const char *)rec + 24, size - 24));
		} else if (utype == 1 && size >= 32) {
			uint64_t bits = pd_get64(rec + 24, s);

			memcpy(&ev->scale, &bits, 8);
		} else if (utype == 2) {
			pd_set_event_name(pd, ev, (const char *)rec + 24, size - 24);
		}
		return 0;
	}
	default:
		return 0;
	}
}

/*
 * The next record of a stream in file order.  COMPRESSED records are
 * opened and their contents returned one by one (the record itself too
 * with TD_PD_KEEP_RAW).  Returns 1, 0 at the end, -1 on error.
 */
static int raw_next(struct td_pd *pd, struct pd_stream *st, const unsigned char **rec,
		    uint32_t *size, uint64_t *off, int *compressed, int *transient)
{
	for (;;) {
		const unsigned char *h;
		uint64_t avail = 0, pos = st->pos;
		uint32_t type, sz;

		/* records inside the decompressed stream come first */
		if (st->zlen - st->zpos >= 8) {
			const unsigned char *z = st->zbuf + st->zpos;
			uint32_t zs = pd_get16(z + 6, pd->swap);

			if (zs < 8)
				return pd_fail_at(pd, st, 1, st->zoff,
						  "record size %u is smaller than its 8-byte header", zs);
			if (zs <= st->zlen - st->zpos) {
				*rec = z;
				*size = zs;
				*off = st->zoff;
				*compressed = 1;
				*transient = 1;
				st->zpos += zs;
				st->zoff += zs;
				if (apply_metadata(pd, st, z, pd_get32(z, pd->swap), zs, *off) < 0)
					return -1;
				return 1;
			}
		}
		if (pos >= st->end || (st->fd >= 0 && !st_get(pd, st, pos, 1, &avail))) {
			if (st->zlen != st->zpos)
				return pd_fail_at(pd, st, 1, st->zoff,
						  "decompressed data ends inside a record (%zu bytes left)",
						  st->zlen - st->zpos);
			return 0;
		}
		h = st_get(pd, st, pos, 8, &avail);
		if (!h)
			return pd_fail_at(pd, st, 0, pos, "truncated record header (%llu of 8 bytes)",
					  (unsigned long long)avail);
		type = pd_get32(h, pd->swap);
		sz = pd_get16(h + 6, pd->swap);
		if (sz < 8)
			return pd_fail_at(pd, st, 0, pos, "record size %u is smaller than its 8-byte header",
					  sz);
		h = st_get(pd, st, pos, sz, &avail);
		if (!h)
			return pd_fail_at(pd, st, 0, pos,
					  "%s record of %u bytes runs past the end of the data (%llu bytes left)",
					  td_pd_record_name(type), sz, (unsigned long long)avail);
		st->pos = pos + sz;
		*rec = h;
		*size = sz;
		*off = pos;
		*compressed = 0;
		*transient = st->fd >= 0;
		if (type == TD_PD_COMPRESSED || type == TD_PD_COMPRESSED2) {
			const unsigned char *payload = h + 8;
			uint64_t plen = sz - 8;

			if (type == TD_PD_COMPRESSED2) {
				if (sz < 16)
					return pd_fail_at(pd, st, 0, pos, "COMPRESSED2 record too short");
				plen = pd_get64(h + 8, pd->swap);
				payload = h + 16;
				if (plen > (uint64_t)sz - 16)
					return pd_fail_at(pd, st, 0, pos,
							  "COMPRESSED2 data size %llu exceeds the record",
							  (unsigned long long)plen);
			}
			st->zsrc = pos;
			if (decompress(pd, st, payload, (size_t)plen, pos) < 0)
				return -1;
			if (pd->flags & TD_PD_KEEP_RAW)
				return 1;
			continue;
		}
		if (type == TD_PD_HEADER_TRACING_DATA) {
			uint32_t blob;
			const unsigned char *b;

			if (sz < 12)
				return pd_fail_at(pd, st, 0, pos, "HEADER_TRACING_DATA record too short");
			blob = pd_get32(h + 8, pd->swap);
			memcpy(st->copy, h, sz);
			b = st_get(pd, st, pos + sz, blob, &avail);
			if (!b)
				return pd_fail_at(pd, st, 0, pos,
						  "tracing data of %u bytes runs past the end (%llu bytes left)",
						  blob, (unsigned long long)avail);
			if (pd_parse_tracing_data(pd, b, blob, pos + sz) < 0)
				return -1;
			/* a piped buffer may have moved: hand out the copy */
			*rec = st->copy;
			st->pos = pos + sz + blob;
			return 1;
		}
		if (apply_metadata(pd, st, h, type, sz, pos) < 0)
			return -1;
		return 1;
	}
}

/* The event a record belongs to (see the id rules of the format notes). */
static const struct td_pd_event *record_event(struct td_pd *pd, const unsigned char *rec,
					      uint32_t type, uint32_t size)
{
	uint64_t st = pd->first_sample_type, id;
	int s = pd->swap;

	if (!pd->nr_events)
		return NULL;
	if (pd->nr_events == 1)
		return &pd->events[0];
	if (type == TD_PD_SAMPLE) {
		if (st & TD_PD_S_IDENTIFIER) {
			if (size < 16)
				return NULL;
			id = pd_get64(rec + 8, s);
		} else if (st & TD_PD_S_ID) {
			if (size < 8 + 8 * (uint32_t)(pd->id_pos + 1))
				return NULL;
			id = pd_get64(rec + 8 + 8 * pd->id_pos, s);
		} else {
			return &pd->events[0];
		}
	} else {
		if (!pd->events[0].sample_id_all)
			return NULL;
		if (st & TD_PD_S_IDENTIFIER) {
			if (size < 16)
				return NULL;
			id = pd_get64(rec + size - 8, s);
		} else if (st & TD_PD_S_ID) {
			if (size < 8 + 8 * (uint32_t)pd->is_pos)
				return NULL;
			id = pd_get64(rec + size - 8 * pd->is_pos, s);
		} else {
			return &pd->events[0];
		}
	}
	if (!id)
		return &pd->events[0];  /* synthesized records carry a zero id */
	return pd_event_for(pd, id);
}

/* Bytes of the sample_id_all trailer for an event. */
static uint32_t trailer_size(const struct td_pd_event *ev)
{
	uint64_t t = ev->sample_type;

	return 8 * (!!(t & TD_PD_S_TID) + !!(t & TD_PD_S_TIME) + !!(t & TD_PD_S_ID) +
		    !!(t & TD_PD_S_STREAM_ID) + !!(t & TD_PD_S_CPU) + !!(t & TD_PD_S_IDENTIFIER));
}

int pd_record_time(struct td_pd *pd, const unsigned char *rec, uint32_t size, uint64_t *time)
{
	uint32_t type = pd_get32(rec, pd->swap);
	const struct td_pd_event *ev;
	uint64_t t;

	if (type >= 64)
		return 0;
	ev = record_event(pd, rec, type, size);
	if (!ev || !(ev->sample_type & TD_PD_S_TIME))
		return 0;
	t = ev->sample_type;
	if (type == TD_PD_SAMPLE) {
		uint32_t o = 8 + 8 * (!!(t & TD_PD_S_IDENTIFIER) + !!(t & TD_PD_S_IP) +
				      !!(t & TD_PD_S_TID));

		if (size < o + 8)
			return 0;
		*time = pd_get64(rec + o, pd->swap);
		return 1;
	} else {
		uint32_t back = 8 * (1 + !!(t & TD_PD_S_IDENTIFIER) + !!(t & TD_PD_S_CPU) +
				     !!(t & TD_PD_S_STREAM_ID) + !!(t & TD_PD_S_ID));

		if (!ev->sample_id_all || size < 8 + trailer_size(ev))
			return 0;
		*time = pd_get64(rec + size - back, pd->swap);
		return 1;
	}
}

/* A cursor over a record's body. */
struct cur {
	const unsigned char *p, *end;
	int swap;
};

static int cur_u64(struct cur *c, uint64_t *v)
{
	if (c->end - c->p < 8)
		return -1;
	*v = pd_get64(c->p, c->swap);
	c->p += 8;
	return 0;
}

/* Two u32 in one u64 slot (pid/tid, cpu/res). */
static int cur_u32x2(struct cur *c, uint32_t *a, uint32_t *b)
{
	if (c->end - c->p < 8)
		return -1;
	*a = pd_get32(c->p, c->swap);
	*b = pd_get32(c->p + 4, c->swap);
	c->p += 8;
	return 0;
}

static int cur_skip(struct cur *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n)
		return -1;
	c->p += n;
	return 0;
}

/* Decode read_format values into the stream's scratch array. */
static int decode_read(struct td_pd *pd, struct pd_stream *st, struct cur *c,
		       uint64_t rf, struct td_pd_sample *s)
{
	uint64_t nr = 1, i, per;
	struct td_pd_read_value *v = st->values;

	if (rf & TD_PD_F_GROUP) {
		if (cur_u64(c, &nr))
			return -1;
	} else {
		if (cur_u64(c, &v[0].value))
			return -1;
	}
	if ((rf & TD_PD_F_TOTAL_TIME_ENABLED) && cur_u64(c, &s->time_enabled))
		return -1;
	if ((rf & TD_PD_F_TOTAL_TIME_RUNNING) && cur_u64(c, &s->time_running))
		return -1;
	per = 8 * (1 + !!(rf & TD_PD_F_ID) + !!(rf & TD_PD_F_LOST));
	if (rf & TD_PD_F_GROUP) {
		if (nr > (uint64_t)(c->end - c->p) / per)
			return -1;
	}
	for (i = 0; i < nr; i++) {
		v[i].id = v[i].lost = 0;
		if ((rf & TD_PD_F_GROUP) && cur_u64(c, &v[i].value))
			return -1;
		if ((rf & TD_PD_F_ID) && cur_u64(c, &v[i].id))
			return -1;
		if ((rf & TD_PD_F_LOST) && cur_u64(c, &v[i].lost))
			return -1;
		v[i].event = (rf & TD_PD_F_ID) ? pd_event_for(pd, v[i].id) : s->event;
	}
	s->nr_values = (size_t)nr;
	s->values = v;
	return 0;
}

/* Decode a PERF_RECORD_SAMPLE body field by field. */
static int decode_sample(struct td_pd *pd, struct pd_stream *st, const unsigned char *rec,
			 uint32_t size, struct td_pd_sample *s, const char **why)
{
	const struct td_pd_event *ev = s->event;
	uint64_t t = ev->sample_type, v;
	struct cur c = { rec + 8, rec + size, pd->swap };
	uint32_t res;

	s->fields = t;
	*why = "record too short for its sample_type";
	if ((t & TD_PD_S_IDENTIFIER) && cur_u64(&c, &s->id))
		return -1;
	if ((t & TD_PD_S_IP) && cur_u64(&c, &s->ip))
		return -1;
	if ((t & TD_PD_S_TID) && cur_u32x2(&c, &s->pid, &s->tid))
		return -1;
	if ((t & TD_PD_S_TIME) && cur_u64(&c, &s->time))
		return -1;
	if ((t & TD_PD_S_ADDR) && cur_u64(&c, &s->addr))
		return -1;
	if ((t & TD_PD_S_ID) && cur_u64(&c, &s->id))
		return -1;
	if ((t & TD_PD_S_STREAM_ID) && cur_u64(&c, &s->stream_id))
		return -1;
	if ((t & TD_PD_S_CPU) && cur_u32x2(&c, &s->cpu, &res))
		return -1;
	if ((t & TD_PD_S_PERIOD) && cur_u64(&c, &s->period))
		return -1;
	if (t & TD_PD_S_READ) {
		*why = "bad READ values in sample";
		if (decode_read(pd, st, &c, ev->read_format, s))
			return -1;
	}
	if (t & TD_PD_S_CALLCHAIN) {
		*why = "callchain runs past the end of the sample";
		if (cur_u64(&c, &v) || v > (uint64_t)(c.end - c.p) / 8)
			return -1;
		s->callchain_nr = (size_t)v;
		if (!pd->swap && !((uintptr_t)c.p & 7)) {
			s->callchain = (const uint64_t *)(const void *)c.p;
		} else {
			size_t i;

			for (i = 0; i < s->callchain_nr; i++)
				st->chain[i] = pd_get64(c.p + 8 * i, pd->swap);
			s->callchain = st->chain;
		}
		c.p += 8 * v;
	}
	if (t & TD_PD_S_RAW) {
		*why = "RAW data runs past the end of the sample";
		if (c.end - c.p < 4)
			return -1;
		s->raw_size = pd_get32(c.p, pd->swap);
		s->raw = c.p + 4;
		if (cur_skip(&c, 4 + (uint64_t)s->raw_size))
			return -1;
	}
	if (t & (1u << 11)) {   /* BRANCH_STACK */
		*why = "branch stack runs past the end of the sample";
		if (cur_u64(&c, &s->branch_nr))
			return -1;
		if ((ev->branch_sample_type & (1u << 17)) && cur_u64(&c, &v))  /* HW_INDEX */
			return -1;
		if (s->branch_nr > (uint64_t)(c.end - c.p) / 24 || cur_skip(&c, 24 * s->branch_nr))
			return -1;
	}
	if (t & (1u << 12)) {   /* REGS_USER */
		*why = "user registers run past the end of the sample";
		if (cur_u64(&c, &v))
			return -1;
		if (v && cur_skip(&c, 8 * (uint64_t)__builtin_popcountll(ev->sample_regs_user)))
			return -1;
	}
	if (t & (1u << 13)) {   /* STACK_USER */
		*why = "user stack runs past the end of the sample";
		if (cur_u64(&c, &v))
			return -1;
		if (v && (cur_skip(&c, v) || cur_u64(&c, &v)))
			return -1;
	}
	*why = "record too short for its sample_type";
	if ((t & ((1u << 14) | (1u << 24))) && cur_u64(&c, &s->weight))  /* WEIGHT(_STRUCT) */
		return -1;
	if ((t & (1u << 15)) && cur_u64(&c, &s->data_src))
		return -1;
	if ((t & (1u << 17)) && cur_u64(&c, &s->transaction))
		return -1;
	if (t & (1u << 18)) {   /* REGS_INTR */
		if (cur_u64(&c, &v))
			return -1;
		if (v && cur_skip(&c, 8 * (uint64_t)__builtin_popcountll(ev->sample_regs_intr)))
			return -1;
	}
	if ((t & (1u << 19)) && cur_u64(&c, &s->phys_addr))
		return -1;
	if ((t & (1u << 21)) && cur_u64(&c, &s->cgroup))
		return -1;
	if ((t & (1u << 22)) && cur_u64(&c, &s->data_page_size))
		return -1;
	if ((t & (1u << 23)) && cur_u64(&c, &s->code_page_size))
		return -1;
	if (t & (1u << 20)) {   /* AUX */
		if (cur_u64(&c, &v) || cur_skip(&c, v))
			return -1;
	}
	return 0;
}

/* Decode the sample_id_all trailer, backwards from the end. */
static int decode_trailer(struct td_pd *pd, const unsigned char *rec, uint32_t size,
			  struct td_pd_sample *s)
{
	uint64_t t = s->event->sample_type;
	const unsigned char *p = rec + size;
	int sw = pd->swap;

	if (size < 8 + trailer_size(s->event))
		return -1;
	s->fields = t & (TD_PD_S_TID | TD_PD_S_TIME | TD_PD_S_ID | TD_PD_S_STREAM_ID |
			 TD_PD_S_CPU | TD_PD_S_IDENTIFIER);
	if (t & TD_PD_S_IDENTIFIER) {
		p -= 8;
		s->id = pd_get64(p, sw);
	}
	if (t & TD_PD_S_CPU) {
		p -= 8;
		s->cpu = pd_get32(p, sw);
	}
	if (t & TD_PD_S_STREAM_ID) {
		p -= 8;
		s->stream_id = pd_get64(p, sw);
	}
	if (t & TD_PD_S_ID) {
		p -= 8;
		s->id = pd_get64(p, sw);
	}
	if (t & TD_PD_S_TIME) {
		p -= 8;
		s->time = pd_get64(p, sw);
	}
	if (t & TD_PD_S_TID) {
		p -= 8;
		s->pid = pd_get32(p, sw);
		s->tid = pd_get32(p + 4, sw);
	}
	return 0;
}

/* A NUL-terminated string at rec[from..limit), copied when it lacks a NUL. */
static const char *rec_string(struct pd_stream *st, const unsigned char *rec, uint32_t from,
			      uint32_t limit)
{
	size_t n;

	if (from >= limit)
		return "";
	n = strnlen((const char *)rec + from, limit - from);
	if (n < limit - from)
		return (const char *)rec + from;
	memcpy(st->strbuf, rec + from, n);
	st->strbuf[n] = '\0';
	return st->strbuf;
}

#define NEED(n) do { if (size < (n)) { \
	return pd_fail_at(pd, st, compressed, off, "%s record too short (%u bytes, needs %u)", \
			  td_pd_record_name(type), size, (unsigned)(n)); } } while (0)

/* Decode one record into r.  Returns 0 or -1 with the error set. */
int pd_decode(struct td_pd *pd, struct pd_stream *st, const unsigned char *rec, uint32_t size,
	      uint64_t off, int compressed, struct td_pd_record *r)
{
	int sw = pd->swap;
	uint32_t type = pd_get32(rec, sw);
	uint32_t limit = size;
	const struct td_pd_event *ev;
	const char *why;

	memset(r, 0, sizeof(*r));
	r->type = type;
	r->misc = pd_get16(rec + 4, sw);
	r->size = size;
	r->offset = off;
	r->stream = st->index;
	r->compressed = compressed;
	r->data = rec;
	r->sample.pd = pd;
	if (type == TD_PD_HEADER_TRACING_DATA) {
		r->u.tracing_data.size = pd_get32(rec + 8, sw);
		r->size = size + r->u.tracing_data.size;
		return 0;
	}
	if (type < 64) {
		ev = record_event(pd, rec, type, size);
		r->sample.event = ev;
		if (type == TD_PD_SAMPLE) {
			if (!ev) {
				if (pd->nr_events == 0)
					return pd_fail_at(pd, st, compressed, off,
							  "SAMPLE record before any event was described");
				/* perf counts and skips samples of unknown ids */
			} else {
				if (decode_sample(pd, st, rec, size, &r->sample, &why) < 0)
					return pd_fail_at(pd, st, compressed, off, "SAMPLE: %s (%s, %u bytes)",
							  why, ev->name ? ev->name : "?", size);
				r->has_sample = 1;
			}
			return 0;
		}
		if (ev && ev->sample_id_all) {
			if (decode_trailer(pd, rec, size, &r->sample) < 0)
				return pd_fail_at(pd, st, compressed, off,
						  "%s record too short for its sample_id trailer (%u bytes)",
						  td_pd_record_name(type), size);
			r->has_sample = 1;
			limit = size - trailer_size(ev);
		}
	}
	switch (type) {
	case TD_PD_MMAP:
		NEED(40);
		r->u.mmap.pid = pd_get32(rec + 8, sw);
		r->u.mmap.tid = pd_get32(rec + 12, sw);
		r->u.mmap.addr = pd_get64(rec + 16, sw);
		r->u.mmap.len = pd_get64(rec + 24, sw);
		r->u.mmap.pgoff = pd_get64(rec + 32, sw);
		r->u.mmap.filename = rec_string(st, rec, 40, limit);
		break;
	case TD_PD_MMAP2:
		NEED(72);
		r->u.mmap.pid = pd_get32(rec + 8, sw);
		r->u.mmap.tid = pd_get32(rec + 12, sw);
		r->u.mmap.addr = pd_get64(rec + 16, sw);
		r->u.mmap.len = pd_get64(rec + 24, sw);
		r->u.mmap.pgoff = pd_get64(rec + 32, sw);
		if (r->misc & (1u << 14)) {
			r->u.mmap.has_build_id = 1;
			r->u.mmap.build_id_size = rec[40];
			if (r->u.mmap.build_id_size > 20)
				r->u.mmap.build_id_size = 20;
			r->u.mmap.build_id = rec + 44;
		} else {
			r->u.mmap.maj = pd_get32(rec + 40, sw);
			r->u.mmap.min = pd_get32(rec + 44, sw);
			r->u.mmap.ino = pd_get64(rec + 48, sw);
			r->u.mmap.ino_generation = pd_get64(rec + 56, sw);
		}
		r->u.mmap.prot = pd_get32(rec + 64, sw);
		r->u.mmap.flags = pd_get32(rec + 68, sw);
		r->u.mmap.filename = rec_string(st, rec, 72, limit);
		break;
	case TD_PD_COMM:
		NEED(16);
		r->u.comm.pid = pd_get32(rec + 8, sw);
		r->u.comm.tid = pd_get32(rec + 12, sw);
		r->u.comm.exec = !!(r->misc & (1u << 13));
		r->u.comm.comm = rec_string(st, rec, 16, limit);
		break;
	case TD_PD_FORK:
	case TD_PD_EXIT:
		NEED(32);
		r->u.fork.pid = pd_get32(rec + 8, sw);
		r->u.fork.ppid = pd_get32(rec + 12, sw);
		r->u.fork.tid = pd_get32(rec + 16, sw);
		r->u.fork.ptid = pd_get32(rec + 20, sw);
		r->u.fork.time = pd_get64(rec + 24, sw);
		break;
	case TD_PD_LOST:
		NEED(24);
		r->u.lost.id = pd_get64(rec + 8, sw);
		r->u.lost.lost = pd_get64(rec + 16, sw);
		break;
	case TD_PD_LOST_SAMPLES:
		NEED(16);
		r->u.lost_samples.lost = pd_get64(rec + 8, sw);
		break;
	case TD_PD_READ:
		NEED(24);
		r->u.read.pid = pd_get32(rec + 8, sw);
		r->u.read.tid = pd_get32(rec + 12, sw);
		r->u.read.value = pd_get64(rec + 16, sw);
		break;
	case TD_PD_STAT:
		NEED(48);
		r->u.stat.id = pd_get64(rec + 8, sw);
		r->u.stat.cpu = pd_get32(rec + 16, sw);
		r->u.stat.thread = pd_get32(rec + 20, sw);
		r->u.stat.val = pd_get64(rec + 24, sw);
		r->u.stat.ena = pd_get64(rec + 32, sw);
		r->u.stat.run = pd_get64(rec + 40, sw);
		break;
	case TD_PD_STAT_ROUND:
		NEED(24);
		r->u.stat_round.type = pd_get64(rec + 8, sw);
		r->u.stat_round.time = pd_get64(rec + 16, sw);
		break;
	case TD_PD_EVENT_UPDATE:
		NEED(24);
		r->u.event_update.type = pd_get64(rec + 8, sw);
		r->u.event_update.id = pd_get64(rec + 16, sw);
		if (r->u.event_update.type == 1) {
			uint64_t bits;

			NEED(32);
			bits = pd_get64(rec + 24, sw);
			memcpy(&r->u.event_update.scale, &bits, 8);
		} else if (r->u.event_update.type == 0 || r->u.event_update.type == 2) {
			r->u.event_update.str = rec_string(st, rec, 24, size);
		}
		break;
	case TD_PD_HEADER_FEATURE:
		NEED(16);
		r->u.header_feature.feat_id = pd_get64(rec + 8, sw);
		break;
	default:
		break;
	}
	return 0;
}

/* ---- sorting: a binary heap on (time, arrival) ---- */

static int q_less(const struct pd_queued *a, const struct pd_queued *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void q_push(struct pd_stream *st, const struct pd_queued *e)
{
	size_t i;

	TD_GROW(st->heap, st->alloc_heap, st->nr_heap + 1);
	i = st->nr_heap++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!q_less(e, &st->heap[parent]))
			break;
		st->heap[i] = st->heap[parent];
		i = parent;
	}
	st->heap[i] = *e;
}

static void q_pop(struct pd_stream *st, struct pd_queued *out)
{
	struct pd_queued last;
	size_t i = 0, n;

	*out = st->heap[0];
	last = st->heap[--st->nr_heap];
	n = st->nr_heap;
	while (2 * i + 1 < n) {
		size_t c = 2 * i + 1;

		if (c + 1 < n && q_less(&st->heap[c + 1], &st->heap[c]))
			c++;
		if (!q_less(&st->heap[c], &last))
			break;
		st->heap[i] = st->heap[c];
		i = c;
	}
	if (n)
		st->heap[i] = last;
}

/* Copy a transient record into a block; blocks are recycled once empty. */
static const unsigned char *block_copy(struct pd_stream *st, const unsigned char *rec,
				       uint32_t size, struct pd_block **blk)
{
	struct pd_block *b = st->cur_block;
	unsigned char *dst;
	size_t need = (size + 7u) & ~7u;

	if (!b || b->size - b->used < need) {
		if (b && !b->live && b != st->held_block) {
			b->used = 0;    /* empty already: reuse in place */
		} else {
			b = st->free_blocks;
			if (b) {
				st->free_blocks = b->next;
			} else {
				b = xmalloc(sizeof(*b) + PD_BLOCK_SIZE);
				b->size = PD_BLOCK_SIZE;
				b->all_next = st->all_blocks;
				st->all_blocks = b;
			}
			b->used = 0;
			b->live = 0;
			b->next = NULL;
			st->cur_block = b;
		}
	}
	dst = b->data + b->used;
	memcpy(dst, rec, size);
	b->used += need;
	b->live++;
	*blk = b;
	return dst;
}

/* A block is done with: back to the free list unless still current. */
static void block_unref(struct pd_stream *st, struct pd_block *b)
{
	if (!b)
		return;
	b->live--;
	if (!b->live && b != st->cur_block) {
		b->next = st->free_blocks;
		st->free_blocks = b;
	}
}

/*
 * Keep memory flat on big mapped files: every 64 MiB, give back the pages
 * before the oldest record still waiting in the heap (they stay readable:
 * the mapping is private and read-only, so the kernel reads them again if
 * ever touched).
 */
static void release_consumed(struct pd_stream *st)
{
	uint64_t low = st->pos, i;
	size_t page = 4096;
	uintptr_t from, to;

	if (!st->map || st->pos < st->released + (64u << 20))
		return;
	for (i = 0; i < st->nr_heap; i++)
		if (!st->heap[i].block && (uint64_t)(st->heap[i].rec - st->base) < low)
			low = (uint64_t)(st->heap[i].rec - st->base);
	from = ((uintptr_t)st->base + st->released) & ~(uintptr_t)(page - 1);
	to = ((uintptr_t)st->base + low) & ~(uintptr_t)(page - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
	st->released = low;
}

/*
 * The next record of one stream, in time order unless TD_PD_FILE_ORDER.
 * Returns 1 with *out set, 0 at the end, -1 on error.
 */
int pd_stream_next(struct td_pd *pd, struct pd_stream *st, const struct td_pd_record **out)
{
	const unsigned char *rec = NULL;
	uint32_t size = 0;
	uint64_t off = 0, time;
	int compressed = 0, transient = 0, ret;

	if (pd->failed)
		return -1;
	if (st->held_block) {
		struct pd_block *b = st->held_block;

		st->held_block = NULL;
		block_unref(st, b);
	}
	for (;;) {
		if (st->nr_heap && (st->heap[0].time <= st->flush_limit || st->at_eof)) {
			struct pd_queued e;

			q_pop(st, &e);
			st->held_block = e.block;
			if (pd_decode(pd, st, e.rec, e.size, e.offset, e.compressed, &st->rec) < 0)
				return -1;
			*out = &st->rec;
			return 1;
		}
		if (st->round_pending) {
			static const unsigned char round[8] = { 68, 0, 0, 0, 0, 0, 8, 0 };
			static const unsigned char round_be[8] = { 0, 0, 0, 68, 0, 0, 0, 8 };

			st->round_pending = 0;
			if (pd_decode(pd, st, pd->swap ? round_be : round, 8, st->round_off,
				      st->round_compressed, &st->rec) < 0)
				return -1;
			*out = &st->rec;
			return 1;
		}
		if (st->at_eof)
			return 0;
		release_consumed(st);
		ret = raw_next(pd, st, &rec, &size, &off, &compressed, &transient);
		if (ret < 0)
			return -1;
		if (!ret) {
			st->at_eof = 1;
			continue;
		}
		if (!(pd->flags & TD_PD_FILE_ORDER)) {
			uint32_t type = pd_get32(rec, pd->swap);

			if (type == TD_PD_FINISHED_ROUND) {
				st->flush_limit = st->max_time_round;
				st->max_time_round = st->max_time;
				if (pd->flags & TD_PD_KEEP_RAW) {
					/* shown after the records it flushes */
					st->round_off = off;
					st->round_compressed = compressed;
					st->round_pending = 1;
				}
				continue;
			} else if (type != TD_PD_COMPRESSED && type != TD_PD_COMPRESSED2 &&
				   pd_record_time(pd, rec, size, &time)) {
				struct pd_queued e;

				e.time = time;
				e.seq = st->seq++;
				e.size = size;
				e.offset = off;
				e.compressed = compressed;
				e.block = NULL;
				e.rec = transient ? block_copy(st, rec, size, &e.block) : rec;
				q_push(st, &e);
				if (time > st->max_time)
					st->max_time = time;
				continue;
			}
		}
		if (pd_decode(pd, st, rec, size, off, compressed, &st->rec) < 0)
			return -1;
		*out = &st->rec;
		return 1;
	}
}
