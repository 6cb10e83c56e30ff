# report/: the report document and its renderers (report/report.h)
libtdperf_a_SOURCES += report/report.h report/build.c
# charts (gnuplot), HTML report and diff
libtdperf_a_SOURCES += report/plot.c report/plot-data.c report/plot-palette.c report/plot-run.c \
	report/html.c report/html-template.c report/html-parts.c report/html-tree.c
