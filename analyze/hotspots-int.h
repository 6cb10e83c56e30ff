/*
 * Private to analyze/hotspots-*.c: the call-chain cache of the hotspots
 * loader (analyze/hotspots-chains.c) and the MPI library's share of a
 * profile (analyze/hotspots-mpi.c).
 */
#ifndef TD_HOTSPOTS_INT_H
#define TD_HOTSPOTS_INT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct hot_chains;
struct hot_chains *hot_chains_new(void);
void hot_chains_free(struct hot_chains *c);
/* Forget every chain (a process' maps changed). */
void hot_chains_clear(struct hot_chains *c);
uint64_t hot_chain_hash(uint32_t pid, uint16_t mode, const uint64_t *ips, size_t n);
/* 1 with *node (and the leaf's detail id, or -1) when this chain of this
 * process was seen. */
int hot_chain_lookup(struct hot_chains *c, uint64_t hash, uint32_t pid, uint16_t mode,
		     const uint64_t *ips, size_t n, uint32_t *node, int *detail);
void hot_chain_insert(struct hot_chains *c, uint64_t hash, uint32_t pid, uint16_t mode,
		      const uint64_t *ips, size_t n, uint32_t node, int detail);

/* 1 when the file is an MPI runtime library (by its name). */
int hot_is_mpi_dso(const char *path);
/* {"percent", "children_percent", "dsos"}: the share of the samples in MPI
 * runtime DSOs, alone and with the functions they call. */
struct td_hot;
struct td_symbolizer;
json_t *hot_mpi_json(const struct td_hot *hot, const struct td_symbolizer *sym);

#endif /* TD_HOTSPOTS_INT_H */
