/*
 * report/: renders analyses.  A report is first built as one JSON document
 * (schema in docs/report-schema.md); every output format (text tree, JSON,
 * CSV, gnuplot charts, HTML, diff) renders from that document, so all
 * formats always carry the same numbers and the same approximation marks.
 *
 * Name prefix: td_report_.
 */
#ifndef TD_REPORT_H
#define TD_REPORT_H

#include "util/util.h"

#endif /* TD_REPORT_H */
