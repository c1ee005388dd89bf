"""The event report as HTML: the page staff open, and the same page as one self-contained file.

Both are templates/report/report.html over the figures of game/report/figures.py: tables written on
the server (every name escaped by the template), charts drawn in the browser by static/js/report.js
with the vendored Chart.js from the same figures, embedded as JSON. The file carries its CSS, both
scripts and the data inline, so it opens from a disk with no server and no network.
"""
from __future__ import annotations

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import timezone

from game.report.figures import BINS, event_figures
from game.report.human_ai import FIGURES as HUMAN_AI, NOT_REPORTED

ASSETS = {"css": ["css/report.css"], "js": ["vendor/chartjs/chart.umd.min.js", "js/report.js"]}
TIER_LABELS = {"500mib": "500 MiB", "6gib": "6 GiB", "unlimited": "unlimited", "computer": "computer"}


def tier_label(tier: str) -> str:
    return TIER_LABELS.get(tier, tier)


def number(value, form: str = "{:.2f}") -> str:
    return "—" if value is None else form.format(value)


def share(value, right=None, total=None) -> str:
    if value is None:
        return "—"
    counts = f" ({right}/{total})" if total is not None else ""
    return f"{value * 100:.0f}%{counts}"


def phase_label(phase: dict) -> str:
    bits = [phase["mode"]]
    if phase.get("points") is not None:
        bits.append(f"{phase['points']} point{'' if abs(phase['points']) == 1 else 's'}")
    if phase.get("tier"):
        bits.append(f"against the {tier_label(phase['tier'])} bot")
    return f"Phase {phase['number']}: {', '.join(bits)}"


def count_of(text: str, total: int, none: str) -> str:
    """'text of total', or what a reader understands when there is nothing to count ("no buzz phase")."""
    return f"{text} of {total}" if total else none


def human_ai_cell(bot: dict, key: str, form: str) -> str:
    """One human-AI figure of a bot as the page writes it (`form` from game.report.human_ai.FIGURES)."""
    value = bot[key]
    if form == "count":
        return str(value)
    if form == "calibration" and not bot["confidence_reported"]:
        return NOT_REPORTED
    if form.startswith("share of "):  # a share and what it is of: "50% of 2"
        return count_of(share(value), bot[form.removeprefix("share of ")], "—")
    return {"share": share, "decimal": number, "signed": lambda v: number(v, "{:+.2f}"),
            "calibration": lambda v: number(v, "{:.3f}")}[form](value)


def tables(figures: dict) -> dict:
    """Every table of the report as rows of text, in the order the page shows them."""
    phases = {p["number"]: f"Phase {p['number']}" for p in figures["phases"]}
    tiers = figures["tiers"]
    bonuses = figures["bonuses"]
    parts = max((len(r["parts"]) for r in bonuses), default=0)
    return {
        "points_head": ["Phase", "Humans", *[tier_label(t) for t in tiers]],
        "points": [[phases.get(r["phase"], f"Phase {r['phase']}"), r["humans"], *[r.get(t, 0) for t in tiers]]
                   for r in figures["points"]],
        "margins_head": ["Human team", "Match", "Questions", *[phases[n] for n in phases],
                         *(["Bonuses"] if bonuses else []), "Adjustments", "Average margin"],
        "margins": [[r["label"], r["code"], r["questions"], *[number(r["phases"].get(n), "{:+.2f}") for n in phases],
                     *([number(r["bonuses"], "{:+.2f}")] if bonuses else []),
                     number(r["adjustments"], "{:+.2f}"), number(r["average"], "{:+.2f}")] for r in figures["margins"]],
        "accuracy_head": ["Phase", "Humans", "Computer"],
        "accuracy": [[phases.get(r["phase"], f"Phase {r['phase']}"),
                      share(r["human"]["accuracy"], r["human"]["right"], r["human"]["answers"]),
                      share(r["computer"]["accuracy"], r["computer"]["right"], r["computer"]["answers"])]
                     for r in figures["accuracy"]],
        "bots_head": ["Bot", "Questions", "Start accuracy", "End accuracy", "Buzzes",
                      "Precision", "EW", "EW (QANTA)"],
        "bots": [[f"{b['name']} ({tier_label(b['tier'])})", b["questions"], share(b["start_accuracy"]),
                  count_of(share(b["end_accuracy"]), b["end_questions"], "none read to the end"),
                  count_of(str(b["buzzes"]), b["buzz_questions"], "no buzz phase"),
                  share(b["buzz_precision"]), number(b["expected_wins"], "{:.3f}"),
                  number(b["expected_wins_curve"], "{:.3f}")] for b in figures["bots"]],
        "human_ai_head": ["Bot", *[heading for _, heading, _, _ in HUMAN_AI]],
        "human_ai": [[f"{b['name']} ({tier_label(b['tier'])})",
                      *[human_ai_cell(b, key, form) for key, _, _, form in HUMAN_AI]] for b in figures["human_ai"]],
        "bonuses_head": ["Team", "Match", "Bonuses heard", "Bonus points", "PPB", "Bounceback points",
                         *[f"Part {k + 1}" for k in range(parts)]],
        "bonuses": [[r["label"], r["code"], r["heard"], r["points"], number(r["ppb"]), r["bounceback"],
                     *[share(p["share"], p["right"], p["heard"]) for p in r["parts"]],
                     *["—"] * (parts - len(r["parts"]))] for r in bonuses],
        "players_head": ["Player", "Team", "Matches", "Powers", "Tens", "Negs", "Tossup points", "Tossups heard",
                         "Tossup points per tossup heard"],
        "players": [[p["name"], p["team"], p["matches"], p["powers"], p["tens"], p["negs"], p["points"], p["heard"],
                     number(p["pptuh"])] for p in figures["players"]],
        "histogram_head": ["Who", "Ruled", *[f"{i * 10}–{(i + 1) * 10}" for i in range(BINS)]],
        "histogram": [row for name, h in [("Humans", figures["human_buzzes"])] +
                      [(f"{b['name']} ({tier_label(b['tier'])})", b["histogram"]) for b in figures["bots"] if b["buzzes"]]
                      for row in ([name, "right", *h["right"]], [name, "wrong", *h["wrong"]])],
    }


SECTIONS = [  # (key, heading, what it counts, what the chart shows, the table's caption)
    ("points", "Points won in each phase",
     "The points of every final ruling in the phase, to the humans or to the bot tier that answered "
     "(the EfficientQA report's Table 9).", "the points won in each phase", "Points by phase"),
    ("margins", "Average margin per question, by phase",
     "Human points minus computer points in the phase, divided by the questions the match played; the phases, "
     "the bonuses (in a format with bonuses) and the adjustments add up to the average margin (Table 10 of the report).",
     "the average margin per question in each phase, per match", "Average margin per question"),
    ("accuracy", "Accuracy in each phase, humans and computer",
     "Accepted answers out of the answers ruled (prompts are not final) of each side in the phase "
     "(Figure 3 of the report).", "the accuracy of the humans and the computer in each phase", "Accuracy by phase"),
    ("bots", "Each bot",
     "Accuracy of its guess at the start of each question and once the whole question is read; its buzzes; EW, "
     "the share of its questions it would have won against these humans' first right buzzes (and against "
     "QANTA's curve of human buzzes).",
     "each bot's accuracy at the start and the end of the question and its expected wins", "Per bot"),
    ("human_ai", "Each bot beside and against the humans",
     "Its buzzes (how often, how often right, how early), its expected score against the human buzzes on the record, "
     "the matches its team won, and its calibration (GRACE's CalScore) where it reports a confidence. What each "
     "column counts is under the table.", None, "Per bot, with and against humans"),
    ("histogram", "Where in the question they buzzed",
     "Each bot's buzz and every ruled human buzz, by the tenth of the question read when it came.",
     "the buzzes by tenth of the question", "Buzzes by % of the question read"),
    ("bonuses", "Bonuses",
     "Per team: the bonuses it heard (won on a tossup), its points on them and points per bonus (PPB), its points on "
     "the other team's bonuses by bounceback, and each part's conversion (right of heard).",
     "each team's conversion of each bonus part", "Bonuses per team"),
    ("players", "Players: powers, tens and negs",
     "Per player over the matches: powers, tens and negs, tossup points, the tossups heard while seated and the "
     "tossup points per tossup heard.", None, "Players' tossups"),
]
OPTIONAL = ("bonuses", "players", "human_ai")  # shown only when a match has them (bonuses; tossups; bots)
NO_HUMAN_TEAMMATES = ("No bot sat on a team with people in these matches: “Matches won” is the share of the matches "
                      "its computer team won.")


def _remark(key: str, figures: dict) -> str | None:
    """What a reader must know of a section's numbers in these matches (only the human-AI one has anything)."""
    if key == "human_ai" and not any(b["human_matches"] for b in figures["human_ai"]):
        return NO_HUMAN_TEAMMATES
    return None


def sections(figures: dict) -> list[dict]:
    rows = tables(figures)
    return [{"key": key, "title": title, "note": note, "chart": chart, "caption": caption,
             "head": rows[f"{key}_head"], "rows": rows[key], "remark": _remark(key, figures),
             "definitions": [(heading, text) for _, heading, text, _ in HUMAN_AI] if key == "human_ai" else []}
            for key, title, note, chart, caption in SECTIONS if key not in OPTIONAL or figures[key]]


def _asset(path: str) -> str:
    found = finders.find(path)
    if found is None:
        raise FileNotFoundError(f"The report's asset {path} is missing from the static folders.")
    with open(found, encoding="utf-8") as handle:
        text = handle.read()
    # The source map is not shipped; a file opened from disk must not point at anything else.
    return "\n".join(line for line in text.splitlines() if not line.startswith("//# sourceMappingURL="))


def render_report(figures: dict, title: str, inline: bool, back_url: str | None = None) -> str:
    """The report's HTML; with inline=True, one file holding its CSS, scripts and data."""
    labels = {"tiers": {t: tier_label(t) for t in figures["tiers"]},
              "phases": {p["number"]: f"Phase {p['number']}" for p in figures["phases"]}}
    context = {"title": title, "phases": [phase_label(p) for p in figures["phases"]], "figures": figures, "data": dict(figures, labels=labels), "sections": sections(figures), "inline": inline,
               "back_url": back_url, "made": timezone.now(),
               "questions": sum(m["questions"] for m in figures["matches"])}
    if inline:
        context["css"] = "\n".join(_asset(p) for p in ASSETS["css"])
        context["scripts"] = [_asset(p) for p in ASSETS["js"]]
    else:
        context["script_paths"] = ASSETS["js"]
        context["css_paths"] = ASSETS["css"]
    return render_to_string("report/report.html", context)


def report_from_logs(logs: list[tuple[dict, list[dict]]], title: str, inline: bool, back_url: str | None = None) -> str:
    return render_report(event_figures(logs), title, inline, back_url)
