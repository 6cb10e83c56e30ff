/*
 * A very small template expander for the HTML report (the scheme is
 * documented in docs/html-templates.md):
 *
 *   {{name}}            the slot's value, inserted as is (slots hold HTML;
 *                       text slots were escaped when they were set)
 *   {{?name}}...{{/name}}  the enclosed part only when the slot is non-empty
 *   {{>file}}           another file of templates/, expanded in place
 *   {{!comment}}        nothing
 *
 * A slot the template names but the renderer never set is an error naming
 * the template file and line, so a typo cannot silently drop a section.
 */
#include "config.h"
#include "report/render.h"
#include "report/html.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

struct slot {
	char *name, *value;
};

struct td_template {
	struct slot *slots;
	size_t nr, alloc;
};

struct td_template *td_template_new(void)
{
	struct td_template *t = xcalloc(1, sizeof(struct td_template));

	/* every page's head (templates/page-head.html) names its maker */
	td_template_set_text(t, "generator", "tdperf " PACKAGE_VERSION);
	td_template_set_html(t, "head_meta", ""); /* a page's own meta elements (the hotspots page's CSP) */
	return t;
}

static struct slot *find_slot(struct td_template *t, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (strlen(t->slots[i].name) == len && !memcmp(t->slots[i].name, name, len))
			return &t->slots[i];
	return NULL;
}

void td_template_set_html(struct td_template *t, const char *name, const char *html)
{
	struct slot *s = find_slot(t, name, strlen(name));

	if (!s) {
		TD_GROW(t->slots, t->alloc, t->nr + 1);
		s = &t->slots[t->nr++];
		s->name = xstrdup(name);
	} else {
		free(s->value);
	}
	s->value = xstrdup(html ? html : "");
}

void td_template_set_text(struct td_template *t, const char *name, const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_html(&sb, text ? text : "");
	td_template_set_html(t, name, sb.buf);
	strbuf_release(&sb);
}

void td_template_free(struct td_template *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr; i++) {
		free(t->slots[i].name);
		free(t->slots[i].value);
	}
	free(t->slots);
	free(t);
}

static int line_of(const char *text, const char *at)
{
	int line = 1;

	for (; text < at; text++)
		if (*text == '\n')
			line++;
	return line;
}

static int valid_file_name(const char *name, size_t len)
{
	size_t i;

	if (!len || name[0] == '.')
		return 0;
	for (i = 0; i < len; i++)
		if (!(isalnum((unsigned char)name[i]) || name[i] == '-' || name[i] == '_' || name[i] == '.'))
			return 0;
	return 1;
}

static int expand_file(struct td_template *t, const char *name, struct strbuf *out, struct strbuf *err,
		       int depth);

/*
 * Expand text[0..len) (from template file 'file') into out.  'whole' is
 * the whole file's text, for line numbers.
 */
static int expand(struct td_template *t, const char *file, const char *whole, const char *text,
		  size_t len, struct strbuf *out, struct strbuf *err, int depth)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *open = memmem(p, end - p, "{{", 2), *close, *tag;
		size_t tlen;

		if (!open) {
			strbuf_add(out, p, end - p);
			break;
		}
		strbuf_add(out, p, open - p);
		tag = open + 2;
		close = memmem(tag, end - tag, "}}", 2);
		if (!close) {
			strbuf_addf(err, "templates/%s:%d: '{{' without '}}'", file, line_of(whole, open));
			return -1;
		}
		tlen = close - tag;
		p = close + 2;
		if (*tag == '!')
			continue;
		if (*tag == '>') {
			char *name = xstrndup(tag + 1, tlen - 1);
			int r;

			if (!valid_file_name(name, tlen - 1)) {
				strbuf_addf(err, "templates/%s:%d: bad template name '%s'", file,
					    line_of(whole, open), name);
				free(name);
				return -1;
			}
			r = expand_file(t, name, out, err, depth + 1);
			free(name);
			if (r < 0)
				return -1;
			continue;
		}
		if (*tag == '?') {
			struct slot *s = find_slot(t, tag + 1, tlen - 1);
			struct strbuf want = STRBUF_INIT;
			const char *inner = p, *stop;

			strbuf_addstr(&want, "{{/");
			strbuf_add(&want, tag + 1, tlen - 1);
			strbuf_addstr(&want, "}}");
			stop = memmem(inner, end - inner, want.buf, want.len);
			if (!stop) {
				strbuf_addf(err, "templates/%s:%d: %s without %s", file, line_of(whole, open),
					    "{{?...}}", want.buf);
				strbuf_release(&want);
				return -1;
			}
			p = stop + want.len;
			strbuf_release(&want);
			if (!s) {
				strbuf_addf(err, "templates/%s:%d: slot '%.*s' is not set", file,
					    line_of(whole, open), (int)(tlen - 1), tag + 1);
				return -1;
			}
			if (*s->value && expand(t, file, whole, inner, stop - inner, out, err, depth) < 0)
				return -1;
			continue;
		}
		if (*tag == '/') {
			strbuf_addf(err, "templates/%s:%d: '{{%.*s}}' closes nothing", file,
				    line_of(whole, open), (int)tlen, tag);
			return -1;
		}
		{
			struct slot *s = find_slot(t, tag, tlen);

			if (!s) {
				strbuf_addf(err, "templates/%s:%d: slot '%.*s' is not set", file,
					    line_of(whole, open), (int)tlen, tag);
				return -1;
			}
			strbuf_addstr(out, s->value);
		}
	}
	return 0;
}

static int expand_file(struct td_template *t, const char *name, struct strbuf *out, struct strbuf *err,
		       int depth)
{
	struct strbuf text = STRBUF_INIT, rel = STRBUF_INIT;
	char *path;
	int ret;

	if (depth > 8) {
		strbuf_addf(err, "templates/%s: includes nested too deeply", name);
		return -1;
	}
	strbuf_addf(&rel, "templates/%s", name);
	path = td_data_path(rel.buf);
	if (td_read_file(&text, path) < 0) {
		strbuf_addf(err, "%s: cannot read template: %s (set TDPERF_DATADIR?)", path, strerror(errno));
		ret = -1;
	} else {
		ret = expand(t, name, text.buf, text.buf, text.len, out, err, depth);
	}
	free(path);
	strbuf_release(&rel);
	strbuf_release(&text);
	return ret;
}

int td_template_expand(struct td_template *t, const char *name, struct strbuf *out, struct strbuf *err)
{
	return expand_file(t, name, out, err, 0);
}

int td_template_write(struct td_template *t, const char *name, const char *path, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	int ret = td_template_expand(t, name, &out, err);

	if (!ret && td_write_file_atomic(path, out.buf, out.len) < 0) {
		strbuf_addf(err, "%s: cannot write: %s", path, strerror(errno));
		ret = -1;
	}
	strbuf_release(&out);
	return ret;
}
