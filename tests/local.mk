# tests/: the end-to-end tests of the command line itself.  Each module's
# local.mk adds its own unit and end-to-end tests.
TESTS += tests/e2e/t0000-cli.sh tests/e2e/t0010-layout.sh tests/e2e/t0390-privilege-modifiers.sh
EXTRA_DIST += tests/e2e/t0000-cli.sh tests/e2e/t0010-layout.sh tests/e2e/t0390-privilege-modifiers.sh \
	tests/README.md
# options in any order, report -l and --html FILE anywhere; "did you mean" (issue 32)
TESTS += tests/e2e/t0030-option-order.sh tests/e2e/t0031-did-you-mean.sh
EXTRA_DIST += tests/e2e/t0030-option-order.sh tests/e2e/t0031-did-you-mean.sh

# Every header of collect/ parse/ metrics/ util/ compiles alone, with the
# build's compiler and include flags (tests/e2e/t0011-headers.sh).
TESTS += tests/e2e/t0011-headers.sh
EXTRA_DIST += tests/e2e/t0011-headers.sh
AM_TESTS_ENVIRONMENT += \
	TD_CC='$(CC)'; export TD_CC; \
	TD_HEADER_CPPFLAGS='-I$(abs_top_srcdir) -I$(abs_top_builddir) $(TRACEEVENT_CFLAGS) $(JANSSON_CFLAGS) $(LIBELF_CFLAGS) $(ZSTD_CFLAGS) $(LIBDW_CFLAGS)'; \
	export TD_HEADER_CPPFLAGS; \
	TD_HEADER_CFLAGS='$(TD_WARN_CFLAGS)'; export TD_HEADER_CFLAGS;
