#!/usr/bin/env python3
"""own-group.py perturb RUN_DIR | vars RUN_DIR REGION GROUP

perturb: in every regions-*.json of RUN_DIR, scale each copy of an event
that several groups count by 1 + 0.1 x its group's index (inclusive
counts): what a region whose groups ran in different time slices shows,
each group's scaled copy of the clocks its own estimate.

vars: the --var arguments of 'tdperf expr' for REGION's scaled inclusive
counts (count x enabled / running, summed over threads): of group GROUP
alone, or with GROUP "first", each name's first counted copy.
"""
import glob
import json
import os
import sys


def layout(doc):
    names, group_of = [], []
    for g, grp in enumerate(doc["groups"]):
        for e in grp["events"]:
            names.append(e)
            group_of.append(g)
    return names, group_of


def perturb(run):
    for path in glob.glob(os.path.join(run, "regions-*.json")):
        doc = json.load(open(path))
        names, group_of = layout(doc)
        for t in doc["threads"]:
            for r in t["regions"]:
                c = r["inclusive"]["counts"]
                for e, n in enumerate(names):
                    if names.count(n) > 1:
                        c[e] = int(c[e] * (1 + 0.1 * group_of[e]))
        json.dump(doc, open(path, "w"))


def scaled_vars(run, region, group):
    sums = {}
    for path in glob.glob(os.path.join(run, "regions-*.json")):
        doc = json.load(open(path))
        names, group_of = layout(doc)
        for t in doc["threads"]:
            for r in t["regions"]:
                if r["name"] != region:
                    continue
                v = r["inclusive"]
                for e, n in enumerate(names):
                    g = group_of[e]
                    if v["running_ns"][g] <= 0:
                        continue
                    sums.setdefault((e, n), 0)
                    sums[(e, n)] += v["counts"][e] * v["enabled_ns"][g] / v["running_ns"][g]
    out = {}
    for (e, n), s in sorted(sums.items()):
        if group == "first" and n not in out:
            out[n] = s
        elif group != "first" and group_of[e] == int(group):
            out[n] = s
    return " ".join("--var=%s=%.6f" % kv for kv in out.items())


if sys.argv[1] == "perturb":
    perturb(sys.argv[2])
else:
    print(scaled_vars(sys.argv[2], sys.argv[3], sys.argv[4]))
