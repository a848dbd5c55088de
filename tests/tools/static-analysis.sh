#!/bin/sh
# Static analysis for CI: cppcheck and clang-tidy over src/ and fuzz/, both
# with warnings as errors. Every finding is fixed or suppressed inline with
# a comment giving the reason; the checks left out are listed with their
# reasons in .clang-tidy.
#
# Usage: tests/tools/static-analysis.sh [BUILD_DIR]   (default: build; it must be
# configured, as clang-tidy reads BUILD_DIR/compile_commands.json)
set -eu
cd "$(dirname "$0")/../.."
build=${1:-build}

if [ ! -f "$build/compile_commands.json" ]; then
	echo "static-analysis: $build/compile_commands.json missing; run meson setup $build" >&2
	exit 2
fi

status=0
echo "== cppcheck"
cppcheck --enable=warning,performance,portability --error-exitcode=1 --inline-suppr \
	--std=c11 -D_GNU_SOURCE -DDIFFFOLD_VERSION='"0"' --quiet -I src -I src/base -I src/model -I src/read -I src/draw -I src/report src fuzz || status=1

echo "== clang-tidy"
# shellcheck disable=SC2046
clang-tidy -p "$build" --quiet $(ls src/*.c src/*/*.c fuzz/*.c) || status=1

[ "$status" = 0 ] && echo "static analysis: no findings"
exit "$status"
