/* color: label contrast, colour-blind distinctness, palettes, hashing. */
#include "color.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

static const enum node_status classes[] = {
        STATUS_SLOWER, STATUS_FASTER, STATUS_NEW, STATUS_REMOVED, STATUS_SAME};
static const enum theme themes[] = {THEME_LIGHT, THEME_DARK};

static bool
same_rgb(struct rgb a, struct rgb b)
{
	return a.r == b.r && a.g == b.g && a.b == b.b;
}

static void
test_label_contrast(void **state)
{
	(void)state;
	for (size_t th = 0; th < 2; th++) {
		for (size_t c = 0; c < 5; c++) {
			for (int k = 1; k <= COLOR_STEPS; k++) {
				struct rgb fill = color_diff_step(classes[c], k, themes[th]);
				double ratio = color_contrast(fill, color_label(fill));
				if (ratio < 4.5) {
					fail_msg("class %d theme %zu step %d: contrast %.2f",
					        (int)classes[c], th, k, ratio);
				}
			}
		}
	}
	/* Any fill: one of black and white always reaches 4.5. */
	for (unsigned v = 0; v < 4096; v++) {
		struct rgb fill = {(uint8_t)((v >> 8) * 17), (uint8_t)((v >> 4 & 15) * 17),
		        (uint8_t)((v & 15) * 17)};
		assert_true(color_contrast(fill, color_label(fill)) >= 4.5);
	}
}

/* sRGB byte to linear light. */
static double
lin(uint8_t c)
{
	double v = c / 255.0;
	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double
lab_f(double t)
{
	return t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
}

/*
 * The colour as seen with a colour-vision deficiency, in CIELAB (D65).
 * The simulation is Machado, Oliveira and Fernandes, "A Physiologically-based
 * Model for Simulation of Color Vision Deficiency" (IEEE TVCG 2009): a 3x3
 * matrix on linear RGB, here their severity-1.0 matrices (dichromacy).
 */
static void
simulate_lab(struct rgb c, const double m[3][3], double lab[3])
{
	double in[3] = {lin(c.r), lin(c.g), lin(c.b)}, s[3];
	for (int i = 0; i < 3; i++) {
		s[i] = m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2];
		s[i] = s[i] < 0 ? 0 : s[i] > 1 ? 1 : s[i];
	}
	double x = 0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2];
	double y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
	double z = 0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2];
	double fx = lab_f(x / 0.95047), fy = lab_f(y), fz = lab_f(z / 1.08883);
	lab[0] = 116 * fy - 16;
	lab[1] = 500 * (fx - fy);
	lab[2] = 200 * (fy - fz);
}

static const double normal[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
static const double protanopia[3][3] = {{0.152286, 1.052583, -0.204868},
        {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}};
static const double deuteranopia[3][3] = {{0.367322, 0.860646, -0.227968},
        {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}};
static const double tritanopia[3][3] = {{1.255528, -0.076749, -0.178779},
        {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}};
static const double (*const visions[])[3] = {normal, protanopia, deuteranopia, tritanopia};
static const char *const vision_names[] = {"normal", "protanopia", "deuteranopia", "tritanopia"};
#define VISIONS 4
#define CHANGED 4 /* classes[0..3]; classes[4] is unchanged */

static double
delta_e(struct rgb a, struct rgb b, const double m[3][3])
{
	double la[3], lb[3];
	simulate_lab(a, m, la);
	simulate_lab(b, m, lb);
	return sqrt((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) +
	            (la[2] - lb[2]) * (la[2] - lb[2]));
}

/*
 * Distance in CIELAB (Delta E*ab, CIE 1976) that reads as a different colour
 * at a glance, not only side by side.
 */
#define MIN_DELTA_E 20.0

/* Smallest distance of step k of every class from the same step of every
 * other class, and of every step from unchanged grey. */
static double
min_equal_steps(enum theme theme, const double m[3][3])
{
	double worst = 1e9;
	struct rgb same = color_diff_step(STATUS_SAME, 1, theme);
	for (int k = 1; k <= COLOR_STEPS; k++) {
		for (size_t i = 0; i < CHANGED; i++) {
			struct rgb a = color_diff_step(classes[i], k, theme);
			worst = fmin(worst, delta_e(a, same, m));
			for (size_t j = i + 1; j < CHANGED; j++) {
				struct rgb b = color_diff_step(classes[j], k, theme);
				worst = fmin(worst, delta_e(a, b, m));
			}
		}
	}
	return worst;
}

/* Smallest distance of any step of a class from any step of another. */
static double
min_any_steps(enum theme theme, const double m[3][3])
{
	double worst = 1e9;
	for (size_t i = 0; i < CHANGED; i++) {
		for (size_t j = i + 1; j < CHANGED; j++) {
			for (int k = 1; k <= COLOR_STEPS; k++) {
				for (int q = 1; q <= COLOR_STEPS; q++) {
					worst = fmin(worst,
					        delta_e(color_diff_step(classes[i], k, theme),
					                color_diff_step(classes[j], q, theme), m));
				}
			}
		}
	}
	return worst;
}

/*
 * The whole palette, as the legend shows it, stays apart for normal vision
 * and simulated protanopia, deuteranopia and tritanopia, in both themes:
 * every step of each class against unchanged grey, and each step of a
 * class against the same step of every other class, at least MIN_DELTA_E.
 * Every step against every other class's every step (16 colours and grey
 * in what is nearly a plane for a dichromat) cannot also keep the ramps
 * ordered and the palest steps near grey, so that stronger rule is not
 * required; its minimum is printed with the others for docs/colours.md.
 */
static void
test_colour_blind_distinct(void **state)
{
	(void)state;
	bool ok = true;
	for (size_t th = 0; th < 2; th++) {
		for (size_t v = 0; v < VISIONS; v++) {
			double eq = min_equal_steps(themes[th], visions[v]);
			double any = min_any_steps(themes[th], visions[v]);
			print_message("%s theme, %s: min dE equal steps and vs grey %.1f, any "
			              "steps %.1f\n",
			        th ? "dark" : "light", vision_names[v], eq, any);
			ok = ok && eq >= MIN_DELTA_E;
		}
	}
	if (!ok) {
		fail_msg("some classes are less than %.0f apart (above)", MIN_DELTA_E);
	}
	/* The simulation itself separates red from green much less. */
	struct rgb red = {200, 60, 40}, green = {60, 160, 40};
	assert_true(delta_e(red, green, deuteranopia) < delta_e(red, green, normal) / 2);
	/* and tritanopia separates blue from green much less. */
	struct rgb blue = {40, 90, 220}, teal = {40, 170, 140};
	assert_true(delta_e(blue, teal, tritanopia) < delta_e(blue, teal, normal));
}

/* Frames stand out from the page in every class. */
static void
test_frames_visible_on_background(void **state)
{
	(void)state;
	for (size_t th = 0; th < 2; th++) {
		struct rgb bg = color_background(themes[th]);
		for (size_t c = 0; c < 5; c++) {
			struct rgb fill = color_diff(classes[c], 0, themes[th]);
			assert_true(delta_e(fill, bg, normal) >= 8);
		}
		struct rgb fg = color_foreground(themes[th]);
		assert_true(color_contrast(fg, bg) >= 7);
	}
}

/* The square-root scale: step k covers sqrt(intensity) in ((k-1)/4, k/4]. */
static void
test_steps(void **state)
{
	(void)state;
	assert_int_equal(COLOR_STEPS, 4);
	assert_int_equal(color_step(0), 1);
	assert_int_equal(color_step(-1), 1);
	assert_int_equal(color_step(NAN), 1);
	assert_int_equal(color_step(0.01), 1); /* sqrt 0.1 */
	assert_int_equal(color_step(1.0 / 16), 1);
	assert_int_equal(color_step(0.07), 2);
	assert_int_equal(color_step(0.25), 2);
	assert_int_equal(color_step(0.26), 3);
	assert_int_equal(color_step(0.5), 3);
	assert_int_equal(color_step(0.57), 4);
	assert_int_equal(color_step(1), 4);
	assert_int_equal(color_step(7), 4);
	for (size_t th = 0; th < 2; th++) {
		struct rgb same = color_diff_step(STATUS_SAME, 1, themes[th]);
		for (size_t c = 0; c < CHANGED; c++) {
			enum node_status s = classes[c];
			/* color_diff is the step of the intensity; steps clamp. */
			assert_true(same_rgb(color_diff(s, 0.3, themes[th]),
			        color_diff_step(s, color_step(0.3), themes[th])));
			assert_true(same_rgb(color_diff_step(s, 0, themes[th]),
			        color_diff_step(s, 1, themes[th])));
			assert_true(same_rgb(color_diff_step(s, 9, themes[th]),
			        color_diff_step(s, COLOR_STEPS, themes[th])));
			/* A ramp: each step further from grey than the one before,
			 * and the palest the closest to grey of its class. */
			double prev = 0;
			for (int k = 1; k <= COLOR_STEPS; k++) {
				struct rgb fill = color_diff_step(s, k, themes[th]);
				double d = delta_e(fill, same, normal);
				assert_true(d > prev);
				prev = d;
				if (k > 1) {
					struct rgb before = color_diff_step(s, k - 1, themes[th]);
					assert_true(delta_e(fill, before, normal) >= 10);
				}
			}
		}
		/* Unchanged frames do not vary with intensity. */
		assert_true(same_rgb(color_diff(STATUS_SAME, 0, themes[th]),
		        color_diff(STATUS_SAME, 1, themes[th])));
	}
	assert_false(same_rgb(
	        color_diff(STATUS_SAME, 0, THEME_LIGHT), color_diff(STATUS_SAME, 0, THEME_DARK)));
}

/* Light theme: flamegraph.pl's colours exactly; dark: toned down, still visible. */
static void
test_single_dark(void **state)
{
	(void)state;
	char name[8];
	struct rgb bg = color_background(THEME_DARK);
	for (size_t p = 0; color_palettes[p]; p++) {
		for (int i = 0; i < 26; i++) {
			name[0] = 'f';
			name[1] = (char)('a' + i);
			name[2] = 0;
			struct rgb light =
			        color_single(color_palettes[p], name, 2, ANNOTATION_NONE);
			assert_true(same_rgb(light, color_single_theme(color_palettes[p], name, 2,
			                                    ANNOTATION_NONE, THEME_LIGHT)));
			struct rgb dark = color_single_theme(
			        color_palettes[p], name, 2, ANNOTATION_NONE, THEME_DARK);
			double lab_l[3], lab_d[3];
			simulate_lab(light, normal, lab_l);
			simulate_lab(dark, normal, lab_d);
			/* Darker and less saturated than the light theme's. */
			assert_true(lab_d[0] < lab_l[0] - 5);
			assert_true(hypot(lab_d[1], lab_d[2]) < hypot(lab_l[1], lab_l[2]));
			assert_true(delta_e(dark, bg, normal) >= 15);
			struct rgb label = color_label(dark);
			assert_true(color_contrast(dark, label) >= 4.5);
		}
	}
}

static struct rgb
single(const char *palette, const char *name, enum annotation a)
{
	return color_single(palette, name, strlen(name), a);
}

static void
test_single_hashing(void **state)
{
	(void)state;
	static const char *const palettes[] = {"hot", "mem", "io", "java", "js", "perl", "rust",
	        "python", "red", "green", "blue", "aqua", "yellow", "purple", "orange"};
	for (size_t p = 0; p < sizeof(palettes) / sizeof(palettes[0]); p++) {
		/* Same name, same colour; separators grey in every palette. */
		assert_true(same_rgb(single(palettes[p], "main", ANNOTATION_NONE),
		        single(palettes[p], "main", ANNOTATION_NONE)));
		struct rgb dash = single(palettes[p], "-", ANNOTATION_NONE);
		assert_true(same_rgb(dash, single(palettes[p], "--", ANNOTATION_NONE)));
		assert_true(dash.r == dash.g && dash.g == dash.b);
		assert_false(same_rgb(dash, single(palettes[p], "---", ANNOTATION_NONE)));
	}
	/* Different names spread over several colours. */
	size_t distinct = 0;
	struct rgb first = single("hot", "f0", ANNOTATION_NONE);
	for (int i = 1; i < 20; i++) {
		char name[8] = {'f', (char)('a' + i), 0};
		distinct += !same_rgb(first, single("hot", name, ANNOTATION_NONE));
	}
	assert_true(distinct >= 15);
	/* An unknown palette falls back to hot. */
	assert_true(same_rgb(
	        single("nope", "x", ANNOTATION_NONE), single("hot", "x", ANNOTATION_NONE)));
}

static void
assert_warm(struct rgb c)
{
	assert_true(c.r >= 200 && c.b <= 60 && c.g <= 235);
}

static bool
green_family(struct rgb c)
{
	return c.g > c.r + 40 && c.g > c.b + 40;
}

static bool
blue_family(struct rgb c)
{
	return c.b > c.r + 40 && c.b > c.g + 40;
}

static bool
aqua_family(struct rgb c)
{
	return c.g > c.r + 40 && c.b > c.r + 40;
}

static bool
yellow_family(struct rgb c)
{
	return c.r > c.b + 80 && c.g > c.b + 80 && abs(c.r - c.g) < 30;
}

static bool
orange_family(struct rgb c)
{
	return c.r > c.g + 30 && c.g > c.b + 60;
}

static bool
red_family(struct rgb c)
{
	return c.r > c.g + 60 && c.r > c.b + 60 && abs(c.g - c.b) < 30;
}

static void
test_palettes(void **state)
{
	(void)state;
	char name[16];
	for (int i = 0; i < 50; i++) {
		name[0] = 'n';
		name[1] = (char)('a' + i % 26);
		name[2] = (char)('a' + i / 26);
		name[3] = 0;
		assert_warm(single("hot", name, ANNOTATION_NONE));
		assert_true(green_family(single("mem", name, ANNOTATION_NONE)));
		assert_true(blue_family(single("io", name, ANNOTATION_NONE)));
		assert_true(red_family(single("red", name, ANNOTATION_NONE)));
		assert_true(green_family(single("green", name, ANNOTATION_NONE)));
		assert_true(blue_family(single("blue", name, ANNOTATION_NONE)));
		assert_true(aqua_family(single("aqua", name, ANNOTATION_NONE)));
		assert_true(yellow_family(single("yellow", name, ANNOTATION_NONE)));
		assert_true(orange_family(single("orange", name, ANNOTATION_NONE)));
		struct rgb p = single("purple", name, ANNOTATION_NONE);
		assert_true(p.r > p.g + 60 && p.b > p.g + 60);
	}
	assert_true(green_family(single("java", "Foo.bar", ANNOTATION_JIT)));
	assert_true(aqua_family(single("java", "Foo.baz", ANNOTATION_INLINED)));
	assert_true(orange_family(single("java", "do_sys_open", ANNOTATION_KERNEL)));
	assert_true(yellow_family(single("java", "JavaCalls::call", ANNOTATION_NONE)));
	assert_true(red_family(single("java", "memcpy", ANNOTATION_NONE)));
	assert_true(green_family(single("js", "LazyCompile:*run /app/x.js:3", ANNOTATION_NONE)));
	assert_true(green_family(single("js", "run", ANNOTATION_JIT)));
	assert_true(yellow_family(single("js", "Builtins_ArrayMap", ANNOTATION_NONE)));
	assert_true(yellow_family(single("js", "v8::internal::Foo", ANNOTATION_NONE)));
	assert_true(orange_family(single("js", "sys_write", ANNOTATION_KERNEL)));
	assert_true(red_family(single("js", "uv_run", ANNOTATION_NONE)));
	assert_true(green_family(single("perl", "Foo::bar", ANNOTATION_NONE)));
	assert_true(red_family(single("perl", "Perl_pp_entersub", ANNOTATION_NONE)));
	assert_true(orange_family(single("rust", "core::ptr::drop_in_place", ANNOTATION_NONE)));
	assert_true(orange_family(
	        single("rust", "<alloc::vec::Vec<T> as Drop>::drop", ANNOTATION_NONE)));
	assert_true(orange_family(single("rust", "std::rt::lang_start", ANNOTATION_NONE)));
	assert_true(yellow_family(single("rust", "myapp::parse", ANNOTATION_NONE)));
	assert_true(red_family(single("rust", "main", ANNOTATION_NONE)));
	assert_true(blue_family(single("python", "run (app/main.py:12)", ANNOTATION_NONE)));
	assert_true(green_family(single("python", "PyEval_EvalFrame", ANNOTATION_NONE)));
}

static void
test_hex_and_contrast(void **state)
{
	(void)state;
	char hex[8];
	color_hex((struct rgb){0x0a, 0xbc, 0xff}, hex);
	assert_string_equal(hex, "#0abcff");
	color_hex((struct rgb){0, 0, 0}, hex);
	assert_string_equal(hex, "#000000");
	struct rgb black = {0, 0, 0}, white = {255, 255, 255};
	assert_near(color_contrast(black, white), 21, 1e-9);
	assert_near(color_contrast(white, black), 21, 1e-9);
	assert_near(color_contrast(white, white), 1, 1e-9);
	/* #767676 on white is the classic 4.54:1. */
	assert_near(color_contrast((struct rgb){0x76, 0x76, 0x76}, white), 4.54, 0.01);
	assert_true(same_rgb(color_label(white), black));
	assert_true(same_rgb(color_label(black), white));
	assert_true(same_rgb(color_label((struct rgb){0x20, 0x20, 0x80}), white));
	assert_true(same_rgb(color_label((struct rgb){0xff, 0xd0, 0x40}), black));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_label_contrast),
	        cmocka_unit_test(test_colour_blind_distinct),
	        cmocka_unit_test(test_frames_visible_on_background),
	        cmocka_unit_test(test_steps),
	        cmocka_unit_test(test_single_dark),
	        cmocka_unit_test(test_single_hashing),
	        cmocka_unit_test(test_palettes),
	        cmocka_unit_test(test_hex_and_contrast),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
