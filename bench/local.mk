# bench/: benchmarks (not tests), built with 'make bench'
EXTRA_PROGRAMS =
bench: $(EXTRA_PROGRAMS)
.PHONY: bench
# perf.data reader: bench/perfdata-bench.sh (run after 'make bench')
EXTRA_PROGRAMS += bench/perfdata-decode
bench_perfdata_decode_LDADD = $(TD_LIBS)
EXTRA_DIST += bench/perfdata-bench.sh

# bench/bench-tree: full-tree evaluation over 100,000 count sets (metrics/)
EXTRA_PROGRAMS += bench/bench-tree
bench_bench_tree_SOURCES = bench/bench-tree.c
bench_bench_tree_LDADD = $(TD_LIBS)
EXTRA_DIST += bench/calibrate-repeat.sh
# perf stat import + report: bench/stat-report-bench.sh
EXTRA_DIST += bench/stat-report-bench.sh bench/README.md
# merging a job directory of 1,024 ranks: bench/job-merge-bench.sh
EXTRA_DIST += bench/job-merge-bench.sh
EXTRA_DIST += bench/hotspots-bench.sh
# perf 6.1 as the oracle of the Top-Down values: bench/perf-oracle.sh (docs/perf-oracle.md)
EXTRA_DIST += bench/perf-oracle.sh
EXTRA_DIST += bench/table-find-bench.sh
# regions: ns per begin/end pair, outside and under record --regions: bench/regions-bench.sh
EXTRA_DIST += bench/regions-bench.sh bench/regions-bench.c
