#!/bin/sh
# Installs the Debian packages ptmpl needs, only those missing: `apt-get update` once, then
# `apt-get install -y`. Used by `make demo`, `make test` and .ci/run. Chromium is a test
# dependency: a test opens the HTML preview in it (headless); so is git (tests of .gitignore
# in a repository of their own), and so is neovim (the editor tests drive `ptmpl lsp` from
# its built-in client, headless: tests/editor/); clang-format checks the formatting
# (scripts/check-format.sh, Format.ClangFormat); LibreOffice and openpyxl make and read the
# workbooks of the Excel tests; pybind11 builds the Python module and pytest runs its tests
# (tests/python/). Extra package names given as
# arguments are installed too (`make asan` and `make fuzz` add clang and its sanitizer and
# libFuzzer runtimes this way).
set -eu

packages="
  make cmake ninja-build g++ pkg-config
  rapidjson-dev libboost-graph-dev libcli11-dev libpugixml-dev libzip-dev libxlsxwriter-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcurl4-openssl-dev libcpp-httplib-dev libssl-dev
  libgit2-dev git
  clang-format
  chromium neovim
  libreoffice-calc-nogui python3-openpyxl
  pybind11-dev python3-pybind11 python3-dev python3-pytest python3-setuptools
  $*
"

missing=""
for p in $packages; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  exit 0
fi

echo "ptmpl setup: installing$missing"
if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  echo "ptmpl setup: need root (or sudo) to install:$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
# shellcheck disable=SC2086
$sudo apt-get install -y --no-install-recommends $missing
