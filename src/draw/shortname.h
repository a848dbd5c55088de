/*
 * shortname: a function's name as the picture writes it where room is
 * short (the header's rows, the frame labels): template arguments and
 * parameter lists folded to "<…>" and "(…)", so
 * "parser_binder<std::vector<int>, Alloc>::invoke(char const*)" reads
 * "parser_binder<…>::invoke(…)". Hover titles and the reports keep the
 * full name. Operators ("operator<<", "operator()") and a component that
 * starts with "<" or "(" ("<T as Trait>::f", "(anonymous namespace)")
 * are kept: folding them would lose the only words they have.
 */
#ifndef DIFFFOLD_SHORTNAME_H
#define DIFFFOLD_SHORTNAME_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

/*
 * Appends the short form of name[0..len) to out; returns whether it
 * differs from the name (false: the name was appended as it is).
 * Unbalanced brackets end the folding where they stop matching, so any
 * bytes give a result no longer than the name.
 */
bool shortname_append(const char *name, size_t len, struct buf *out);

#endif
