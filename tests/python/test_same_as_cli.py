# Every function gives what the command prints with --format json for the same input (parsed),
# or fails with the command's message and exit code.
import datetime
import json

import pytest

import ptmpl
from conftest import PLANS, TEMPLATES, Cli, same_result


@pytest.mark.parametrize("path", TEMPLATES)
def test_lint(path):
    cli = Cli("lint", path, "--format", "json")
    linted = same_result(cli, lambda: ptmpl.lint(path))
    if linted is None:
        return
    assert linted == cli.json()
    assert all(isinstance(f, ptmpl.Finding) for f in linted["diagnostics"])
    assert json.loads(json.dumps(linted)) == cli.json()


def test_lint_a_folder_and_a_selection():
    assert ptmpl.lint("samples") == Cli("lint", "samples", "--format", "json").json()
    selected = ptmpl.lint("samples/lint-demo-broken.json", select=["title-missing"])
    every = Cli("lint", "samples/lint-demo-broken.json", "--format", "json").json()["diagnostics"]
    assert selected["diagnostics"] == [d for d in every if d["rule"] == "title-missing"]
    assert selected["diagnostics"]


def test_lint_with_a_configuration():
    config = "tests/data/config/project/.ptmpl.json"
    cli = Cli("lint", "samples/lint-demo-broken.json", "--format", "json", "--config", config)
    assert ptmpl.lint("samples/lint-demo-broken.json", config=config) == cli.json()
    with open(config, encoding="utf-8") as file:
        text = file.read()
    assert ptmpl.lint("samples/lint-demo-broken.json", config=text) == cli.json()
    assert ptmpl.lint("samples/lint-demo-broken.json", config=json.loads(text)) == cli.json()
    no_config = Cli("lint", "samples/lint-demo-broken.json", "--format", "json", "--no-config")
    assert ptmpl.lint("samples/lint-demo-broken.json", config=False) == no_config.json()


@pytest.mark.parametrize("path", TEMPLATES)
def test_format(path):
    with open(path, "rb") as file:
        text = file.read()
    cli = Cli("fmt", "-", stdin=text)
    if cli.exit != 0:
        assert cli.exit == 2
        with pytest.raises(ptmpl.InputInvalid) as raised:
            ptmpl.format(text)
        assert cli.err.startswith(raised.value.message)
        return
    assert ptmpl.format(text) == cli.out.decode()


@pytest.mark.parametrize("path", PLANS)
def test_convert(path):
    cli = Cli("convert", path, "--format", "json")
    converted = same_result(cli, lambda: ptmpl.convert(path))
    if converted is None:
        return
    assert converted == json.loads(cli.err)
    assert converted.findings == converted["diagnostics"]
    assert converted.failed == (cli.exit == 1)
    assert converted.document == cli.out.decode()
    with open(path, "rb") as file:
        from_bytes = ptmpl.convert(file.read(), name=path)
    assert from_bytes == converted
    assert from_bytes.document == converted.document


@pytest.mark.parametrize("to", ["mspdi", "csv"])
def test_convert_a_template(to):
    path = "samples/software-release.json"
    cli = Cli("convert", path, "--to", to, "--start", "2027-01-04", "--format", "json")
    converted = ptmpl.convert(path, to=to, start="2027-01-04")
    assert converted == json.loads(cli.err)
    assert converted.document == cli.out.decode()


def test_convert_strictly():
    path = "tests/data/mspdi/losses.xml"
    cli = Cli("convert", path, "--strict", "--format", "json")
    strict = ptmpl.convert(path, strict=True)
    assert cli.exit == 1 and strict.failed and strict.document is None
    assert strict == json.loads(cli.err)
    ids = sorted({f.rule for f in ptmpl.convert(path).findings})
    assert not ptmpl.convert(path, strict=True, allow=ids).failed


SCHEDULED = [p for p in TEMPLATES if not p.startswith("tests/data/rules/")] + \
    ["tests/data/mpp/corpus/mpxj__task-links-project2010-mpp14.mpp", "tests/data/mspdi/features.xml"]


@pytest.mark.parametrize("path", SCHEDULED)
@pytest.mark.parametrize("command", ["schedule", "stats"])
def test_schedule_and_stats(command, path):
    call = getattr(ptmpl, command)
    cli = Cli(command, path, "--format", "json", "--start", "2027-01-04")
    result = same_result(cli, lambda: call(path, start="2027-01-04"))
    if result is None:
        return
    assert result == cli.json()
    assert "".join(f"ptmpl {command}: {w}\n" for w in result.warnings) == cli.err
    asap = Cli(command, path, "--format", "json", "--asap")
    assert call(path, asap=True) == asap.json()
    backward = Cli(command, path, "--format", "json", "--finish", "2027-06-30")
    result = call(path, finish=datetime.date(2027, 6, 30))
    assert result == backward.json()
    assert "".join(f"ptmpl {command}: {w}\n" for w in result.warnings) == backward.err


@pytest.mark.parametrize("path", SCHEDULED)
def test_health(path):
    cli = Cli("health", path, "--format", "json")
    result = same_result(cli, lambda: ptmpl.health(path))
    if result is None:
        return
    assert result == cli.json()
    assert "".join(f"ptmpl health: {w}\n" for w in result.warnings) == cli.err
    assert ptmpl.health(path, config=False) == Cli("health", path, "--format", "json", "--no-config").json()
    assert ptmpl.health(path, config=True) == result


@pytest.mark.parametrize("name", ["raw_json", "template", "config"])
def test_schema(name):
    assert ptmpl.schema(name) == Cli("schema", name).json()


def test_rules():
    listed = [line.split(None, 3) for line in Cli("rules").out.decode().splitlines()]
    assert [[r["id"], r["severity"], r["fix"] if r["fix"] != "none" else "-",
             r["summary"] + (f" [off by default: {r['group']}]" if r["group"] else "")]
            for r in ptmpl.rules()] == listed
    assert {r["group"] for r in ptmpl.rules()} == {"", "schedule-health"}
