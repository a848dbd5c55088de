#include "color.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "hash.h"

/*
 * The ramps of the four changed classes, palest step first, and the grey
 * of unchanged frames. Found by a search over CIELAB lightness, chroma and
 * a hue range per class (warm for slower, blue for faster, purple for new,
 * teal for removed) for the largest distance between classes as seen with
 * normal vision and simulated protanopia, deuteranopia and tritanopia
 * (Machado et al. 2009); tests/unit/test_color.c holds the palette to it. Blue
 * and purple collapse for red-green colour-blind readers unless their
 * lightness differs, so at each step "new" and "faster" differ in
 * lightness; each palest step stays close to grey in lightness and chroma.
 */
struct palette {
	struct rgb ramp[4][COLOR_STEPS]; /* slower, faster, new, removed */
	struct rgb same;
};

static const struct palette light = {
        .ramp =
                {
                        {{0xff, 0xca, 0xa6}, {0xf0, 0x8e, 0x57}, {0xeb, 0x70, 0x2b},
                                {0xee, 0x37, 0x19}},
                        {{0xae, 0xd4, 0xff}, {0x72, 0xc8, 0xf4}, {0x83, 0xa4, 0xe6},
                                {0x47, 0x7b, 0xfc}},
                        {{0xab, 0x93, 0xb4}, {0xb1, 0x38, 0x97}, {0x6f, 0x2f, 0xa8},
                                {0x27, 0x01, 0x94}},
                        {{0x7d, 0x9e, 0x84}, {0x4f, 0x8e, 0x79}, {0x0c, 0x76, 0x69},
                                {0x0a, 0x52, 0x29}},
                },
        .same = {0xe0, 0xe0, 0xe0},
};

static const struct palette dark = {
        .ramp =
                {
                        {{0x59, 0x3c, 0x27}, {0x82, 0x4e, 0x27}, {0xa8, 0x5d, 0x2c},
                                {0xdb, 0x81, 0x3c}},
                        {{0x23, 0x47, 0x6f}, {0x1c, 0x57, 0x93}, {0x37, 0x63, 0xb3},
                                {0x5c, 0x78, 0xdc}},
                        {{0x87, 0x70, 0x8f}, {0xb8, 0x7f, 0x9d}, {0xcc, 0x97, 0xcc},
                                {0xcf, 0xaf, 0xfa}},
                        {{0x60, 0x7b, 0x66}, {0x48, 0x99, 0x64}, {0x48, 0xbc, 0x85},
                                {0x51, 0xdd, 0xa4}},
                },
        .same = {0x4a, 0x4a, 0x50},
};

static const struct rgb black = {0, 0, 0};
static const struct rgb white = {0xff, 0xff, 0xff};
static const struct rgb separator_grey = {0xa0, 0xa0, 0xa0};
static const struct rgb dark_single_base = {0x30, 0x30, 0x36};

static uint8_t
mix_channel(uint8_t a, uint8_t b, double t)
{
	double v = a + (b - a) * t;
	return (uint8_t)lround(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* a at t = 0, b at t = 1, in sRGB space. */
static struct rgb
mix(struct rgb a, struct rgb b, double t)
{
	return (struct rgb){
	        mix_channel(a.r, b.r, t), mix_channel(a.g, b.g, t), mix_channel(a.b, b.b, t)};
}

int
color_step(double intensity)
{
	if (!(intensity > 0)) {
		return 1; /* also catches NaN */
	}
	if (intensity >= 1) {
		return COLOR_STEPS;
	}
	int step = (int)ceil(sqrt(intensity) * COLOR_STEPS);
	return step < 1 ? 1 : step > COLOR_STEPS ? COLOR_STEPS : step;
}

struct rgb
color_diff_step(enum node_status status, int step, enum theme theme)
{
	const struct palette *p = theme == THEME_DARK ? &dark : &light;
	int ramp;
	switch (status) {
	case STATUS_SLOWER:
		ramp = 0;
		break;
	case STATUS_FASTER:
		ramp = 1;
		break;
	case STATUS_NEW:
		ramp = 2;
		break;
	case STATUS_REMOVED:
		ramp = 3;
		break;
	case STATUS_SAME:
	default:
		return p->same;
	}
	step = step < 1 ? 1 : step > COLOR_STEPS ? COLOR_STEPS : step;
	return p->ramp[ramp][step - 1];
}

struct rgb
color_diff(enum node_status status, double intensity, enum theme theme)
{
	return color_diff_step(status, color_step(intensity), theme);
}

/* Three independent fractions in [0, 1) from the name's hash. */
static void
name_fractions(const char *name, size_t len, double v[3])
{
	uint64_t h = hash_stable(name, len);
	for (int i = 0; i < 3; i++) {
		v[i] = (double)((h >> (i * 21)) & 0x1fffff) / (double)0x200000;
	}
}

static bool
contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++) {
		if (memcmp(s + i, needle, n) == 0) {
			return true;
		}
	}
	return false;
}

static bool
starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

static uint8_t
span(double base, double range, double v)
{
	return (uint8_t)lround(base + range * v);
}

/* The hue families the classic palettes are made of. */
enum family {
	FAM_RED,
	FAM_ORANGE,
	FAM_YELLOW,
	FAM_GREEN,
	FAM_AQUA,
	FAM_BLUE,
	FAM_PURPLE,
	FAM_HOT,
	FAM_MEM,
	FAM_IO,
	FAM_LANGUAGE, /* a language palette: the family follows the name */
};

static struct rgb
family_color(enum family f, const double v[3])
{
	switch (f) {
	case FAM_RED:
		return (struct rgb){span(200, 55, v[0]), span(50, 80, v[1]), span(50, 80, v[1])};
	case FAM_ORANGE:
		return (struct rgb){span(190, 65, v[0]), span(90, 65, v[1]), 0};
	case FAM_YELLOW:
		return (struct rgb){span(175, 55, v[0]), span(175, 55, v[0]), span(50, 20, v[1])};
	case FAM_GREEN:
		return (struct rgb){span(50, 60, v[0]), span(200, 55, v[0]), span(50, 60, v[1])};
	case FAM_AQUA:
		return (struct rgb){span(50, 60, v[0]), span(165, 55, v[0]), span(165, 55, v[0])};
	case FAM_BLUE:
		return (struct rgb){span(80, 60, v[0]), span(80, 60, v[0]), span(190, 55, v[1])};
	case FAM_PURPLE:
		return (struct rgb){span(190, 65, v[0]), span(60, 50, v[1]), span(190, 65, v[0])};
	case FAM_HOT:
		/* Red through orange to yellow, weighted to the warm end. */
		return (struct rgb){span(205, 50, v[0]), span(0, 230, v[1]), span(0, 55, v[2])};
	case FAM_MEM:
		return (struct rgb){0, span(190, 50, v[0]), span(0, 120, v[1])};
	case FAM_IO:
		return (struct rgb){span(80, 60, v[0]), span(80, 60, v[0]), span(190, 55, v[1])};
	case FAM_LANGUAGE:
		break; /* resolved to a hue family before */
	}
	return separator_grey;
}

static bool
rust_std(const char *s, size_t len)
{
	while (len > 0 && (*s == '<' || *s == '&')) {
		s++;
		len--;
	}
	return starts_with(s, len, "core::") || starts_with(s, len, "std::") ||
	       starts_with(s, len, "alloc::");
}

/* Which family a frame of a language palette belongs to. */
static enum family
language_family(const char *p, const char *s, size_t len, enum annotation a)
{
	bool scoped = contains(s, len, "::");
	if (strcmp(p, "perl") == 0) {
		return scoped ? FAM_GREEN : FAM_RED;
	}
	if (strcmp(p, "rust") == 0) {
		return rust_std(s, len) ? FAM_ORANGE : scoped ? FAM_YELLOW : FAM_RED;
	}
	if (strcmp(p, "python") == 0) {
		return contains(s, len, ".py") ? FAM_BLUE : FAM_GREEN;
	}
	/* java and js share perf's annotations. */
	if (a == ANNOTATION_JIT) {
		return FAM_GREEN;
	}
	if (a == ANNOTATION_INLINED) {
		return FAM_AQUA;
	}
	if (a == ANNOTATION_KERNEL) {
		return FAM_ORANGE;
	}
	if (strcmp(p, "js") == 0 &&
	        (contains(s, len, ".js") || starts_with(s, len, "LazyCompile:"))) {
		return FAM_GREEN;
	}
	if (scoped || (strcmp(p, "js") == 0 && (starts_with(s, len, "Builtin:") ||
	                                               starts_with(s, len, "Builtins_")))) {
		return FAM_YELLOW;
	}
	return FAM_RED;
}

/* The one list of palette names: --palette accepts exactly these. */
const char *const color_palettes[] = {
        "hot",
        "mem",
        "io",
        "java",
        "js",
        "perl",
        "rust",
        "python",
        "red",
        "green",
        "blue",
        "aqua",
        "yellow",
        "purple",
        "orange",
        NULL,
};

/* The family of each palette of color_palettes, in the same order. */
static const enum family palette_families[] = {
        FAM_HOT,
        FAM_MEM,
        FAM_IO,
        FAM_LANGUAGE,
        FAM_LANGUAGE,
        FAM_LANGUAGE,
        FAM_LANGUAGE,
        FAM_LANGUAGE,
        FAM_RED,
        FAM_GREEN,
        FAM_BLUE,
        FAM_AQUA,
        FAM_YELLOW,
        FAM_PURPLE,
        FAM_ORANGE,
};
_Static_assert(sizeof(palette_families) / sizeof(palette_families[0]) + 1 ==
                       sizeof(color_palettes) / sizeof(color_palettes[0]),
        "a family for every palette name");

struct rgb
color_single(const char *palette, const char *name, size_t len, enum annotation a)
{
	if ((len == 1 && name[0] == '-') || (len == 2 && name[0] == '-' && name[1] == '-')) {
		return separator_grey;
	}
	double v[3];
	name_fractions(name, len, v);
	for (size_t i = 0; color_palettes[i]; i++) {
		if (strcmp(palette, color_palettes[i]) == 0) {
			enum family f = palette_families[i];
			return family_color(
			        f == FAM_LANGUAGE ? language_family(palette, name, len, a) : f, v);
		}
	}
	return family_color(FAM_HOT, v);
}

struct rgb
color_single_theme(
        const char *palette, const char *name, size_t len, enum annotation a, enum theme theme)
{
	struct rgb c = color_single(palette, name, len, a);
	if (theme != THEME_DARK) {
		return c;
	}
	/* Saturated warm colours glare on a dark page: take them 40 % of the
	 * way to a dark grey, keeping the hue and the order of lightness. */
	return mix(c, dark_single_base, 0.4);
}

static double
linear(uint8_t c)
{
	double v = c / 255.0;
	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double
luminance(struct rgb c)
{
	return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
}

double
color_contrast(struct rgb a, struct rgb b)
{
	double la = luminance(a), lb = luminance(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

struct rgb
color_label(struct rgb fill)
{
	/* Black or white: one of them always reaches 4.58:1, whatever the fill. */
	return color_contrast(fill, black) >= color_contrast(fill, white) ? black : white;
}

struct rgb
color_background(enum theme theme)
{
	return theme == THEME_DARK ? (struct rgb){0x1b, 0x1b, 0x1f} : white;
}

struct rgb
color_foreground(enum theme theme)
{
	return theme == THEME_DARK ? (struct rgb){0xe6, 0xe6, 0xe6}
	                           : (struct rgb){0x1a, 0x1a, 0x1a};
}

void
color_hex(struct rgb c, char out[8])
{
	static const char digits[] = "0123456789abcdef";
	out[0] = '#';
	out[1] = digits[c.r >> 4];
	out[2] = digits[c.r & 15];
	out[3] = digits[c.g >> 4];
	out[4] = digits[c.g & 15];
	out[5] = digits[c.b >> 4];
	out[6] = digits[c.b & 15];
	out[7] = '\0';
}
