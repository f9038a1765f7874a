# Shared by the tests of the Python module (tests/python/, run by ctest from the repository's
# root with the build's python/ folder on PYTHONPATH and PTMPL_BINARY naming the command).
import glob
import json
import os
import subprocess

import pytest

import ptmpl

PTMPL = os.environ.get("PTMPL_BINARY", "build/release/tools/ptmpl/ptmpl")

# Templates: the samples, the scheduler's cases, a failing and a passing file of every rule.
TEMPLATES = sorted(glob.glob("samples/*.json") + glob.glob("tests/data/schedule/*.json") +
                   glob.glob("tests/data/rules/*/*.json"))
# Plans of every format convert reads, the .mpp corpus subset among them.
PLANS = sorted(glob.glob("tests/data/mspdi/*.xml") + glob.glob("tests/data/gan/*.gan") +
               glob.glob("tests/data/csv/*.csv") + glob.glob("tests/data/p6/*.xer") +
               glob.glob("tests/data/p6/*.pmxml*") + glob.glob("tests/data/xlsx/*.xlsx") +
               glob.glob("tests/data/mpp/corpus/*.mpp"))


class Cli:
    def __init__(self, command, *args, stdin=None):
        run = subprocess.run([PTMPL, command, *args], input=stdin, capture_output=True, env=dict(os.environ,
                             NO_COLOR="1"))
        self.command = command
        self.exit = run.returncode
        self.out = run.stdout
        self.err = run.stderr.decode()

    def json(self):
        return json.loads(self.out)


def same_failure(cli, call):
    """`call` fails as the command did: the Error of its kind, the command's message and exit code."""
    assert cli.exit == 2, (cli.command, cli.err)
    with pytest.raises(ptmpl.Error) as raised:
        call()
    assert f"ptmpl {cli.command}: {raised.value.message}\n" == cli.err
    assert raised.value.exit_code == cli.exit


def same_result(cli, call):
    """`call()`'s result when the command succeeded; None when it failed (exit 2) and `call`
    failed as it did (same_failure)."""
    if cli.exit == 2:
        same_failure(cli, call)
        return None
    return call()


@pytest.fixture
def cli():
    return Cli
