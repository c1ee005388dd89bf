"""The host's import page: upload a question file, see how many questions came in and which lines did not."""
from __future__ import annotations

from django import forms
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from intake.limits import FILE, UNPACKED
from intake.problems import ImportProblem
from serving.request_bodies import over_limit

from game.importers.file_kinds import FORMATS
from game.importers.run import import_file

class ImportForm(forms.Form):
    file = forms.FileField(help_text="QANTA .json or .json.gz, qbreader packet .json, NQ-open .jsonl, tossups.csv, a "
                                     "question,answer CSV (or kind, text, answer and bonus parts), packet JSON, or a "
                                     "Word .docx packet; bonuses come in with their parts.")
    slug = forms.SlugField(max_length=80, help_text="A short name for the packet, e.g. qanta-guessdev.")
    title = forms.CharField(max_length=200, required=False, help_text="Leave empty to take it from the file.")
    format = forms.ChoiceField(choices=[("auto", "detect from the file")] + [(k, label) for k, (label, _) in FORMATS.items()], initial="auto")
    replace = forms.BooleanField(required=False, help_text="Refill the packet if one with this slug exists.")


def _too_large(request) -> str | None:
    """The sentence for a request body over the page's limit, judged from its length before it is read.
    Daphne refuses such a body before the page is asked (serving/request_bodies.py); this is the same
    judgement for any other server."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    return over_limit(request.path_info, length)


# The CSRF check reads the form, and with it the whole upload; so the size is judged first, and the
# CSRF check (csrf_protect) follows it for every request that gets further.
@csrf_exempt
@staff_member_required
def host_import(request):
    if request.method == "POST" and (problem := _too_large(request)):
        return render(request, "host_import.html", {"form": ImportForm(), "problem": problem}, status=413)
    return _import_page(request)


@csrf_protect
def _import_page(request):
    form = ImportForm(request.POST or None, request.FILES or None)
    report, problem, status = None, None, 400 if request.method == "POST" else 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        upload = data["file"]
        try:
            report = import_file(upload, upload.name, upload.size, data["slug"], title=data["title"],
                                 fmt=data["format"], replace=data["replace"])
            status = 200 if report.imported else 400
        except ImportProblem as error:
            problem = f"{error} Nothing was imported."
            status = 413 if getattr(error, "limit", None) in (FILE, UNPACKED) else 400
    return render(request, "host_import.html", {"form": form, "report": report, "problem": problem}, status=status)
