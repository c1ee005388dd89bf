"""`manage.py import_passages`: a JSONL corpus in, broken lines reported, the rest searchable."""
import gzip
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from game.models import SnippetPassage

pytestmark = pytest.mark.django_db


def test_passages_come_in_and_broken_lines_are_named(tmp_path):
    path = tmp_path / "wiki.jsonl"
    path.write_text('{"title": "Moon", "text": "The Moon orbits Earth."}\nnot json\n{"title": "Empty"}\n{"title": "Sun", "text": "A star."}\n')
    out, err = StringIO(), StringIO()
    call_command("import_passages", str(path), "--corpus", "wiki", stdout=out, stderr=err)
    assert 'Imported 2 passages into corpus "wiki"' in out.getvalue()
    assert "line 2: This line is not valid JSON" in err.getvalue() and 'line 3: The passage has no "text"' in err.getvalue()
    assert list(SnippetPassage.objects.values_list("corpus", "title")) == [("wiki", "Moon"), ("wiki", "Sun")]
    call_command("import_passages", str(path), "--corpus", "wiki", "--replace", stdout=out, stderr=err)
    assert SnippetPassage.objects.count() == 2


def test_nothing_imported_is_an_error(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("nope\n")
    with pytest.raises(CommandError, match="No passage was imported"):
        call_command("import_passages", str(path), "--corpus", "wiki", stdout=StringIO(), stderr=StringIO())


def refused(path, match):
    with pytest.raises(CommandError, match=match) as caught:
        call_command("import_passages", str(path), "--corpus", "wiki", stdout=StringIO(), stderr=StringIO())
    assert not SnippetPassage.objects.exists()
    return str(caught.value)


def test_a_packed_corpus_that_unpacks_too_far_is_stopped(tmp_path):
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(gzip.compress(b'{"title": "A", "text": "B"}\n' + b" " * (64 * 1024 * 1024)))
    message = refused(path, "unpacking ratio")
    assert message.startswith("bomb.jsonl.gz (at unpacked byte ") and message.endswith(
        "the unpacking ratio goes over the limit of 100 to 1 (setting EXHIBITION_IMPORT_MAX_UNPACKING_RATIO). Nothing was imported.")


def test_a_line_over_the_record_limit_or_nested_too_deep_stops_the_import(tmp_path, settings):
    good = '{"title": "Moon", "text": "The Moon orbits Earth."}\n'
    settings.EXHIBITION_IMPORT_MAX_RECORD_BYTES = 1024
    path = tmp_path / "long.jsonl"
    path.write_text(good + '{"title": "Long", "text": "' + "x" * 2000 + '"}\n')
    assert refused(path, "record length").startswith("long.jsonl line 2: the record length goes over the limit of 1 KiB")
    path.write_text(good + '{"title": "Deep", "text": ' + "[" * 100 + "]" * 100 + "}\n")
    assert refused(path, "nesting depth").startswith("long.jsonl line 2: the JSON nesting depth goes over")
