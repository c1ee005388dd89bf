"""The judge's WordNet index is built by make and the image, never by a running server: reading
WordNet once stalled the conductor's database thread for 21 s. A missing index means no synonyms,
said in the judge's reasons, in the log and by `manage.py check`."""
import io
import json
import logging
import sys

import pytest
from django.core.management import call_command

from game.judging import lexicon
from game.judging.judge import judge


def _forget_judgements():
    """The judge's caches hold what it worked out with the index it had."""
    for name, module in list(sys.modules.items()):
        if name.startswith("game.judging") and module is not None:
            for value in vars(module).values():
                if hasattr(value, "cache_clear"):
                    value.cache_clear()


@pytest.fixture
def index_at(monkeypatch):
    """Point the judge at an index file of the test's choosing, as a fresh process would see it."""

    def never(*args):
        raise AssertionError("a running server read WordNet to build its index")

    monkeypatch.setattr(lexicon, "build_index", never)
    monkeypatch.setattr(lexicon, "_reader", never)

    def point(path):
        monkeypatch.setattr(lexicon, "INDEX_PATH", path)
        monkeypatch.setattr(lexicon, "_index", None)
        monkeypatch.setattr(lexicon, "_loaded", False)
        _forget_judgements()

    yield point
    _forget_judgements()


def test_without_the_index_the_judge_works_on_without_building_it(index_at, tmp_path, caplog):
    missing = tmp_path / "var" / "wordnet-nouns.json"
    index_at(missing)
    with caplog.at_level(logging.WARNING, logger="game.judging.lexicon"):
        first = judge("nanna", "grandmother")
        second = judge("granny", "grandmother")
    assert first.verdict == "reject" and "synonyms were not checked" in first.reason
    assert "synonyms were not checked" in second.reason
    assert judge("grandmother", "grandmother").verdict == "accept"  # everything else works on
    assert not missing.exists() and not missing.parent.exists()
    said = [r.getMessage() for r in caplog.records if "WordNet index" in r.getMessage()]
    assert len(said) == 1 and "make wordnet" in said[0], "the log says it once, with the fix"


def test_manage_check_warns_while_the_index_is_missing(index_at, tmp_path):
    index_at(tmp_path / "wordnet-nouns.json")
    out = io.StringIO()
    call_command("check", stdout=out, stderr=out)
    assert "game.W001" in out.getvalue() and "make wordnet" in out.getvalue()
    assert not (tmp_path / "wordnet-nouns.json").exists()


def test_an_index_of_an_older_version_is_not_used(index_at, tmp_path):
    old = tmp_path / "wordnet-nouns.json"
    old.write_text(json.dumps({"version": lexicon.INDEX_VERSION - 1, "senses": {"nanna": [7], "grandmother": [7]}}))
    index_at(old)
    out = io.StringIO()
    call_command("check", stdout=out, stderr=out)
    assert "game.W001" in out.getvalue() and "older version" in out.getvalue()
    assert "synonyms were not checked" in judge("nanna", "grandmother").reason


def test_a_built_index_is_loaded_and_nothing_is_said(index_at, tmp_path):
    built = tmp_path / "wordnet-nouns.json"
    built.write_text(json.dumps({"version": lexicon.INDEX_VERSION, "source": "test",
                                 "senses": {"nanna": [7], "grandmother": [7]}, "plurals": {}, "describing": [],
                                 "places": [], "within": {}, "of_place": {}}, separators=(",", ":")))
    index_at(built)
    out = io.StringIO()
    call_command("check", stdout=out, stderr=out)
    assert "game.W001" not in out.getvalue()
    result = judge("nanna", "grandmother")
    assert result.verdict == "accept" and "not checked" not in result.reason
