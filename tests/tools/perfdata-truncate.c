/*
 * Test tool: read every prefix of a real perf.data file with the perf.data
 * reader, in file order and in time order, and check that each one either
 * reads cleanly (possible only in pipe mode, where a stream may end after
 * any record) or fails with one "offset N" error.  Run under ASan/UBSan by
 * the sanitizer build; prints "prefixes=N failed=F clean=C".
 *
 * usage: perfdata-truncate FILE [STEP]
 */
#include "parse/parse.h"

#include <stdlib.h>
#include <string.h>

/* Read a prefix; 1 when it read cleanly, 0 when it failed properly, -1
 * when the failure message lacks an offset. */
static int read_prefix(const char *data, size_t n, unsigned flags, int *pipe)
{
	struct strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
	const struct td_pd_record *r;
	struct td_pd *pd = td_pd_open_mem(data, n, "prefix", flags, &err);
	int ret;

	if (!pd) {
		ret = strstr(err.buf, "offset ") ? 0 : -1;
		if (ret < 0)
			fprintf(stderr, "prefix %zu: error without offset: %s\n", n, err.buf);
		strbuf_release(&err);
		return ret;
	}
	*pipe = td_pd_pipe_mode(pd);
	while ((ret = td_pd_next(pd, &r)) > 0)
		if (r->type == TD_PD_SAMPLE && r->has_sample) {
			strbuf_reset(&sb);
			td_pd_tp_print(&r->sample, &sb);
		}
	if (ret < 0) {
		ret = strstr(td_pd_error(pd), "offset ") ? 0 : -1;
		if (ret < 0)
			fprintf(stderr, "prefix %zu: error without offset: %s\n", n, td_pd_error(pd));
	} else {
		ret = 1;
	}
	td_pd_close(pd);
	strbuf_release(&sb);
	strbuf_release(&err);
	return ret;
}

int main(int argc, char **argv)
{
	struct strbuf file = STRBUF_INIT;
	size_t n, step = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
	unsigned long failed = 0, clean = 0, prefixes = 0;
	int bad = 0, pipe = 0;

	if (argc < 2 || td_read_file(&file, argv[1]) < 0) {
		fprintf(stderr, "usage: perfdata-truncate FILE [STEP]\n");
		return 2;
	}
	if (!step)
		step = 1;
	/* the whole file must read cleanly */
	if (read_prefix(file.buf, file.len, 0, &pipe) != 1) {
		fprintf(stderr, "the whole file does not read\n");
		return 1;
	}
	for (n = 0; n < file.len; n += step) {
		int a = read_prefix(file.buf, n, TD_PD_FILE_ORDER | TD_PD_KEEP_RAW, &pipe);
		int b = read_prefix(file.buf, n, 0, &pipe);

		prefixes++;
		if (a < 0 || b < 0) {
			bad = 1;
		} else if (a != b) {
			fprintf(stderr, "prefix %zu: file order %s, time order %s\n", n,
				a ? "clean" : "failed", b ? "clean" : "failed");
			bad = 1;
		} else if (a == 1) {
			clean++;
			if (!pipe) {
				fprintf(stderr, "prefix %zu of a file-mode perf.data read cleanly\n", n);
				bad = 1;
			}
		} else {
			failed++;
		}
	}
	printf("prefixes=%lu failed=%lu clean=%lu\n", prefixes, failed, clean);
	strbuf_release(&file);
	return bad;
}
