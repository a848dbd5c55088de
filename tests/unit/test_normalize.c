/* normalize: each volatile-name rule on its own, then the rules together. */
#include "normalize.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* The key of name, and that exactly rule `id` fired (NULL: none). */
static void
check(const char *id, const char *name, const char *want)
{
	struct buf key, scratch;
	buf_init(&key);
	buf_init(&scratch);
	uint32_t fired = normalize_name(name, strlen(name), &key, &scratch);
	if (strcmp(key.data, want) != 0) {
		fail_msg("%s: \"%s\" gave \"%s\", not \"%s\"", id ? id : "none", name, key.data,
		        want);
	}
	if (id) {
		int r = normalize_rule_find(id);
		assert_true(r >= 0);
		assert_int_equal(fired, 1u << r);
	} else {
		assert_int_equal(fired, 0);
	}
	buf_finish(&key);
	buf_finish(&scratch);
}

static void
test_rust_hash(void **state)
{
	(void)state;
	check("rust-hash", "core::ops::function::FnOnce::call_once::h0123456789abcdef",
	        "core::ops::function::FnOnce::call_once");
	check("rust-hash", "std::rt::lang_start::h5c1f0a1b2c3d4e5f (/usr/bin/app)",
	        "std::rt::lang_start (/usr/bin/app)");
	/* 15 or 17 digits, or a word going on, are not the hash. */
	check(NULL, "a::h0123456789abcde", "a::h0123456789abcde");
	check(NULL, "a::h0123456789abcdef0", "a::h0123456789abcdef0");
	check(NULL, "a::hello", "a::hello");
}

static void
test_closure_number(void **state)
{
	(void)state;
	check("closure-number", "app::main::{closure#3}", "app::main::{closure#}");
	check("closure-number", "f()::{lambda(int)#12}::operator()(int) const",
	        "f()::{lambda(int)#}::operator()(int) const");
	check(NULL, "app::{{closure}}", "app::{{closure}}");
	check(NULL, "tag{item#3}", "tag{item#3}");
}

static void
test_gcc_clone(void **state)
{
	(void)state;
	check("gcc-clone", "foo(int) [clone .isra.0]", "foo(int)");
	check("gcc-clone", "foo [clone .constprop.2] [clone .cold]", "foo");
	check("gcc-clone", "tcp_ack.isra.10_[k]", "tcp_ack_[k]");
	check("gcc-clone", "memcpy.part.13", "memcpy");
	check("gcc-clone", "bar.cold", "bar");
	check("gcc-clone", "baz.lto_priv.0", "baz");
	check("gcc-clone", "qux.llvm.12345678", "qux");
	check(NULL, "v1.2", "v1.2");
	check(NULL, ".cold", ".cold");
}

static void
test_anonymous_namespace(void **state)
{
	(void)state;
	check("anonymous-namespace", "{anonymous}::Parser::run()",
	        "(anonymous namespace)::Parser::run()");
	check("anonymous-namespace", "_GLOBAL__N_a.cc_1F2E3D4C::f()", "(anonymous namespace)::f()");
	check(NULL, "(anonymous namespace)::f()", "(anonymous namespace)::f()");
}

static void
test_go_closure(void **state)
{
	(void)state;
	check("go-closure", "main.worker.func2", "main.worker.func");
	check("go-closure", "net/http.(*conn).serve.func1.gowrap3",
	        "net/http.(*conn).serve.func.gowrap");
	check(NULL, "main.funcName", "main.funcName");
}

static void
test_java_lambda(void **state)
{
	(void)state;
	check("java-lambda", "com/acme/Foo$$Lambda$123/0x0000000800c0b000.run",
	        "com/acme/Foo$$Lambda.run");
	check("java-lambda", "Foo$$Lambda/0x00007f3a12c4.apply", "Foo$$Lambda.apply");
	check("java-lambda", "com/acme/Foo.lambda$run$4", "com/acme/Foo.lambda$run$");
	check(NULL, "Outer$Inner$1.run", "Outer$Inner$1.run");
}

static void
test_v8_tier(void **state)
{
	(void)state;
	check("v8-tier", "LazyCompile:*render /app.js:12_[j]", "LazyCompile:render /app.js:12_[j]");
	check("v8-tier", "Function:^f", "Function:f");
	check(NULL, "ns::Function::*ptr", "ns::Function::*ptr");
}

static void
test_process_id(void **state)
{
	(void)state;
	check("process-id", "[unknown] (/tmp/perf-10939.map)", "[unknown] (/tmp/perf-.map)");
	check("process-id", "f (/tmp/jitted-4242-17.so)", "f (/tmp/jitted-.so)");
	check(NULL, "pre-2024", "pre-2024");
}

static void
test_symbol_offset(void **state)
{
	(void)state;
	check("symbol-offset", "do_syscall_64+0x5b", "do_syscall_64");
	check(NULL, "operator+0", "operator+0");
}

static void
test_address(void **state)
{
	(void)state;
	check("address", "unix`0xfffffffffb800c91", "unix`0x");
	check("address", "[unknown] 0x7f3a12c4", "[unknown] 0x");
	check(NULL, "array<int, 0x10>", "array<int, 0x10>");
	check(NULL, "f0x12345", "f0x12345");
}

static void
test_rules_compose(void **state)
{
	(void)state;
	struct buf key, scratch;
	buf_init(&key);
	buf_init(&scratch);
	const char *name = "app::{closure#1}::h00112233445566aa+0x10";
	uint32_t fired = normalize_name(name, strlen(name), &key, &scratch);
	assert_string_equal(key.data, "app::{closure#}");
	assert_int_equal(fired, (1u << normalize_rule_find("rust-hash")) |
	                                (1u << normalize_rule_find("closure-number")) |
	                                (1u << normalize_rule_find("symbol-offset")));
	/* Bytes are bytes: a NUL inside a name is kept. */
	fired = normalize_name("a\0b::h0123456789abcdef", 22, &key, &scratch);
	assert_int_equal(key.len, 3);
	assert_memory_equal(key.data, "a\0b", 3);
	buf_finish(&key);
	buf_finish(&scratch);
}

/*
 * normalize_rules_possible is a filter before the rules: a rule it leaves
 * out must leave the name as it is. Checked on the names of the tests
 * above and on random names made of the rules' own pieces and hostile
 * bytes, where the pieces meet in every way.
 */
static const char *const examples[] = {
        "core::ops::function::FnOnce::call_once::h0123456789abcdef",
        "std::rt::lang_start::h5c1f0a1b2c3d4e5f (/usr/bin/app)",
        "a::h0123456789abcde",
        "app::main::{closure#3}",
        "f()::{lambda(int)#12}::operator()(int) const",
        "foo(int) [clone .isra.0]",
        "foo [clone .constprop.2] [clone .cold]",
        "tcp_ack.isra.10_[k]",
        "memcpy.part.13",
        "bar.cold",
        "baz.lto_priv.0",
        "qux.llvm.12345678",
        "x.localalias",
        "{anonymous}::Parser::run()",
        "_GLOBAL__N_a.cc_1F2E3D4C::f()",
        "main.worker.func2",
        "net/http.(*conn).serve.func1.gowrap3",
        "main.f.deferwrap1",
        "com/acme/Foo$$Lambda$123/0x0000000800c0b000.run",
        "Foo$$Lambda/0x00007f3a12c4.apply",
        "com/acme/Foo.lambda$run$4",
        "LazyCompile:*render /app.js:12_[j]",
        "Function:^f",
        "JS:~g",
        "Script:+h",
        "[unknown] (/tmp/perf-10939.map)",
        "f (/tmp/jitted-4242-17.so)",
        "do_syscall_64+0x5b",
        "unix`0xfffffffffb800c91",
        "[unknown] 0x7f3a12c4",
        "app::{closure#1}::h00112233445566aa+0x10",
};

static const char *const pieces[] = {"::h", "0123456789abcdef", "::", ":", "{closure#", "{lambda(",
        "}", "{", "#", " [clone .", "]", ".isra", ".constprop", ".part", ".cold", ".lto_priv",
        ".llvm", ".localalias", ".", "{anonymous}", "_GLOBAL__N_", "_", ".func", ".gowrap",
        ".deferwrap", "$$Lambda", "$", "/0x", "lambda$", "LazyCompile", "Function", "JS", "Script",
        "*", "~", "^", "+", "perf", "jitted", "-", ".map", ".so", "+0x", "0x", "0", "7", "f", "G",
        "a", " ", "\xff", "_[k]", "x"};

static void
check_possible(const char *s, size_t len, struct buf *out)
{
	uint32_t possible = normalize_rules_possible(s, len);
	for (size_t r = 0; r < normalize_rule_count; r++) {
		if (possible & (1u << r)) {
			continue;
		}
		buf_reset(out);
		if (normalize_rules[r].apply(s, len, out)) {
			fail_msg("%s changes \"%.*s\", which the filter let by",
			        normalize_rules[r].id, (int)len, s);
		}
	}
}

static void
test_possible_never_skips_a_change(void **state)
{
	(void)state;
	struct buf name, out;
	buf_init(&name);
	buf_init(&out);
	for (size_t i = 0; i < sizeof(examples) / sizeof(examples[0]); i++) {
		check_possible(examples[i], strlen(examples[i]), &out);
	}
	uint64_t x = 0x9e3779b97f4a7c15u;
	size_t npieces = sizeof(pieces) / sizeof(pieces[0]);
	for (int round = 0; round < 200000; round++) {
		buf_reset(&name);
		x = x * 6364136223846793005u + 1442695040888963407u;
		int n = (int)(x >> 60) + 1;
		for (int k = 0; k < n; k++) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			uint32_t v = (uint32_t)(x >> 33);
			if (v % 8 == 0) {
				char c = (char)(v >> 8); /* any byte, NUL too */
				buf_add(&name, &c, 1);
			} else {
				buf_adds(&name, pieces[(v >> 3) % npieces]);
			}
		}
		check_possible(name.data, name.len, &out);
		/* And every name the rules make of it: they run one after another. */
		struct buf key, scratch;
		buf_init(&key);
		buf_init(&scratch);
		if (normalize_name(name.data, name.len, &key, &scratch)) {
			check_possible(key.data, key.len, &out);
		}
		buf_finish(&key);
		buf_finish(&scratch);
	}
	buf_finish(&name);
	buf_finish(&out);
}

static void
test_every_rule_is_documented(void **state)
{
	(void)state;
	for (size_t r = 0; r < normalize_rule_count; r++) {
		assert_non_null(normalize_rules[r].id);
		assert_true(strlen(normalize_rules[r].what) > 0);
		assert_int_equal(normalize_rule_find(normalize_rules[r].id), (int)r);
	}
	assert_int_equal(normalize_rule_find("none"), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_rust_hash),
	        cmocka_unit_test(test_closure_number),
	        cmocka_unit_test(test_gcc_clone),
	        cmocka_unit_test(test_anonymous_namespace),
	        cmocka_unit_test(test_go_closure),
	        cmocka_unit_test(test_java_lambda),
	        cmocka_unit_test(test_v8_tier),
	        cmocka_unit_test(test_process_id),
	        cmocka_unit_test(test_symbol_offset),
	        cmocka_unit_test(test_address),
	        cmocka_unit_test(test_rules_compose),
	        cmocka_unit_test(test_possible_never_skips_a_change),
	        cmocka_unit_test(test_every_rule_is_documented),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
