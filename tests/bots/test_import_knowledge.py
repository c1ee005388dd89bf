"""import_knowledge: a Kiwix ZIM file and a MediaWiki XML dump (plain and bz2) written here, a broken
article reported and skipped, a resume after an interruption, and bots built from what was imported
answering questions whose answers are nowhere else."""
import bz2
import gzip
import io
import json
from xml.sax.saxutils import escape

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bots.budgets import measure_artefacts
from bots.importing import articles
from bots.models import Bot
from bots.protocol import Query
from bots.registry import load_bot

pytestmark = pytest.mark.django_db

# Made-up places and people: no training data or other knowledge can hold these answers.
ARTICLES = {
    "Kessler Falls": (
        "Kessler Falls is a waterfall on the Ornen river in the northern Veltra highlands. It was named after the "
        "surveyor Amalia Kessler, who charted the Ornen gorge in 1874. The falls drop 212 metres in three tiers.",
        "The falls freeze over in most winters and draw ice climbers from across Veltra."),
    "Torvald Brennic": (
        "Torvald Brennic was a Veltran composer best known for the Glass Lantern symphony, first played in 1911 "
        "in the city of Marrow. He studied organ under Ilse Dorn.",
        "Brennic retired to a lighthouse on the Sallow coast and wrote no music after 1930."),
    "Marrow Observatory": (
        "Marrow Observatory is an astronomical observatory on Mount Pell above the city of Marrow. Its great "
        "refractor found the comet Hadley-Voss in 1902.",
        "The observatory was closed to visitors during the war and reopened in 1950."),
}
QUESTIONS = [
    ("This waterfall on the Ornen river was named after the surveyor who charted its gorge in 1874", "Kessler Falls"),
    ("The Glass Lantern symphony was written by this composer who studied organ under Ilse Dorn", "Torvald Brennic"),
    ("The comet Hadley-Voss was found by the great refractor of this observatory on Mount Pell",
     "Marrow Observatory"),
]


def html_page(title, lead, rest):
    return (f"<html><head><title>{title}</title><style>p {{}}</style></head><body><h1>{title}</h1>"
            f"<p>{lead}<sup class=\"reference\">[1]</sup></p><h2>Later years</h2><p>{rest}</p></body></html>")


def write_zim(path, broken=True):
    from libzim.writer import Creator, Hint, Item, StringProvider

    class Page(Item):
        def __init__(self, page_path, title, content, mimetype="text/html"):
            super().__init__()
            self.page_path, self.title, self.content, self.mimetype = page_path, title, content, mimetype

        def get_path(self):
            return self.page_path

        def get_title(self):
            return self.title

        def get_mimetype(self):
            return self.mimetype

        def get_contentprovider(self):
            return StringProvider(self.content)

        def get_hints(self):
            return {Hint.FRONT_ARTICLE: True}

    with Creator(str(path)).config_indexing(False, "eng") as creator:
        creator.set_mainpath(next(iter(ARTICLES)).replace(" ", "_"))
        creator.add_metadata("Title", "Veltra wiki")
        for title, (lead, rest) in ARTICLES.items():
            creator.add_item(Page(title.replace(" ", "_"), title, html_page(title, lead, rest)))
        if broken:
            creator.add_item(Page("Broken_page", "Broken page", b"<p>caf\xe9 \xff\xfe</p>"))  # not UTF-8
        creator.add_item(Page("style.css", "style", "p { margin: 0 }", "text/css"))
        creator.add_redirection("Kessler", "Kessler", "Kessler_Falls", {Hint.FRONT_ARTICLE: False})
    return path


def dump_page(title, text, ns=0, redirect=None, page_id=1):
    body = '<text deleted="deleted" />' if text is None else f'<text xml:space="preserve">{escape(text)}</text>'
    redirect = f'<redirect title="{redirect}" />' if redirect else ""
    return (f"<page><title>{title}</title><ns>{ns}</ns><id>{page_id}</id>{redirect}<revision><id>{page_id}0</id>"
            f"<timestamp>2024-01-01T00:00:00Z</timestamp><contributor><username>Ed</username><id>1</id></contributor>"
            f"<model>wikitext</model><format>text/x-wiki</format>{body}</revision></page>")


DUMP_HEAD = ('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en"><siteinfo>'
             "<sitename>Veltrapedia</sitename><dbname>veltrawiki</dbname><base>https://example.org/wiki/Main</base>"
             "<generator>MediaWiki 1.41</generator><case>first-letter</case><namespaces>"
             '<namespace key="0" case="first-letter" /><namespace key="1" case="first-letter">Talk</namespace>'
             "</namespaces></siteinfo>").encode()


def write_dump(path, compress=False):
    pages = []
    for number, (title, (lead, rest)) in enumerate(ARTICLES.items(), 1):
        wikitext = (f"{{{{Infobox place|name={title}}}}}\n'''{title}''' {lead.split(' ', len(title.split()))[-1]}"
                    f"<ref>{{{{cite book|title=Veltra}}}}</ref>\n[[File:{title}.jpg|thumb|A picture]]\n"
                    f"== Later years ==\n{rest}\n[[Category:Veltra]]")
        pages.append(dump_page(title, wikitext, page_id=number))
    pages.append(dump_page("Kessler", "#REDIRECT [[Kessler Falls]]", redirect="Kessler Falls", page_id=7))
    pages.append(dump_page("Talk:Kessler Falls", "Is the height right?", ns=1, page_id=8))
    pages.append(dump_page("Broken page", None, page_id=9))  # its text was deleted from the dump
    xml = DUMP_HEAD.decode() + "".join(pages) + "</mediawiki>"
    path.write_bytes(bz2.compress(xml.encode()) if compress else xml.encode())
    return path


def run_import(source, out, *extra) -> str:
    output = io.StringIO()
    call_command("import_knowledge", str(source), "--out", str(out), *extra, stdout=output)
    return output.getvalue()


def passages(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_zim_file_gives_each_articles_lead_and_skips_a_broken_one(tmp_path):
    report = run_import(write_zim(tmp_path / "veltra.zim"), tmp_path / "veltra.jsonl")
    got = passages(tmp_path / "veltra.jsonl")
    by_title = {p["title"]: p["text"] for p in got}
    assert sorted(by_title) == sorted(ARTICLES) and len(got) == 3  # no redirect, stylesheet or broken page
    assert by_title["Kessler Falls"] == ARTICLES["Kessler Falls"][0]  # the lead only, without the reference mark
    assert "1 errors" in report and "skipped: Broken page: its HTML is not UTF-8" in report
    assert "wrote" in report and "(3 passages from 3 articles; 1 articles could not be read)" in report


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "bz2"])
def test_a_mediawiki_dump_is_streamed_into_passages(tmp_path, compress):
    dump = write_dump(tmp_path / ("dump.xml.bz2" if compress else "dump.xml"), compress)
    report = run_import(dump, tmp_path / "leads.jsonl")
    leads = passages(tmp_path / "leads.jsonl")
    assert [p["title"] for p in leads] == list(ARTICLES)  # no redirect, no talk page
    assert leads[1]["text"] == ARTICLES["Torvald Brennic"][0]  # no infobox, reference, file or category
    assert "skipped: Broken page: its revision has no text (deleted or missing)" in report

    run_import(dump, tmp_path / "all.jsonl", "--keep", "passages", "--words", "12")
    pieces = passages(tmp_path / "all.jsonl")
    assert all(len(p["text"].split()) <= 12 for p in pieces)
    kessler = " ".join(p["text"] for p in pieces if p["title"] == "Kessler Falls")
    assert kessler == " ".join(ARTICLES["Kessler Falls"])  # the whole article, headings dropped


def test_json_lines_are_read_and_a_broken_line_is_counted(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text('{"title": "A", "text": "First  passage."}\nnot json\n{"title": "B", "text": "Second."}\n')
    report = run_import(source, tmp_path / "out.jsonl")
    assert passages(tmp_path / "out.jsonl") == [{"title": "A", "text": "First passage."},
                                                {"title": "B", "text": "Second."}]
    assert "skipped: (unreadable line): line 2 is not JSON" in report


def test_an_interrupted_import_resumes_without_losing_or_repeating_a_passage(tmp_path, monkeypatch):
    dump = write_dump(tmp_path / "dump.xml")
    run_import(dump, tmp_path / "clean.jsonl")
    reader = articles.READERS["mediawiki"]

    def interrupted(path, start=0):
        for number, article in enumerate(reader(path, start)):
            if number == 2:
                raise KeyboardInterrupt  # Ctrl-C in the middle of the import
            yield article

    monkeypatch.setitem(articles.READERS, "mediawiki", interrupted)
    from bots.importing import importer
    monkeypatch.setattr(importer, "READERS", articles.READERS)
    with pytest.raises(KeyboardInterrupt):
        run_import(dump, tmp_path / "resumed.jsonl")
    assert len(passages(tmp_path / "resumed.jsonl")) == 2
    monkeypatch.setitem(articles.READERS, "mediawiki", reader)
    report = run_import(dump, tmp_path / "resumed.jsonl")
    assert "resuming after source entry 2: 2 articles already imported" in report
    assert (tmp_path / "resumed.jsonl").read_bytes() == (tmp_path / "clean.jsonl").read_bytes()
    assert "already holds the whole import" in run_import(dump, tmp_path / "resumed.jsonl")


def test_an_unknown_file_is_refused_with_a_readable_error(tmp_path):
    (tmp_path / "notes.txt").write_text("just some notes")
    with pytest.raises(CommandError, match="neither a ZIM file, a MediaWiki XML dump"):
        run_import(tmp_path / "notes.txt", tmp_path / "out.jsonl")


def ask(bot, text):
    return bot.act(Query(text=text, word_index=len(text.split()), char_index=len(text), final=True))


@pytest.mark.parametrize("kind, tier", [("answer_doc", "500mib"), ("retriever_reader", "6gib")])
def test_a_bot_built_from_imported_knowledge_answers_what_only_it_holds(tmp_path, bot_root, tossups_file, kind,
                                                                        tier):
    run_import(write_zim(tmp_path / "veltra.zim", broken=False), tmp_path / "veltra.jsonl", "--keep", "passages",
               "--words", "40")
    output = io.StringIO()
    call_command("build_bot", kind, "--name", "veltra", "--data", str(tmp_path / "veltra.jsonl"),
                 "--questions", tossups_file, stdout=output)
    bot = load_bot(Bot.objects.get(name="veltra").spec)
    for question, answer in QUESTIONS:
        assert ask(bot, question).guess == answer, question
    build = Bot.objects.get(name="veltra").current_build
    assert build.measured_bytes == measure_artefacts(build.artefact_dir) > 0
    assert f"fits the {tier} tier" in output.getvalue()


def test_a_line_over_the_record_limit_is_skipped_and_named(tmp_path, settings):
    settings.EXHIBITION_IMPORT_MAX_RECORD_BYTES = 1024
    source = tmp_path / "in.jsonl"
    source.write_text('{"title": "A", "text": "First."}\n{"title": "Long", "text": "' + "x" * 5000 + '"}\n'
                      '{"title": "Deep", "text": ' + "[" * 40 + "]" * 40 + '}\n{"title": "B", "text": "Second."}\n')
    report = run_import(source, tmp_path / "out.jsonl")
    assert [p["title"] for p in passages(tmp_path / "out.jsonl")] == ["A", "B"]
    assert "skipped: (unreadable line): line 2: the record length goes over the limit of 1 KiB" in report
    assert "skipped: (unreadable line): line 3: the JSON nesting depth goes over the limit of 32 levels" in report


OPEN_PAGE = b"<page><title>A</title><ns>0</ns><id>1</id><revision><id>2</id><text>"


@pytest.mark.parametrize("pack, name, start", [(gzip.compress, "bomb.jsonl.gz", b'{"title": "A", "text": "B"}\n'),
                                                (bz2.compress, "bomb.xml.bz2", DUMP_HEAD + OPEN_PAGE)])
def test_a_source_that_unpacks_too_far_stops_the_import(tmp_path, pack, name, start):
    source = tmp_path / name
    source.write_bytes(pack(start + b" " * (64 * 1024 * 1024)))
    with pytest.raises(CommandError, match=f"{name} \\(at unpacked byte .*\\): the unpacking ratio goes over the limit "
                                           "of 100 to 1 .* The import stopped"):
        run_import(source, tmp_path / "out.jsonl")


def test_a_zim_article_over_the_record_limit_is_skipped_unread(tmp_path, settings):
    settings.EXHIBITION_IMPORT_MAX_RECORD_BYTES = 200  # each page's HTML is longer
    report = run_import(write_zim(tmp_path / "veltra.zim", broken=False), tmp_path / "veltra.jsonl")
    assert "(0 passages from 0 articles; 3 articles could not be read)" in report
    assert "skipped: Kessler Falls: the record length is" in report and "over the limit of 200 bytes" in report
