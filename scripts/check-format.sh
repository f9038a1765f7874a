#!/bin/sh
# Checks that every tracked C++ source and header is formatted as .clang-format says, changing
# nothing: `clang-format --dry-run --Werror`, which prints each difference as an error.
# Run by .ci/run before the build and by ctest (Format.ClangFormat). To fix a file:
#   clang-format -i FILE
# Usage: scripts/check-format.sh [CLANG_FORMAT]   (default: clang-format on the PATH)
set -eu
cd "$(dirname "$0")/.."
clang_format=${1:-clang-format}
if ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "check-format: $clang_format not found (scripts/setup.sh installs clang-format)" >&2
  exit 2
fi
# git lists the files, so build trees and scratch files are left out; -z keeps odd names whole.
count=$(git ls-files -z -- '*.cpp' '*.hpp' | tr -cd '\0' | wc -c)
if [ "$count" -eq 0 ]; then
  echo "check-format: git lists no .cpp or .hpp file (not a git checkout?)" >&2
  exit 2
fi
if git ls-files -z -- '*.cpp' '*.hpp' | xargs -0 "$clang_format" --dry-run --Werror; then
  echo "check-format: $count files formatted as .clang-format says ($("$clang_format" --version))"
else
  echo "check-format: the files above differ from .clang-format; clang-format -i FILE fixes one" >&2
  exit 1
fi
