"""Whatever is typed or imported, the judge answers with a ruling and a reason, and never raises."""
from hypothesis import given, settings
from hypothesis import strategies as st

from game.judging.judge import judge

PIECES = ["[", "]", "(", ")", "{", "}", "<u>", "</u>", "<b>", '"', "“", "”", ";", ",", " or ", " accept ", " prompt on ",
          " do not accept ", " before ", " mention", " alone", "&amp;", "\\u00e9", "Ã©", "1980s", "10/09/2001", "ww2",
          "Άργος", "Москва", "東京", "St.", "Dr.", "3.5 million", "XIV", "i", "y", "-", "/", "'s", "?", "Paris", "the"]
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)), max_size=12).map("".join)


@settings(max_examples=300, deadline=None)
@given(response=texts, line=texts, references=st.lists(texts, max_size=3), question=st.one_of(st.none(), texts),
       read=st.integers(min_value=0, max_value=20))
def test_any_input_gets_a_ruling_with_a_reason(response, line, references, question, read):
    words = tuple((question or "").split())
    judgement = judge(response, line, references=references, question_text=question, buzz=(read, words))
    assert judgement.verdict in ("accept", "prompt", "reject")
    assert judgement.reason and 0 <= judgement.confidence <= 1


OPEN_PIECES = PIECES + [" to ", " May ", " August ", "1650", " BC", " BCE", " AD", " early ", " summer of ", " around ", "2016–17",
                        "1950s", " 19th century", "Colonel ", "William ", "Bill ", " Smith", "North ", " State", "Welsh",
                        "Wales", " or ", "/", "⅔", "①", "٣"]
open_texts = st.lists(st.one_of(st.sampled_from(OPEN_PIECES), st.text(max_size=6)), max_size=12).map("".join)


@settings(max_examples=300, deadline=None)
@given(response=open_texts, references=st.lists(open_texts, min_size=1, max_size=4), question=st.one_of(st.none(), open_texts))
def test_any_input_gets_a_ruling_with_a_reason_under_open_domain_rules(response, references, question):
    judgement = judge(response, references=references, question_text=question, rules="open-domain")
    assert judgement.verdict in ("accept", "prompt", "reject")
    assert judgement.reason and 0 <= judgement.confidence <= 1
