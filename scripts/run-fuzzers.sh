#!/bin/sh
# Runs every libFuzzer target of build/fuzz for a bounded time (`make fuzz`, docs/robustness.md).
# Usage: scripts/run-fuzzers.sh SECONDS [TARGET...]. Each target starts from its seed corpus
# (samples/, tests/data/, ../shared/corpus/ and its kept inputs under tests/data/fuzz/) and keeps
# what it learns in build/fuzz/corpus/<target>; a crash, hang, leak or sanitizer finding stops
# it and leaves the input in build/fuzz/findings/<target>/, and the script exits 1.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=${*:-template_reader lint mspdi_reader gan_reader csv_reader sandbox_request cfb_reader mpp_reader ignore_rules
  xer_reader pmxml_reader xlsx_reader}

seeds_of() {
  case "$1" in
    template_reader|lint)
      echo samples tests/data/rules tests/data/schemas tests/data/roundtrip tests/data/schedule \
        tests/data/cli tests/data/publish tests/data/config ;;
    mspdi_reader) echo tests/data/mspdi ../shared/corpus/mspdi ;;
    gan_reader) echo tests/data/gan ../shared/corpus/gan ;;
    csv_reader) echo tests/data/csv ;;
    cfb_reader) echo tests/data/mpp ;;
    mpp_reader) echo ;;  # its seeds are archives of the corpus files' streams, kept below
    sandbox_request) echo ;;
    ignore_rules) echo ;;  # its seeds are kept below
    xer_reader) echo ;;  # its seeds are kept below (the 3 MB SP10 export would slow it tenfold)
    pmxml_reader) echo ;;  # its seeds are kept below
    xlsx_reader) echo ;;  # its seeds are archives of the test workbooks' parts, kept below
  esac
  echo "tests/data/fuzz/$1"
}

failed=""
for target in $targets; do
  program="build/fuzz/tests/fuzz/${target}_fuzz"
  corpus="build/fuzz/corpus/$target"
  findings="build/fuzz/findings/$target"
  mkdir -p "$corpus" "$findings"
  seeds=""
  for dir in $(seeds_of "$target"); do
    [ -d "$dir" ] && seeds="$seeds $dir"
  done
  echo "== $target: ${seconds}s from$seeds"
  log="build/fuzz/$target.log"
  # shellcheck disable=SC2086
  if "$program" "$corpus" $seeds -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1; then
    grep -E '^stat::number_of_executed_units|^Done' "$log" | tr '\n' ' '
    echo
  else
    tail -n 40 "$log"
    echo "== $target: FOUND a problem (input in $findings/, log in $log)"
    failed="$failed $target"
  fi
done
if [ -n "$failed" ]; then
  echo "fuzz: findings in$failed"
  exit 1
fi
echo "fuzz: no findings"
