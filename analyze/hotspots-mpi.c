/*
 * The MPI library's share of a profile.  A rank that reaches a barrier or
 * a blocking receive before the others waits inside the MPI library,
 * usually polling, so that share, compared across ranks, shows who waits
 * for whom.  Two figures: the samples whose function lies in an MPI
 * runtime DSO ("self"), and those whose call path passes through one
 * ("with callees": also the kernel, libc and network-library time that
 * MPI calls cause).
 *
 * An MPI runtime DSO is recognised by its file name: Open MPI (libmpi,
 * libopen-pal, libopen-rte, its mca_* components, PMIx, PRRTE), MPICH and
 * its derivatives (libmpich, libmpl, libpmi), and the transport libraries
 * they drive (UCX's libucp/libucs/libuct, libfabric, PSM).
 */
#include "analyze/hotspots-int.h"
#include "metrics/hotspots.h"
#include "parse/parse.h"
#include "util/util.h"

#include <string.h>

static const char *const mpi_prefixes[] = {
	"libmpi", "libmpich", "libmpl.", "libpmi", "libopen-pal", "libopen-rte", "libpmix", "libprrte",
	"mca_", "libmca_", "libucp", "libucs", "libuct", "libfabric", "libpsm",
};

int hot_is_mpi_dso(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i;

	base = base ? base + 1 : path;
	for (i = 0; i < sizeof(mpi_prefixes) / sizeof(mpi_prefixes[0]); i++)
		if (!strncmp(base, mpi_prefixes[i], strlen(mpi_prefixes[i])))
			return 1;
	return 0;
}

static void add_unique(json_t *a, const char *s)
{
	json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		if (!strcmp(json_string_value(v), s))
			return;
	json_array_append_new(a, json_string(s));
}

json_t *hot_mpi_json(const struct td_hot *hot, const struct td_symbolizer *sym)
{
	size_t nr_frames = td_sym_nr_frames(sym), nr_nodes = td_hot_nr_nodes(hot), i;
	unsigned char *frame_in = xcalloc(nr_frames + 1, 1), *node_in = xcalloc(nr_nodes + 1, 1);
	uint64_t self = 0, with = 0, total = td_hot_total_period(hot);
	json_t *dsos = json_array(), *out;

	for (i = 0; i < nr_frames; i++) {
		const struct td_frame *f = td_sym_frame(sym, i);

		if (!f->kernel && hot_is_mpi_dso(f->dso)) {
			frame_in[i] = 1;
			add_unique(dsos, f->dso);
		}
	}
	/* a node is created after its parent (its caller): one pass in index
	 * order sees every caller first */
	for (i = 0; i < nr_nodes; i++) {
		const struct td_hot_node *n = td_hot_node(hot, i);
		int own = n->frame >= 0 && (size_t)n->frame < nr_frames && frame_in[n->frame];

		node_in[i] = own || (n->parent >= 0 && (size_t)n->parent < i && node_in[n->parent]);
		if (own)
			self += n->self_period;
		if (node_in[i])
			with += n->self_period;
	}
	free(frame_in);
	free(node_in);
	out = json_pack("{s:o, s:o, s:o}", "percent", json_real(total ? 100.0 * (double)self / (double)total : 0),
			"children_percent", json_real(total ? 100.0 * (double)with / (double)total : 0),
			"dsos", dsos);
	return out;
}
