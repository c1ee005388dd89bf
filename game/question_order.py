"""The question order where people set it and read it back: the host form's fields, the outline of
each packet its script counts with, the same options for the commands that make matches, and what
a match's settings picked (the host's match page). The choosing itself is game/engine/selection.py.
"""
from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.core.management.base import CommandError
from django.db.models import Case, IntegerField, Value, When

from game.engine.api import describe, MAX_SEED, NOUNS, ORDERS, POWER_MARK, QuestionOrder, SelectionError
from game.models import Match, MatchEvent, Question
from game.match_setup import new_seed

START_HELP = ("1 = from the start. Counts the packet's questions of the kind this format plays (tossups or short "
              "questions) in the packet's own order, before the categories and the shuffle; earlier ones are not played")


class QuestionOrderFields(forms.Form):
    """The host form's question-order settings (the categories offered are set by the form)."""

    order = forms.ChoiceField(label="Order", initial="packet", widget=forms.RadioSelect, required=False,  # none: packet
                              choices=[("packet", "packet order"), ("shuffled", "shuffled")])
    seed = forms.IntegerField(label="Seed", required=False, min_value=0, max_value=MAX_SEED,
                              help_text="the same seed, packet and settings give the same order; empty: a new seed, "
                                        "shown on the match page")
    start_at = forms.IntegerField(label="Start at question", required=False, min_value=1, initial=1,
                                  help_text=START_HELP)
    categories = forms.MultipleChoiceField(label="Categories", required=False, widget=forms.CheckboxSelectMultiple,
                                           help_text="none ticked: every category")
    prefer_power = forms.BooleanField(label="Tossups with a power mark first", required=False,
                                      help_text="those with a power mark (*) play first, then the rest, each in the "
                                                "order above; for formats that give power points")

    def question_order(self) -> QuestionOrder:
        data = self.cleaned_data
        shuffled = data.get("order") == "shuffled"
        return QuestionOrder(order="shuffled" if shuffled else "packet", seed=data.get("seed") if shuffled else None,
                             start_at=data.get("start_at") or 1, categories=tuple(data.get("categories") or ()),
                             prefer_power=bool(data.get("prefer_power")))


def packet_outlines() -> dict:
    """packet id -> question kind -> {"categories": [names], "questions": [category index * 2 + 1 if it has
    a power mark]}, in the packet's order: what the host page's script needs to say how many questions
    the settings leave, without loading any question's text."""
    marked = Case(When(text__contains=POWER_MARK, then=Value(1)), default=Value(0), output_field=IntegerField())
    rows = (Question.objects.order_by("packet_id", "position").annotate(power=marked)
            .values_list("packet_id", "kind", "category", "power"))
    outlines: dict = {}
    for packet, kind, category, power in rows.iterator():
        outline = outlines.setdefault(packet, {}).setdefault(kind, {"categories": [], "questions": []})
        if category not in outline["categories"]:
            outline["categories"].append(category)
        outline["questions"].append(outline["categories"].index(category) * 2 + power)
    return outlines


def category_choices(outlines: dict) -> list[tuple[str, str]]:
    names = {name for kinds in outlines.values() for outline in kinds.values() for name in outline["categories"]}
    return [(name, name) for name in sorted(names - {""})]


# -- the same settings on a command line (demo_setup, simulate) ------------------------------------

def add_order_arguments(parser) -> None:
    group = parser.add_argument_group("question order (as on the host's new-match page)")
    group.add_argument("--order", choices=ORDERS, default="packet", help="packet order (default) or shuffled")
    group.add_argument("--order-seed", type=int, default=None, metavar="N",
                       help="the shuffle's seed (default: a new one, stored with the match)")
    group.add_argument("--start-at", type=int, default=1, metavar="N", help=START_HELP)
    group.add_argument("--category", action="append", default=[], metavar="NAME",
                       help="play only this category (repeat for several; default: every category)")
    group.add_argument("--prefer-power", action="store_true",
                       help="tossups with a power mark first (formats that give power points)")


def order_from_options(options: dict) -> QuestionOrder:
    """The settings add_order_arguments read; a shuffle without --order-seed gets a new seed."""
    if options["order_seed"] is not None and options["order"] != "shuffled":
        raise CommandError("--order-seed is the shuffle's seed: add --order shuffled.")
    seed = options["order_seed"]
    if options["order"] == "shuffled" and seed is None:
        seed = new_seed()
    try:
        return QuestionOrder.from_dict({"order": options["order"], "seed": seed,
                                        "start_at": options["start_at"], "categories": options["category"],
                                        "prefer_power": options["prefer_power"]})
    except SelectionError as exc:
        raise CommandError(str(exc)) from None


# -- what a match's settings picked -----------------------------------------------------------------

@dataclass(frozen=True)
class QuestionPlan:
    """A match's question order and what it left: `asked` main questions in the rules, `carried` in
    its match_created event (main, then reserve)."""

    order: QuestionOrder
    asked: int
    carried: int
    kind: str

    @property
    def main(self) -> int:
        return min(self.asked, self.carried)

    @property
    def reserve(self) -> int:
        return self.carried - self.main

    @property
    def short(self) -> bool:
        return self.carried < self.asked

    def describe(self, seed: bool = True) -> str:
        return describe(self.order, seed=seed)

    @property
    def many(self) -> str:
        return NOUNS.get(self.kind, ("question", "questions"))[1]

    def warning(self) -> str:
        """Said as the match is made, when it plays fewer questions than it asks for."""
        return (f"The packet and the question order leave {self.carried} {self.many}, not the {self.asked} the match "
                f"asks for: the match plays {self.carried}, with none in reserve for a throw-out or a tiebreaker.")

    def summary(self) -> str:
        if self.short:
            return f"{self.main} {self.many} to play ({self.asked} asked for), none in reserve."
        return f"{self.main} {self.many} to play and {self.reserve} in reserve for throw-outs and tiebreakers."


def question_plan(match: Match) -> QuestionPlan:
    created = MatchEvent.objects.filter(match=match, seq=1).values_list("data", flat=True).first() or {}
    rules = created.get("rules") or match.rules
    return QuestionPlan(order=QuestionOrder.from_dict(created.get("question_order", match.question_order)),
                        asked=rules["questions"], carried=len(created.get("questions") or ()),
                        kind=rules["question_kind"])
