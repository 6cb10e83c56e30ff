# regions/: the marker library, libtdperf.so (docs/regions.md).  It is
# linked into the user's program, so it is built apart from tdperf: libc
# only, position-independent, with its own soname.  libtool is not used in
# this tree; the rules below are what it would do for one ELF library.
include_HEADERS = regions/tdperf.h regions/tdperf.f90
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = tdperf.pc
if HAVE_PYTHON
python_PYTHON = regions/python/tdperf.py
endif
EXTRA_DIST += regions/tdperf.c regions/tdperf.pc.in
TDPERF_SONAME = libtdperf.so.1
CLEANFILES = libtdperf.so libtdperf.so.1 tdperf.pc

libtdperf.so.1: regions/tdperf.c regions/tdperf.h
	$(AM_V_CCLD)$(CC) -I$(top_srcdir) $(CPPFLAGS) $(TD_WARN_CFLAGS) $(CFLAGS) -fPIC -shared \
		-fvisibility=default -Wl,-soname,$(TDPERF_SONAME) -o $@ $(top_srcdir)/regions/tdperf.c -pthread
libtdperf.so: libtdperf.so.1
	$(AM_V_GEN)ln -sf libtdperf.so.1 $@
tdperf.pc: regions/tdperf.pc.in Makefile
	$(AM_V_GEN)sed -e 's|@prefix[@]|$(prefix)|' -e 's|@libdir[@]|$(libdir)|' \
		-e 's|@includedir[@]|$(includedir)|' -e 's|@VERSION[@]|$(VERSION)|' \
		$(top_srcdir)/regions/tdperf.pc.in >$@

all-local: libtdperf.so
install-exec-local: libtdperf.so
	$(MKDIR_P) '$(DESTDIR)$(libdir)'
	$(INSTALL_PROGRAM) libtdperf.so.1 '$(DESTDIR)$(libdir)/libtdperf.so.1'
	ln -sf libtdperf.so.1 '$(DESTDIR)$(libdir)/libtdperf.so'
uninstall-local:
	rm -f '$(DESTDIR)$(libdir)/libtdperf.so.1' '$(DESTDIR)$(libdir)/libtdperf.so'

# tests: the marker library under record --regions
TESTS += tests/e2e/t1100-regions-software.sh tests/e2e/t1101-regions-emu.sh \
	tests/e2e/t1102-regions-fortran-python.sh tests/e2e/t1103-regions-diff.sh \
	tests/e2e/t1104-regions-job.sh tests/e2e/t1105-regions-diff-emu.sh \
	tests/e2e/t1106-regions-own-group.sh tests/e2e/t1107-regions-cpi-stack.sh \
	tests/e2e/t1108-regions-exit-exec.sh
# a --regions run's passes as Chrome trace slices (report/export-trace.c)
TESTS += tests/e2e/t1206-export-trace-regions.sh
EXTRA_DIST += tests/e2e/t1206-export-trace-regions.sh
# diff --check over sets of --regions runs: region:NAME:METRIC (analyze/gate.c)
TESTS += tests/e2e/t1207-gate-regions.sh
EXTRA_DIST += tests/e2e/t1207-gate-regions.sh
EXTRA_DIST += tests/e2e/t1100-regions-software.sh tests/e2e/t1101-regions-emu.sh \
	tests/e2e/t1102-regions-fortran-python.sh tests/e2e/t1103-regions-diff.sh \
	tests/e2e/t1104-regions-job.sh tests/e2e/t1105-regions-diff-emu.sh tests/regions/regions-app.c \
	tests/e2e/t1106-regions-own-group.sh tests/e2e/t1107-regions-cpi-stack.sh \
	tests/e2e/t1108-regions-exit-exec.sh \
	tests/regions/regions-app.f90 tests/regions/regions-app.py tests/regions/emu-truth.py \
	tests/regions/own-group.py \
	regions/python/tdperf.py
tests/e2e/t1100-regions-software.log tests/e2e/t1101-regions-emu.log \
tests/e2e/t1102-regions-fortran-python.log tests/e2e/t1103-regions-diff.log \
tests/e2e/t1104-regions-job.log tests/e2e/t1105-regions-diff-emu.log \
	tests/e2e/t1106-regions-own-group.log tests/e2e/t1107-regions-cpi-stack.log \
	tests/e2e/t1108-regions-exit-exec.log \
	tests/e2e/t1206-export-trace-regions.log tests/e2e/t1207-gate-regions.log: libtdperf.so
