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

void pd_addr_detail(Dwfl_Module *mod, uint64_t addr, char **inlined, char **source)
{
	Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias), *scopes = NULL;
	const char *file;
	int lineno = 0, n, i;

	*inlined = *source = NULL;
	if (line && (file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL))) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s:%d", file, lineno);
		*source = strbuf_detach(&sb, NULL);
	}
	if (!cu)
		return;
	n = dwarf_getscopes(cu, addr - bias, &scopes); /* innermost first */
	for (i = 0; i < n; i++) {
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine) {
			const char *name = inlined_name(&scopes[i]);

			if (name)
				*inlined = xstrdup(name);
			break;
		}
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
	}
	free(scopes);
}
