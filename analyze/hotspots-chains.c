/*
 * A cache of whole call chains: the raw addresses of a sample's chain (with
 * its process and CPU mode) -> the call-path node they resolved to.  A
 * profile repeats the same chains over and over; a hit skips resolving
 * every address and walking the tree.  Bounded: when full it starts over,
 * so memory stays flat however long the recording.
 */
#include "analyze/hotspots-int.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define CHAIN_SLOTS_MAX (1u << 20)
#define CHAIN_POOL_MAX (1u << 23)   /* addresses kept, 64 MB */

struct chain_slot {
	uint64_t hash;
	uint64_t pool_off;
	uint32_t pid, nr, node, used;
	int32_t detail;
	uint16_t mode;
};

struct hot_chains {
	struct chain_slot *slots;
	size_t cap, used;
	uint64_t *pool;
	size_t pool_used, pool_alloc;
};

struct hot_chains *hot_chains_new(void)
{
	struct hot_chains *c = xcalloc(1, sizeof(*c));

	c->cap = 4096;
	c->slots = xcalloc(c->cap, sizeof(*c->slots));
	return c;
}

void hot_chains_free(struct hot_chains *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c->pool);
	free(c);
}

void hot_chains_clear(struct hot_chains *c)
{
	memset(c->slots, 0, c->cap * sizeof(*c->slots));
	c->used = 0;
	c->pool_used = 0;
}

uint64_t hot_chain_hash(uint32_t pid, uint16_t mode, const uint64_t *ips, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)pid << 16) ^ mode ^ ((uint64_t)n << 48);
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= ips[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	return h | 1;
}

static struct chain_slot *find_slot(struct hot_chains *c, uint64_t hash, uint32_t pid, uint16_t mode,
				    const uint64_t *ips, size_t n)
{
	size_t mask = c->cap - 1, i;

	for (i = hash & mask; c->slots[i].used; i = (i + 1) & mask) {
		struct chain_slot *s = &c->slots[i];

		if (s->hash == hash && s->pid == pid && s->mode == mode && s->nr == n &&
		    !memcmp(c->pool + s->pool_off, ips, n * sizeof(*ips)))
			return s;
	}
	return &c->slots[i];
}

int hot_chain_lookup(struct hot_chains *c, uint64_t hash, uint32_t pid, uint16_t mode,
		     const uint64_t *ips, size_t n, uint32_t *node, int *detail)
{
	struct chain_slot *s = find_slot(c, hash, pid, mode, ips, n);

	if (!s->used)
		return 0;
	*node = s->node;
	*detail = s->detail;
	return 1;
}

static void grow(struct hot_chains *c)
{
	struct chain_slot *old = c->slots;
	size_t oldcap = c->cap, j, i, mask;

	c->cap *= 2;
	c->slots = xcalloc(c->cap, sizeof(*c->slots));
	mask = c->cap - 1;
	for (j = 0; j < oldcap; j++) {
		if (!old[j].used)
			continue;
		for (i = old[j].hash & mask; c->slots[i].used; i = (i + 1) & mask)
			;
		c->slots[i] = old[j];
	}
	free(old);
}

void hot_chain_insert(struct hot_chains *c, uint64_t hash, uint32_t pid, uint16_t mode,
		      const uint64_t *ips, size_t n, uint32_t node, int detail)
{
	struct chain_slot *s;

	if (n > CHAIN_POOL_MAX / 16)
		return; /* an absurd chain is not worth keeping */
	if (c->pool_used + n > CHAIN_POOL_MAX || (c->used + 1) * 2 > CHAIN_SLOTS_MAX * 2)
		hot_chains_clear(c);
	s = find_slot(c, hash, pid, mode, ips, n);
	if (s->used)
		return;
	td_grow((void **)&c->pool, &c->pool_alloc, c->pool_used + n, sizeof(*c->pool));
	memcpy(c->pool + c->pool_used, ips, n * sizeof(*ips));
	s->hash = hash;
	s->pid = pid;
	s->mode = mode;
	s->nr = (uint32_t)n;
	s->node = node;
	s->detail = detail;
	s->pool_off = c->pool_used;
	s->used = 1;
	c->pool_used += n;
	if (++c->used * 2 > c->cap)
		grow(c);
}
