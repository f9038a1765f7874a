#!/usr/bin/python3
"""The Python module's figures (docs/performance.md, "Python module"), run by the system's Python
from the repository's root after `make build` (and `cmake --build --preset release --target
ptmpl_bench` for the C++ figure):

    scripts/bench-python.py

1. per call, ptmpl.lint of a small sample template: in Python, in the C++ toolkit
   (BM_ToolkitLint of tests/bench/), and running `ptmpl lint --format json` as a subprocess;
2. ptmpl.lint of 1,000 small templates (ptmpl gen, 20 stories each) from 1 and from 2 threads.
"""

import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

BUILD = "build/release"
sys.path.insert(0, os.path.join(BUILD, "python"))
import ptmpl  # noqa: E402

PTMPL = os.path.join(BUILD, "tools/ptmpl/ptmpl")
BENCH = os.path.join(BUILD, "tests/ptmpl_bench")
SAMPLE = "samples/software-release.json"


def per_call(function, count):
    function()
    start = time.perf_counter()
    for _ in range(count):
        function()
    return (time.perf_counter() - start) / count


def main():
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    python = per_call(lambda: ptmpl.lint(SAMPLE), 2000)
    print(f"ptmpl.lint({SAMPLE}): {python * 1e6:.0f} us a call")
    if os.path.exists(BENCH):
        run = subprocess.run([BENCH, "--benchmark_filter=BM_ToolkitLint$", "--benchmark_format=json"],
                             capture_output=True, check=True)
        cpp = json.loads(run.stdout)["benchmarks"][0]["real_time"] * 1e-6  # microseconds
        print(f"toolkit::lint (C++, BM_ToolkitLint): {cpp * 1e6:.0f} us a call; "
              f"the module adds {(python - cpp) * 1e6:.0f} us")
    process = per_call(lambda: subprocess.run([PTMPL, "lint", SAMPLE, "--format", "json"], capture_output=True),
                       200)
    print(f"subprocess ptmpl lint --format json: {process * 1e6:.0f} us a call ({process / python:.1f}x)")

    with tempfile.TemporaryDirectory() as folder:
        paths = [os.path.join(folder, f"t{i}.json") for i in range(1000)]
        for seed, path in enumerate(paths, 1):
            subprocess.run([PTMPL, "gen", "--stories", "20", "--depth", "2", "--seed", str(seed), "-o", path],
                           check=True)
        times = {}
        for threads in (1, 2, 1, 2):
            start = time.perf_counter()
            with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
                results = list(pool.map(ptmpl.lint, paths))
            elapsed = time.perf_counter() - start
            times[threads] = min(times.get(threads, elapsed), elapsed)
            assert len(results) == 1000
        print(f"1,000 templates, 1 thread: {times[1] * 1e3:.0f} ms; 2 threads: {times[2] * 1e3:.0f} ms "
              f"({times[1] / times[2]:.2f}x)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
