"""Benchmark the judging assistant on the shared QANTA and NQ-open files; prints numbers, never pass/fail.

QANTA: every answer line must parse; the judge should accept the Wikipedia page title (underscores
read as spaces, "List of" dropped) as a response. Accepts, prompts and rejects are counted apart,
and every page that is not accepted is sorted into one of the ten kinds of miss (tests/judging/test_kinds_table.py) (a heuristic sort,
none left unsorted), with examples.

NQ-open: each reference answer judged against the question's other references (aliases a person
would give), and two wrong-answer controls judged against the references: another question's
answer, and another question's answer of the same shape (a number for a number, a name for a
name); and the negative twins of the open-domain rules made from the question's own references (its
years moved by 7, another given name with its surname, "North" before its name). The controls show
over-acceptance. It is a proxy for EfficientQA's held-out ratings, which are not on this machine.

Speed: judgements per second on fresh responses (a typo'd page title) against the real answer lines,
beside a plain string comparison of the same responses with the same lines (lower-cased, stripped,
equal or not: what a judge without rules would do) and the rate of normalising the same responses
alone, and open-domain judgements of another NQ question's answer against a question's references (where the
learned equivalence model is asked), all measured in the same run, alternating, so they see the same load.

Worst case (--worst, no data needed): the judge on the longest answer line the importers allow
(game/importers/limits.py ANSWER), a typed answer as long as the engine keeps (MAX_TEXT) and the
longest question text (TEXT), built to be hard: many alternatives, long words, digits and years,
people's names, clauses with qualifiers, dates and spans, answers joined by "or"; each under quizbowl rules
(the answer line) and open-domain rules (the line's texts as references). Each line and answer is fresh (numbered), so the line is
parsed as a match's first answer to a question parses it; the slowest kind is printed beside the 1 ms
a judgement may take inside the conductor's write (it takes longer: the conductor judges beside).

As a conductor (--conductor): every QANTA question new and judged once (its page, then the next question's
page), as through a long event; the rate with the caches empty at the start, and what the caches hold as they
fill (game/judging/memo.py bounds them).

    .venv/bin/python bench/judge.py [--show-misses N] [--seconds S]
    .venv/bin/python bench/judge.py --worst [--repeat N]
    .venv/bin/python bench/judge.py --conductor
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench.environment  # noqa: E402,F401  (a key and settings for a run that is not a server)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from intake.source import source_of_bytes  # noqa: E402
from game.engine.rules import MAX_TEXT  # noqa: E402
from intake.limits import ANSWER, TEXT  # noqa: E402
from game.importers.qanta import parse  # noqa: E402
from game.judging import lexicon, memo  # noqa: E402
from game.judging.answerline import parse_answer_line  # noqa: E402
from game.judging.candidates import candidates  # noqa: E402
from game.judging.judge import judge  # noqa: E402
from game.judging.match import stem  # noqa: E402
from game.judging.names import TITLES, given_names, is_given_name, looks_like_person, nickname, surname  # noqa: E402
from game.judging.normalize import squad_normalize, tokens  # noqa: E402

QANTA_FILES = ("qanta.guessdev.json.gz", "qanta.buzzdev.json.gz", "small.guessdev.json")
NQ_FILES = ("NQ-open.dev.jsonl", "NQ-open.efficientqa.dev.1.1.jsonl")
KINDS = {
    1: "directives as written (a description the line gives instead of a text: \"accept any answer indicating ...\")",
    2: '"or" inside the main answer', 3: "exact beats fuzzy", 4: "short forms",
    5: "synonyms and other names (no word, or only some, in common: another name, or another thing such as a novel "
       "for its character)",
    6: "names of people", 7: "numbers and dates",
    8: "part of the answer or added words (prompt/reject by design)", 9: "input hygiene / other script",
    10: "buzz-dependent qualifier",
}


def read_questions(path: Path) -> list[dict]:
    """The questions of a QANTA file as the importer reads them (the page is in source)."""
    return [row.question for row in parse(source_of_bytes(path.read_bytes(), path.name)).rows if row.question]


def page_response(question: dict) -> str:
    """The page title as a player would say it: spaces for underscores, without "List of"."""
    title = question["source"]["page"].replace("_", " ")
    return title[len("List of "):] if title.startswith("List of ") else title


def _stems(text: str) -> set[str]:
    return {stem(word) for word in tokens(text)}


def miss_kind(response: str, answer: str, judgement) -> int:
    """Sort a page that was not accepted into one of the ten kinds of miss, by what response and line have in common."""
    line = parse_answer_line(answer)
    if any(char.isalpha() and ord(char) > 0x24F for char in response) or "Ã" in answer:
        return 9
    clause = next((c for c in line.clauses if judgement.matched in c.texts), None)
    if clause and clause.qualifier:
        return 10
    said = _stems(response.split("(")[0])
    pool = candidates(line)
    shared = [c for c in pool if said & {stem(w) for w in c.words}]
    if any(ch.isdigit() for ch in response + line.main):
        return 7
    if not shared:
        return 1 if any(c.note for c in line.clauses if c.kind != "reject") else 5
    if any(looks_like_person(c.text) for c in shared) and len(said) <= 4:
        return 6
    if " or " in line.main or "/" in line.main:
        return 2
    best = max(shared, key=lambda c: len(said & {stem(w) for w in c.words}))
    words = {stem(w) for w in best.words}
    return 8 if said <= words or words <= said else 5


def measure_qanta(path: Path, show_misses: int, totals: Counter, kinds: Counter, examples: dict) -> None:
    records = read_questions(path)
    parse_errors = 0
    for record in records:
        try:
            parse_answer_line(record["answer"])
        except Exception as error:  # the bench counts failures instead of stopping on the first
            parse_errors += 1
            print(f"  parse error on qanta_id {record['source'].get('qanta_id')}: {error}")
    with_page = [r for r in records if r["source"].get("page")]
    judgements = [judge(page_response(r), r["answer"], question_text=r["text"]) for r in with_page]
    verdicts = Counter(j.verdict for j in judgements)
    n = len(with_page)
    print(f"{path.name}: {len(records)} questions ({len(records) - n} without a page), {parse_errors} parse errors; "
          f"page accepted {verdicts['accept']}/{n} = {verdicts['accept'] / n:.1%}, "
          f"prompted {verdicts['prompt']} ({verdicts['prompt'] / n:.1%}), rejected {verdicts['reject']} ({verdicts['reject'] / n:.1%})")
    print(f"  general rules named in these rulings: {rules_named(judgements)}")
    totals.update(verdicts)
    totals["pages"] += n
    # Wrong-answer control: the next question's page (when it is another page) against this line.
    wrong = [(page_response(other), r) for r, other in zip(with_page, with_page[1:] + with_page[:1])
             if other["source"]["page"] != r["source"]["page"]]
    totals["control"] += len(wrong)
    totals["control accepted"] += sum(judge(page, r["answer"], question_text=r["text"]).verdict == "accept" for page, r in wrong)
    for record, judgement in zip(with_page, judgements):
        if judgement.verdict == "accept":
            continue
        kind = miss_kind(page_response(record), record["answer"], judgement)
        kinds[kind] += 1
        examples[kind].append((judgement.verdict, page_response(record), record["answer"]))


ISSUE_22_RULES = ("nickname", "ambiguous surname", "another person of that surname", "year within", "initialism",
                  "part the clause makes sufficient")


def measure_names(records: list[dict]) -> None:
    """A sanity check of the name rules on the real lines: every answer that reads as a person's name (in a
    question about a person), judged as its surname alone and with a nickname of its given name, where one exists."""
    from game.judging.names import _nicknames  # the names table is private to the judge; only this check reads it

    verdicts, nick_verdicts, ambiguous = Counter(), Counter(), []
    for record in records:
        main = parse_answer_line(record["answer"]).main
        if not looks_like_person(main, record["text"]) or not surname(main):
            continue
        bare = " ".join(surname(main)).title()
        judgement = judge(bare, record["answer"], question_text=record["text"])
        verdicts[judgement.verdict] += 1
        if "(rule: ambiguous surname)" in judgement.reason:
            ambiguous.append(f"{bare} ({main})")
        given = given_names(main)
        nicks = sorted(_nicknames().get(given[0], ())) if given else []
        if nicks:
            nick_verdicts[judge(f"{nicks[0].title()} {bare}", record["answer"], question_text=record["text"]).verdict] += 1
    people = sum(verdicts.values())
    print(f"names: {people} answers read as people's names; the surname alone accepted {verdicts['accept']}, prompted "
          f"{verdicts['prompt']} ({len(ambiguous)} because WordNet knows others by it: {', '.join(ambiguous[:8])}, ...), "
          f"rejected {verdicts['reject']}; a nickname of the given name with the surname accepted {nick_verdicts['accept']}"
          f"/{sum(nick_verdicts.values())}")


OPEN_DOMAIN_RULES = ("date inside span", "approximate date", "span around the date", "full name", "role left out", "place left out", "rest in the question",
                     "qualifier that narrows", "word form", "place word form", "two answers")


def rules_named(judgements) -> str:
    named = Counter(rule for j in judgements for rule in ISSUE_22_RULES if f"(rule: {rule})" in j.reason)
    return ", ".join(f"{rule} {named[rule]}" for rule in ISSUE_22_RULES)


def _shape(answer: str) -> str:
    words = tokens(answer)
    if any(word.isdigit() for word in words):
        return "number"
    if looks_like_person(answer):
        return "name"
    return "other"


TWINS = ("the reference's year moved by 7", "another given name with the reference's surname",
         "the reference with \"North\" before it")
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")


def _twins(refs: list[str], question: str, following: list[dict]) -> dict[str, str | None]:
    """The negative twins of the open-domain rules, made from a question's references: a date outside the span
    (its years moved by 7), another person of the surname (the next person's given name), a qualifier that
    changes the referent ("North" before a capitalised name)."""
    dated = next((ref for ref in refs if _YEAR.search(ref)), None)
    person = next((ref for ref in refs if looks_like_person(ref, question) and given_names(ref)), None)
    other_given = None
    if person:
        mine = given_names(person)[0]
        for row in following[:200]:
            given = [given_names(r)[0] for r in row["answer"] if looks_like_person(r) and given_names(r)]
            given = [name for name in given if is_given_name(name) and name not in TITLES]
            if given and given[0] != mine and not nickname(given[0], mine):
                other_given = f"{given[0].title()} {' '.join(surname(person)).title()}"
                break
    named = next((ref for ref in refs if ref[:1].isupper() and _shape(ref) == "other" and not ref.startswith("North")), None)
    return {
        TWINS[0]: _YEAR.sub(lambda year: str(int(year.group(1)) + 7), dated) if dated else None,
        TWINS[1]: other_given,
        TWINS[2]: f"North {named}" if named else None,
    }


def measure_nq(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    alias_total = alias_accepted = 0
    named = Counter()
    controls = {name: [0, 0, 0] for name in ("another question's answer", "another answer of the same shape", *TWINS)}
    for index, row in enumerate(rows):
        refs, question = row["answer"], row["question"]
        if len(refs) >= 2:
            for i, ref in enumerate(refs):
                others = refs[:i] + refs[i + 1:]
                if squad_normalize(ref) in {squad_normalize(o) for o in others}:
                    continue
                alias_total += 1
                judgement = judge(ref, references=others, question_text=question)
                alias_accepted += judgement.verdict == "accept"
                named.update(rule for rule in OPEN_DOMAIN_RULES if f"(rule: {rule})" in judgement.reason
                             and judgement.verdict == "accept")
        mine = {squad_normalize(r) for r in refs}
        shape = _shape(refs[0])
        following = rows[index + 1:] + rows[:index]
        picks = {
            "another question's answer": next((r["answer"][0] for r in following if squad_normalize(r["answer"][0]) not in mine), None),
            "another answer of the same shape": next((r["answer"][0] for r in following
                                                      if _shape(r["answer"][0]) == shape and squad_normalize(r["answer"][0]) not in mine), None),
        }
        picks.update(_twins(refs, question, following))
        for name, wrong in picks.items():
            if wrong is None or squad_normalize(wrong) in mine:
                continue
            ruled = judge(wrong, references=refs, question_text=question)
            controls[name][0] += 1
            controls[name][1] += ruled.verdict == "accept"
            controls[name][2] += "(rule: learned equivalence)" in ruled.reason
    print(f"{path.name}: {len(rows)} questions; a reference judged against the other references: "
          f"accepted {alias_accepted}/{alias_total} = {alias_accepted / max(alias_total, 1):.1%} (a proxy: many are other "
          f"answers of a list question, not aliases)")
    print(f"  open-domain rules named in these accepts: {', '.join(f'{rule} {named[rule]}' for rule in OPEN_DOMAIN_RULES)}")
    for name, (total, accepted, learned) in controls.items():
        print(f"  wrong-answer control, {name}: accepted {accepted}/{total} = {accepted / max(total, 1):.2%}; prompted by "
              f"the learned equivalence model {learned} = {learned / max(total, 1):.2%}")


def measure_open_domain_table() -> None:
    """The project's own NQ-open-style rows (tests/judging/open_domain_table.py): a proxy, written knowing the rules."""
    from tests.judging.open_domain_table import ROWS

    counts = Counter()
    for row in ROWS:
        accepted = judge(row.response, references=row.refs, question_text=row.question).verdict == "accept"
        counts[row.correct, accepted] += 1
    right, wrong = counts[True, True] + counts[True, False], counts[False, True] + counts[False, False]
    print(f"open-domain table (a proxy written for this project, not held-out rulings): correct answers accepted "
          f"{counts[True, True]}/{right} = {counts[True, True] / right:.0%} (target on held-out: at least 40%); "
          f"wrong answers accepted {counts[False, True]}/{wrong} = {counts[False, True] / wrong:.1%} (target: at most 1.5%)")


def _rate(step, cases: list, seconds: float, first: int) -> float:
    # CPU time of this process, not the wall clock: "per second on one core" holds on a shared machine, where
    # other processes take the core away now and then (the wall-clock rate moved by a third between runs).
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for case in cases:
            step(case, first + count)
            count += 1
    return count / (time.process_time() - start)


def throughput(records: list[dict], nq_rows: list[dict], seconds: float, rounds: int = 5) -> tuple[float, float, float, float]:
    """Judgements per second on fresh responses (a typo'd page title, numbered so no cache helps), a plain
    string comparison of the same responses with the same lines, normalising the responses alone, for
    scale, and open-domain judgements of another NQ question's answer against a question's references (most reach
    the learned equivalence model: no rule relates them). The four alternate for `rounds` rounds so they see the
    same load on a shared machine; the best round of each is reported."""
    cases = [(page_response(r)[:-1] + "x", r["answer"], r["text"]) for r in records if r["source"].get("page")]
    for response, answer, text in cases:
        judge(response, answer, question_text=text)  # parse every answer line once, as a live match does
    open_cases = [(other["answer"][0], row["answer"], row["question"]) for row, other in zip(nq_rows, nq_rows[1:] + nq_rows[:1])]

    def judge_one(case, number):
        judge(case[0] + str(number), case[1], question_text=case[2])

    def judge_open_one(case, number):
        judge(f"{case[0]} {_fresh(number)}", references=case[1], question_text=case[2])

    def normalise_one(case, number):
        tokens(case[0] + str(number))

    def compare_one(case, number):
        return (case[0] + str(number)).strip().casefold() == case[1].strip().casefold()

    judged, compared, normalised, opened = [], [], [], []
    for round_ in range(rounds):
        judged.append(_rate(judge_one, cases, seconds / rounds, 10**7 * (round_ + 1)))
        compared.append(_rate(compare_one, cases, seconds / rounds, 10**7 * (round_ + 1)))
        normalised.append(_rate(normalise_one, cases, seconds / rounds, 10**7 * (round_ + 1)))
        opened.append(_rate(judge_open_one, open_cases, seconds / rounds, 10**7 * (round_ + 1)))
    return max(judged), max(compared), max(normalised), max(opened)


def _fresh(number: int) -> str:
    """A made-up word for a number ("qbaz"), so no cache holds the response and it stays a word, not a number."""
    letters = ""
    while True:
        number, digit = divmod(number, 26)
        letters += chr(ord("a") + digit)
        if not number:
            return "q" + letters


PEOPLE = ("John Quincy Adams", "Thomas Jefferson", "George Washington", "Martin Luther King", "Abraham Lincoln",
          "Franklin Delano Roosevelt", "Theodore Roosevelt", "Alexander Hamilton", "James Madison", "Andrew Jackson")
LONG_WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis"


def _fill(pieces, limit: int, start: str = "", end: str = "") -> str:
    """start, then as many of `pieces` (cycled) as fit in `limit` characters with `end`."""
    text = start
    for piece in pieces * (limit // max(1, len(pieces[0])) + 1):
        if len(text) + len(piece) + len(end) > limit:
            break
        text += piece
    return text + end


def worst_lines(n: int) -> dict[str, str]:
    """Answer lines of ANSWER characters that make the judge work hardest, each numbered `n` so no cache holds it."""
    limit = ANSWER.value
    return {
        "many alternatives": _fill([f"or {w}{n}; " for w in ("Ab", "Cd", "Ef", "Gh", "Ij", "Kl")], limit - 1, f"Westphalia{n} [", "]"),
        "long words": _fill([f"{LONG_WORD}{n} "], limit),
        "people's names": _fill([f"accept {p}; " for p in PEOPLE], limit - 1, f"Albert Einstein{n} [", "]"),
        "digits and years": _fill([f" or {1000 + k}" for k in range(400)], limit, f"{n}"),
        "qualified clauses": _fill([f"prompt on Hastings {k} before mention; " for k in range(80)], limit - 1,
                                   f"Battle{n} of Hastings [", "]"),
        "dates and spans": _fill([f"or May to August {1600 + k}; " for k in range(80)], limit - 1, f"June {1000 + n % 900} [", "]"),
    }


def worst_answers(n: int) -> dict[str, str]:
    """Typed answers of MAX_TEXT characters, numbered `n`."""
    return {
        "words of the lines": _fill(["Westphalia ", "Osnabruck ", "Adams ", "Jefferson ", "Lincoln ", "Hastings "], MAX_TEXT - 8),
        "long words": _fill([f"{LONG_WORD} "], MAX_TEXT - 8),
        "digits": _fill([f"{1000 + k} " for k in range(60)], MAX_TEXT - 8),
        "people's names": _fill([f"{p} " for p in PEOPLE], MAX_TEXT - 8),
        "answers joined by or": _fill([f"Colonel {p} or " for p in PEOPLE], MAX_TEXT - 8),
        "dates": _fill([f"the summer of {1600 + k} or " for k in range(20)], MAX_TEXT - 8),
    }


def worst_case(repeat: int) -> None:
    """The judge's cost on every pair of hard line and hard answer, on this thread's CPU clock."""
    question = _fill(["This treaty ended the Thirty Years War in 1648, signed at Osnabruck and Munster by Adams. "], TEXT.value)
    words = tuple(question.split())
    number = iter(range(10**6))
    judge("warm up", answer_line="Warm up", question_text=question, buzz=(1, words))
    timed: dict[tuple[str, str], list[float]] = defaultdict(list)
    for _ in range(repeat):
        for line_kind in worst_lines(0):
            for answer_kind in worst_answers(0):
                for rules in ("quizbowl", "open-domain"):
                    n = next(number)
                    line, answer = worst_lines(n)[line_kind], worst_answers(n)[answer_kind] + f" {n}"
                    # Under open-domain rules the line's texts are the references, as an NQ question's are.
                    given = {"answer_line": line} if rules == "quizbowl" else {"references": tuple(line.split("; "))}
                    started = time.thread_time()
                    judge(answer, question_text=question, buzz=(len(words) // 2, words), rules=rules, **given)
                    timed[(f"{line_kind} ({rules})", answer_kind)].append((time.thread_time() - started) * 1000)
    print(f"Worst case of the judge: answer lines of {ANSWER.value} characters, typed answers of {MAX_TEXT}, a question of "
          f"{TEXT.value}; each line parsed fresh; ms on this thread's CPU clock, median of {repeat} (slowest of them):")
    for (line_kind, answer_kind), times in sorted(timed.items(), key=lambda item: -statistics.median(item[1])):
        print(f"  {statistics.median(times):7.2f} ({max(times):7.2f})  line: {line_kind:32}  answer: {answer_kind}")
    (line_kind, answer_kind), times = max(timed.items(), key=lambda item: statistics.median(item[1]))
    worst = statistics.median(times)
    print(f"The worst: {worst:.1f} ms ({line_kind} against {answer_kind}), {worst:.0f}x the 1 ms a judgement may take "
          f"inside a write: {'over' if worst > 1 else 'under'} it, so the conductor judges "
          f"{'beside its writes (game/conductor/beside.py)' if worst > 1 else 'in the write'}.")


def as_a_conductor(questions: list[dict], nq_rows: list[dict], passes: int = 3) -> None:
    """As a conductor judges through a long event: every question new and judged once. A tossup: its page as a
    player says it and the next question's page (a wrong answer), the buzz halfway; an NQ question (open-domain
    rules): its last reference and the next question's answer. Each pass starts with the caches empty; the rates
    are on the CPU clock (best pass), and a last pass under tracemalloc says what the caches hold as they fill."""
    import gc
    import tracemalloc
    caches = memo.caches()
    tossups, short = [], []
    for i, question in enumerate(questions):
        words, following = tuple(question["text"].split()), questions[(i + 1) % len(questions)]
        for said in (page_response(question), page_response(following)):
            tossups.append((said, {"answer_line": question["answer"], "question_text": question["text"],
                                   "buzz": (len(words) // 2, words)}))
    for row, following in zip(nq_rows, nq_rows[1:] + nq_rows[:1]):
        for said in (row["answer"][-1], following["answer"][0]):
            short.append((said, {"references": row["answer"], "question_text": row["question"]}))
    judge("warm", "warm")  # the lexicon loaded once, as a conductor loads it at start
    for name, cases in (("tossups", tossups), ("NQ questions, open-domain", short)):
        rates = []
        for _ in range(passes):
            for cache in caches:
                cache.cache_clear()
            start = time.process_time()
            for said, given in cases:
                judge(said, **given)
            rates.append(len(cases) / (time.process_time() - start))
        print(f"as a conductor judges, every question new: {len(cases) // 2:,} {name}, {len(cases):,} judgements "
              f"(best of {passes} passes on the CPU clock): {max(rates):,.0f} judgements/s")
    for cache in caches:
        cache.cache_clear()
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    cases = tossups + short
    marks = {len(cases) * k // 4 for k in (1, 2, 3, 4)}
    for n, (said, given) in enumerate(cases, 1):
        judge(said, **given)
        if n in marks:
            gc.collect()
            held = (tracemalloc.get_traced_memory()[0] - base) / 2**20
            entries = sum(cache.cache_info().currsize for cache in caches)
            print(f"  after {n:6,} judgements (the tossups', then the NQ questions') the caches hold {held:6.1f} MiB "
                  f"({entries:,} entries)")
    tracemalloc.stop()
    bound = sum(cache.cache_info().maxsize or 0 for cache in caches)
    print(f"  {len(caches)} caches, {bound:,} entries at most in all")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-misses", type=int, default=3, help="examples printed per kind of miss")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long each speed measurement runs, in all")
    parser.add_argument("--worst", action="store_true", help="only the worst case on the longest lines the limits allow")
    parser.add_argument("--repeat", type=int, default=5, help="with --worst: judgements of each pair of kinds")
    parser.add_argument("--conductor", action="store_true",
                        help="only the judge as a conductor uses it through a long event: its rate and its caches' memory")
    args = parser.parse_args()
    if args.worst:
        print(f"WordNet: {'loaded' if lexicon.index() is not None else lexicon.missing_reason()}")
        worst_case(args.repeat)
        return
    data = Path(settings.EXHIBITION_DATA_DIR)
    if not (data / "qanta").is_dir():
        sys.exit(f"The QANTA data is not at {data / 'qanta'}; set EXHIBITION_DATA_DIR to the shared data folder.")
    started = time.perf_counter()
    print(f"WordNet: {'loaded' if lexicon.available() else lexicon.missing_reason()} "
          f"({time.perf_counter() - started:.2f} s to load the noun index)")
    if args.conductor:
        nq_rows = [json.loads(line) for line in (data / "nq-open" / NQ_FILES[0]).read_text().splitlines() if line.strip()]
        as_a_conductor([q for name in QANTA_FILES for q in read_questions(data / "qanta" / name) if q["source"].get("page")],
                       nq_rows)
        return
    totals, kinds, examples = Counter(), Counter(), defaultdict(list)
    for name in QANTA_FILES:
        measure_qanta(data / "qanta" / name, args.show_misses, totals, kinds, examples)
    pages = totals["pages"]
    print(f"QANTA overall: page accepted {totals['accept']}/{pages} = {totals['accept'] / pages:.1%}; "
          f"prompted {totals['prompt']} ({totals['prompt'] / pages:.1%}); rejected {totals['reject']} ({totals['reject'] / pages:.1%}) "
          f"(target: at least 95% accepted)")
    print(f"  wrong-answer control, the next question's page against this line: accepted "
          f"{totals['control accepted']}/{totals['control']} = {totals['control accepted'] / totals['control']:.2%}")
    print(f"Pages not accepted, by kind, {sum(kinds.values())} in all, none unsorted:")
    for kind, count in sorted(kinds.items(), key=lambda item: -item[1]):
        verdicts = Counter(verdict for verdict, _, _ in examples[kind])
        print(f"  {count:4d}  kind {kind}: {KINDS[kind]} ({verdicts['prompt']} prompted, {verdicts['reject']} rejected)")
        for verdict, response, answer in examples[kind][: args.show_misses]:
            print(f"          {verdict:6} {response!r} vs {answer[:90]!r}")
    for name in NQ_FILES:
        path = data / "nq-open" / name
        if path.is_file():
            measure_nq(path)
    measure_open_domain_table()
    records = read_questions(data / "qanta" / QANTA_FILES[0])
    measure_names(records + read_questions(data / "qanta" / QANTA_FILES[1]))
    nq_rows = [json.loads(line) for line in (data / "nq-open" / NQ_FILES[0]).read_text().splitlines() if line.strip()]
    judged, compared, normalised, opened = throughput(records, nq_rows, args.seconds)
    print(f"speed on one core, {len(records):,} real answer lines of {QANTA_FILES[0]} (best of 5 rounds, on the process's CPU clock): "
          f"{judged:,.0f} judgements/s ({1000 / judged:.3f} ms each); target: at least 5,000 judgements/s")
    print(f"  baseline, plain string comparison of the same responses with the same lines: {compared:,.0f}/s "
          f"(the judge at {judged / compared:.2%} of it); normalising the responses alone: {normalised:,.0f}/s")
    print(f"  open-domain, another NQ question's answer against a question's references of {NQ_FILES[0]} (most reach the "
          f"learned equivalence model): {opened:,.0f} judgements/s ({1000 / opened:.3f} ms each)")


if __name__ == "__main__":
    main()
