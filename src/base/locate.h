/*
 * locate: a file difffold ships beside its binary (the font configuration,
 * the PNG/PDF drawing module), found the same way for each, so that a
 * relocated installation uses its own files: the build tree's copy when the
 * binary runs from the build tree; the installed copy relative to the
 * binary (a moved prefix, a DESTDIR bundle); the one at the configured
 * prefix; the build tree's copy again (a binary copied elsewhere).
 */
#ifndef DIFFFOLD_LOCATE_H
#define DIFFFOLD_LOCATE_H

/*
 * build: the build tree's copy; relative: the installed copy's path from
 * the binary's folder ("" when bindir or libdir is absolute); installed:
 * its path at the configured prefix. Returns an owned path of the first
 * readable one, or NULL.
 */
char *locate_file(const char *build, const char *relative, const char *installed);

#endif
