#!/usr/bin/python3
"""Reads every stream of every compound file named on the command line, in one process, with
olefile (Debian's python3-olefile): the floor that perf-report.sh's mpp-batch section measures
ptmpl convert against. Prints the files and bytes read; a file olefile cannot open is counted."""
import sys

import olefile

files = streams = size = refused = 0
for path in sys.argv[1:]:
    try:
        with olefile.OleFileIO(path) as ole:
            for entry in ole.listdir(streams=True, storages=False):
                size += len(ole.openstream(entry).read())
                streams += 1
        files += 1
    except Exception:  # noqa: BLE001 - a file it cannot read is counted, not fatal
        refused += 1
print(f"{files} files, {streams} streams, {size} bytes read, {refused} refused")
