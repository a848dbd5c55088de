/* transform: each step on its own, their order, the per-name cache, errors. */
#include "transform.h"

#include "helpers.h"
#include "xalloc.h"

/* A set built from "KIND:ARG" strings (r: replace, h: hide, f: focus, x: exclude). */
static struct transform *
make(const char *const *rules)
{
	struct transform *tf = transform_create();
	char err[1024];
	for (size_t i = 0; rules[i]; i++) {
		enum transform_kind kind = rules[i][0] == 'r'   ? TRANSFORM_REPLACE
		                           : rules[i][0] == 'h' ? TRANSFORM_HIDE
		                           : rules[i][0] == 'f' ? TRANSFORM_FOCUS
		                                                : TRANSFORM_EXCLUDE;
		if (!transform_add(tf, kind, rules[i] + 2, err, sizeof(err))) {
			fail_msg("%s: %s", rules[i], err);
		}
	}
	return tf;
}

/* The stack as the steps leave it, "DROP", or "ERROR: reason"; caller frees. */
static char *
apply(const struct transform *tf, const char *stack)
{
	struct transform_run *run = transform_run_create(tf);
	const char *out, *reason;
	size_t len;
	char *r;
	switch (transform_run_stack(run, stack, strlen(stack), &out, &len, &reason)) {
	case TRANSFORM_KEEP:
		r = xmemdup(out, len);
		break;
	case TRANSFORM_DROP:
		r = xstrdup("DROP");
		break;
	default: {
		struct buf b;
		buf_init(&b);
		buf_printf(&b, "ERROR: %s", reason);
		r = buf_detach(&b, NULL);
	}
	}
	transform_run_destroy(run);
	return r;
}

#define assert_applies(tf, stack, want)                                                            \
	do {                                                                                       \
		char *got_ = apply((tf), (stack));                                                 \
		assert_string_equal(got_, (want));                                                 \
		free(got_);                                                                        \
	} while (0)

static void
test_replace_groups(void **state)
{
	(void)state;
	struct transform *tf = make((const char *const[]){"r:^(\\w+)-(\\d+)$=$2.$1",
	        "r:0x[0-9a-f]+=0x", "r:(?<t>thread)_\\d+=${t}", "r:z(a)=\\1\\1", NULL});
	assert_applies(tf, "main;worker-7;f_0x1f2e_0xab;thread_12;zab",
	        "main;7.worker;f_0x_0x;thread;aab");
	assert_applies(tf, "plain;frames", "plain;frames");
	transform_destroy(tf);
	/* Later replaces see the earlier ones' output. */
	tf = make((const char *const[]){"r:a=b", "r:b=c", NULL});
	assert_applies(tf, "a;b;x", "c;c;x");
	transform_destroy(tf);
	/* $$ is a '$'; \= in REGEX a literal '=' and the replacement may hold '='. */
	tf = make((const char *const[]){"r:k\\=v=k==$$", NULL});
	assert_applies(tf, "k=v", "k==$");
	transform_destroy(tf);
	/* Lookarounds and a class with '=' are not the split. */
	tf = make((const char *const[]){"r:(?<=a)b(?=c)=X", "r:[=]=E", NULL});
	assert_applies(tf, "abc;x=y", "aXc;xEy");
	transform_destroy(tf);
}

static void
test_hide(void **state)
{
	(void)state;
	struct transform *tf = make((const char *const[]){"h:^(root|mid|leaf)$", NULL});
	assert_applies(tf, "root;a;mid;b;leaf", "a;b");
	assert_applies(tf, "root", "DROP");
	assert_applies(tf, "root;mid;leaf", "DROP");
	assert_applies(tf, "a;b", "a;b");
	transform_destroy(tf);
	/* Hide sees the replaced name. */
	tf = make((const char *const[]){"r:^tmp_.*=hideme", "h:^hideme$", NULL});
	assert_applies(tf, "main;tmp_123;work", "main;work");
	transform_destroy(tf);
	/* Only empty names left: no folded line holds that stack (`;` reads as empty). */
	tf = make((const char *const[]){"h:^a$", "r:^b$=", NULL});
	assert_applies(tf, ";a", "DROP");
	assert_applies(tf, ";;a", "DROP");
	assert_applies(tf, "b", "DROP");
	assert_applies(tf, "b;a;b", "DROP");
	assert_applies(tf, ";a;c", ";c");
	assert_applies(tf, "b;c", ";c");
	transform_destroy(tf);
}

static void
test_hide_through_tree(void **state)
{
	(void)state;
	/* A hidden leaf's cost goes to its parent; a hidden root's children move up. */
	struct transform *tf = make((const char *const[]){"h:^(leaf|root)$", NULL});
	struct tree_options opt = {.min_delta = 0.001, .transform = tf};
	struct tree *t = tree_create(&opt);
	add_stack(t, SIDE_BASE, "root;main;leaf", 3);
	add_stack(t, SIDE_BASE, "root;main", 2);
	add_stack(t, SIDE_HEAD, "main;work", 4);
	tree_finish(t, true);
	char *d = dump_tree(t);
	assert_string_equal(d, "main 5 0\nmain;work 0 4\n");
	free(d);
	tree_destroy(t);
	transform_destroy(tf);
}

static void
test_focus(void **state)
{
	(void)state;
	struct transform *tf = make((const char *const[]){"f:^parse", NULL});
	assert_applies(tf, "main;parse_json;lex", "main;parse_json;lex");
	assert_applies(tf, "main;render", "DROP");
	transform_set_focus_root(tf, true);
	assert_applies(tf, "main;run;parse_json;lex;parse_num", "parse_json;lex;parse_num");
	assert_applies(tf, "parse", "parse");
	assert_applies(tf, "main;render", "DROP");
	transform_destroy(tf);
}

static void
test_exclude(void **state)
{
	(void)state;
	struct transform *tf = make((const char *const[]){"x:^gc$", "x:idle", NULL});
	assert_applies(tf, "main;gc;mark", "DROP");
	assert_applies(tf, "cpu_idle", "DROP");
	assert_applies(tf, "main;work", "main;work");
	transform_destroy(tf);
	/* After --focus-root, frames above the focus no longer count. */
	tf = make((const char *const[]){"f:^work$", "x:^main$", NULL});
	transform_set_focus_root(tf, true);
	assert_applies(tf, "main;work;leaf", "work;leaf");
	transform_destroy(tf);
}

static void
test_skip(void **state)
{
	(void)state;
	struct transform *tf = transform_create();
	transform_set_skip(tf, 2);
	assert_applies(tf, "proc;thread;main;work", "main;work");
	assert_applies(tf, "proc;thread;main", "main");
	assert_applies(tf, "proc;thread", "DROP");
	assert_applies(tf, "proc", "DROP");
	transform_set_skip(tf, 1000);
	assert_applies(tf, "a;b;c", "DROP");
	transform_destroy(tf);
}

static void
test_collapse(void **state)
{
	(void)state;
	struct transform *tf = transform_create();
	transform_set_collapse(tf, true);
	assert_applies(tf, "main;fib;fib;fib;add;fib;fib", "main;fib;add;fib");
	assert_applies(tf, "a;a", "a");
	assert_applies(tf, "a;b;a", "a;b;a");
	transform_destroy(tf);
	/* Names made equal by --replace collapse too. */
	tf = make((const char *const[]){"r:#\\d+$=", NULL});
	transform_set_collapse(tf, true);
	assert_applies(tf, "main;lambda#1;lambda#2;x", "main;lambda;x");
	transform_destroy(tf);
}

static void
test_order(void **state)
{
	(void)state;
	/* replace, hide, focus, exclude, skip, collapse, whatever the order given. */
	struct transform *tf = make((const char *const[]){
	        "f:^run$", "h:^noise$", "r:^(base|head)$=app", "r:^run_v\\d$=run", NULL});
	transform_set_collapse(tf, true);
	transform_set_skip(tf, 1);
	assert_applies(tf, "base;noise;run_v2;run;noise;run;leaf", "run;leaf");
	assert_applies(tf, "head;other", "DROP");
	struct buf b;
	buf_init(&b);
	transform_describe(tf, &b);
	assert_string_equal(b.data, "--replace '^(base|head)$=app' --replace '^run_v\\d$=run' "
	                            "--hide '^noise$' --focus '^run$' --skip-frames 1 "
	                            "--collapse-recursion");
	buf_finish(&b);
	transform_destroy(tf);
}

static void
test_once_per_name(void **state)
{
	(void)state;
	struct transform *tf = make((const char *const[]){"r:0x[0-9a-f]+=0x", "h:^std::", NULL});
	struct transform_run *run = transform_run_create(tf);
	const char *out, *reason;
	size_t len;
	static const char *const stacks[] = {"main;std::rt;f_0x1", "main;std::rt;f_0x2", "main;g"};
	for (int rep = 0; rep < 100; rep++) {
		for (size_t i = 0; i < 3; i++) {
			assert_int_equal(transform_run_stack(run, stacks[i], strlen(stacks[i]),
			                         &out, &len, &reason),
			        TRANSFORM_KEEP);
		}
	}
	transform_run_destroy(run);
	struct transform_stats st;
	transform_stats(tf, &st);
	assert_int_equal(st.frames, 800);
	/* main, std::rt, f_0x1, f_0x2, g: a substitute and a match each. */
	assert_int_equal(st.names, 5);
	assert_int_equal(st.regex_calls, 10);
	transform_destroy(tf);
}

/* Sorted stacks share their start with the one before: only the rest is looked up. */
static void
test_shared_prefix(void **state)
{
	(void)state;
	struct transform *tf = make((const char *const[]){"h:^hid$", "r:^v(\\d)$=w$1", NULL});
	struct transform_run *run = transform_run_create(tf);
	static const char *const in[][2] = {
	        {"x;hid;v1", "x;w1"},
	        {"x;hid;v1", "x;w1"},
	        {"x;hid;v1;v2", "x;w1;w2"},
	        {"x;hid;v1", "x;w1"},
	        {"x;hidden;v1", "x;hidden;w1"},
	        {"x;hid", "x"},
	        {"x;hi", "x;hi"},
	        {"x", "x"},
	        {"xy;v1", "xy;w1"},
	        {"x;v1", "x;w1"},
	        {"", ""},
	        {"x;v1", "x;w1"},
	};
	size_t frames = 0;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		const char *out, *reason;
		size_t len;
		assert_int_equal(
		        transform_run_stack(run, in[i][0], strlen(in[i][0]), &out, &len, &reason),
		        TRANSFORM_KEEP);
		assert_int_equal(len, strlen(in[i][1]));
		assert_memory_equal(out, in[i][1], len);
		for (const char *p = in[i][0]; *p; p++) {
			frames += *p == ';';
		}
		frames++;
	}
	transform_run_destroy(run);
	struct transform_stats st;
	transform_stats(tf, &st);
	assert_int_equal(st.frames, frames);
	/* 3 + 0 + 1 (v2) + 0 + 2 (hidden, v1) + 1 (hid) + 1 (hi) + 0 + 2 + 2 + 1 + 2 */
	assert_int_equal(st.lookups, 15);
	transform_destroy(tf);
}

static void
test_errors(void **state)
{
	(void)state;
	struct transform *tf = transform_create();
	char err[1024];
	assert_false(transform_add(tf, TRANSFORM_HIDE, "a(b", err, sizeof(err)));
	assert_string_equal(err, "--hide 'a(b': invalid regular expression at offset 3: missing "
	                         "closing parenthesis");
	assert_false(transform_add(tf, TRANSFORM_REPLACE, "abc", err, sizeof(err)));
	assert_non_null(strstr(err, "expected REGEX=REPLACEMENT"));
	assert_false(transform_add(tf, TRANSFORM_REPLACE, "a(b)=$2", err, sizeof(err)));
	assert_non_null(strstr(err, "refers to group 2 but REGEX has 1"));
	assert_false(transform_add(tf, TRANSFORM_REPLACE, "a=$", err, sizeof(err)));
	assert_non_null(strstr(err, "a literal '$' is written $$"));
	assert_false(transform_add(tf, TRANSFORM_REPLACE, "(?<n>a)=${m}", err, sizeof(err)));
	assert_non_null(strstr(err, "named 'm'"));
	assert_false(transform_active(tf));
	transform_destroy(tf);
}

static void
test_name_limit(void **state)
{
	(void)state;
	/* Every byte of a 64 KiB name replaced by 512 bytes: 32 MiB, over the limit. */
	char rule[600] = "r:.=";
	memset(rule + 4, 'x', 512);
	rule[516] = '\0';
	struct transform *tf = make((const char *const[]){rule, NULL});
	char *name = xmalloc(65537);
	memset(name, 'a', 65536);
	name[65536] = '\0';
	char *got = apply(tf, name);
	assert_non_null(strstr(got, "ERROR: --replace"));
	assert_non_null(strstr(got, "longer than 16 MiB"));
	free(got);
	free(name);
	transform_destroy(tf);
}

static void
test_hostile_names(void **state)
{
	(void)state;
	/* Invalid UTF-8 and NUL bytes in names; a replacement with controls. */
	struct transform *tf = make((const char *const[]){"r:x=\x1b[31m\x07", NULL});
	struct transform_run *run = transform_run_create(tf);
	const char stack[] = "a\xff\xfex;n\0x";
	const char *out, *reason;
	size_t len;
	assert_int_equal(transform_run_stack(run, stack, sizeof(stack) - 1, &out, &len, &reason),
	        TRANSFORM_KEEP);
	const char want[] = "a\xff\xfe\x1b[31m\x07;n\0\x1b[31m\x07";
	assert_int_equal(len, sizeof(want) - 1);
	assert_memory_equal(out, want, len);
	transform_run_destroy(run);
	transform_destroy(tf);
}

static void
test_callgraph_paths(void **state)
{
	(void)state;
	struct transform *tf = transform_create();
	struct tree_options opt = {.min_delta = 0.001};
	struct tree *t = tree_create(&opt);
	assert_false(tree_needs_paths(t));
	tree_destroy(t);
	transform_set_collapse(tf, true);
	opt.transform = tf;
	t = tree_create(&opt);
	assert_true(tree_needs_paths(t));
	struct tree_cursor c = tree_cursor_root(), child;
	const char *reason;
	assert_false(tree_cursor_child(t, &c, "a", 1, &child, &reason));
	tree_destroy(t);
	transform_destroy(tf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_replace_groups),
	        cmocka_unit_test(test_hide),
	        cmocka_unit_test(test_hide_through_tree),
	        cmocka_unit_test(test_focus),
	        cmocka_unit_test(test_exclude),
	        cmocka_unit_test(test_skip),
	        cmocka_unit_test(test_collapse),
	        cmocka_unit_test(test_order),
	        cmocka_unit_test(test_once_per_name),
	        cmocka_unit_test(test_shared_prefix),
	        cmocka_unit_test(test_errors),
	        cmocka_unit_test(test_name_limit),
	        cmocka_unit_test(test_hostile_names),
	        cmocka_unit_test(test_callgraph_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
