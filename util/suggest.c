/*
 * "Did you mean": the closest of a list of names to a word the user
 * mistyped, as git suggests a command for "git comit".  The distance is
 * the optimal string alignment distance (Levenshtein's insertions,
 * deletions and substitutions, plus swapping two neighbouring letters,
 * the commonest typo: "recrod", "levle"), each costing one.
 */
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

size_t td_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *prev2 = xcalloc(lb + 1, sizeof(size_t));
	size_t *prev = xcalloc(lb + 1, sizeof(size_t));
	size_t *cur = xcalloc(lb + 1, sizeof(size_t));
	size_t d;

	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		size_t *t;

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

			d = sub < del ? sub : del;
			d = ins < d ? ins : d;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[lb];
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

/*
 * Near enough to be the word meant: a third of the word's letters wrong
 * at most (one for short words), so that "fo" suggests nothing.
 */
static size_t near_enough(const char *word)
{
	size_t n = strlen(word) / 3;

	return n ? n : 1;
}

void td_suggest_init(struct td_suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	s->what = NULL;
	s->distance = near_enough(word) + 1;
	s->ties = 0;
}

void td_suggest_offer(struct td_suggest *s, const char *name, const void *what)
{
	size_t d;

	if (!name || !*name)
		return;
	d = td_edit_distance(s->word, name);
	if (d < s->distance) {
		s->best = name;
		s->what = what;
		s->distance = d;
		s->ties = 0;
	} else if (d == s->distance && s->best && s->what != what) {
		s->ties++;
	}
}

const char *td_suggest_result(const struct td_suggest *s)
{
	return s->ties ? NULL : s->best;
}
