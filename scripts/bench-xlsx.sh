#!/bin/sh
# Reading a 50,000-story workbook, two ways, ptmpl and openpyxl alternating, 5 runs each,
# medians in milliseconds. The workbook is one ptmpl writes: `ptmpl gen` makes a template of
# STORIES stories in one level, `ptmpl convert --to xlsx` exports it (two sheets: the stories,
# and the assignments and calendar).
#
# 1. The same work in one process: every cell's value of every sheet read and counted, openpyxl
#    in read-only mode (the system's Python, Debian's python3-openpyxl, timed inside Python from
#    load_workbook on, its import left out) against ptmpl's workbook reader
#    (BM_XlsxReadCells50k in tests/bench/p6_xlsx_bench.cpp, the same generator options, so the
#    same cells: both counts are printed and must agree).
#    And ptmpl's whole conversion in process (BM_XlsxConvert50k: read, every row mapped, the
#    template made) against the same openpyxl figure.
# 2. `ptmpl convert` as a user runs it, a whole process: read, every row mapped, the template
#    made and written to standard output (here /dev/null: a file written with -o adds its fsync,
#    a disk's time), against the openpyxl program of 1 as a whole process (interpreter and
#    import included).
# Usage: scripts/bench-xlsx.sh [STORIES]   (default 50000; needs the release build)
set -eu
cd "$(dirname "$0")/.."
ptmpl=build/release/tools/ptmpl/ptmpl
bench=build/release/tests/ptmpl_bench
stories=${1:-50000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ptmpl" gen --stories "$stories" --depth 1 -o "$work/gen.json"
"$ptmpl" convert "$work/gen.json" --to xlsx -o "$work/gen.xlsx" 2>/dev/null
cat > "$work/read.py" <<'PY'
import sys
import time
import openpyxl
start = time.perf_counter()
book = openpyxl.load_workbook(sys.argv[1], read_only=True)
cells = 0
for sheet in book.worksheets:
    for row in sheet.iter_rows(values_only=True):
        cells += sum(1 for value in row if value is not None)
print(cells, round((time.perf_counter() - start) * 1000))
PY
now() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for f in read-ptmpl convert-ptmpl read-openpyxl whole-ptmpl whole-openpyxl; do : > "$work/$f.ms"; done
for run in 1 2 3 4 5; do
  if [ "$stories" = 50000 ]; then
    # One benchmark a run: the CSV report of two with different counters fails.
    for b in ReadCells Convert; do
      "$bench" --benchmark_filter="^BM_Xlsx${b}50k\$" --benchmark_min_time=1 --benchmark_format=csv 2>/dev/null
    done > "$work/bench.csv"
    awk -F, '/BM_XlsxReadCells50k/ {printf "%d\n", $3 + 0.5}' "$work/bench.csv" >> "$work/read-ptmpl.ms"
    awk -F, '/BM_XlsxReadCells50k/ {print $NF}' "$work/bench.csv" > "$work/cells-ptmpl"
    awk -F, '/BM_XlsxConvert50k/ {printf "%d\n", $3 + 0.5}' "$work/bench.csv" >> "$work/convert-ptmpl.ms"
  fi
  /usr/bin/python3 "$work/read.py" "$work/gen.xlsx" > "$work/py.out"
  awk '{print $2}' "$work/py.out" >> "$work/read-openpyxl.ms"
  awk '{print $1}' "$work/py.out" > "$work/cells-openpyxl"
  t0=$(now); "$ptmpl" convert "$work/gen.xlsx" > /dev/null 2>&1; t1=$(now)
  echo $(( (t1 - t0) / 1000000 )) >> "$work/whole-ptmpl.ms"
  t0=$(now); /usr/bin/python3 "$work/read.py" "$work/gen.xlsx" > /dev/null; t1=$(now)
  echo $(( (t1 - t0) / 1000000 )) >> "$work/whole-openpyxl.ms"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f×", a / b}'; }
echo "| a workbook of $stories stories ($(wc -c < "$work/gen.xlsx") bytes) | ptmpl ms | openpyxl ms | ratio |"
echo "|---|---|---|---|"
if [ -s "$work/read-ptmpl.ms" ]; then
  rp=$(median < "$work/read-ptmpl.ms")
  ro=$(median < "$work/read-openpyxl.ms")
  cp=$(median < "$work/convert-ptmpl.ms")
  echo "| every cell of every sheet, in process ($(cat "$work/cells-ptmpl") and $(cat "$work/cells-openpyxl") cells) | $rp | $ro | $(ratio "$ro" "$rp") |"
  echo "| in process: ptmpl converting to a template (BM_XlsxConvert50k), openpyxl reading every cell | $cp | $ro | $(ratio "$ro" "$cp") |"
fi
wp=$(median < "$work/whole-ptmpl.ms")
wo=$(median < "$work/whole-openpyxl.ms")
echo "| whole process: ptmpl convert to a template, openpyxl reading every cell | $wp | $wo | $(ratio "$wo" "$wp") |"
