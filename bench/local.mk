# bench/: benchmarks (not tests), built with 'make bench'
EXTRA_PROGRAMS =
bench: $(EXTRA_PROGRAMS)
.PHONY: bench
