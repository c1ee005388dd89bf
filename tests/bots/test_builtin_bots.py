"""The built-in bots, built with the build_bot command on small data written here, answer questions
whose answers are in their data."""
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from bots.errors import BotError
from bots.models import Bot
from bots.protocol import Query
from bots.registry import load_bot

pytestmark = pytest.mark.django_db


def build(kind, name, data, *extra) -> str:
    out = io.StringIO()
    call_command("build_bot", kind, "--name", name, "--data", data, *extra, stdout=out)
    return out.getvalue()


def ask(bot, text, **fields):
    return bot.act(Query(text=text, word_index=len(text.split()), char_index=len(text), **fields))


def test_build_reports_progress_and_artefact_size(bot_root, pairs_file):
    output = build("qa_pairs", "pairs", pairs_file)
    assert "read 10 question-answer pairs" in output
    bot = Bot.objects.get(name="pairs")
    assert f"({bot.measured_bytes:,} bytes)" in output and "fits the 500mib tier" in output
    assert bot.artefact_dir == str(bot_root / "pairs" / "build-1") and bot.built_at is not None
    assert (bot_root / "pairs" / "build-1" / "bot.json").is_file()
    assert "build 1 registered" in output


def test_build_refuses_missing_data_with_a_readable_error(bot_root, tmp_path):
    with pytest.raises(CommandError, match="no data file"):
        build("qa_pairs", "pairs", str(tmp_path / "nothing.jsonl"))
    with pytest.raises(CommandError, match="pass --data"):
        call_command("build_bot", "answer_doc", "--name", "docs", stdout=io.StringIO())
    assert not Bot.objects.exists()


def test_build_refuses_data_over_a_limit_in_one_sentence_and_leaves_nothing(bot_root, pairs_file, settings):
    settings.EXHIBITION_IMPORT_MAX_TRAINING_QUESTIONS = 9
    with pytest.raises(CommandError) as refused:
        build("qa_pairs", "pairs", pairs_file)
    assert str(refused.value) == (f"{pairs_file} line 10: the number of training questions goes over the limit of 9 "
                                  "questions (setting EXHIBITION_IMPORT_MAX_TRAINING_QUESTIONS). Nothing was built.")
    assert not Bot.objects.exists() and list(bot_root.iterdir()) == []


def test_qa_pair_bot_answers_known_and_reworded_questions(bot_root, pairs_file):
    build("qa_pairs", "pairs", pairs_file)
    bot = load_bot({"bot": "pairs"})
    seen = ask(bot, "who wrote the novel pride and prejudice")
    assert (seen.guess, seen.buzz) == ("Jane Austen", True)
    assert seen.confidence == pytest.approx(1.0, abs=1e-5)
    reworded = ask(bot, "the novel pride and prejudice was written by whom")
    assert reworded.guess == "Jane Austen"
    assert ask(bot, "capital city of france").guess == "Paris"  # NQ-style list answer
    assert ask(bot, "chemical symbol for gold").alternatives[0][0] == "Au"


def test_qa_pair_bot_without_a_match_guesses_nothing(bot_root, pairs_file):
    build("qa_pairs", "pairs", pairs_file)
    act = ask(load_bot({"bot": "pairs"}), "zebra xylophone quasar")
    assert (act.guess, act.confidence, act.buzz, act.alternatives) == ("", 0.0, False, [])


def test_buzz_only_at_or_over_the_threshold(bot_root, pairs_file):
    build("qa_pairs", "pairs", pairs_file)
    strict = load_bot({"kind": "qa_pairs", "name": "pairs", "threshold": 1.01})
    eager = load_bot({"kind": "qa_pairs", "name": "pairs", "threshold": 0.05})
    question = "the novel pride and prejudice was written by whom"
    assert ask(strict, question).buzz is False
    assert ask(eager, question).buzz is True
    assert ask(strict, question).guess == ask(eager, question).guess == "Jane Austen"


NEW_TOSSUPS = {
    "Mount Everest": "Edmund Hillary climbed this Himalayan peak on the border of Nepal",
    "Photosynthesis": "Plants use chlorophyll in chloroplasts for this light-driven process",
    "Hamlet": "Ophelia loves this prince of Denmark in a tragedy by Shakespeare",
    "Jupiter": "Io and Ganymede orbit this gas giant with a Great Red Spot",
    "Ludwig van Beethoven": "The Moonlight Sonata and the Ode to Joy symphony are by this deaf composer",
    "Napoleon": "Wellington defeated this French emperor at Waterloo before his exile to Saint Helena",
}


def test_answer_document_bot_guesses_unseen_tossups(bot_root, tossups_file):
    output = build("answer_doc", "docs", tossups_file)
    assert "buzzer trained" in output
    bot = load_bot({"bot": "docs"})
    assert bot.buzzer is not None
    for answer, text in NEW_TOSSUPS.items():
        act = ask(bot, text, final=True)
        assert act.guess == answer, text
        assert act.buzz == (act.confidence >= bot.threshold)
        assert act.alternatives[0] == (answer, pytest.approx(act.alternatives[0][1]))
        # One scale on every card: the top guess at the bot's confidence, the others below it, all in [0, 1].
        assert act.alternatives[0][1] == pytest.approx(act.confidence)
        assert all(0.0 <= score <= act.confidence for _, score in act.alternatives)


def test_answer_document_buzzer_grows_surer_as_clues_arrive(bot_root, tossups_file):
    build("answer_doc", "docs", tossups_file)
    bot = load_bot({"bot": "docs"})
    words = NEW_TOSSUPS["Napoleon"].split()
    early = bot.act(Query(text=" ".join(words[:2]), word_index=2))
    late = bot.act(Query(text=" ".join(words), word_index=len(words), final=True))
    assert late.guess == "Napoleon"
    assert late.confidence > early.confidence


@pytest.mark.parametrize(
    "question, answer",
    [
        ("who wrote pride and prejudice", "Jane Austen"),
        ("when was the eiffel tower completed", "1889"),
        ("in what year did apollo 11 land on the moon", "1969"),
        ("how many sides does a hexagon have", "six"),
        ("what is the largest ocean", "Pacific Ocean"),
    ],
)
def test_retriever_reader_reads_answers_out_of_passages(bot_root, passages_file, question, answer):
    build("retriever_reader", "reader", passages_file)
    assert ask(load_bot({"bot": "reader"}), question, final=True).guess == answer


def test_retriever_reader_reads_search_snippets(bot_root, passages_file):
    build("retriever_reader", "reader", passages_file)
    bot = load_bot({"bot": "reader"})
    question = "who designed the sydney opera house"
    snippet = {
        "title": "Sydney Opera House", "text": "The Sydney Opera House was designed by Danish architect Jørn Utzon."
    }
    assert ask(bot, question, final=True).guess != "Jørn Utzon"
    assert ask(bot, question, final=True, phase=3, snippets=[snippet]).guess == "Jørn Utzon"


def test_a_bot_is_loaded_once_per_process_and_a_rebuild_is_a_new_build(bot_root, pairs_file):
    build("qa_pairs", "pairs", pairs_file)
    first_spec = Bot.objects.get(name="pairs").spec
    first = load_bot(first_spec)
    assert load_bot(first_spec) is first
    build("qa_pairs", "pairs", pairs_file)
    second_spec = Bot.objects.get(name="pairs").spec
    assert second_spec["build"] != first_spec["build"]
    assert load_bot(first_spec) is first  # a seat pinned to the first build keeps it
    assert load_bot(second_spec) is not first
    assert (bot_root / "pairs" / "build-1").is_dir() and (bot_root / "pairs" / "build-2").is_dir()


def test_an_unbuilt_bot_says_how_to_build_it(bot_root):
    with pytest.raises(BotError, match="build it first with `python manage.py build_bot qa_pairs"):
        load_bot({"kind": "qa_pairs", "name": "never-built"})


def test_bots_without_artefacts_are_registered_with_their_settings(bot_root, serve):
    out = io.StringIO()
    settings = ["--config", '{"accuracy": 0.6}', "--threshold", "0.4"]
    call_command("build_bot", "simulated", "--name", "practice", *settings, stdout=out)
    url = serve(lambda method, path, body: (200, {"guess": "", "confidence": 0.0, "buzz": False})).url + "/act"
    call_command("build_bot", "remote_json", "--name", "far", "--url", url, stdout=out)
    practice, far = Bot.objects.get(name="practice"), Bot.objects.get(name="far")
    assert (practice.kind, practice.tier) == ("simulated", "500mib")
    assert practice.config == {"accuracy": 0.6, "threshold": 0.4}
    assert (far.tier, far.config, far.artefact_dir) == ("unlimited", {"url": url}, "")
    assert load_bot({"bot": "practice"}).threshold == 0.4
    with pytest.raises(CommandError, match="not a usable bot name"):
        call_command("build_bot", "simulated", "--name", "../escape", stdout=out)
