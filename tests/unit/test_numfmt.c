/* numfmt: thousands separators and percentages, report and caption rules. */
#include "numfmt.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Checks one formatted value; the brackets catch stray bytes at either end. */
static void
check(struct buf *b, const char *want)
{
	struct buf w;
	buf_init(&w);
	buf_printf(&w, "<%s>", want);
	buf_addc(b, '>');
	assert_string_equal(b->data, w.data);
	buf_finish(&w);
	buf_reset(b);
	buf_addc(b, '<');
}

static void
test_caption_numbers(void **state)
{
	(void)state;
	static const struct {
		double v;
		const char *want;
	} cases[] = {
	        {0, "0"},
	        {7, "7"},
	        {999, "999"},
	        {1000, "1,000"},
	        {150000, "150,000"},
	        {119000, "119,000"},
	        {1234567, "1,234,567"},
	        {1234567.5, "1,234,567.5"},
	        {12.34567, "12.346"},
	        {0.1, "0.1"},
	        {0.0004, "0"},
	        {-1234.25, "-1,234.25"},
	        {100000, "100,000"},
	        {18446744073709551615.0, "18,446,744,073,709,551,616"},
	};
	struct buf b;
	buf_init(&b);
	buf_addc(&b, '<');
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		numfmt_caption_number(&b, cases[i].v);
		check(&b, cases[i].want);
	}
	buf_finish(&b);
}

/* One wording for a change (issue 18): signed, "new" and "removed" as words. */
static void
test_change_words(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_addc(&b, '<');
	numfmt_change_percent(&b, 420, 910);
	check(&b, "+116.7%");
	numfmt_change_percent(&b, 500, 190);
	check(&b, "-62.0%");
	numfmt_change_percent(&b, 0, 390);
	check(&b, "new");
	numfmt_change_percent(&b, 520, 0);
	check(&b, "removed");
	numfmt_change_percent(&b, 5, 5);
	check(&b, "0.0%");
	numfmt_label_change(&b, 100, 187);
	check(&b, "+87%");
	numfmt_label_change(&b, 1000, 1062);
	check(&b, "+6.2%");
	/* Half away from zero, as the script's Math.round of |x|. */
	numfmt_label_change(&b, 1000, 1125);
	check(&b, "+13%");
	numfmt_label_change(&b, 1000, 875);
	check(&b, "-13%");
	numfmt_label_change(&b, 1000, 999.5);
	check(&b, "-0.1%");
	numfmt_label_change(&b, 0, 3);
	check(&b, "new");
	numfmt_label_change(&b, 3, 0);
	check(&b, "removed");
	numfmt_points(&b, 490, 7980);
	check(&b, "+6.14 pp");
	numfmt_points(&b, -10, 1000);
	check(&b, "-1.00 pp");
	buf_finish(&b);
}

static void
test_report_numbers(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_addc(&b, '<');
	numfmt_report_number(&b, 1234567.456, 2, true, false);
	check(&b, "1,234,567.46");
	numfmt_report_number(&b, 1000.5, 2, true, true);
	check(&b, "+1,000.5");
	numfmt_report_number(&b, 100, 2, false, false);
	check(&b, "100.00");
	numfmt_report_number(&b, -999, 2, true, true);
	check(&b, "-999");
	/* Zero after rounding has no sign. */
	numfmt_report_number(&b, -0.001, 2, true, true);
	check(&b, "0");
	numfmt_report_number(&b, NAN, 2, true, false);
	check(&b, "n/a");
	numfmt_report_number(&b, INFINITY, 2, true, false);
	check(&b, "n/a");
	buf_finish(&b);
}

static void
test_report_percent(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_addc(&b, '<');
	numfmt_percent(&b, 26.05, true);
	check(&b, "+26.1%");
	numfmt_percent(&b, 0.05, true);
	check(&b, "+0.05%");
	numfmt_percent(&b, -1234.5, true);
	check(&b, "-1,234.5%");
	numfmt_percent(&b, 0, true);
	check(&b, "0.0%");
	buf_finish(&b);
}

static void
test_counts(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b);
	buf_addc(&b, '<');
	numfmt_count(&b, (struct count){UINT64_MAX, 0}, 2, false, false);
	check(&b, "18,446,744,073,709,551,615");
	numfmt_count(&b, (struct count){9007199254740993u, 0}, 2, true, true);
	check(&b, "-9,007,199,254,740,993");
	numfmt_count(&b, (struct count){1234, 500000000}, 2, false, true);
	check(&b, "+1,234.5");
	numfmt_count(&b, (struct count){0, 125000000}, 2, false, false);
	check(&b, "0.13"); /* half up, in decimal */
	numfmt_count(&b, (struct count){999, 996000000}, 2, false, false);
	check(&b, "1,000"); /* the carry reaches the units */
	numfmt_count(&b, (struct count){0, 4000000}, 2, true, true);
	check(&b, "0"); /* zero after rounding has no sign */
	numfmt_count(&b, (struct count){0, 0}, 2, false, true);
	check(&b, "0");
	numfmt_count(&b, (struct count){12, 345678901}, 3, false, false);
	check(&b, "12.346");
	numfmt_count(&b, (struct count){12, 345678901}, 9, false, false);
	check(&b, "12.345678901");
	numfmt_count(&b, (struct count){UINT64_MAX, 999999999}, 0, false, false);
	check(&b, "18,446,744,073,709,551,616"); /* only a rounding carry goes past */
	buf_finish(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_caption_numbers),
	        cmocka_unit_test(test_change_words),
	        cmocka_unit_test(test_report_numbers),
	        cmocka_unit_test(test_report_percent),
	        cmocka_unit_test(test_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
