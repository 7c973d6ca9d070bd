"""The data writers as subcommands of the one command line (``python -m evallib ...``)."""

from __future__ import annotations

import pandas as pd
import pytest

from evallib import __main__ as cli
from evallib.studies import _textsim as textsim


from evallib.onetestset import _nullbest as nullbest


def test_help_lists_every_subcommand(capsys):
    """In process; tests/test_cli_reports.py runs ``python -m evallib --help`` as a process once."""
    with pytest.raises(SystemExit) as info:
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0
    for command in ("report", "critical-values", "textsim-grid"):
        assert command in out


@pytest.mark.parametrize("command, module, writer", [
    ("critical-values", nullbest, "write_critical_values"),
    ("textsim-grid", textsim, "write_experiment_grid"),
])
def test_subcommand_calls_its_writer(monkeypatch, tmp_path, capsys, command, module, writer):
    calls = []
    target = tmp_path / "out.bin"

    def fake(path, *, n_jobs, progress):
        calls.append((path, n_jobs, progress))
        target.write_bytes(b"x")
        return pd.DataFrame({"a": [1, 2]}) if command == "critical-values" else target

    monkeypatch.setattr(module, writer, fake)
    assert cli.main([command, str(target), "--n-jobs", "1", "-q"]) == 0
    assert calls == [(str(target), 1, False)]
    assert str(target) in capsys.readouterr().out


def test_subcommand_reports_a_bad_path_in_one_sentence(tmp_path, capsys):
    status = cli.main(["textsim-grid", str(tmp_path / "no" / "such" / "grid.npz"), "-q"])
    assert status == 1
    err = capsys.readouterr().err
    assert err.startswith("error: path must be in an existing folder") and "Traceback" not in err


def test_critical_values_subcommand_writes_a_real_table(monkeypatch, tmp_path):
    """The real writer on a small grid, in worker processes started by the CLI's module."""
    small = nullbest.critical_value_table

    def tiny(**kw):
        return small(metrics=("auc",), Ps=(3, 4), Ns=(5,), Cs=(10,), alphas=(0.05,), **kw)

    monkeypatch.setattr(nullbest, "critical_value_table", tiny)
    path = tmp_path / "cv.csv"
    assert cli.main(["critical-values", str(path), "--n-jobs", "2", "-q"]) == 0
    table = pd.read_csv(path)
    assert list(table["P"]) == [3, 4] and table["critical_value"].between(0.5, 1).all()
