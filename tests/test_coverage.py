"""The coverage report: the left-out lists are well formed, and each namespace keeps the
share of MindSpore 2.10's names that the catalogue reached."""
from __future__ import annotations

import os
import sys

import pytest

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import coverage_report  # noqa: E402

sys.path.pop(0)

NAMESPACES = ("ops", "ops_operations", "nn", "tensor", "numpy", "mint", "mint_nn",
              "mint_nn_functional", "mint_optim")
CATEGORIES = {"internal", "sparse", "distributed", "cpu-refused", "unsupported"}


def test_left_out_lines_name_real_names_with_a_reason() -> None:
    for path in sorted((coverage_report.DATA / "left_out").glob("*.txt")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            where = f"{path.name}:{number}"
            namespace, name, why = line.split(None, 2)
            assert namespace in NAMESPACES, where
            assert name in coverage_report.names(namespace), where
            assert why.split()[0] in CATEGORIES, where
            if why.startswith("cpu-refused"):  # MindSpore's own message follows
                assert len(why.split()) > 2, where


@pytest.mark.parametrize("namespace,share", [
    ("ops", 0.9), ("tensor", 0.9), ("numpy", 1.0), ("mint", 0.85), ("mint_nn", 0.85),
    ("mint_nn_functional", 0.85), ("nn", 0.85)])
def test_counted_share(namespace: str, share: float) -> None:
    have, missing, left = coverage_report.counted(namespace)
    assert len(have) / (len(have) + len(missing)) >= share, missing
    # a name is never both counted as missing and left out
    assert not set(missing) & set(left)
