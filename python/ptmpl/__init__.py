"""ptmpl for Python: lint, format, convert, schedule and summarise project templates.

Each function gives what ``ptmpl COMMAND --format json`` prints for the same input, as plain
Python values: dicts and lists in the shapes of that JSON, the findings among them as
``Finding`` objects (frozen dicts whose keys are also attributes). ``json.dumps`` takes every
result. A failure raises a subclass of ``ptmpl.Error`` named by its kind, with the message the
command prints and its exit code. The work runs without the GIL: calls on several threads run
at once, on every core.

A template (or plan) is given as:

- a path: ``pathlib.Path`` or any ``os.PathLike``, or a ``str`` that does not start (after
  whitespace) with ``{``, ``[`` or ``<``;
- text: a ``str`` that does start with one of those (JSON, or XML for ``convert``);
- ``bytes``: the file's content (a ``.mpp`` or a workbook too);
- a ``dict`` or ``list``: the template itself, written with ``json.dumps(indent=2)`` first.

Content is named ``-`` in findings and messages, or ``name=`` (as ``--stdin-filename``: lint
looks for the ``.ptmpl.json`` nearest it; a plan without a title is titled after it).

See docs/python.md.
"""

from __future__ import annotations

import datetime
import json
import os
from typing import Any, Iterable, Optional, Sequence, Union

from . import _ptmpl

__all__ = [
    "lint", "format", "convert", "schedule", "stats", "health", "schema", "rules",
    "Finding", "Conversion", "Scheduled",
    "Error", "UsageError", "Unreadable", "InputInvalid", "OutputFailed", "NotFound", "Conflict",
    "NetworkError", "Insecure", "ServiceError", "InternalError",
]


# --- errors ---------------------------------------------------------------------------------

class Error(Exception):
    """A call could not do what it was asked.

    ``message`` is what the command line prints after ``ptmpl COMMAND:``, ``kind`` the kind
    of failure (``"not-found"``, ...), ``exit_code`` the command's exit code for it
    (docs/semantics.md: 2 for a local problem, 3 for the service or the network).
    """

    kind = "internal"
    exit_code = 2

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class UsageError(Error, ValueError):
    """An argument asks for something impossible: an unknown rule, format or schema, a bad date."""
    kind = "usage"


class Unreadable(Error, OSError):
    """An input could not be read (permission, a folder, an I/O error)."""
    kind = "unreadable"


class InputInvalid(Error, ValueError):
    """An input was read but is not what it must be (syntax, shape, a plan where a template is needed)."""
    kind = "invalid"


class OutputFailed(Error, OSError):
    """What was asked for could not be made or written."""
    kind = "output-failed"


class NotFound(Error, FileNotFoundError):
    """The file (or configuration) named does not exist."""
    kind = "not-found"


class Conflict(Error):
    """Two things collide: a file changed while it was read, a name given twice."""
    kind = "conflict"


class NetworkError(Error):
    """No complete response arrived from the service."""
    kind = "network"
    exit_code = 3


class Insecure(Error):
    """A connection cannot be made as asked (a certificate that does not verify)."""
    kind = "insecure"
    exit_code = 3


class ServiceError(Error):
    """The service refused the request or answered something unusable."""
    kind = "service"
    exit_code = 3


class InternalError(Error):
    """A defect of ptmpl's own."""
    kind = "internal"


_ERRORS = {cls.kind: cls for cls in (UsageError, Unreadable, InputInvalid, OutputFailed, NotFound, Conflict,
                                     NetworkError, Insecure, ServiceError, InternalError)}


def _call(function, *args):
    """``function(*args)`` of the extension, its failure raised as the Error of its kind."""
    try:
        return function(*args)
    except _ptmpl.ToolkitError as failure:
        kind, message, exit_code = failure.args
        error = _ERRORS.get(kind, InternalError)(message)
        error.exit_code = exit_code
        raise error from None


# --- results --------------------------------------------------------------------------------

class _FrozenDict(dict):
    """A dict that cannot be changed, its keys also read as attributes."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def _frozen(self, *args, **kwargs):
        raise TypeError(f"{type(self).__name__} cannot be changed")

    __setitem__ = __delitem__ = __ior__ = _frozen
    clear = pop = popitem = setdefault = update = _frozen

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))

    def __reduce__(self):
        return (type(self), (dict(self),))


class Finding(_FrozenDict):
    """A finding of lint or of a conversion: ``rule``, ``severity``, ``message``, ``path``,
    ``line`` and ``column`` (1-based; 0 for the whole file), ``pointer`` (a JSON pointer).

    A frozen dict with the keys and order ``--format json`` gives a diagnostic, so it compares
    equal to that JSON parsed and ``json.dumps`` writes it as the command does.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "Finding(" + ", ".join(f"{key}={value!r}" for key, value in self.items()) + ")"


class Conversion(dict):
    """What ``convert`` gives: the report ``ptmpl convert --format json`` prints on standard
    error (``files``, ``diagnostics`` as Findings, ``summary``) as the dict itself, and

    - ``document``: the converted document (``str``; ``bytes`` for ``to="xlsx"``), ``None``
      when ``failed``;
    - ``findings``: the report's ``diagnostics``;
    - ``failed``: an error finding under ``strict``: nothing converted.

    ``json.dumps(conversion)`` writes the report; the document is written where it is wanted.
    """

    def __init__(self, report: dict, document: Union[str, bytes, None], failed: bool):
        super().__init__(report)
        self.document = document
        self.failed = failed

    @property
    def findings(self) -> list:
        return self["diagnostics"]


class Scheduled(dict):
    """What ``schedule`` and ``stats`` give: the JSON the command prints, as the dict itself,
    and ``warnings``, the lines the command writes on standard error beside it (a plan
    converted first, values read as absent, links that do not constrain)."""

    def __init__(self, document: dict, warnings: Sequence[str]):
        super().__init__(document)
        self.warnings = tuple(warnings)


def _report(text: str) -> dict:
    """A findings report's JSON, its diagnostics as Findings."""
    report = json.loads(text)
    report["diagnostics"] = [Finding(d) for d in report["diagnostics"]]
    return report


# --- inputs ---------------------------------------------------------------------------------

_TEXT_STARTS = ("{", "[", "<")

Source = Union[str, bytes, "os.PathLike[str]", dict, list]


def _is_text(value: str) -> bool:
    return value.lstrip().startswith(_TEXT_STARTS)


def _source(value: Source, what: str, name: Optional[str]) -> "tuple[str, Optional[bytes]]":
    """(path, None) for a file, (name or "-", bytes) for content."""
    data = None
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
    elif isinstance(value, str):
        path, data = (None, value.encode()) if _is_text(value) else (value, None)
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    elif isinstance(value, (dict, list)):
        data = json.dumps(value, indent=2, ensure_ascii=False).encode()
    else:
        raise TypeError(f"{what}: a path, text, bytes or a dict, not {type(value).__name__}")
    if data is None:
        if name is not None:
            raise TypeError(f"{what}: name is for text, bytes or a dict; a file is named by its path")
        return path, None
    return (os.fspath(name) if name is not None else "-"), data


def _date(value: Union[str, datetime.date, None], what: str = "start") -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime.date):
        return value.strftime("%Y-%m-%d")
    raise TypeError(f"{what}: a date or YYYY-MM-DD, not {type(value).__name__}")


def _names(value: Union[str, Iterable[str], None]) -> "list[str]":
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


# --- the calls ------------------------------------------------------------------------------

def lint(path_or_text: Source, config: Union[str, "os.PathLike[str]", dict, bool, None] = None,
         select: Union[str, Iterable[str], None] = None, *, name: Optional[str] = None) -> dict:
    """Lint a template as ``ptmpl lint FILE --format json`` does.

    ``config``: ``None`` finds the ``.ptmpl.json`` nearest the file (text has none); a path
    (``--config``), configuration text or a dict (the configuration itself); ``False``: none
    (``--no-config``). ``select``: rule ids, only whose findings are kept.

    Returns ``{"files": 1, "diagnostics": [Finding, ...], "summary": {"error": n,
    "warning": n, "info": n}}``. Text that is no JSON is a ``json-syntax`` finding, not an
    error. Raises NotFound or Unreadable for a file that cannot be read, InputInvalid for
    another program's plan (convert it) or a bad configuration, UsageError for an unknown rule.
    """
    path, data = _source(path_or_text, "lint", name)
    config_path = config_text = None
    if isinstance(config, (dict, list)) or (isinstance(config, str) and _is_text(config)):
        config_text = config if isinstance(config, str) else json.dumps(config)
    elif config is not None and config is not False and config is not True:
        config_path = os.fspath(config)
    return _report(_call(_ptmpl.lint, path, data, config_path, config_text, config is not False, _names(select)))


def format(text: Union[str, bytes]) -> str:  # noqa: A001 (the command's name)
    """The canonical form of the template ``text``, as ``ptmpl fmt`` prints it.

    Raises InputInvalid, with the finding ``ptmpl fmt`` prints (``-:1:5: error: ...
    [json-syntax]``), for text that is no JSON, and for another program's plan.
    """
    if isinstance(text, str):
        text = text.encode()
    elif not isinstance(text, bytes):
        raise TypeError(f"format: text or bytes, not {type(text).__name__}")
    return _call(_ptmpl.format, text)


def convert(path_or_bytes: Source, to: Optional[str] = None, strict: bool = False, allow: Iterable[str] = (),
            start: Union[str, datetime.date, None] = None, *, name: Optional[str] = None) -> Conversion:
    """Convert as ``ptmpl convert FILE [--to TO] --format json`` does.

    Without ``to`` (or ``"template"``): a plan of any format ptmpl reads (MS Project ``.mpp``
    or XML, GanttProject, CSV, an Excel workbook, a Primavera P6 XER or PMXML export; told
    from the content) into a template document. ``to="mspdi"``, ``"csv"`` or ``"xlsx"``: a
    template into MS Project XML, CSV or an Excel workbook. ``strict``: every approximation
    or loss is an error and nothing is converted, but for the finding ids in ``allow``.
    ``start`` (mspdi, xlsx): the date of day 0, else the template's calendar block's.

    Returns a Conversion: the findings report as a dict, the document as ``.document``
    (``str``; ``bytes`` for xlsx). Raises NotFound or Unreadable for a file that cannot be
    read, InputInvalid or UsageError for an input that is not what ``to`` converts from,
    UsageError for a ``to``, ``start`` or ``allow`` that names nothing.
    """
    path, data = _source(path_or_bytes, "convert", name)
    to = to or "template"
    document, report, failed = _call(_ptmpl.convert, path, data, to, strict, _names(allow), _date(start))
    if failed:
        document = None
    elif to != "xlsx":
        document = document.decode()
    return Conversion(_report(report), document, failed)


def schedule(template: Source, start: Union[str, datetime.date, None] = None, asap: bool = False,
             finish: Union[str, datetime.date, None] = None, *, name: Optional[str] = None) -> Scheduled:
    """The schedule of a template, as ``ptmpl schedule FILE --format json`` prints it.

    ``start``: day 0 (dates are shown), else the calendar block's, else working-day offsets.
    ``asap``: ignore declared start dates. ``finish`` (not with ``start``): a deadline; day 0
    is the latest start for which the project ends on it, and the project gains ``finish``
    and ``latest_start`` (``--finish``). A plan file (not bytes) is converted first.

    Returns ``{"project": {...}, "stories": [...]}`` with ``.warnings``. Raises InputInvalid
    for no template, a calendar block with a problem or a dependency cycle (a line each),
    NotFound or Unreadable for a file that cannot be read, UsageError for a bad ``start``.
    """
    path, data = _source(template, "schedule", name)
    document, warnings = _call(_ptmpl.schedule, path, data, _date(start), asap, _date(finish, "finish"))
    return Scheduled(json.loads(document), warnings)


def stats(template: Source, start: Union[str, datetime.date, None] = None, asap: bool = False,
          finish: Union[str, datetime.date, None] = None, *, name: Optional[str] = None) -> Scheduled:
    """The totals of a template, as ``ptmpl stats FILE --format json`` prints them
    (``item_count``, ``duration``, ``budget_in_cents``, ...), with ``.warnings``; ``finish``
    as for ``schedule``.

    Fails as ``schedule`` does, and (InputInvalid) on an estimate whose total is no amount.
    """
    path, data = _source(template, "stats", name)
    document, warnings = _call(_ptmpl.stats, path, data, _date(start), asap, _date(finish, "finish"))
    return Scheduled(json.loads(document), warnings)


def health(template: Source, config: Union[str, "os.PathLike[str]", bool, None] = None, *,
           name: Optional[str] = None) -> Scheduled:
    """The schedule-health assessment (the DCMA 14-point checks a plan without progress can
    answer), as ``ptmpl health FILE --format json`` prints it, with ``.warnings``.

    ``config``: ``None`` (or ``True``) takes the thresholds of the ``.ptmpl.json`` nearest the
    file (text has none), a path those of that configuration (``--config``), ``False`` DCMA's
    (``--no-config``). A plan file (not bytes) is converted first. Fails as ``schedule``
    does, and (InputInvalid) on a configuration that cannot be read or is invalid.
    """
    path, data = _source(template, "health", name)
    config_path = None if config is None or isinstance(config, bool) else os.fspath(config)
    document, warnings = _call(_ptmpl.health, path, data, config_path, config is not False)
    return Scheduled(json.loads(document), warnings)


def schema(name: str) -> dict:
    """The JSON Schema ``raw_json``, ``template`` or ``config`` (``ptmpl schema NAME``), parsed.

    Raises UsageError for another name.
    """
    return json.loads(_call(_ptmpl.schema, name))


def rules() -> "list[dict]":
    """Every lint rule, sorted by id, as ``ptmpl rules`` lists them: dicts with ``id``,
    ``severity`` (its default), ``fix`` (``"safe"``, ``"unsafe"`` or ``"none"``), ``summary``
    and ``group`` (``""``, or the group of rules that are off until selected:
    ``"schedule-health"``)."""
    return _ptmpl.rules()
