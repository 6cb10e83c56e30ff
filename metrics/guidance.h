/*
 * metrics/guidance.h: what to do about a Top-Down node.
 *
 * For each node of the formula tables, metrics/guidance/FAMILY.json holds one
 * sentence of meaning, its common causes, what to try, what to measure
 * next and the sources those facts come from (docs/guidance.md).  The text
 * is kept beside the tables and found by the table's name first
 * (metrics/guidance/TABLE.json, optional), then by its vendor's family
 * (intel.json, amd.json, arm.json), so that a table of a new CPU inherits
 * its family's text.
 *
 * Ownership: td_guidance_find() returns a new jansson object that the
 * caller owns: {"meaning", "causes": [..], "try": [..], "next": [..],
 * "refs": [the sources, spelled out], "from": the file it came from}.
 * The files are read once per process and cached.
 *
 * Errors: a guidance file that is not valid (JSON, or a node without its
 * fields, or a source key it does not define) fails with -1 and one line
 * "FILE: what is wrong" in err; a node with no text is not an error (0).
 *
 * Name prefix: td_guidance_.
 */
#ifndef TD_METRICS_GUIDANCE_H
#define TD_METRICS_GUIDANCE_H

#include <jansson.h>

#include "util/util.h"

/*
 * The guidance for node 'id' of table 'table' (our table name: "skylakex")
 * whose vendor is 'vendor' ("GenuineIntel", "AuthenticAMD", "ARM"; NULL
 * when unknown).  1 with *out set, 0 when no file has text for the node,
 * -1 with err set when a file that applies cannot be read.
 */
int td_guidance_find(const char *table, const char *vendor, const char *id, json_t **out,
		     struct strbuf *err);

/* The family file a vendor's tables inherit from ("intel"), or NULL. */
const char *td_guidance_family(const char *vendor);

#endif
