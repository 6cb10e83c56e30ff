/*
 * The hotspots page: one self-contained HTML file (no network) with a
 * flame graph of the call-path tree drawn as inline SVG by a small script
 * (click to zoom, a search box that highlights matching functions and
 * sums their share, tooltips), and a sortable table of the functions.
 * Frames are coloured by their function's dominant Top-Down Level 1
 * category when the recording had group counts and a table; otherwise by
 * where the code lives (executable and libraries, kernel, JIT, unknown).
 *
 * The data goes in as JSON inside a script element ('<' written as
 * \u003c, so no input can end the element); the script builds every
 * element through the DOM, never from strings of input.
 */
#include "config.h"
#include "report/render.h"
#include "report/chart.h"
#include "report/html.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Call paths below this share of the samples are left out of the page. */
#define HTML_MIN_SHARE 1e-4

static const char page_script[] =
	"<script>\n'use strict';\n"
	"const D = JSON.parse(document.getElementById('data').textContent);\n"
	"const P = D.profile, F = P.frames, N = P.callpaths, SVG = 'http://www.w3.org/2000/svg';\n"
	"const W = 1200, RH = 17;\n"
	"const kids = N.map(() => []);\n"
	"N.forEach((n, i) => { if (n.parent >= 0) kids[n.parent].push(i); });\n"
	"kids.forEach((k) => k.sort((a, b) => F[N[a].frame].symbol < F[N[b].frame].symbol ? -1 : 1));\n"
	"const colourOf = new Map();\n"
	"D.hotspots.forEach((h) => { if (h.colour) colourOf.set(h.symbol + '\\u0000' + h.dso, h.colour); });\n"
	"function hash(s) { let h = 7; for (const c of s) h = (h * 31 + c.charCodeAt(0)) >>> 0; return h; }\n"
	"function frameColour(f) {\n"
	"  const fr = F[f], c = colourOf.get(fr.symbol + '\\u0000' + fr.dso);\n"
	"  if (c) return c;\n"
	"  const v = hash(fr.symbol) % 60;\n"
	"  if (fr.symbol === '[unknown]') return '#b0b0b0';\n"
	"  if (fr.dso.startsWith('[')) return 'rgb(' + (200 + v % 50) + ',' + (120 + v) + ',40)';\n"
	"  if (fr.dso.startsWith('/tmp/perf-')) return 'rgb(60,' + (160 + v) + ',80)';\n"
	"  return 'rgb(' + (205 + v % 50) + ',' + (80 + 2 * v) + ',50)';\n"
	"}\n"
	"function label(f) { return F[f].symbol + ' (' + F[f].dso + ')'; }\n"
	/*
	 * Inlined functions (the function's "inlined": its own samples by the
	 * innermost inlined function, from debug info) are drawn as frames on
	 * top of the part of a call path's box that is the function's own
	 * samples, in the function's proportions: a call path's own split is
	 * not known, so the frames are dashed and their tooltip says so.
	 */
	"const hotOf = new Map();\n"
	"D.hotspots.forEach((h) => hotOf.set(h.symbol + '\\u0000' + h.dso, h));\n"
	"function inlineRows(i, x, w, d, out) {\n"
	"  const fr = F[N[i].frame], h = hotOf.get(fr.symbol + '\\u0000' + fr.dso), n = N[i];\n"
	"  if (!h || !h.inlined || !h.samples || !n.samples || !n.children_samples) return;\n"
	"  const selfW = w * n.samples / n.children_samples;\n"
	"  let cx = x + w - selfW;\n"
	"  for (const e of h.inlined) {\n"
	"    const ew = selfW * e.samples / h.samples;\n"
	"    if (ew >= 0.3) out.push([i, cx, ew, d + 1, e.symbol, 100 * e.samples / h.samples]);\n"
	"    cx += ew;\n"
	"  }\n"
	"}\n"
	"let root = 0, query = null;\n"
	"function path(i) { const p = []; for (; i > 0; i = N[i].parent) p.unshift(i); return p; }\n"
	"function render() {\n"
	"  const box = document.getElementById('flame'); box.textContent = '';\n"
	"  const rows = [], inl = [], total = N[root].children_samples || 1, up = path(root);\n"
	"  let depth = 0;\n"
	"  up.slice(0, -1).forEach((i, d) => rows.push([i, 0, W, d]));\n"
	"  (function walk(i, x, d) {\n"
	"    const w = W * N[i].children_samples / total;\n"
	"    if (w < 0.3) return;\n"
	"    if (i > 0) { rows.push([i, x, w, d]); depth = Math.max(depth, d); inlineRows(i, x, w, d, inl); }\n"
	"    let cx = x;\n"
	"    for (const k of kids[i]) { walk(k, cx, i > 0 ? d + 1 : d); cx += W * N[k].children_samples / total; }\n"
	"  })(root, 0, Math.max(up.length - 1, 0));\n"
	"  for (const r of inl) depth = Math.max(depth, r[3]);\n"
	"  const svg = document.createElementNS(SVG, 'svg');\n"
	"  const height = (Math.max(depth, up.length) + 2) * RH;\n"
	"  svg.setAttribute('width', W); svg.setAttribute('height', height);\n"
	"  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + height);\n"
	"  for (const [i, x, w, d] of rows) {\n"
	"    const g = document.createElementNS(SVG, 'g'), r = document.createElementNS(SVG, 'rect');\n"
	"    const f = N[i].frame, y = height - (d + 1) * RH;\n"
	"    g.dataset.node = i;\n"
	"    if (query && query.test(F[f].symbol)) g.classList.add('match');\n"
	"    r.setAttribute('x', x); r.setAttribute('y', y); r.setAttribute('width', Math.max(w - 0.5, 0.5));\n"
	"    r.setAttribute('height', RH - 1); r.setAttribute('fill', frameColour(f));\n"
	"    const t = document.createElementNS(SVG, 'title');\n"
	"    t.textContent = label(f) + ': ' + N[i].children_percent.toFixed(2) + '% total, ' + N[i].percent.toFixed(2) + '% self';\n"
	"    g.append(t, r);\n"
	"    if (w > 30) {\n"
	"      const tx = document.createElementNS(SVG, 'text'), s = F[f].symbol, fit = Math.floor((w - 6) / 6.7);\n"
	"      tx.setAttribute('x', x + 3); tx.setAttribute('y', y + RH - 5);\n"
	"      tx.textContent = s.length > fit ? s.slice(0, Math.max(fit - 2, 0)) + '..' : s;\n"
	"      g.append(tx);\n"
	"    }\n"
	"    g.addEventListener('click', () => { root = i; render(); });\n"
	"    g.addEventListener('mousemove', (e) => tip(e, i));\n"
	"    g.addEventListener('mouseout', () => { document.getElementById('tip').style.display = 'none'; });\n"
	"    svg.append(g);\n"
	"  }\n"
	"  for (const [i, x, w, d, name, pct] of inl) {\n"
	"    const g = document.createElementNS(SVG, 'g'), r = document.createElementNS(SVG, 'rect');\n"
	"    const y = height - (d + 1) * RH, t = document.createElementNS(SVG, 'title');\n"
	"    g.classList.add('inl'); g.dataset.node = i;\n"
	"    if (query && query.test(name)) g.classList.add('match');\n"
	"    r.setAttribute('x', x); r.setAttribute('y', y); r.setAttribute('width', Math.max(w - 0.5, 0.5));\n"
	"    r.setAttribute('height', RH - 1);\n"
	"    t.textContent = name + ' (inlined into ' + F[N[i].frame].symbol + ': ' + pct.toFixed(1)\n"
	"      + '% of its own samples by debug info; drawn over each call path in that proportion)';\n"
	"    g.append(t, r);\n"
	"    if (w > 30) {\n"
	"      const tx = document.createElementNS(SVG, 'text'), fit = Math.floor((w - 6) / 6.7);\n"
	"      tx.setAttribute('x', x + 3); tx.setAttribute('y', y + RH - 5);\n"
	"      tx.textContent = name.length > fit ? name.slice(0, Math.max(fit - 2, 0)) + '..' : name;\n"
	"      g.append(tx);\n"
	"    }\n"
	"    g.addEventListener('click', () => { root = i; render(); });\n"
	"    svg.append(g);\n"
	"  }\n"
	"  box.append(svg);\n"
	"}\n"
	"function tip(e, i) {\n"
	"  const t = document.getElementById('tip'), n = N[i];\n"
	"  t.textContent = label(n.frame) + ' \\u2014 ' + n.children_percent.toFixed(2) + '% of samples with callees ('\n"
	"    + n.children_samples + '), ' + n.percent.toFixed(2) + '% self';\n"
	"  t.style.left = (e.clientX + 12) + 'px'; t.style.top = (e.clientY + 12) + 'px'; t.style.display = 'block';\n"
	"}\n"
	"function search(text) {\n"
	"  try { query = text ? new RegExp(text) : null; } catch (e) { query = null; }\n"
	"  render();\n"
	"  const m = document.getElementById('matched');\n"
	"  if (!query) { m.textContent = ''; return 0; }\n"
	"  let share = 0, count = 0;\n"
	"  (function walk(i) {\n"
	"    if (i > 0 && query.test(F[N[i].frame].symbol)) { share += N[i].children_percent; count++; return; }\n"
	"    kids[i].forEach(walk);\n"
	"  })(0);\n"
	"  m.textContent = 'matched: ' + share.toFixed(2) + '% of samples';\n"
	"  return document.querySelectorAll('#flame g.match').length;\n"
	"}\n"
	"window.tdSearch = search;\n"
	"const cols = [['symbol', 'function'], ['dso', 'DSO'], ['percent', 'self %'],\n"
	"  ['children_percent', 'children %'], ['samples', 'samples']];\n"
	/* the Top-Down column only when some function has something in it */
	"if (D.hotspots.some((h) => h.bottleneck || h.topdown_note)) cols.push(['bottleneck', 'Top-Down bottleneck']);\n"
	/* the table lists the functions samples fell in; callers alone are in the flame graph */
	"const listed = D.hotspots.filter((h) => h.samples > 0);\n"
	"function detail(h) {\n"
	"  const parts = [];\n"
	"  if (h.inlined && h.inlined.length) parts.push('inlined: ' + h.inlined.map((e) => e.symbol + ' '\n"
	"    + (100 * e.samples / h.samples).toFixed(1) + '%').join(', '));\n"
	"  if (h.lines && h.lines.length) parts.push('lines: ' + h.lines.map((e) => e.source + ' '\n"
	"    + (100 * e.samples / h.samples).toFixed(1) + '%').join(', '));\n"
	"  return parts.join('; ') + (parts.length ? ' (shares of the function\\'s own samples)' : '');\n"
	"}\n"
	"let sortKey = 'percent', sortDown = true;\n"
	"function table() {\n"
	"  const head = document.querySelector('#hot thead tr'), body = document.querySelector('#hot tbody');\n"
	"  head.textContent = ''; body.textContent = '';\n"
	"  for (const [k, name] of cols) {\n"
	"    const th = document.createElement('th');\n"
	"    th.textContent = name + (k === sortKey ? (sortDown ? ' \\u25bc' : ' \\u25b2') : '');\n"
	"    th.addEventListener('click', () => { sortDown = k === sortKey ? !sortDown : true; sortKey = k; table(); });\n"
	"    head.append(th);\n"
	"  }\n"
	"  const rows = listed.slice().sort((a, b) => {\n"
	"    const x = a[sortKey] ?? '', y = b[sortKey] ?? '';\n"
	"    return (x < y ? -1 : x > y ? 1 : 0) * (sortDown ? -1 : 1);\n"
	"  });\n"
	"  for (const h of rows) {\n"
	"    const tr = document.createElement('tr');\n"
	"    for (const [k] of cols) {\n"
	"      const td = document.createElement('td'), v = h[k];\n"
	"      if (typeof v === 'number') { td.className = 'n'; td.textContent = Number.isInteger(v) ? v : v.toFixed(2); }\n"
	"      else if (k === 'symbol' && h.label) td.textContent = h.label;\n"
	"      else td.textContent = v ?? (k === 'bottleneck' && h.topdown_note ? h.topdown_note : '');\n"
	"      tr.append(td);\n"
	"    }\n"
	"    body.append(tr);\n"
	"    const more = detail(h);\n"
	"    if (more) {\n"
	"      const dr = document.createElement('tr'), dd = document.createElement('td');\n"
	"      dr.className = 'detail'; dr.hidden = true; dd.colSpan = cols.length; dd.textContent = more;\n"
	"      dr.append(dd); body.append(dr);\n"
	"      tr.classList.add('has-detail'); tr.title = 'click for its inlined functions and source lines';\n"
	"      tr.addEventListener('click', () => { dr.hidden = !dr.hidden; });\n"
	"    }\n"
	"  }\n"
	"  const hidden = D.hotspots.length - listed.length;\n"
	"  document.getElementById('hidden').textContent = hidden ? hidden + ' function' + (hidden > 1 ? 's' : '')\n"
	"    + ' with no sample of their own (callers only) are not listed; they are in the flame graph.' : '';\n"
	"}\n"
	"document.getElementById('summary').textContent = P.samples + ' samples of ' + P.event + ' in ' + P.source\n"
	"  + (P.callchains ? ', with call chains' : ', no call chains');\n"
	"document.getElementById('note').textContent = D.note || '';\n"
	"for (const [name, colour] of D.legend || []) {\n"
	"  const s = document.createElement('span'); s.style.background = colour;\n"
	"  document.getElementById('legend').append(s, name);\n"
	"}\n"
	"if (D.hotspots.some((h) => h.inlined && h.inlined.length)) {\n"
	"  const s = document.createElement('span'); s.className = 'inl';\n"
	"  document.getElementById('legend').append(s, 'inlined function (dashed): its share of its caller\\'s own samples');\n"
	"}\n"
	"document.getElementById('search').addEventListener('input', (e) => search(e.target.value));\n"
	"document.getElementById('reset').addEventListener('click', () => { root = 0; render(); });\n"
	"render(); table();\n"
	"</script>\n";

/* The Level 1 node a function's Top-Down names as its bottleneck, or NULL. */
static json_t *bottleneck_node(json_t *fn)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(fn, "topdown"), "nodes"), i, n)
		if (td_json_int(json_object_get(n, "level"), 0) == 1 && json_is_true(json_object_get(n, "bottleneck")))
			return n;
	return NULL;
}

/* The functions for the page: Top-Down colour and bottleneck name added. */
static json_t *page_functions(json_t *doc, json_t *legend)
{
	json_t *out = json_array(), *fn, *seen = json_object();
	size_t i;

	json_array_foreach(json_object_get(doc, "hotspots"), i, fn) {
		json_t *c = json_deep_copy(fn), *n = bottleneck_node(fn);

		if (n) {
			const char *id = td_json_str(n, "id"), *name = td_json_str_or(n, "name", id);
			const char *colour = td_component_colour(id, NULL, 1, 0);

			json_object_set_new(c, "colour", json_string(colour));
			json_object_set_new(c, "bottleneck", json_string(name));
			if (!json_object_get(seen, name)) {
				json_object_set_new(seen, name, json_true());
				json_array_append_new(legend, json_pack("[s,s]", name, colour));
			}
		} else if (json_object_get(json_object_get(fn, "topdown"), "note")) {
			json_object_set(c, "topdown_note", json_object_get(json_object_get(fn, "topdown"), "note"));
		}
		json_object_del(c, "topdown");
		json_object_del(c, "counts");
		if (json_object_get(fn, "offset")) { /* as the text says it */
			struct strbuf l = STRBUF_INIT;

			strbuf_addf(&l, "[unknown] in %s+0x%llx", td_json_str_or(fn, "dso", "?"),
				    (unsigned long long)json_integer_value(json_object_get(fn, "offset")));
			json_object_set_new(c, "label", json_string(l.buf));
			strbuf_release(&l);
		}
		json_array_append_new(out, c);
	}
	json_decref(seen);
	return out;
}

/*
 * The call paths with at least HTML_MIN_SHARE of the samples, re-indexed
 * (parents still before children).
 */
static json_t *page_callpaths(json_t *paths, double total)
{
	json_t *out = json_array(), *n;
	size_t i, nr = json_array_size(paths);
	long *index = xmalloc((nr + 1) * sizeof(long));

	json_array_foreach(paths, i, n) {
		long parent = (long)json_integer_value(json_object_get(n, "parent"));
		double share = (double)json_integer_value(json_object_get(n, "children_samples")) / total;
		json_t *c;

		index[i] = -1;
		if (i > 0 && (parent < 0 || (size_t)parent >= i || index[parent] < 0 || share < HTML_MIN_SHARE))
			continue;
		c = json_pack("{s:O, s:I, s:O, s:O, s:O, s:O}", "frame", json_object_get(n, "frame"),
			      "parent", (json_int_t)(i ? index[parent] : -1),
			      "samples", json_object_get(n, "samples"),
			      "children_samples", json_object_get(n, "children_samples"),
			      "percent", json_object_get(n, "percent"),
			      "children_percent", json_object_get(n, "children_percent"));
		index[i] = (long)json_array_size(out);
		json_array_append_new(out, c);
	}
	free(index);
	return out;
}

/* JSON for a script element: '<' as \u003c so nothing can close it. */
static void add_script_json(struct strbuf *sb, json_t *data)
{
	char *s = json_dumps(data, JSON_COMPACT | JSON_ENSURE_ASCII), *p;

	for (p = s; p && *p; p++) {
		if (*p == '<')
			strbuf_addstr(sb, "\\u003c");
		else
			strbuf_addch(sb, *p);
	}
	free(s);
}

int td_hotspots_render_html(json_t *doc, const char *path, struct strbuf *err)
{
	json_t *prof = json_object_get(doc, "profile"), *data = json_object(), *p = json_object();
	json_t *legend = json_array();
	struct strbuf sb = STRBUF_INIT;
	struct td_template *t = td_template_new();
	double total = td_json_num(json_object_get(prof, "samples"));
	const char *note = td_json_str(prof, "topdown_note");
	int ret;

	json_object_set_new(data, "hotspots", page_functions(doc, legend));
	json_object_set(p, "source", json_object_get(prof, "source"));
	json_object_set(p, "event", json_object_get(prof, "event"));
	json_object_set(p, "samples", json_object_get(prof, "samples"));
	json_object_set(p, "callchains", json_object_get(prof, "callchains"));
	json_object_set(p, "frames", json_object_get(prof, "frames"));
	json_object_set_new(p, "callpaths", page_callpaths(json_object_get(prof, "callpaths"), total > 0 ? total : 1));
	json_object_set_new(data, "profile", p);
	json_object_set_new(data, "legend", legend);
	if (note || !json_object_get(prof, "group"))
		json_object_set_new(data, "note", json_string(note ? note : "Frames are coloured by where the code "
			"lives: Top-Down per function needs hardware counters (a leader-sampled group)."));
	else
		json_object_set_new(data, "note", json_string("Frames are coloured by their function's Top-Down "
			"Level 1 bottleneck (legend); functions without enough samples by where the code lives."));
	strbuf_addstr(&sb, "<script id=\"data\" type=\"application/json\">");
	add_script_json(&sb, data);
	strbuf_addstr(&sb, "</script>\n");
	td_template_set_html(t, "data", sb.buf);
	td_template_set_html(t, "script", page_script);
	/* the page runs its own script, and nothing else */
	td_template_set_html(t, "head_meta", "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
			     "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "Hotspots: ");
	strbuf_addstr(&sb, td_json_str_or(prof, "source", "samples"));
	td_template_set_text(t, "title", sb.buf);
	td_template_set_text(t, "footer", "Generated by tdperf " PACKAGE_VERSION " from a hotspots document. One "
			     "self-contained file: its one script draws the flame graph; nothing is loaded from the network.");
	ret = td_template_write(t, "hotspots.html", path, err);
	td_template_free(t);
	strbuf_release(&sb);
	json_decref(data);
	return ret;
}

/* A bar chart of the top functions' self share (gnuplot, report/plot.c). */
int td_hotspots_plot(json_t *doc, const char *dir, const char *format, int top, struct strbuf *err)
{
	struct td_chart *c = td_chart_new("hotspots", "Top functions: self % of samples", TD_CHART_SIGNED);
	struct td_chart_list list = { 0 };
	json_t *fn;
	size_t i;
	int ret;

	c->ylabel = xstrdup("% of samples");
	c->ymin = 0;
	c->ymax = NAN;
	td_chart_add_series(c, "self", "self %", "#c04040");
	json_array_foreach(json_object_get(doc, "hotspots"), i, fn) {
		struct td_chart_row *row;

		if ((int)i >= top)
			break;
		row = td_chart_add_row(c, td_json_str_or(fn, "symbol", "?"));
		row->values[0] = td_json_num(json_object_get(fn, "percent"));
		row->colour = json_object_get(fn, "kernel") ? "#e08030" : "#c04040";
	}
	td_chart_list_add(&list, c);
	ret = td_charts_plot(&list, dir, format, err);
	if (ret > 0) { /* no gnuplot: the data and script are there */
		warning("%s", err->buf);
		strbuf_reset(err);
		ret = 0;
	}
	td_chart_list_release(&list);
	return ret;
}
