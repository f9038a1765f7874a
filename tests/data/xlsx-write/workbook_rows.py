"""Prints what independent software reads in files, as JSON, for the workbook writer's tests.

  workbook_rows.py xlsx FILE...  openpyxl's reading of each workbook: per sheet, its cells as
                                 text (a date as YYYY-MM-DD, a whole number without a point), each
                                 cell's type (s: string, n: number, d: a date), each row's outline
                                 level and the frozen pane
  workbook_rows.py csv FILE...   Python's csv module's reading of each CSV file (a byte order
                                 mark skipped)

Output: {"FILE": ...} in the order of the files.
"""
import csv
import datetime
import json
import sys


def cell_text(value):
    if value is None:
        return ""
    if isinstance(value, (datetime.datetime, datetime.date)):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def cell_type(cell):
    if cell.value is None:
        return ""
    if cell.is_date:
        return "d"
    return "s" if cell.data_type in ("s", "inlineStr") else cell.data_type


def workbook(path):
    import openpyxl

    book = openpyxl.load_workbook(path)
    sheets = {}
    for sheet in book.worksheets:
        rows = list(sheet.iter_rows())
        sheets[sheet.title] = {
            "rows": [[cell_text(c.value) for c in row] for row in rows],
            "types": [[cell_type(c) for c in row] for row in rows],
            "outline": [sheet.row_dimensions[r + 1].outline_level for r in range(len(rows))],
            "freeze": sheet.freeze_panes or "",
            "summary_below": bool(sheet.sheet_properties.outlinePr.summaryBelow)
            if sheet.sheet_properties.outlinePr is not None
            else True,
        }
    return {"sheets": sheets, "order": [s.title for s in book.worksheets]}


def csv_rows(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.reader(f))


def main():
    mode, paths = sys.argv[1], sys.argv[2:]
    read = workbook if mode == "xlsx" else csv_rows
    json.dump({path: read(path) for path in paths}, sys.stdout)


if __name__ == "__main__":
    main()
