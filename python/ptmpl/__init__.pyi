# Type stubs of the package ptmpl (docs/python.md).
import datetime
import os
from typing import Any, Iterable, Literal, Optional, Sequence, TypedDict, Union

Source = Union[str, bytes, bytearray, memoryview, os.PathLike[str], dict[str, Any], list[Any]]
DateLike = Union[str, datetime.date, None]

class Error(Exception):
    kind: str
    exit_code: int
    message: str
    def __init__(self, message: str) -> None: ...

class UsageError(Error, ValueError): ...
class Unreadable(Error, OSError): ...
class InputInvalid(Error, ValueError): ...
class OutputFailed(Error, OSError): ...
class NotFound(Error, FileNotFoundError): ...
class Conflict(Error): ...
class NetworkError(Error): ...
class Insecure(Error): ...
class ServiceError(Error): ...
class InternalError(Error): ...

class Finding(dict[str, Any]):
    path: str
    line: int
    column: int
    severity: Literal["error", "warning", "info"]
    rule: str
    message: str
    pointer: str
    def __hash__(self) -> int: ...

class Summary(TypedDict):
    error: int
    warning: int
    info: int

class Report(TypedDict):
    files: int
    diagnostics: list[Finding]
    summary: Summary

class Conversion(dict[str, Any]):
    document: Union[str, bytes, None]
    failed: bool
    def __init__(self, report: dict[str, Any], document: Union[str, bytes, None], failed: bool) -> None: ...
    @property
    def findings(self) -> list[Finding]: ...

class Scheduled(dict[str, Any]):
    warnings: tuple[str, ...]
    def __init__(self, document: dict[str, Any], warnings: Sequence[str]) -> None: ...

class Rule(TypedDict):
    id: str
    severity: Literal["error", "warning", "info"]
    fix: Literal["safe", "unsafe", "none"]
    summary: str

def lint(path_or_text: Source, config: Union[str, os.PathLike[str], dict[str, Any], bool, None] = ...,
         select: Union[str, Iterable[str], None] = ..., *, name: Optional[str] = ...) -> Report: ...
def format(text: Union[str, bytes]) -> str: ...
def convert(path_or_bytes: Source, to: Optional[Literal["template", "mspdi", "csv", "xlsx"]] = ...,
            strict: bool = ..., allow: Iterable[str] = ..., start: DateLike = ..., *,
            name: Optional[str] = ...) -> Conversion: ...
def schedule(template: Source, start: DateLike = ..., asap: bool = ..., finish: DateLike = ..., *,
             name: Optional[str] = ...) -> Scheduled: ...
def stats(template: Source, start: DateLike = ..., asap: bool = ..., finish: DateLike = ..., *,
          name: Optional[str] = ...) -> Scheduled: ...
def schema(name: Literal["raw_json", "template", "config"]) -> dict[str, Any]: ...
def rules() -> list[Rule]: ...
