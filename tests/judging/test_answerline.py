"""The answer-line parser reads quizbowl lines into main answer, required parts and clauses."""
import json

from game.judging.answerline import LESS_SPECIFIC, MORE_SPECIFIC, parse_answer_line


def clause_kinds(line):
    return [(c.kind, list(c.texts)) for c in line.clauses]


def test_plain_line_requires_the_whole_answer():
    line = parse_answer_line("Mikhail Bulgakov")
    assert (line.main, line.required, line.required_source, line.clauses) == ("Mikhail Bulgakov", ("Mikhail Bulgakov",), "whole", ())


def test_braces_markup_and_capitals_mark_required_parts():
    assert parse_answer_line("Joseph {Chamberlain}").required == ("Chamberlain",)
    assert parse_answer_line("Joseph {Chamberlain}").main == "Joseph Chamberlain"
    marked = parse_answer_line("<b><u>spin</u></b> angular <u>momentum</u>")
    assert (marked.main, marked.required, marked.required_source) == ("spin angular momentum", ("spin", "momentum"), "markup")
    assert parse_answer_line("Joseph CHAMBERLAIN").required == ("CHAMBERLAIN",)
    assert parse_answer_line("Louis XIII of France").required_source == "whole"  # Roman numerals are not capitals


def test_alternates_prompts_and_rejections():
    line = parse_answer_line('Russia [or Russian Empire; accept Rossiya; prompt on "Slavs"; do not accept "Soviet Union" or "USSR"]')
    assert clause_kinds(line) == [
        ("accept", ["Russian Empire"]), ("accept", ["Rossiya"]), ("prompt", ["Slavs"]), ("reject", ["Soviet Union", "USSR"]),
    ]
    assert line.texts("reject") == ["Soviet Union", "USSR"]


def test_directed_prompts_carry_their_question():
    line = parse_answer_line('battleships [prompt on "ships" by asking "What kind of ships?"; prompt on boats]')
    directed, plain = line.clauses
    assert (directed.kind, directed.texts, directed.prompt_question) == ("prompt", ("ships",), "What kind of ships?")
    assert plain.prompt_question == MORE_SPECIFIC
    assert parse_answer_line("mixing [anti-prompt on dissolving]").clauses[0].prompt_question == LESS_SPECIFIC


def test_qualifiers_are_split_from_the_texts():
    line = parse_answer_line('Khmer Empire [or Angkor Empire until "Angkor" is read; prompt on Kampuchea or Cambodia before mention; accept Norman after "Normandy" is read]')
    assert [(c.texts, c.qualifier) for c in line.clauses] == [
        (("Angkor Empire",), 'until "Angkor" is read'),
        (("Kampuchea", "Cambodia"), "before mention"),
        (("Norman",), 'after "Normandy" is read'),
    ]


def test_flags_for_either_portion_partial_answers_and_word_forms():
    assert parse_answer_line("Lennie Small [accept either underlined portion]").accept_either
    assert parse_answer_line("Prime Minister of Australia [prompt on partial answer]").prompt_on_partial
    assert parse_answer_line("superconductors [or word forms]").word_forms
    assert not parse_answer_line("superconductors").word_forms


def test_a_clause_changing_kind_midway_is_split_and_it_refers_back():
    line = parse_answer_line('Constantinople [accept Istanbul only after "Ecumenical Patriarch" is read, do not accept or prompt on it before]')
    assert clause_kinds(line) == [("accept", ["Istanbul"]), ("reject", ["Istanbul"])]
    china = parse_answer_line('China [accept PRC or Zhongguo, but do not accept "Republic of China" or "Taiwan"]')
    assert clause_kinds(china) == [("accept", ["PRC", "Zhongguo"]), ("reject", ["Republic of China", "Taiwan"])]


def test_descriptive_clauses_keep_their_examples_only():
    line = parse_answer_line("Mahler's Symphony No. 3 [or obvious equivalents, such as Mahler's Third Symphony; accept any answer indicating a symphony]")
    examples, description = line.clauses
    assert examples.texts == ("Mahler's Third Symphony",) and examples.note.startswith("obvious equivalents")
    assert description.texts == () and description.note == "any answer indicating a symphony"


def test_pronunciation_guides_and_nested_brackets_are_notes():
    assert parse_answer_line("Croesus [KREE-sus]").clauses == ()
    assert parse_answer_line("Croesus [KREE-sus]").notes == ("KREE-sus",)
    fyrom = parse_answer_line('Macedonia [accept FYROM ["fie"-rahm] before it is mentioned]')
    assert [(c.texts, c.qualifier) for c in fyrom.clauses] == [(("FYROM",), "before it is mentioned")]


def test_html_entities_mojibake_and_prefix_are_cleaned():
    assert parse_answer_line("ANSWER: A &amp; P").main == "A & P"
    assert parse_answer_line("Jean-LÃ©on GÃ©rÃ´me").main == "Jean-Léon Gérôme"


def test_the_parse_is_json_serialisable():
    line = parse_answer_line('<u>spin</u> [prompt on "ships" by asking "Which?"; do not accept orbit]')
    data = json.loads(json.dumps(line.to_dict()))
    assert data["required"] == ["spin"] and data["required_marked"] is True
    assert data["clauses"][0] == {
        "kind": "prompt", "texts": ["ships"], "qualifier": None, "prompt_question": "Which?", "note": None,
        "raw": 'prompt on "ships" by asking "Which?"', "required": [[]], "contains": False, "anti_prompt": False,
        "combined": False,
    }


def test_unbalanced_or_empty_lines_do_not_raise():
    assert parse_answer_line("").main == ""
    assert parse_answer_line("Paris [or Lutetia").texts("accept") == ["Lutetia"]
    assert parse_answer_line("]]] [[[").clauses == ()
