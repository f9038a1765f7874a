#!/bin/sh
# The measurements of docs/performance.md in one run: every Google Benchmark with its baseline
# measured in the same process, then how each command's time and memory grow with the size of
# the template (1,000 to 1,000,000 stories), as whole processes. Prints Markdown tables.
# Usage: scripts/perf-report.sh [SIZES…]
#   (default sizes: 1000 10000 100000 1000000; needs the release build and /usr/bin/time)
set -eu
cd "$(dirname "$0")/.."
ptmpl=build/release/tools/ptmpl/ptmpl
bench=build/release/tests/ptmpl_bench
sizes=${*:-1000 10000 100000 1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# median of three runs' wall seconds, and the largest peak RSS (KiB), of a command
measure() {
  for run in 1 2 3; do
    /usr/bin/time -f '%e %M' -o "$work/time.$run" sh -c "$1" >/dev/null 2>&1 || true
  done
  wall=$(cat "$work"/time.* | awk '{print $1}' | sort -n | sed -n 2p)
  peak=$(cat "$work"/time.* | awk '{print $2}' | sort -n | tail -1)
  rm -f "$work"/time.*
  echo "$wall $peak"
}

# Every benchmark with its baseline: each family in a process of its own (as each command runs
# in one), baseline and subject in the same process, medians of 5 repetitions (real time).
echo "### Every benchmark (median of 5; each family in its own process)"
echo
echo "| benchmark | median ms | baseline | ratio |"
echo "|---|---:|---|---:|"
for family in 'BM_RapidJsonDomParse$|BM_Read$|BM_ReadWithModel$|BM_WriteCanonical$|BM_ReadWrite$' \
              'BM_RapidJsonDomParse$|BM_LintLargeTemplate$|BM_Lint5000' \
              'Schedule' 'Mspdi' 'Push'; do
  # Console format: the CSV reporter refuses benchmarks with different counters in one run.
  "$bench" --benchmark_filter="$family" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
    --benchmark_color=false 2>/dev/null |
    awk '
      $1 ~ /_median$/ {
        name = $1; sub(/_median$/, "", name); sub(/\/real_time$/, "", name)
        scale = $3 == "s" ? 1e3 : $3 == "us" ? 1e-3 : $3 == "ns" ? 1e-6 : 1
        ms[name] = $2 * scale; order[++n] = name
        if (name ~ /RapidJsonDomParse$|BaselineDomParse$|BaselinePugixmlParse$/) base = name
      }
      END {
        for (i = 1; i <= n; ++i) {
          name = order[i]
          if (name == base) printf "| `%s` | %.1f | (baseline) | 1.00× |\n", name, ms[name]
          else if (name ~ /Lint5000|Push/) printf "| `%s` | %.1f | — | — |\n", name, ms[name]
          else printf "| `%s` | %.1f | `%s` | %.2f× |\n", name, ms[name], base, ms[name] / ms[base]
        }
      }'
done
echo

echo "### Whole commands by size (median of 3 wall times; peak resident memory)"
echo
echo "| stories | file MiB | command | wall s | µs / story | peak MiB | bytes / story |"
echo "|---:|---:|---|---:|---:|---:|---:|"
for n in $sizes; do
  file="$work/t$n.json"
  "$ptmpl" gen --stories "$n" --depth 4 --seed 1 -o "$file"
  "$ptmpl" convert --to mspdi "$file" -o "$work/t$n.xml" >/dev/null 2>&1 || true
  mib=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", b / 1048576 }')
  for label in lint fmt-check schedule-json stats convert-to-mspdi convert-from-mspdi; do
    case $label in
      lint) cmd="'$ptmpl' lint --no-config --format json '$file'" ;;
      fmt-check) cmd="'$ptmpl' fmt --check '$file'" ;;
      schedule-json) cmd="'$ptmpl' schedule --format json '$file'" ;;
      stats) cmd="'$ptmpl' stats '$file'" ;;
      convert-to-mspdi) cmd="'$ptmpl' convert --to mspdi '$file' -o '$work/out.xml'" ;;
      convert-from-mspdi) cmd="'$ptmpl' convert '$work/t$n.xml' -o '$work/out.json'" ;;
    esac
    set -- $(measure "$cmd")
    awk -v n="$n" -v mib="$mib" -v label="$label" -v wall="$1" -v peak="$2" 'BEGIN {
      printf "| %d | %s | `%s` | %.2f | %.2f | %.0f | %.0f |\n", n, mib, label, wall, wall * 1e6 / n,
             peak / 1024, peak * 1024 / n }'
  done
  rm -f "$file" "$work/t$n.xml" "$work/out.xml" "$work/out.json"
done

echo
echo "### In-process benchmarks by size (ns per story; each with its baseline in the same run)"
echo
echo "| stories | RapidJSON DOM parse | read | read + model | lint | schedule (graph + passes) |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  PTMPL_BENCH_STORIES=$n PTMPL_BENCH_SCHEDULE_STORIES=$n "$bench" \
    --benchmark_filter='BM_RapidJsonDomParse$|BM_Read$|BM_ReadWithModel$|BM_LintLargeTemplate$|BM_ScheduleWithGraph$' \
    --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_format=csv 2>/dev/null |
    awk -F, -v n="$n" '
      $1 ~ /_median"?$/ {
        name = $1; gsub(/"/, "", name); sub(/_median$/, "", name)
        scale = $5 == "ms" ? 1e6 : $5 == "us" ? 1e3 : $5 == "s" ? 1e9 : 1
        ns = $3 * scale  # real time, column 3; its unit, column 5
        t[name] = ns / n
      }
      END {
        printf "| %d | %.0f | %.0f | %.0f | %.0f | %.0f |\n", n, t["BM_RapidJsonDomParse"], t["BM_Read"],
               t["BM_ReadWithModel"], t["BM_LintLargeTemplate"], t["BM_ScheduleWithGraph"]
      }'
done
