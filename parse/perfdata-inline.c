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

#define MAX_INLINE_DEPTH 64

/* The inlined subroutines under 'die' (a subprogram, lexical block or
 * inlined subroutine) whose ranges hold pc, outermost first, into path;
 * their number. */
static int inlined_path(Dwarf_Die *die, Dwarf_Addr pc, Dwarf_Die *path, int n, int depth)
{
	Dwarf_Die child;

	if (depth > 256 || n >= MAX_INLINE_DEPTH || dwarf_child(die, &child) != 0)
		return n;
	do {
		int tag = dwarf_tag(&child);

		if ((tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block) ||
		    dwarf_haspc(&child, pc) != 1)
			continue;
		if (tag == DW_TAG_inlined_subroutine)
			path[n++] = child;
		return inlined_path(&child, pc, path, n, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
	return n;
}

/* The inlined subroutines at pc from the scopes of the whole compile unit,
 * outermost first, into path; remembers the subprogram in fs. */
static int inlined_path_from_cu(Dwarf_Die *cu, Dwarf_Addr pc, struct pd_func_scope *fs, Dwarf_Die *path)
{
	Dwarf_Die *scopes = NULL;
	int nr = dwarf_getscopes(cu, pc, &scopes), i, n = 0, k;

	for (i = 0; i < nr; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_inlined_subroutine && n < MAX_INLINE_DEPTH)
			path[n++] = scopes[i];
		if (tag == DW_TAG_subprogram) {
			fs->die = scopes[i];
			fs->found = 1;
			break;
		}
	}
	free(scopes);
	for (k = 0; k < n / 2; k++) {
		Dwarf_Die x = path[k];

		path[k] = path[n - 1 - k];
		path[n - 1 - k] = x;
	}
	return n;
}

/* "file:LINE" of an inlined subroutine's call site (DW_AT_call_file is an
 * index into its compile unit's file table), or "?:0" unknown. */
static void add_call_site(struct strbuf *sb, Dwarf_Die *cu, Dwarf_Die *inl)
{
	Dwarf_Attribute attr;
	Dwarf_Word fileno = 0, lineno = 0;
	Dwarf_Files *files;
	size_t nr_files;
	const char *file = NULL;

	if (dwarf_attr(inl, DW_AT_call_file, &attr))
		dwarf_formudata(&attr, &fileno);
	if (dwarf_attr(inl, DW_AT_call_line, &attr))
		dwarf_formudata(&attr, &lineno);
	if (fileno && dwarf_getsrcfiles(cu, &files, &nr_files) == 0 && fileno < nr_files)
		file = dwarf_filesrc(files, fileno, NULL, NULL);
	strbuf_addf(sb, "%s:%lu", file ? file : "?", (unsigned long)lineno);
}

/*
 * The inline chain of pc as addr2line -i prints it: per level, innermost
 * first, "NAME\tFILE:LINE\n", the line the sampled instruction is at in
 * that function (the innermost: the instruction's own line; each outer
 * one: the call site of the level inside it).  The last level is the
 * function itself, its NAME left empty (the symbol names it).
 */
static char *inline_chain(Dwarf_Die *cu, Dwarf_Die *path, int n, const char *source)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = n - 1; i >= 0; i--) {
		const char *name = inlined_name(&path[i]);

		strbuf_addf(&sb, "%s\t", name ? name : "?");
		if (i == n - 1)
			strbuf_addstr(&sb, source ? source : "?:0");
		else
			add_call_site(&sb, cu, &path[i + 1]);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addch(&sb, '\t');
	add_call_site(&sb, cu, &path[0]);
	strbuf_addch(&sb, '\n');
	return strbuf_detach(&sb, NULL);
}

void pd_addr_detail(Dwfl_Module *mod, uint64_t addr, struct pd_func_scope **fs, char **inlined,
		    char **source, char **chain)
{
	Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	Dwarf_Die path[MAX_INLINE_DEPTH];
	const char *file, *name;
	int lineno = 0, n;

	*inlined = *source = *chain = NULL;
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
		n = inlined_path(&(*fs)->die, addr - bias, path, 0, 0);
	else
		n = inlined_path_from_cu(cu, addr - bias, *fs, path);
	if (!n)
		return;
	name = inlined_name(&path[n - 1]);
	if (name)
		*inlined = xstrdup(name);
	*chain = inline_chain(cu, path, n, *source);
}
