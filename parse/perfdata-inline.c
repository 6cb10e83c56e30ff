/*
 * What the debug info says about one sampled instruction: its source line
 * and the innermost inlined function it belongs to (elfutils' libdw).  A
 * function's samples then split by the lines and the inlined callees they
 * fell in, which the symbol table alone cannot tell.
 */
#include "parse/perfdata-internal.h"
#include "util/util.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>

/* The name of an inlined subroutine: DW_AT_name through its abstract origin. */
static const char *inlined_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_name, &attr))
		return NULL;
	return dwarf_formstring(&attr);
}

/* A function's subprogram entry, found by the first address looked up in
 * it: later addresses of the function search only its subtree. */
struct pd_func_scope {
	Dwarf_Die die;
	int found;
};

/* The name of the innermost inlined subroutine under 'die' (a subprogram,
 * lexical block or inlined subroutine) whose ranges hold pc, or NULL. */
static const char *innermost_inlined(Dwarf_Die *die, Dwarf_Addr pc, int depth)
{
	Dwarf_Die child;

	if (depth > 256 || dwarf_child(die, &child) != 0)
		return NULL;
	do {
		int tag = dwarf_tag(&child);
		const char *inner;

		if ((tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block) ||
		    dwarf_haspc(&child, pc) != 1)
			continue;
		inner = innermost_inlined(&child, pc, depth + 1);
		if (inner)
			return inner;
		return tag == DW_TAG_inlined_subroutine ? inlined_name(&child) : NULL;
	} while (dwarf_siblingof(&child, &child) == 0);
	return NULL;
}

/* The innermost inlined subroutine at pc from the scopes of the whole
 * compile unit (innermost first); remembers the subprogram in fs. */
static const char *inlined_from_cu(Dwarf_Die *cu, Dwarf_Addr pc, struct pd_func_scope *fs)
{
	Dwarf_Die *scopes = NULL;
	const char *name = NULL;
	int n = dwarf_getscopes(cu, pc, &scopes), i, tag;

	for (i = 0; i < n; i++) {
		tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_inlined_subroutine && !name)
			name = inlined_name(&scopes[i]);
		if (tag == DW_TAG_subprogram) {
			fs->die = scopes[i];
			fs->found = 1;
			break;
		}
	}
	free(scopes);
	return name;
}

void pd_addr_detail(Dwfl_Module *mod, uint64_t addr, struct pd_func_scope **fs, char **inlined,
		    char **source)
{
	Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	const char *file, *name;
	int lineno = 0;

	*inlined = *source = NULL;
	if (line && (file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL))) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s:%d", file, lineno);
		*source = strbuf_detach(&sb, NULL);
	}
	if (!cu)
		return;
	if (!*fs)
		*fs = xcalloc(1, sizeof(**fs));
	/* Walking the compile unit for each address costs its whole size;
	 * within a known function only the nested scopes are visited. */
	if ((*fs)->found && dwarf_haspc(&(*fs)->die, addr - bias) == 1)
		name = innermost_inlined(&(*fs)->die, addr - bias, 0);
	else
		name = inlined_from_cu(cu, addr - bias, *fs);
	if (name)
		*inlined = xstrdup(name);
}
