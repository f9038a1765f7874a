# A template given as a path, text, bytes or a dict gives the same; every result goes through
# json.dumps; findings are frozen; calls on several threads give what they give one at a time,
# and a call lets other threads run (how much faster two threads are: scripts/bench-python.py,
# docs/performance.md).
import concurrent.futures
import json
import pathlib
import pickle
import subprocess
import threading
import time

import pytest

import ptmpl
from conftest import PTMPL, TEMPLATES

SAMPLE = "samples/software-release.json"


def test_a_template_as_path_text_bytes_or_dict():
    text = pathlib.Path(SAMPLE).read_text(encoding="utf-8")
    forms = [SAMPLE, pathlib.Path(SAMPLE), text, text.encode(), json.loads(text)]
    for call in (ptmpl.schedule, ptmpl.stats):
        results = [call(form, start="2027-01-04") for form in forms]
        assert all(result == results[0] for result in results[1:]), call.__name__
    # lint: a clean template has no findings in any form; positions name the text as given.
    assert all(ptmpl.lint(form)["summary"] == {"error": 0, "warning": 0, "info": 0} for form in forms)
    assert ptmpl.lint(text.encode(), name=SAMPLE) == ptmpl.lint(SAMPLE)
    assert ptmpl.lint("  \n" + text, name=SAMPLE)["files"] == 1
    # A str that does not start with {, [ or < is a path.
    with pytest.raises(ptmpl.NotFound):
        ptmpl.lint("title: not json")


def test_xlsx_gives_bytes_of_a_workbook():
    workbook = ptmpl.convert(SAMPLE, to="xlsx", start="2027-01-04")
    assert isinstance(workbook.document, bytes) and workbook.document.startswith(b"PK\x03\x04")
    back = ptmpl.convert(workbook.document, name="software-release.xlsx")
    assert isinstance(back.document, str) and '"Release scope & roadmap review"' in back.document


def test_json_dumps_takes_every_result():
    results = [ptmpl.lint("samples/lint-demo-broken.json"), ptmpl.convert("tests/data/mspdi/losses.xml"),
               ptmpl.convert(SAMPLE, to="xlsx"), ptmpl.schedule(SAMPLE), ptmpl.stats(SAMPLE),
               ptmpl.schema("template"), ptmpl.rules()]
    for result in results:
        assert json.loads(json.dumps(result)) == result


def test_findings_are_frozen():
    finding = ptmpl.lint("samples/lint-demo-broken.json")["diagnostics"][0]
    assert (finding.rule, finding.severity, finding.line) == (finding["rule"], finding["severity"], finding["line"])
    assert list(finding) == ["path", "line", "column", "severity", "rule", "message", "pointer"]
    for change in (lambda: finding.__setitem__("rule", "x"), lambda: finding.update(rule="x"),
                   lambda: finding.pop("rule"), finding.clear):
        with pytest.raises(TypeError):
            change()
    with pytest.raises(AttributeError):
        finding.rule = "x"
    assert pickle.loads(pickle.dumps(finding)) == finding
    assert len({finding, ptmpl.Finding(dict(finding))}) == 1


def test_threads_give_what_one_gives():
    paths = TEMPLATES * 3
    one = [json.dumps(ptmpl.lint(p)) if not p.endswith("cycle.json") else None for p in paths]
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        many = list(pool.map(lambda p: json.dumps(ptmpl.lint(p)) if not p.endswith("cycle.json") else None, paths))
    assert many == one
    plans = ["tests/data/mspdi/losses.xml", "tests/data/gan/features.gan",
             "tests/data/mpp/corpus/mpxj__task-links-project2016-mpp14.mpp"] * 4
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        converted = list(pool.map(lambda p: ptmpl.convert(p).document, plans))
    assert converted == [ptmpl.convert(p).document for p in plans]
    # Workbooks (libxlsxwriter, a private temporary folder each) on several threads at once.
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        workbooks = list(pool.map(lambda _: ptmpl.convert(SAMPLE, to="xlsx"), range(12)))
    alone = ptmpl.convert(SAMPLE, to="xlsx")
    assert all(w == alone and w.document.startswith(b"PK\x03\x04") for w in workbooks)
    assert {ptmpl.convert(w.document, name="w.xlsx").document for w in workbooks} == \
        {ptmpl.convert(alone.document, name="w.xlsx").document}


def test_a_call_lets_other_threads_run():
    # While a thread is inside a long call, the main thread keeps running Python. Were the GIL
    # held through the call, the main thread could run only before it or after it returned (a
    # switch interval, 5 ms, at most), so the span of its ticks would be a sliver of the call's.
    big = subprocess.run([PTMPL, "gen", "--stories", "20000", "--depth", "3", "--seed", "1"],
                         capture_output=True, check=True).stdout
    started = threading.Event()
    took = []

    def work():
        started.set()
        began = time.perf_counter()
        ptmpl.lint(big, config=False)
        took.append(time.perf_counter() - began)

    worker = threading.Thread(target=work)
    worker.start()
    started.wait()
    first = last = time.perf_counter()
    while worker.is_alive():
        last = time.perf_counter()
    worker.join()
    assert took[0] > 0.05, "the call was too short to tell"
    assert last - first > 0.5 * took[0], (last - first, took[0])
