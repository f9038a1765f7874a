#!/usr/bin/python3
"""Makes the workbooks tests/unit/convert_xlsx_read_test.cpp reads, each by a writer other than
ptmpl: openpyxl (/usr/bin/python3, python3-openpyxl 3.0.9) and LibreOffice Calc (soffice
--headless, from the .fods sources here). Run from this folder; the outputs are committed so that
the tests need neither. The hostile archives are made from openpyxl's output with zipfile."""
import datetime
import os
import shutil
import struct
import subprocess
import tempfile
import zipfile

import openpyxl

HERE = os.path.dirname(os.path.abspath(__file__))


def out(name):
    return os.path.join(HERE, name)


def generic():
    """A generic plan sheet after a sheet without a plan: header on row 3, WBS codes, shared strings."""
    wb = openpyxl.Workbook()
    notes = wb.active
    notes.title = "Notes"
    notes["A1"] = "Kick-off notes"
    plan = wb.create_sheet("Plan")
    plan["A1"] = "Office move"
    plan.append([])
    plan.append(["WBS", "Task Name", "Planned Start", "Due", "Duration", "Depends on", "Owner", "Budget", "Actual Start"])
    rows = [
        ("1", "Prepare", datetime.datetime(2025, 3, 3), None, None, None, None, None, None),
        ("1.1", "Survey", datetime.datetime(2025, 3, 3), "2025-03-07", "5 days", None, "Ann", 1200.5, "2025-03-03"),
        ("1.2", "Plan seating", datetime.datetime(2025, 3, 10), "March 12, 2025 17:00", "3d", "1.1", "Ann, Bob", None, None),
        ("2", "Move", None, None, "2d", "1.2FS+1 days", "Crew[50%]", "n/a", None),
    ]
    for r in rows:
        plan.append(list(r))
    for row in plan.iter_rows(min_row=4, max_row=7, min_col=3, max_col=3):
        for c in row:
            c.number_format = "yyyy-mm-dd"
    plan["E7"] = "=1+1"  # a formula openpyxl writes without a cached value
    wb.save(out("openpyxl_generic.xlsx"))


def task_table():
    """MS Project's "export to Excel" layout, synthesized (no MS Project here)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Task_Table"
    ws.append(["ID", "Name", "Duration", "Start", "Finish", "Outline Level", "Predecessors", "Resource Names"])
    ws.append([1, "Build", "12 days", "February 17, 2025 8:00", "March 4, 2025 17:00", 1, None, None])
    ws.append([2, "Design", "0.75d", "February 17, 2025 8:00", "February 17, 2025 14:00", 2, None, "Ann"])
    ws.append([3, "Review", "6h", "Mon 2/17/25", "February 18, 2025 12:00", 2, "2", "Bob"])
    ws.append([4, "Write", "5 days", "February 18, 2025 8:00", "February 24, 2025 17:00", 2, "3FS+2 days;2", "Ann,Bob"])
    ws.append([5, "Ship", "451d?", datetime.datetime(2025, 2, 25, 8, 0), None, 1, "4SS-1d", None])
    ws["D6"].number_format = "yyyy-mm-dd hh:mm"
    wb.save(out("openpyxl_task_table.xlsx"))


def grouped_and_levels():
    """Hierarchy from the rows' outline grouping (sheet Grouped) and from one column per level (Levels)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Grouped"
    ws.append(["Activity", "Start", "Duration"])
    for name, level in [("Phase A", 0), ("A1", 1), ("A1a", 2), ("A2", 1), ("Phase B", 0)]:
        ws.append([name, datetime.date(2025, 5, 5), 2])
        ws.row_dimensions[ws.max_row].outline_level = level
    for r in range(2, 7):
        ws.cell(r, 2).number_format = "d mmm yyyy"
    lv = wb.create_sheet("Levels")
    lv.append(["Level 1", "Level 2", "Level 3", "Effort", "Mystery"])
    lv.append(["Design", None, None, None, "x"])
    lv.append([None, "Sketch", None, 16, None])
    lv.append([None, None, "Pencil", 4, None])
    lv.append(["Build", None, None, "2d", None])
    wb.save(out("openpyxl_grouped.xlsx"))


def export_layout():
    """ptmpl's own layout: sheet Stories with the CSV columns, dates as date cells."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Stories"
    ws.append(["level", "temp_id", "title", "type", "start", "start_date", "due", "due_date", "duration",
               "predecessors", "budget", "time_estimate_minutes", "tags", "description"])
    ws.append([1, 1, "Design", "task", 0, datetime.date(2025, 3, 3), 4, datetime.date(2025, 3, 7), 5, None, 1500.5,
               240, "ux", None])
    ws.append([2, 2, "Sketch", "task", 0, datetime.date(2025, 3, 3), 1, datetime.date(2025, 3, 4), 2, None, None,
               None, None, "first pass"])
    ws.append([1, 3, "Build", "milestone", 5, datetime.date(2025, 3, 10), None, None, None, "1FS+1", None, None,
               None, None])
    for r in range(2, 5):
        for c in (6, 8):
            ws.cell(r, c).number_format = "yyyy-mm-dd"
    ws["O1"] = "colour"
    wb.save(out("openpyxl_export.xlsx"))


def serial_dates():
    """1900-system serials by hand: 59 (1900-02-28), 60 (the day that never was), 61 (1900-03-01)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Dates"
    ws.append(["Task", "Start", "Duration"])
    for name, serial in [("Before", 59), ("Never", 60), ("After", 61), ("Early", 1)]:
        ws.append([name, serial, 1])
        ws.cell(ws.max_row, 2).number_format = "yyyy-mm-dd"
    wb.save(out("openpyxl_serials.xlsx"))


def libreoffice():
    """LibreOffice Calc from .fods: the 1904 date system, formulas with cached values, shared strings."""
    profile = tempfile.mkdtemp(prefix="lo-prof-")
    try:
        subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{profile}", "--convert-to", "xlsx",
                        "--outdir", HERE, out("libreoffice_1904.fods")], check=True, capture_output=True)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def rewrite(source, target, change):
    """Copies the archive `source` to `target`, each entry's bytes through change(name, data)."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = change(item.filename, zin.read(item.filename))
            if data is not None:
                zout.writestr(item.filename, data)


def hostile():
    base = out("openpyxl_export.xlsx")
    # A shared string index out of range (openpyxl 3.0.9 writes inline strings; LibreOffice shared
    # ones): the task name in A2 names string 999.
    def bad_index(name, data):
        if name == "xl/worksheets/sheet1.xml":
            changed = data.replace(b'<c r="A2" s="0" t="s"><v>5</v>', b'<c r="A2" s="0" t="s"><v>999</v>', 1)
            assert changed != data
            return changed
        return data
    rewrite(out("libreoffice_1904.xlsx"), out("hostile_shared_string.xlsx"), bad_index)
    # An extra entry named ../x (never a path: the reader only looks parts up).
    rewrite(base, out("hostile_dotdot.xlsx"), lambda n, d: d)
    with zipfile.ZipFile(out("hostile_dotdot.xlsx"), "a") as z:
        z.writestr("../x", b"outside")
        z.writestr("/etc/x", b"absolute")
    # The sheet declares 1 GB uncompressed, in its local header and the central directory.
    data = bytearray(open(base, "rb").read())
    name = b"xl/worksheets/sheet1.xml"
    for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = 0
        while (at := data.find(signature, at)) >= 0:
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at:name_at + len(name)] == name:
                struct.pack_into("<I", data, at + size_at, 1 << 30)
            at += 4
    open(out("hostile_declared_1gb.xlsx"), "wb").write(bytes(data))
    # A zip bomb: a sheet of 300 MiB of blanks (inside a cell) deflates to about 300 KB; smaller here:
    # 8 MiB, which the test reads with a 1 MiB cap, and which the converter reads in full.
    def bomb(name, data):
        if name == "xl/worksheets/sheet1.xml":
            return data.replace(b"<sheetData>", b"<sheetData>" + b" " * (8 << 20), 1)
        return data
    rewrite(base, out("hostile_bomb.xlsx"), bomb)
    open(out("not_a_zip.xlsx"), "wb").write(b"level,title\n1,Not a workbook\n")


if __name__ == "__main__":
    generic()
    task_table()
    grouped_and_levels()
    export_layout()
    serial_dates()
    libreoffice()
    hostile()
