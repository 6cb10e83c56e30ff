/*
 * perf.data feature sections: the section table after the data (file
 * mode) or HEADER_FEATURE records (pipe mode); what tdperf itself needs
 * from them (tracing data, event names, compression), and their stable
 * text form for 'tdperf dump' (docs/dump-format.md).
 *
 * Payloads are packed without alignment; every read is bounds-checked.
 */
#include "parse/perfdata-internal.h"

#include <stdlib.h>

static const char *const feature_names[] = {
	[1] = "TRACING_DATA", [2] = "BUILD_ID", [3] = "HOSTNAME", [4] = "OSRELEASE",
	[5] = "VERSION", [6] = "ARCH", [7] = "NRCPUS", [8] = "CPUDESC", [9] = "CPUID",
	[10] = "TOTAL_MEM", [11] = "CMDLINE", [12] = "EVENT_DESC", [13] = "CPU_TOPOLOGY",
	[14] = "NUMA_TOPOLOGY", [15] = "BRANCH_STACK", [16] = "PMU_MAPPINGS",
	[17] = "GROUP_DESC", [18] = "AUXTRACE", [19] = "STAT", [20] = "CACHE",
	[21] = "SAMPLE_TIME", [22] = "MEM_TOPOLOGY", [23] = "CLOCKID", [24] = "DIR_FORMAT",
	[25] = "BPF_PROG_INFO", [26] = "BPF_BTF", [27] = "COMPRESSED", [28] = "CPU_PMU_CAPS",
	[29] = "CLOCK_DATA", [30] = "HYBRID_TOPOLOGY", [31] = "PMU_CAPS",
	[32] = "CPU_DOMAIN_INFO",
};

const char *td_pd_feature_name(int feat)
{
	if (feat >= 0 && (size_t)feat < TD_ARRAY_SIZE(feature_names) && feature_names[feat])
		return feature_names[feat];
	return NULL;
}

/* A bounds-checked cursor over a feature payload; 'ok' drops to 0 on the
 * first read past the end and every later read returns zeros. */
struct fcur {
	const unsigned char *p, *end;
	int swap, ok;
};

static uint32_t f_u32(struct fcur *c)
{
	uint32_t v;

	if (!c->ok || c->end - c->p < 4) {
		c->ok = 0;
		return 0;
	}
	v = pd_get32(c->p, c->swap);
	c->p += 4;
	return v;
}

static uint64_t f_u64(struct fcur *c)
{
	uint64_t v;

	if (!c->ok || c->end - c->p < 8) {
		c->ok = 0;
		return 0;
	}
	v = pd_get64(c->p, c->swap);
	c->p += 8;
	return v;
}

static void f_skip(struct fcur *c, uint64_t n)
{
	if (!c->ok || (uint64_t)(c->end - c->p) < n) {
		c->ok = 0;
		return;
	}
	c->p += n;
}

/* perf_header_string: u32 len (with NUL and padding), then the bytes.
 * Appends the string to sb (when given) and returns its length. */
static size_t f_str(struct fcur *c, struct strbuf *sb)
{
	uint32_t len = f_u32(c);
	size_t n;

	if (!c->ok || (uint64_t)(c->end - c->p) < len) {
		c->ok = 0;
		return 0;
	}
	n = strnlen((const char *)c->p, len);
	if (sb)
		strbuf_add(sb, c->p, n);
	c->p += len;
	return n;
}

/*
 * A string as dump shows it: what the file holds (a host name, a command
 * line, an event name) may hold terminal escape sequences, so control
 * characters are escaped (util/message.c).
 */
static void f_str_shown(struct fcur *c, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;

	f_str(c, &raw);
	strbuf_add_printable_mem(out, raw.buf, raw.len);
	strbuf_release(&raw);
}

/* A count read from the payload that must fit in what is left (each
 * element taking at least 'min_size' bytes): 0 and !ok otherwise. */
static uint32_t f_count(struct fcur *c, uint32_t nr, size_t min_size)
{
	if (c->ok && nr > (size_t)(c->end - c->p) / min_size) {
		c->ok = 0;
		return 0;
	}
	return nr;
}

/* Interpret the features tdperf needs; record every one as present. */
int pd_apply_feature(struct td_pd *pd, int feat, const unsigned char *data, size_t len,
		     uint64_t off)
{
	struct fcur c = { data, data + len, pd->swap, 1 };

	if (feat <= 0 || feat >= PD_NR_FEATURES)
		return 0;   /* unknown: skipped */
	if (pd->pipe && !pd->feat_copies[feat]) {
		/* pipe mode: the record buffer is transient */
		pd->feat_copies[feat] = xmalloc(len + 1);
		memcpy(pd->feat_copies[feat], data, len);
		data = pd->feat_copies[feat];
		c.p = data;
		c.end = data + len;
	} else if (pd->pipe) {
		return 0;   /* a repeated feature: the first one counts */
	}
	pd->feat[feat].data = data;
	pd->feat[feat].len = len;
	pd->feat[feat].off = off;
	pd->feat[feat].present = 1;

	switch (feat) {
	case TD_PD_FEAT_TRACING_DATA:
		return pd_parse_tracing_data(pd, data, len, off);
	case TD_PD_FEAT_EVENT_DESC: {
		uint32_t nr = f_u32(&c), attr_sz = f_u32(&c), i;

		nr = f_count(&c, nr, (size_t)attr_sz + 8);
		for (i = 0; c.ok && i < nr; i++) {
			uint32_t nr_ids;
			struct strbuf name = STRBUF_INIT;

			f_skip(&c, attr_sz);
			nr_ids = f_u32(&c);
			f_str(&c, &name);
			nr_ids = f_count(&c, nr_ids, 8);
			f_skip(&c, 8ull * nr_ids);
			if (c.ok && i < pd->nr_events && name.len)
				pd_set_event_name(pd, &pd->events[i], name.buf, name.len);
			strbuf_release(&name);
		}
		return 0;
	}
	case TD_PD_FEAT_COMPRESSED: {
		uint32_t type;

		f_u32(&c);
		type = f_u32(&c);
		f_u32(&c);
		f_u32(&c);
		pd->comp_mmap_len = f_u32(&c);
		pd->compressed_feature = c.ok && type == 1;
		return 0;
	}
	default:
		return 0;
	}
}

/* Read the feature section table of a file-mode perf.data. */
int pd_read_features(struct td_pd *pd, struct pd_stream *st)
{
	uint64_t table = pd->data_off + pd->data_size;
	int feat, n = 0;

	if (!pd->data_size)
		return 0;   /* not closed cleanly: no features were written */
	for (feat = 1; feat < PD_NR_FEATURES; feat++) {
		uint64_t e = table + 16 * (uint64_t)n, foff, fsize;

		if (!(pd->feat_bits[feat / 64] & (1ull << (feat % 64))))
			continue;
		n++;
		if (e > st->len || st->len - e < 16)
			return pd_fail(pd, e, "feature section table runs past the end of the file (%s)",
				       td_pd_feature_name(feat) ? td_pd_feature_name(feat) : "unknown");
		foff = pd_get64(st->base + e, pd->swap);
		fsize = pd_get64(st->base + e + 8, pd->swap);
		if (foff > st->len || fsize > st->len - foff)
			return pd_fail(pd, e, "feature %s (offset %llu, size %llu) runs past the end of the file",
				       td_pd_feature_name(feat) ? td_pd_feature_name(feat) : "unknown",
				       (unsigned long long)foff, (unsigned long long)fsize);
		if (pd_apply_feature(pd, feat, st->base + foff, (size_t)fsize, foff) < 0)
			return -1;
	}
	return 0;
}

void pd_free_features(struct td_pd *pd)
{
	int i;

	for (i = 0; i < PD_NR_FEATURES; i++)
		free(pd->feat_copies[i]);
	for (i = 0; i < PD_NR_FEATURES; i++)
		strbuf_release(&pd->feat_strings[i]);
	free(pd->cmdline);
}

int td_pd_feature(const struct td_pd *pd, int feat, const void **data, size_t *len)
{
	if (feat <= 0 || feat >= PD_NR_FEATURES || !pd->feat[feat].present)
		return 0;
	if (data)
		*data = pd->feat[feat].data;
	if (len)
		*len = pd->feat[feat].len;
	return 1;
}

/*
 * The string features keep their strings in place, length-prefixed; the
 * copy lives in the td_pd, so two open files never share one (it was a
 * process-wide buffer, which a second file's header overwrote).
 */
const char *td_pd_feature_string(const struct td_pd *pd, int feat)
{
	struct strbuf *copy;
	struct fcur c;

	if (feat != TD_PD_FEAT_HOSTNAME && feat != TD_PD_FEAT_OSRELEASE &&
	    feat != TD_PD_FEAT_VERSION && feat != TD_PD_FEAT_ARCH &&
	    feat != TD_PD_FEAT_CPUDESC && feat != TD_PD_FEAT_CPUID)
		return NULL;
	if (!pd->feat[feat].present)
		return NULL;
	copy = &((struct td_pd *)pd)->feat_strings[feat];
	c.p = pd->feat[feat].data;
	c.end = c.p + pd->feat[feat].len;
	c.swap = pd->swap;
	c.ok = 1;
	strbuf_reset(copy);
	f_str(&c, copy);
	return c.ok ? copy->buf : NULL;
}

const char *td_pd_cmdline(const struct td_pd *pd)
{
	struct td_pd *w = (struct td_pd *)pd;
	struct strbuf sb = STRBUF_INIT;
	struct fcur c;
	uint32_t nr, i;

	if (w->cmdline || !pd->feat[TD_PD_FEAT_CMDLINE].present)
		return w->cmdline;
	c.p = pd->feat[TD_PD_FEAT_CMDLINE].data;
	c.end = c.p + pd->feat[TD_PD_FEAT_CMDLINE].len;
	c.swap = pd->swap;
	c.ok = 1;
	nr = f_count(&c, f_u32(&c), 4);
	for (i = 0; c.ok && i < nr; i++) {
		if (i)
			strbuf_addch(&sb, ' ');
		f_str(&c, &sb);
	}
	w->cmdline = strbuf_detach(&sb, NULL);
	return w->cmdline;
}

static uint32_t nrcpus(const struct td_pd *pd, int which)
{
	struct fcur c;
	uint32_t v[2];

	if (!pd->feat[TD_PD_FEAT_NRCPUS].present)
		return 0;
	c.p = pd->feat[TD_PD_FEAT_NRCPUS].data;
	c.end = c.p + pd->feat[TD_PD_FEAT_NRCPUS].len;
	c.swap = pd->swap;
	c.ok = 1;
	v[0] = f_u32(&c);
	v[1] = f_u32(&c);
	return c.ok ? v[which] : 0;
}

uint32_t td_pd_nr_cpus_avail(const struct td_pd *pd)
{
	return nrcpus(pd, 0);
}

uint32_t td_pd_nr_cpus_online(const struct td_pd *pd)
{
	return nrcpus(pd, 1);
}

/* A string list: u32 nr, then nr strings, printed "a, b, c". */
static void str_list(struct fcur *c, struct strbuf *out)
{
	uint32_t nr = f_count(c, f_u32(c), 4), i;

	for (i = 0; c->ok && i < nr; i++) {
		if (i)
			strbuf_addstr(out, ", ");
		f_str_shown(c, out);
	}
}

/* Append one feature's decoded text ("key=value ..." or lines). */
static void describe_one(const struct td_pd *pd, int feat, struct fcur *c, struct strbuf *out)
{
	uint32_t nr, i, k;

	switch (feat) {
	case TD_PD_FEAT_HOSTNAME: case TD_PD_FEAT_OSRELEASE: case TD_PD_FEAT_VERSION:
	case TD_PD_FEAT_ARCH: case TD_PD_FEAT_CPUDESC: case TD_PD_FEAT_CPUID:
		f_str_shown(c, out);
		break;
	case TD_PD_FEAT_NRCPUS: {
		uint32_t avail = f_u32(c), online = f_u32(c);

		strbuf_addf(out, "avail=%u online=%u", avail, online);
		break;
	}
	case TD_PD_FEAT_TOTAL_MEM:
		strbuf_addf(out, "%llu kB", (unsigned long long)f_u64(c));
		break;
	case TD_PD_FEAT_CMDLINE:
		str_list(c, out);
		break;
	case TD_PD_FEAT_EVENT_DESC: {
		uint32_t attr_sz;

		nr = f_u32(c);
		attr_sz = f_u32(c);
		nr = f_count(c, nr, (size_t)attr_sz + 8);
		strbuf_addf(out, "%u events", nr);
		for (i = 0; c->ok && i < nr; i++) {
			uint32_t nr_ids;

			f_skip(c, attr_sz);
			nr_ids = f_u32(c);
			strbuf_addf(out, "\n  event %u: name=", i);
			f_str_shown(c, out);
			nr_ids = f_count(c, nr_ids, 8);
			strbuf_addf(out, " ids=%u", nr_ids);
			f_skip(c, 8ull * nr_ids);
		}
		break;
	}
	case TD_PD_FEAT_CPU_TOPOLOGY: {
		uint32_t avail = td_pd_nr_cpus_avail(pd);

		strbuf_addstr(out, "packages: ");
		str_list(c, out);
		strbuf_addstr(out, "\n  threads: ");
		str_list(c, out);
		if (c->ok && avail && (uint64_t)(c->end - c->p) >= 8ull * avail) {
			strbuf_addstr(out, "\n  core/socket:");
			for (i = 0; i < avail; i++) {
				uint32_t core = f_u32(c), sock = f_u32(c);

				strbuf_addf(out, " %u/%u", core, sock);
			}
			if (c->p < c->end) {
				strbuf_addstr(out, "\n  dies: ");
				str_list(c, out);
				if (c->ok && (uint64_t)(c->end - c->p) >= 4ull * avail) {
					strbuf_addstr(out, "\n  die:");
					for (i = 0; i < avail; i++)
						strbuf_addf(out, " %u", f_u32(c));
				}
			}
		}
		break;
	}
	case TD_PD_FEAT_NUMA_TOPOLOGY:
		nr = f_count(c, f_u32(c), 24);
		strbuf_addf(out, "%u nodes", nr);
		for (i = 0; c->ok && i < nr; i++) {
			uint32_t node = f_u32(c);
			uint64_t total = f_u64(c), free_kb = f_u64(c);

			strbuf_addf(out, "\n  node %u: mem_total=%llu mem_free=%llu cpus=", node,
				    (unsigned long long)total, (unsigned long long)free_kb);
			f_str_shown(c, out);
		}
		break;
	case TD_PD_FEAT_PMU_MAPPINGS:
		nr = f_count(c, f_u32(c), 8);
		for (i = 0; c->ok && i < nr; i++) {
			strbuf_addf(out, "%s%u=", i ? ", " : "", f_u32(c));
			f_str_shown(c, out);
		}
		break;
	case TD_PD_FEAT_GROUP_DESC:
		nr = f_count(c, f_u32(c), 12);
		strbuf_addf(out, "%u groups", nr);
		for (i = 0; c->ok && i < nr; i++) {
			uint32_t leader, members;

			strbuf_addstr(out, "\n  group ");
			f_str_shown(c, out);
			leader = f_u32(c);
			members = f_u32(c);
			strbuf_addf(out, ": leader=%u members=%u", leader, members);
		}
		break;
	case TD_PD_FEAT_HYBRID_TOPOLOGY:
		nr = f_count(c, f_u32(c), 8);
		for (i = 0; c->ok && i < nr; i++) {
			strbuf_addstr(out, i ? ", " : "");
			f_str_shown(c, out);
			strbuf_addch(out, '=');
			f_str_shown(c, out);
		}
		break;
	case TD_PD_FEAT_CPU_PMU_CAPS:
		nr = f_count(c, f_u32(c), 8);
		for (i = 0; c->ok && i < nr; i++) {
			strbuf_addstr(out, i ? ", " : "");
			f_str_shown(c, out);
			strbuf_addch(out, '=');
			f_str_shown(c, out);
		}
		break;
	case TD_PD_FEAT_PMU_CAPS:
		nr = f_count(c, f_u32(c), 8);
		for (i = 0; c->ok && i < nr; i++) {
			uint32_t caps = f_count(c, f_u32(c), 8);
			struct strbuf tmp = STRBUF_INIT;

			for (k = 0; c->ok && k < caps; k++) {
				strbuf_addstr(&tmp, k ? ", " : "");
				f_str_shown(c, &tmp);
				strbuf_addch(&tmp, '=');
				f_str_shown(c, &tmp);
			}
			strbuf_addstr(out, "\n  pmu ");
			f_str_shown(c, out);
			strbuf_addf(out, ": %s", tmp.buf);
			strbuf_release(&tmp);
		}
		break;
	case TD_PD_FEAT_COMPRESSED: {
		uint32_t ver = f_u32(c), type = f_u32(c), level = f_u32(c), ratio = f_u32(c);
		uint32_t mlen = f_u32(c);

		strbuf_addf(out, "version=%u type=%u%s level=%u ratio=%u mmap_len=%u", ver, type,
			    type == 1 ? " (zstd)" : "", level, ratio, mlen);
		break;
	}
	case TD_PD_FEAT_CLOCK_DATA: {
		uint32_t ver = f_u32(c), clockid = f_u32(c);
		uint64_t tod = f_u64(c), clk = f_u64(c);

		strbuf_addf(out, "version=%u clockid=%u tod_ns=%llu clockid_ns=%llu", ver, clockid,
			    (unsigned long long)tod, (unsigned long long)clk);
		break;
	}
	case TD_PD_FEAT_SAMPLE_TIME: {
		uint64_t first = f_u64(c), last = f_u64(c);

		strbuf_addf(out, "first=%llu last=%llu", (unsigned long long)first,
			    (unsigned long long)last);
		break;
	}
	case TD_PD_FEAT_CLOCKID:
		strbuf_addf(out, "%llu", (unsigned long long)f_u64(c));
		break;
	case TD_PD_FEAT_DIR_FORMAT:
		strbuf_addf(out, "version=%llu", (unsigned long long)f_u64(c));
		break;
	case TD_PD_FEAT_BUILD_ID: {
		struct strbuf list = STRBUF_INIT;
		uint64_t n = 0;

		/* walk by h.size: some perf versions wrote bad tables */
		while (c->ok && c->end - c->p >= 8) {
			uint16_t sz = pd_get16(c->p + 6, c->swap);

			if (sz < 8 || sz > c->end - c->p)
				break;
			if (sz >= 36) {
				int32_t pid = (int32_t)pd_get32(c->p + 8, c->swap);
				unsigned bsz = c->p[32] && c->p[32] <= 20 ? c->p[32] : 20;
				size_t fn = strnlen((const char *)c->p + 36, sz - 36);

				strbuf_addf(&list, "\n  pid=%d build_id=", pid);
				for (k = 0; k < bsz; k++)
					strbuf_addf(&list, "%02x", c->p[12 + k]);
				strbuf_addch(&list, ' ');
				strbuf_add_printable_mem(&list, c->p + 36, fn);
			}
			c->p += sz;
			n++;
		}
		strbuf_addf(out, "%llu entries%s", (unsigned long long)n, list.buf);
		strbuf_release(&list);
		c->p = c->end;
		break;
	}
	default:
		strbuf_addf(out, "%zu bytes", (size_t)(c->end - c->p));
		c->p = c->end;
		break;
	}
}

void td_pd_describe_features(const struct td_pd *pd, struct strbuf *out)
{
	int feat;

	for (feat = 1; feat < PD_NR_FEATURES; feat++) {
		struct fcur c;
		const char *name = td_pd_feature_name(feat);

		if (!pd->feat[feat].present)
			continue;
		c.p = pd->feat[feat].data;
		c.end = c.p + pd->feat[feat].len;
		c.swap = pd->swap;
		c.ok = 1;
		if (name)
			strbuf_addf(out, "feature %s: ", name);
		else
			strbuf_addf(out, "feature %d: ", feat);
		if (feat == TD_PD_FEAT_TRACING_DATA) {
			strbuf_addf(out, "%zu bytes", pd->feat[feat].len);
		} else {
			describe_one(pd, feat, &c, out);
			if (!c.ok)
				strbuf_addstr(out, " (truncated)");
		}
		strbuf_addch(out, '\n');
	}
}

/* A cursor over a present feature's payload; ok = 0 when absent. */
static struct fcur feature_cursor(const struct td_pd *pd, int feat)
{
	struct fcur c = { NULL, NULL, pd->swap, 0 };

	if (feat > 0 && feat < PD_NR_FEATURES && pd->feat[feat].present) {
		c.p = pd->feat[feat].data;
		c.end = c.p + pd->feat[feat].len;
		c.ok = 1;
	}
	return c;
}

int td_pd_topology_smt(const struct td_pd *pd)
{
	struct fcur c = feature_cursor(pd, TD_PD_FEAT_CPU_TOPOLOGY);
	struct strbuf sb = STRBUF_INIT;
	uint32_t nr, i;
	int smt = 0;

	if (!c.ok)
		return -1;
	nr = f_count(&c, f_u32(&c), 4);          /* core siblings: one list per package */
	for (i = 0; c.ok && i < nr; i++)
		f_str(&c, NULL);
	nr = f_count(&c, f_u32(&c), 4);          /* thread siblings: one list per core */
	for (i = 0; c.ok && i < nr; i++) {
		strbuf_reset(&sb);
		f_str(&c, &sb);
		if (strchr(sb.buf, ',') || strchr(sb.buf, '-'))
			smt = 1;             /* two threads share this core */
	}
	strbuf_release(&sb);
	return c.ok && nr ? smt : -1;
}

int td_pd_pmu_name(const struct td_pd *pd, uint32_t type, struct strbuf *name)
{
	struct fcur c = feature_cursor(pd, TD_PD_FEAT_PMU_MAPPINGS);
	uint32_t nr = c.ok ? f_count(&c, f_u32(&c), 8) : 0, i, t;

	for (i = 0; c.ok && i < nr; i++) {
		t = f_u32(&c);
		strbuf_reset(name);
		f_str(&c, name);
		if (c.ok && t == type)
			return 0;
	}
	strbuf_reset(name);
	return -1;
}

int td_pd_has_pmu(const struct td_pd *pd, const char *name)
{
	struct fcur c = feature_cursor(pd, TD_PD_FEAT_PMU_MAPPINGS);
	struct strbuf sb = STRBUF_INIT;
	uint32_t nr = c.ok ? f_count(&c, f_u32(&c), 8) : 0, i;
	int found = 0;

	for (i = 0; c.ok && i < nr && !found; i++) {
		f_u32(&c);
		strbuf_reset(&sb);
		f_str(&c, &sb);
		found = c.ok && !strcmp(sb.buf, name);
	}
	strbuf_release(&sb);
	return found;
}
