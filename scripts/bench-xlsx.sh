#!/bin/sh
# Reading a 50,000-story workbook: `ptmpl convert` of it (a whole process: read, every row mapped,
# the template made and written to standard output, here /dev/null, as openpyxl keeps nothing
# either: a file written with -o adds its fsync, a disk's time) against openpyxl loading the same
# workbook in read-only mode and reading every cell's value (the system's Python, Debian's
# python3-openpyxl), alternating, 5 runs each; medians in milliseconds. The workbook is one ptmpl writes: `ptmpl gen` makes a template
# of STORIES stories in one level, `ptmpl convert --to xlsx` exports it.
# Usage: scripts/bench-xlsx.sh [STORIES]   (default 50000; needs the release build)
set -eu
cd "$(dirname "$0")/.."
ptmpl=build/release/tools/ptmpl/ptmpl
stories=${1:-50000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ptmpl" gen --stories "$stories" --depth 1 -o "$work/gen.json"
"$ptmpl" convert "$work/gen.json" --to xlsx -o "$work/gen.xlsx"
cat > "$work/read.py" <<'PY'
import sys
import openpyxl
book = openpyxl.load_workbook(sys.argv[1], read_only=True)
cells = 0
for sheet in book.worksheets:
    for row in sheet.iter_rows(values_only=True):
        cells += sum(1 for value in row if value is not None)
print(cells)
PY
now() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
: > "$work/ptmpl.ms"
: > "$work/openpyxl.ms"
for run in 1 2 3 4 5; do
  t0=$(now); "$ptmpl" convert "$work/gen.xlsx" > /dev/null 2>&1; t1=$(now)
  echo $(( (t1 - t0) / 1000000 )) >> "$work/ptmpl.ms"
  t0=$(now); /usr/bin/python3 "$work/read.py" "$work/gen.xlsx" > /dev/null; t1=$(now)
  echo $(( (t1 - t0) / 1000000 )) >> "$work/openpyxl.ms"
done
p=$(median < "$work/ptmpl.ms")
o=$(median < "$work/openpyxl.ms")
echo "| reading a workbook of $stories stories ($(wc -c < "$work/gen.xlsx") bytes) | median ms |"
echo "|---|---|"
echo "| ptmpl convert (whole process) | $p |"
echo "| openpyxl, read-only, every cell | $o |"
echo "| ratio | $(awk -v a="$o" -v b="$p" 'BEGIN {printf "%.1f×", a / b}') |"
