# Failures raise the ptmpl.Error subclass of their kind, with the command's message and exit code.
import os

import pytest

import ptmpl
from ptmpl import _ptmpl
from conftest import Cli, same_failure


def test_every_kind_of_failure_has_its_class():
    classes = {cls.kind: cls for cls in ptmpl.Error.__subclasses__()}
    assert sorted(classes) == sorted(_ptmpl.ERROR_KINDS)
    assert {kind: cls.exit_code for kind, cls in classes.items() if cls.exit_code != 2} == \
        {"network": 3, "insecure": 3, "service": 3}


@pytest.mark.parametrize("args, call, kind", [
    (["lint", "tests/data/no-such-file.json"], lambda: ptmpl.lint("tests/data/no-such-file.json"), ptmpl.NotFound),
    (["schedule", "tests/data/no-such-file.json"], lambda: ptmpl.schedule("tests/data/no-such-file.json"),
     ptmpl.NotFound),
    (["convert", "tests/data/no-such.mpp"], lambda: ptmpl.convert("tests/data/no-such.mpp"), ptmpl.NotFound),
    (["stats", "tests/data"], lambda: ptmpl.stats("tests/data"), ptmpl.Unreadable),
    (["lint", "tests/data/mspdi/features.xml"], lambda: ptmpl.lint("tests/data/mspdi/features.xml"),
     ptmpl.InputInvalid),
    (["schedule", "tests/data/schedule/cycle.json"], lambda: ptmpl.schedule("tests/data/schedule/cycle.json"),
     ptmpl.InputInvalid),
    (["convert", "samples/software-release.json"], lambda: ptmpl.convert("samples/software-release.json"),
     ptmpl.UsageError),
    (["lint", "samples/software-release.json", "--config", "no-such.ptmpl.json"],
     lambda: ptmpl.lint("samples/software-release.json", config="no-such.ptmpl.json"), ptmpl.NotFound),
])
def test_failures_say_what_the_command_says(args, call, kind):
    cli = Cli(*args)
    same_failure(cli, call)
    with pytest.raises(kind):
        call()


# An argument the command line checks as it parses its options is named as the caller gives it.
def test_usage_errors_of_arguments():
    with pytest.raises(ptmpl.UsageError, match='^start: "2027-13-01" is not a date'):
        ptmpl.schedule("samples/software-release.json", start="2027-13-01")
    with pytest.raises(ptmpl.UsageError, match="no-such-rule"):
        ptmpl.lint("samples/software-release.json", select=["no-such-rule"])
    with pytest.raises(ptmpl.UsageError, match="pdf"):
        ptmpl.convert("samples/software-release.json", to="pdf")
    with pytest.raises(ptmpl.UsageError, match="no-such-id"):
        ptmpl.convert("tests/data/mspdi/losses.xml", strict=True, allow=["no-such-id"])
    with pytest.raises(ptmpl.UsageError, match="raw_json, template and config"):
        ptmpl.schema("nope")
    with pytest.raises(TypeError):
        ptmpl.lint(42)
    with pytest.raises(TypeError):
        ptmpl.lint("samples/software-release.json", name="x.json")


def test_format_fails_with_the_finding_fmt_prints():
    cli = Cli("fmt", "-", stdin=b'{"title": "x", "raw_json": [')
    with pytest.raises(ptmpl.InputInvalid) as raised:
        ptmpl.format('{"title": "x", "raw_json": [')
    assert cli.exit == 2 and cli.err.startswith(raised.value.message + "\n")
    assert raised.value.message.startswith("-:1:")


def test_errors_are_also_the_builtin_kinds():
    with pytest.raises(FileNotFoundError):
        ptmpl.lint("tests/data/no-such-file.json")
    with pytest.raises(ValueError):
        ptmpl.schedule("tests/data/schedule/cycle.json")
    assert os.path.isdir("tests/data")
