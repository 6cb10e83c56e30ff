# tests/pmu-emu/: an emulated CPU PMU for the tests (never installed): a
# library loaded with LD_PRELOAD into perf and tdperf, the launcher that
# sets up its sysfs tree, and one description file per emulated CPU.
check_PROGRAMS += tests/pmu-emu/libpmu-emu.so
tests_pmu_emu_libpmu_emu_so_SOURCES = tests/pmu-emu/emu.c tests/pmu-emu/cpu-file.c \
	tests/pmu-emu/sched.c tests/pmu-emu/sample.c tests/pmu-emu/emu.h
tests_pmu_emu_libpmu_emu_so_CPPFLAGS = -I$(srcdir)/tests/pmu-emu
tests_pmu_emu_libpmu_emu_so_CFLAGS = $(TD_WARN_CFLAGS) -fPIC -fvisibility=default
tests_pmu_emu_libpmu_emu_so_LDFLAGS = -shared -Wl,-z,defs
tests_pmu_emu_libpmu_emu_so_LDADD = -ldl -lpthread
EXTRA_DIST += tests/pmu-emu/pmu-emu tests/pmu-emu/gen-constraints tests/pmu-emu/README.md \
	tests/pmu-emu/cpus/skylakex.cpu tests/pmu-emu/cpus/icelakex.cpu \
	tests/pmu-emu/cpus/sapphirerapids.cpu tests/pmu-emu/cpus/alderlake.cpu \
	tests/pmu-emu/cpus/zen4.cpu tests/pmu-emu/cpus/zen3.cpu tests/pmu-emu/cpus/cometlake.cpu \
	tests/pmu-emu/cpus/neoverse-v2.cpu tests/pmu-emu/cpus/neoverse-n3.cpu \
	tests/pmu-emu/cpus/meteorlake.cpu tests/pmu-emu/cpus/neoverse-n1.cpu \
	tests/pmu-emu/cpus/neoverse-n2.cpu tests/pmu-emu/cpus/neoverse-v1.cpu tests/pmu-emu/cpus/neoverse-v3.cpu \
	tests/pmu-emu/cpus/biglittle.cpu tests/pmu-emu/cpus/biglittle-a55.cpu \
	tests/pmu-emu/cpus/ampereone.cpu tests/pmu-emu/cpus/ampereonex.cpu tests/pmu-emu/cpus/hip08.cpu \
	tests/pmu-emu/cpus/skylake.cpu tests/pmu-emu/cpus/icelake.cpu tests/pmu-emu/cpus/tigerlake.cpu \
	tests/pmu-emu/cpus/rocketlake.cpu
TESTS += tests/e2e/t0540-pmu-emu.sh tests/e2e/t0035-record-events.sh
EXTRA_DIST += tests/e2e/t0540-pmu-emu.sh tests/e2e/t0035-record-events.sh tests/pmu-emu/emu-truth tests/pmu-emu/emu-check \
	tests/pmu-emu/encode.awk tests/pmu-emu/profile-rates
TESTS += tests/e2e/t0545-pmu-emu-arm.sh
EXTRA_DIST += tests/e2e/t0545-pmu-emu-arm.sh tests/e2e/pmu-emu-lib.sh
TESTS += tests/e2e/t0853-job-pmu-emu.sh
EXTRA_DIST += tests/e2e/t0853-job-pmu-emu.sh
TESTS += tests/e2e/t0644-hotspots-emu.sh
EXTRA_DIST += tests/e2e/t0644-hotspots-emu.sh tests/pmu-emu/emu-hot-truth
TESTS += tests/e2e/t0546-perf-metric-oracle.sh
TESTS += tests/e2e/t0547-perf-formula-notes.sh
EXTRA_DIST += tests/e2e/t0546-perf-metric-oracle.sh tests/pmu-emu/perf-oracle
EXTRA_DIST += tests/e2e/t0547-perf-formula-notes.sh
TESTS += tests/e2e/t1310-drilldown-emu.sh
EXTRA_DIST += tests/e2e/t1310-drilldown-emu.sh
