# bench/: benchmarks (not tests), built with 'make bench'
EXTRA_PROGRAMS =
bench: $(EXTRA_PROGRAMS)
.PHONY: bench
# perf.data reader: bench/perfdata-bench.sh (run after 'make bench')
EXTRA_PROGRAMS += bench/perfdata-decode
bench_perfdata_decode_LDADD = $(TD_LIBS)
EXTRA_DIST += bench/perfdata-bench.sh
