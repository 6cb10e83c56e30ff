# report/: the report document and its renderers (report/report.h)
libtdperf_a_SOURCES += report/report.h report/build.c
# HTML and charts (owned by the charts/HTML work)
libtdperf_a_SOURCES += report/html.c report/plot.c
