#!/usr/bin/env python3
"""emu-truth.py EMU_LOG RUN_DIR: compare each thread's root region with the
emulator's truth.

libtdperf.so opens its groups disabled, enables them after a first read,
and disables them before its last: a thread's root region is each event's
whole life, which tests/pmu-emu logs as true=N (rate x time enabled) when
the event is closed.  Events are matched by process and PERF_EVENT_IOC_ID
(the ids the library wrote).  Prints one line per event compared and
'mismatch' lines, 'not run' for a group that never had a counter in a
thread; exits 1 on a mismatch or when nothing was compared.

A process that execs a marked program writes regions-PID.json, and the
new image regions-PID.1.json: the emulator, loaded again, numbers its
events from the start, so an id of that pid is closed once per image, in
the images' order.
"""
import re
import glob
import json
import os
import sys

truth = {}
for line in open(sys.argv[1]):
    f = line.split()
    if not f or f[0] != "event":
        continue
    kv = dict(x.split("=", 1) for x in f[1:] if "=" in x)
    truth.setdefault((int(kv["proc"]), int(kv["id"])), []).append(int(kv["true"]))


def image(path):
    """(pid, N) of regions-PID[.N].json: the Nth image of that process."""
    m = re.search(r"regions-(\d+)(?:\.(\d+))?\.json$", path)
    return (int(m.group(1)), int(m.group(2) or 0))


compared = bad = notrun = 0
for path in sorted(glob.glob(os.path.join(sys.argv[2], "regions-*.json")), key=image):
    doc = json.load(open(path))
    nth = image(path)[1]
    group_of, names = [], []
    for g, grp in enumerate(doc["groups"]):
        for e in grp["events"]:
            group_of.append(g)
            names.append(e)
    for t in doc["threads"]:
        root = [r for r in t["regions"] if r["name"] == "(root)"][0]["inclusive"]
        for e, name in enumerate(names):
            g = group_of[e]
            if doc["groups"][g]["pmu"] == "software":
                continue
            run, en = root["running_ns"][g], root["enabled_ns"][g]
            closes = truth.get((doc["pid"], t["ids"][e]), [])
            want = closes[nth] if nth < len(closes) else None
            if not run:
                # the group never got a counter in this thread's life (the
                # emulator multiplexes all threads of a process in one
                # context): the report calls its events unknown, and the
                # truth (rate x time enabled) has nothing to be compared with
                notrun += 1
                print("not run pid %d tid %d %s truth %s" % (doc["pid"], t["tid"], name, want))
                continue
            value = root["counts"][e] * en / run
            compared += 1
            # the emulator rounds rate x running time to a count, which the
            # scaling multiplies by enabled / running: that much, plus one
            ok = want is not None and abs(value - want) <= 1 + (en / run if run else 0)
            bad += not ok
            print("%s pid %d tid %d %s %.0f truth %s" % ("ok" if ok else "mismatch", doc["pid"],
                  t["tid"], name, value, want))
print("compared %d, mismatches %d, not run %d" % (compared, bad, notrun))
sys.exit(1 if bad or not compared else 0)
