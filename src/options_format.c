/*
 * The output formats by name (-f) and by a file's extension (-o): one
 * table of names for both, and "did you mean" for a name it lacks.
 */
#include "options.h"

#include <string.h>
#include <strings.h>

#include "options_private.h"

static const char *const format_names[] = {
        [FORMAT_SVG] = "svg",
        [FORMAT_PNG] = "png",
        [FORMAT_PDF] = "pdf",
        [FORMAT_JSON] = "json",
        [FORMAT_FOLDED] = "folded",
        [FORMAT_MD] = "md",
        [FORMAT_TEXT] = "text",
};

const char *
options_format_name(enum format f)
{
	return format_names[f];
}

static bool
format_from_name(const char *name, enum format *f)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (strcmp(name, format_names[i]) == 0) {
			*f = (enum format)i;
			return true;
		}
	}
	if (strcmp(name, "markdown") == 0) {
		*f = FORMAT_MD;
		return true;
	}
	return false;
}

/* Every name --format takes, for "did you mean". */
static const char *const format_list[] = {
        "svg", "png", "pdf", "json", "folded", "md", "text", "markdown", NULL};

bool
options_parse_format(const char *arg, enum format *f, struct diag *err)
{
	return format_from_name(arg, f) ||
	       options_unknown_value(err, "--format: unknown format", arg, format_list);
}

/* "/dev/fd/" and the like followed by a number alone. */
static bool
is_numbered(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && path[n] >= '0' && path[n] <= '9' &&
	       path[n + strspn(path + n, "0123456789")] == '\0';
}

/* A descriptor has no extension: its format is standard output's, SVG
 * (-o /dev/stdout -o archive.json, as formats.md shows). */
static bool
is_descriptor(const char *path)
{
	return strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/stderr") == 0 ||
	       is_numbered(path, "/dev/fd/") || is_numbered(path, "/proc/self/fd/");
}

bool
options_format_from_path(const char *path, enum format *f)
{
	static const struct {
		const char *ext;
		enum format format;
	} exts[] = {
	        {".svg", FORMAT_SVG},
	        {".png", FORMAT_PNG},
	        {".pdf", FORMAT_PDF},
	        {".json", FORMAT_JSON},
	        {".folded", FORMAT_FOLDED},
	        {".md", FORMAT_MD},
	        {".markdown", FORMAT_MD},
	        {".txt", FORMAT_TEXT},
	};
	if (is_descriptor(path)) {
		*f = FORMAT_SVG;
		return true;
	}
	size_t len = strlen(path);
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		size_t n = strlen(exts[i].ext);
		/* Case-blind: out.SVG and out.Png are what out.svg and out.png are. */
		if (len > n && strcasecmp(path + len - n, exts[i].ext) == 0) {
			*f = exts[i].format;
			return true;
		}
	}
	return false;
}
