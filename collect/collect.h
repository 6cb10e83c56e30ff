/*
 * collect/: everything that touches the live machine: CPU and PMU
 * detection, the event scheduler (events -> groups that fit the counters),
 * driving perf (fork/exec, never a shell), and writing run directories
 * (docs/run-format.md).
 *
 * Name prefix: td_cpu_, td_sched_, td_perf_.
 */
#ifndef TD_COLLECT_H
#define TD_COLLECT_H

#include "util/util.h"

#endif /* TD_COLLECT_H */
