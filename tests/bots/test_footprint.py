"""A bot's size as EfficientQA counted it (bots.footprint): its artefacts plus what importing its class
brings in, measured in a fresh interpreter: this project's files one by one, each installed
distribution once, whole; never the standard library."""
import importlib.metadata as metadata
import os
import sys
import types

import pytest

from bots import kinds
from bots.budgets import TierExceeded, check_size
from bots.builtin.qa_pairs import QaPairBot
from bots.builtin.simulated import SimulatedBot
from bots.footprint import CodeSize, Size, distribution_size, kind_code, measure_modules


def test_a_distribution_counts_once_whole_however_many_of_its_modules_are_imported():
    import numpy
    import numpy.linalg

    once = measure_modules([numpy])
    assert once.packages == {"numpy": distribution_size("numpy")}
    assert measure_modules([numpy, numpy.linalg, numpy.linalg]).packages == once.packages
    files = metadata.distribution("asgiref").files
    on_disk = sum(os.stat(f.locate()).st_size for f in files if os.path.exists(f.locate()))
    assert distribution_size("asgiref") == on_disk


def test_the_project_counts_file_by_file_and_the_standard_library_not_at_all():
    import json

    import bots.protocol
    import bots.text

    measured = measure_modules([bots.text, bots.protocol, json, sys])
    assert measured.packages == {}
    assert measured.project == os.path.getsize(bots.text.__file__) + os.path.getsize(bots.protocol.__file__)


def test_a_kind_is_charged_for_what_its_own_imports_bring_and_nothing_else():
    numeric, plain = kind_code(QaPairBot), kind_code(SimulatedBot)
    for name in ("numpy", "scipy", "scikit-learn", "Django"):
        assert numeric.packages[name] == distribution_size(name)
    assert "Django" in plain.packages and "numpy" not in plain.packages and "scipy" not in plain.packages
    # The test process has imported far more (pytest, Daphne, ...): none of it is the bot's.
    assert not {"pytest", "daphne", "Twisted"} & set(numeric.packages)
    assert plain.project > 0 and numeric.project > plain.project


def test_a_kind_whose_code_cannot_be_imported_cannot_be_measured_for_a_limited_tier(monkeypatch):
    broken = types.new_class("BrokenBot", (SimulatedBot,))
    broken.__module__ = "tests.bots.no_such_module"
    broken.kind = "broken"
    monkeypatch.setitem(kinds.KINDS, "broken", broken)
    size = kinds.size_of("broken", 1000)
    assert size.code is None and "could not be measured: importing it failed (ModuleNotFoundError" in size.unmeasured
    with pytest.raises(TierExceeded, match="cannot be measured against the 500mib tier's 500 MiB limit: The code of "
                                           "tests.bots.no_such_module could not be measured"):
        check_size("broken", "500mib", size, "/nowhere")
    assert check_size("broken", "unlimited", size, "/nowhere") == 1000


def test_a_card_shows_the_parts_in_bytes_and_no_paths():
    size = Size(1000, CodeSize(200, {"numpy": 3000, "Django": 500}))
    assert size.card() == {"bytes": 4700, "artefacts": 1000, "code": 200, "packages": 3500}
    assert size.parts("/data/bots/x") == ("its artefacts 1000 bytes (1,000 bytes) in /data/bots/x, this project's code it "
                                          "imports 200 bytes, and the installed packages it imports 3.4 KiB "
                                          "(numpy 2.9 KiB, Django 500 bytes)")
    assert Size(1000).card() == {"bytes": 1000, "artefacts": 1000}
