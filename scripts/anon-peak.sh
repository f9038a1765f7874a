#!/bin/sh
# The exact peak of a command's anonymous memory (its heap, the files it reads into memory, its
# arenas: what it allocates, not the code it maps), in KiB, on standard output; the command's own
# output is discarded. Resident memory can only shrink at munmap, madvise, mremap, brk and exit,
# so the command runs under gdb, stopped at each of those system calls, where the kernel's page
# tables are read (/proc/PID/smaps_rollup, "Anonymous:") rather than its counters: the peak
# resident size that getrusage and /usr/bin/time report is kept per CPU in batches and misses
# up to a few hundred KiB, and it includes the program's code, which pages in as the run goes
# on (so a small input's peak falls at the end of the run, a large one's in the middle).
# Usage: scripts/anon-peak.sh COMMAND [ARGS…]   (needs gdb with Python; slow: a stop per call)
set -eu
[ $# -gt 0 ] || { echo "usage: scripts/anon-peak.sh COMMAND [ARGS…]" >&2; exit 2; }
command -v gdb >/dev/null 2>&1 || { echo "anon-peak.sh: needs gdb" >&2; exit 2; }
script=$(mktemp --suffix=.py)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'PY'
import gdb

gdb.execute("set pagination off")
gdb.execute("catch syscall munmap madvise mremap brk exit_group")
gdb.execute("set inferior-tty /dev/null")
gdb.execute("run")
peak = 0
while True:
    pid = gdb.selected_inferior().pid
    if pid == 0:
        break
    try:
        with open("/proc/%d/smaps_rollup" % pid) as rollup:
            for line in rollup:
                if line.startswith("Anonymous:"):
                    peak = max(peak, int(line.split()[1]))
        gdb.execute("continue", to_string=True)
    except (gdb.error, OSError):
        break
print("ANON_PEAK_KIB %d" % peak)
PY
gdb -q -batch -x "$script" --args "$@" 2>/dev/null | sed -n 's/^ANON_PEAK_KIB //p'
