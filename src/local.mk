# src/: the tdperf command and one file per subcommand (src/builtin.h)
tdperf_SOURCES += src/tdperf.c src/builtin.h \
	src/cmd-record.c src/cmd-report.c src/cmd-diff.c src/cmd-import.c \
	src/cmd-list.c src/cmd-explain.c src/cmd-check.c src/cmd-expr.c \
	src/cmd-dump.c src/cmd-tables.c src/cmd-calibrate.c
