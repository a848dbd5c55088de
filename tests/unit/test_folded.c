/* folded: the reader's line rules, diagnostics and file handling. */
#include "folded.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "helpers.h"

static const struct tree_options defaults = {.min_delta = 0.001};

struct result {
	bool ok;
	struct folded_stats st;
	struct diag err;
	char *dump; /* folded export after tree_finish, when ok */
};

static struct result
read_mem_len(const char *data, size_t len, enum folded_mode mode, bool strict)
{
	struct result r;
	memset(&r, 0, sizeof(r));
	struct tree *t = tree_create(&defaults);
	r.ok = fold_mem(t, "in.folded", data, len, mode, strict, &r.st, &r.err);
	if (r.ok) {
		tree_finish(t, mode == FOLDED_AUTO ? r.st.three_column : mode == FOLDED_BASE);
		r.dump = dump_tree(t);
	}
	tree_destroy(t);
	return r;
}

static struct result
read_mem(const char *data, enum folded_mode mode, bool strict)
{
	return read_mem_len(data, strlen(data), mode, strict);
}

static void
expect_ok(const char *in, enum folded_mode mode, const char *want)
{
	struct result r = read_mem(in, mode, false);
	if (!r.ok) {
		fail_msg("rejected: %s", r.err.msg);
	}
	assert_string_equal(r.dump, want);
	assert_int_equal(r.st.bad_lines, 0);
	free(r.dump);
}

static void
test_basic(void **state)
{
	(void)state;
	struct result r = read_mem("a;b 1\na;c 2\n", FOLDED_HEAD, false);
	assert_true(r.ok);
	assert_int_equal(r.st.lines, 2);
	assert_false(r.st.three_column);
	assert_string_equal(r.dump, "a;b 1\na;c 2\n");
	free(r.dump);
	/* No newline at the end of the last line. */
	expect_ok("a;b 1\na;c 2", FOLDED_HEAD, "a;b 1\na;c 2\n");
}

static void
test_skipped_silently(void **state)
{
	(void)state;
	expect_ok("\xEF\xBB\xBF"
	          "# a comment 12\n"
	          "\n"
	          "   \n"
	          "\t\n"
	          "a;b 1\r\n"
	          "#another\r\n"
	          "\r\n"
	          "a;c 2\r\n",
	        FOLDED_HEAD, "a;b 1\na;c 2\n");
	/* A BOM right before the stack of the first line. */
	expect_ok("\xEF\xBB\xBF"
	          "a 1\n",
	        FOLDED_HEAD, "a 1\n");
}

static void
test_separators(void **state)
{
	(void)state;
	/* The count follows the last run of spaces or tabs; the stack keeps
	 * its inner spaces. */
	expect_ok("a b;c d\t \t3\nx;y\t4  \n", FOLDED_HEAD, "a b;c d 3\nx;y 4\n");
	expect_ok("operator new(unsigned long);std::vector<int, std::allocator<int> >::push 7\n",
	        FOLDED_HEAD,
	        "operator new(unsigned long);std::vector<int, std::allocator<int> >::push 7\n");
}

static void
test_bad_lines(void **state)
{
	(void)state;
	struct result r = read_mem("a;b 1\n"
	                           "a;b\n"
	                           "a;c x12\n"
	                           "a;d -3\n"
	                           "a;e 2\n"
	                           "5\n"
	                           "a;f 1\n"
	                           "a;g 1\n",
	        FOLDED_BASE, false);
	assert_true(r.ok);
	assert_int_equal(r.st.lines, 4);
	assert_int_equal(r.st.bad_lines, 4);
	assert_int_equal(r.st.first_bad, 2);
	assert_string_equal(r.st.first_bad_reason, "no count");
	assert_string_equal(r.dump, "a;b 1 0\na;e 2 0\na;f 1 0\na;g 1 0\n");
	free(r.dump);

	static const struct {
		const char *in;
		uint64_t line;
		const char *reason;
	} cases[] = {
	        {"a 1\nb 1e3\n", 2, "count is not a number"},
	        {"a 1\n\nb -1\n", 3, "count is negative"},
	        {"#x\nb\na 1\n", 2, "no count"},
	        {"a 1\n 12\n", 2, "stack is empty"},
	        {"a 1\nb 99999999999999999999\n", 2, "count is larger than 2^64-1"},
	        {"a 1\nb nan\n", 2, "count is not a number"},
	        {"a 1\nb 0x10\n", 2, "count is not a number"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = read_mem(cases[i].in, FOLDED_HEAD, false);
		if (!r.ok) {
			fail_msg("case %zu: %s", i, r.err.msg);
		}
		assert_int_equal(r.st.bad_lines, 1);
		assert_int_equal(r.st.first_bad, cases[i].line);
		assert_string_equal(r.st.first_bad_reason, cases[i].reason);
		free(r.dump);
	}
}

static void
test_strict(void **state)
{
	(void)state;
	struct result r = read_mem("a 1\n# fine\nb 2\nc x\nd y\n", FOLDED_HEAD, true);
	assert_false(r.ok);
	assert_string_equal(r.err.msg, "in.folded:4: count is not a number");
	/* A clean input passes strict mode. */
	r = read_mem("a 1\n", FOLDED_HEAD, true);
	assert_true(r.ok);
	free(r.dump);
}

static void
test_no_valid_line(void **state)
{
	(void)state;
	struct result r = read_mem("", FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_string_equal(r.err.msg, "in.folded: no stack in the input (empty file?)");
	r = read_mem("# only\n\n\r\n", FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_string_equal(r.err.msg, "in.folded: no stack in the input (empty file?)");
	r = read_mem("a\nb c\n", FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_string_equal(r.err.msg, "in.folded: no valid line (every line was malformed)");
	assert_int_equal(r.st.bad_lines, 2);
}

static void
test_three_columns(void **state)
{
	(void)state;
	struct result r = read_mem("a;b 1 2\na;c 3 0\na;d 0 4.5\n", FOLDED_AUTO, false);
	assert_true(r.ok);
	assert_true(r.st.three_column);
	assert_string_equal(r.dump, "a;b 1 2\na;c 3 0\na;d 0 4.5\n");
	free(r.dump);
	/* Two columns in auto mode: one (head) profile. */
	r = read_mem("a;b 1\na;c 3\n", FOLDED_AUTO, false);
	assert_true(r.ok);
	assert_false(r.st.three_column);
	assert_string_equal(r.dump, "a;b 1\na;c 3\n");
	free(r.dump);
	/* Decided on the first line with a stack; later 2-column lines are bad. */
	r = read_mem("# header 1 2\n\na 1 2\nb 3\nc 4 5\n", FOLDED_AUTO, false);
	assert_true(r.ok);
	assert_true(r.st.three_column);
	assert_int_equal(r.st.bad_lines, 1);
	assert_int_equal(r.st.first_bad, 4);
	assert_string_equal(
	        r.st.first_bad_reason, "3-column input: base count is missing or not a number");
	assert_string_equal(r.dump, "a 1 2\nc 4 5\n");
	free(r.dump);
	/* "1 2" alone is a stack "1" with count 2, not an empty 3-column stack. */
	r = read_mem("1 2\nx 1 2\n", FOLDED_AUTO, false);
	assert_true(r.ok);
	assert_false(r.st.three_column);
	assert_string_equal(r.dump, "1 2\nx 1 2\n");
	free(r.dump);
	/* In base/head mode three columns are a stack with a space. Written
	 * back, a column mark keeps a single input from reading it as 3. */
	r = read_mem("a 1 2\n", FOLDED_HEAD, false);
	assert_true(r.ok);
	assert_string_equal(r.dump, "# difffold: 2 columns\na 1 2\n");
	free(r.dump);
}

/* Issue 21, item 15: a column mark before the first stack decides. */
static void
test_column_mark(void **state)
{
	(void)state;
	struct result r = read_mem("# difffold: 2 columns\na;b 7 3\nc 1\n", FOLDED_AUTO, false);
	assert_true(r.ok);
	assert_false(r.st.three_column);
	assert_int_equal(r.st.bad_lines, 0);
	assert_string_equal(r.dump, "# difffold: 2 columns\na;b 7 3\nc 1\n");
	free(r.dump);
	/* Comments and blank lines may come first; the mark still decides. */
	r = read_mem("# x\n\n# difffold: 3 columns\n\xEF\xBB\xBF"
	             "a 1 2\n",
	        FOLDED_AUTO, false);
	assert_true(r.ok);
	assert_true(r.st.three_column);
	assert_string_equal(r.dump, "# difffold: 3 columns\n\xEF\xBB\xBF"
	                            "a 1 2\n");
	free(r.dump);
	/* After the first stack it is an ordinary comment. */
	r = read_mem("a 1 2\n# difffold: 2 columns\nb 3 4\n", FOLDED_AUTO, false);
	assert_true(r.ok);
	assert_true(r.st.three_column);
	assert_string_equal(r.dump, "a 1 2\nb 3 4\n");
	free(r.dump);
	/* Only the exact line (CRLF and trailing blanks aside) is a mark. */
	r = read_mem("# difffold: 2 columns.\na 1 2\n", FOLDED_AUTO, false);
	assert_true(r.ok);
	assert_true(r.st.three_column);
	free(r.dump);
	r = read_mem("# difffold: 2 columns \r\na 1 2\r\n", FOLDED_AUTO, false);
	assert_true(r.ok);
	assert_false(r.st.three_column);
	free(r.dump);
	r = read_mem("# difffold: 3 columns\nb 3\n", FOLDED_HEAD, false);
	assert_true(r.ok);
	assert_string_equal(r.dump, "b 3\n");
	free(r.dump);
	assert_true(folded_stack_ends_in_count("a;b 7", 5));
	assert_true(folded_stack_ends_in_count("a;b\t1.5 ", 8));
	assert_false(folded_stack_ends_in_count("a;b 7x", 6));
	assert_false(folded_stack_ends_in_count("7", 1));
	assert_false(folded_stack_ends_in_count(" 7", 2));
	assert_false(folded_stack_ends_in_count("a;b 0x1", 7));
}

static void
test_line_cap(void **state)
{
	(void)state;
	size_t n = BOUND_LINE + 10;
	char *big = test_malloc(n + 20);
	memcpy(big, "ok 1\n", 5);
	memset(big + 5, 'x', n);
	memcpy(big + 5 + n, " 1\n", 3);
	struct result r = read_mem_len(big, n + 8, FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_string_equal(r.err.msg, "in.folded:2: line is longer than 16 MiB");
	/* Without the trailing newline too. */
	r = read_mem_len(big, n + 7, FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_string_equal(r.err.msg, "in.folded:2: line is longer than 16 MiB");
	/* A line just under the cap is fine. */
	memset(big, 'y', BOUND_LINE - 2);
	memcpy(big + BOUND_LINE - 2, " 1\n", 3);
	r = read_mem_len(big, BOUND_LINE + 1, FOLDED_HEAD, false);
	assert_true(r.ok);
	free(r.dump);
	test_free(big);
}

static struct result
read_path(const char *path, enum folded_mode mode, bool strict)
{
	struct result r;
	memset(&r, 0, sizeof(r));
	struct tree *t = tree_create(&defaults);
	r.ok = fold_file(t, path, mode, strict, &r.st, &r.err);
	if (r.ok) {
		tree_finish(t, mode == FOLDED_AUTO ? r.st.three_column : mode == FOLDED_BASE);
		r.dump = dump_tree(t);
	}
	tree_destroy(t);
	return r;
}

static void
test_file(void **state)
{
	(void)state;
	const char *text = "# c\nmain;a 1\r\nmain;b 2\nbroken\nmain;a 3\n";
	char *path = temp_file(".folded", text, strlen(text));
	struct result r = read_path(path, FOLDED_HEAD, false);
	assert_true(r.ok);
	assert_string_equal(r.dump, "main;a 4\nmain;b 2\n");
	assert_int_equal(r.st.bad_lines, 1);
	assert_int_equal(r.st.first_bad, 4);
	free(r.dump);
	r = read_path(path, FOLDED_HEAD, true);
	assert_false(r.ok);
	struct buf want;
	buf_init(&want);
	buf_printf(&want, "%s:4: no count", path);
	assert_string_equal(r.err.msg, want.data);
	buf_finish(&want);
	unlink(path);
	free(path);
}

/* A file larger than the reader's block, so lines cross block edges. */
static void
test_file_blocks(void **state)
{
	(void)state;
	struct buf in;
	buf_init(&in);
	for (unsigned i = 0; i < 120000; i++) {
		buf_printf(&in, "main;worker_%u;leaf_function_with_a_long_name %u\n", i % 97, 1);
	}
	char *path = temp_file(".folded", in.data, in.len);
	struct result r = read_path(path, FOLDED_HEAD, false);
	assert_true(r.ok);
	assert_int_equal(r.st.lines, 120000);
	assert_int_equal(r.st.bad_lines, 0);
	struct result m = read_mem_len(in.data, in.len, FOLDED_HEAD, false);
	assert_string_equal(r.dump, m.dump);
	free(r.dump);
	free(m.dump);
	unlink(path);
	free(path);
	buf_finish(&in);
}

static void
test_gzip(void **state)
{
	(void)state;
	const char *text = "a;b 1\na;c 2.5\n";
	char *path = temp_file(".folded.gz", "", 0);
	gzFile gz = gzopen(path, "wb");
	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, text, (unsigned)strlen(text)), (int)strlen(text));
	assert_int_equal(gzclose(gz), Z_OK);
	struct result r = read_path(path, FOLDED_HEAD, false);
	if (!r.ok) {
		fail_msg("%s", r.err.msg);
	}
	assert_string_equal(r.dump, "a;b 1\na;c 2.5\n");
	free(r.dump);
	unlink(path);
	free(path);
}

/* Appends data as one complete gzip member, as gzip or Python's gzip write it. */
static void
add_gzip_member(struct buf *out, const char *data, size_t len)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(
	        deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	uLong cap = deflateBound(&zs, (uLong)len);
	char *dst = malloc(cap);
	assert_non_null(dst);
	zs.next_in = (Bytef *)data;
	zs.avail_in = (uInt)len;
	zs.next_out = (Bytef *)dst;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	buf_add(out, dst, cap - zs.avail_out);
	deflateEnd(&zs);
	free(dst);
}

/* Reads bytes as a .gz file; the error message has the temp path removed. */
static struct result
read_gzip_bytes(const struct buf *bytes, char *msg, size_t msg_cap)
{
	char *path = temp_file(".folded.gz", bytes->data, bytes->len);
	struct result r = read_path(path, FOLDED_HEAD, false);
	size_t plen = strlen(path);
	msg[0] = '\0';
	if (!r.ok && strncmp(r.err.msg, path, plen) == 0) {
		snprintf(msg, msg_cap, "X%s", r.err.msg + plen);
	}
	unlink(path);
	free(path);
	return r;
}

/*
 * Issue 21, item 9: concatenated members are all read, as gzip reads them;
 * trailing garbage or a truncated later member is an error with the offset.
 * The first member is larger than the reader's 256 KiB compressed buffer, so
 * the member boundary falls inside a later buffer.
 */
static void
test_gzip_members(void **state)
{
	(void)state;
	struct buf big, small, all, bytes;
	buf_init(&big);
	buf_init(&small);
	buf_init(&all);
	buf_init(&bytes);
	uint64_t x = 88172645463325252u;
	for (unsigned i = 0; i < 40000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf_printf(&big, "main;f%016llx;g%u 1\n", (unsigned long long)x, i % 7);
	}
	buf_printf(&small, "main;tail 5\nmain;g0 2\n");
	buf_add(&all, big.data, big.len);
	buf_add(&all, small.data, small.len);
	struct result want = read_mem_len(all.data, all.len, FOLDED_HEAD, false);
	assert_true(want.ok);

	add_gzip_member(&bytes, big.data, big.len);
	size_t first = bytes.len;
	assert_true(first > ((size_t)256 << 10));
	add_gzip_member(&bytes, small.data, small.len);
	size_t second = bytes.len - first;
	add_gzip_member(&bytes, "", 0);
	buf_add(&bytes, "\0\0\0\0", 4); /* NUL padding, which gzip allows too */
	char msg[512];
	struct result r = read_gzip_bytes(&bytes, msg, sizeof(msg));
	if (!r.ok) {
		fail_msg("%s", r.err.msg);
	}
	assert_string_equal(r.dump, want.dump);
	free(r.dump);

	char expect[512];
	bytes.len = first;
	buf_add(&bytes, "main;x 1\n", 9);
	r = read_gzip_bytes(&bytes, msg, sizeof(msg));
	assert_false(r.ok);
	snprintf(expect, sizeof(expect),
	        "X: read error: trailing garbage after gzip data at byte %zu", first);
	assert_string_equal(msg, expect);

	bytes.len = first;
	buf_add(&bytes, "\0\0x", 3);
	r = read_gzip_bytes(&bytes, msg, sizeof(msg));
	assert_false(r.ok);
	assert_string_equal(msg, expect);

	bytes.len = first;
	add_gzip_member(&bytes, small.data, small.len);
	bytes.len = first + second / 2;
	r = read_gzip_bytes(&bytes, msg, sizeof(msg));
	assert_false(r.ok);
	snprintf(expect, sizeof(expect), "X: read error: truncated gzip data (member at byte %zu)",
	        first);
	assert_string_equal(msg, expect);

	free(want.dump);
	buf_finish(&big);
	buf_finish(&small);
	buf_finish(&all);
	buf_finish(&bytes);
}

static void
test_file_errors(void **state)
{
	(void)state;
	struct result r = read_path("/nonexistent/difffold/missing.folded", FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_string_equal(
	        r.err.msg, "/nonexistent/difffold/missing.folded: No such file or directory");
	r = read_path("/", FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_string_equal(r.err.msg, "/: is a directory");
	char *path = temp_file(".folded", "", 0);
	r = read_path(path, FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_non_null(strstr(r.err.msg, "no stack in the input"));
	assert_true(strncmp(r.err.msg, path, strlen(path)) == 0);
	unlink(path);
	free(path);
}

static void
test_overflow_is_fatal(void **state)
{
	(void)state;
	struct result r = read_mem("a 18446744073709551615\nb 1\n", FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_string_equal(r.err.msg, "in.folded:2: sum of head counts exceeds 2^64-1");
}

static void
test_names_unchanged(void **state)
{
	(void)state;
	static const char in[] = "<tag attr=\"v\">&amp;';\xff\xfe\x01;nul\0in;name 3\n";
	struct result r = read_mem_len(in, sizeof(in) - 1, FOLDED_HEAD, false);
	assert_true(r.ok);
	/* The dump is NUL-terminated; compare by the known length. */
	assert_memory_equal(r.dump, in, sizeof(in) - 1);
	free(r.dump);
}

/* More malformed lines than valid ones: not folded stacks, refused. */
static void
test_mostly_malformed(void **state)
{
	(void)state;
	struct result r = read_mem("fl=a.c\nfn=(1) main\nsummary:\nmain 5\n", FOLDED_HEAD, false);
	assert_false(r.ok);
	assert_non_null(strstr(r.err.msg, "in.folded:1: no count; 3 of 4 lines are malformed"));
	/* As many bad as good is still read, with the warning counts. */
	r = read_mem("a 1\nb 1\nx\ny\n", FOLDED_HEAD, false);
	assert_true(r.ok);
	assert_int_equal(r.st.bad_lines, 2);
	free(r.dump);
}

/* heaptrack ends stacks with ';': no empty leaf frame. */
static void
test_trailing_separator(void **state)
{
	(void)state;
	struct tree *t = tree_from("main;alloc; 5\nmain;alloc;; 2\nmain 1\n", FOLDED_HEAD, NULL);
	tree_finish(t, false);
	char *s = dump_tree(t);
	assert_string_equal(s, "main 1\nmain;alloc 7\n");
	free(s);
	tree_destroy(t);
	struct result r = read_mem(";; 3\na 1\n", FOLDED_HEAD, false);
	assert_true(r.ok);
	assert_int_equal(r.st.bad_lines, 1);
	assert_string_equal(r.st.first_bad_reason, "stack is empty");
	free(r.dump);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_basic),
	        cmocka_unit_test(test_skipped_silently),
	        cmocka_unit_test(test_separators),
	        cmocka_unit_test(test_bad_lines),
	        cmocka_unit_test(test_mostly_malformed),
	        cmocka_unit_test(test_trailing_separator),
	        cmocka_unit_test(test_strict),
	        cmocka_unit_test(test_no_valid_line),
	        cmocka_unit_test(test_three_columns),
	        cmocka_unit_test(test_line_cap),
	        cmocka_unit_test(test_file),
	        cmocka_unit_test(test_file_blocks),
	        cmocka_unit_test(test_gzip),
	        cmocka_unit_test(test_gzip_members),
	        cmocka_unit_test(test_column_mark),
	        cmocka_unit_test(test_file_errors),
	        cmocka_unit_test(test_overflow_is_fatal),
	        cmocka_unit_test(test_names_unchanged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
