"""The host's import page: staff only; shows the count imported and the per-line error table."""
import gzip

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from game.models import Packet

pytestmark = pytest.mark.django_db
URL = "/host/import/"


@pytest.fixture
def staff_client(client):
    user = get_user_model().objects.create_user("host", password="pw", is_staff=True)
    client.force_login(user)
    return client


def upload(client, content: bytes, name="qa.csv", **fields):
    data = {"file": SimpleUploadedFile(name, content), "slug": "upload", "title": "", "format": "auto", **fields}
    return client.post(URL, data)


def test_anonymous_and_non_staff_users_are_sent_to_log_in(client):
    assert client.get(URL).status_code == 302
    client.force_login(get_user_model().objects.create_user("player", password="pw"))
    assert client.get(URL).status_code == 302


def test_the_form_renders_for_staff(staff_client):
    page = staff_client.get(URL)
    assert page.status_code == 200 and b'enctype="multipart/form-data"' in page.content and b"<progress" in page.content


def test_upload_shows_the_count_and_the_broken_lines(staff_client):
    page = upload(staff_client, b"Capital of France?,Paris\nNo answer,\nLargest ocean?,Pacific\n", title="Capitals")
    text = page.content.decode()
    assert page.status_code == 200
    assert '<strong id="imported-count">2</strong>' in text
    assert "<td>2</td><td>The question has no answer; fill it in or remove the line.</td>" in text
    assert Packet.objects.get(slug="upload").title == "Capitals"


def test_a_file_with_no_good_line_says_so_and_saves_nothing(staff_client):
    page = upload(staff_client, b"nope\n", name="x.jsonl")
    assert page.status_code == 400 and "Nothing was imported" in page.content.decode()
    assert not Packet.objects.exists()


def test_whole_file_problems_are_shown_as_a_sentence(staff_client):
    upload(staff_client, b"Q?,A\n")
    page = upload(staff_client, b"Q?,A\n")
    assert page.status_code == 400 and "already exists; choose another slug" in page.content.decode()


def test_an_input_over_a_limit_is_a_sentence_on_the_page_and_nothing_is_imported(staff_client):
    good = "".join(f"Question {i}?,Answer {i}\n" for i in range(10))
    page = upload(staff_client, (good + "x" * 2001 + ",Answer\n").encode(), name="eleven.csv")
    assert page.status_code == 400
    assert ("eleven.csv line 11: the question text length is 2,001 characters, over the limit of 2,000 characters "
            "(setting EXHIBITION_IMPORT_MAX_TEXT_CHARS). Nothing was imported.") in page.content.decode()
    page = upload(staff_client, b"[" * 100_000 + b"]" * 100_000, name="deep.json")
    assert page.status_code == 400 and "deep.json line 1: the JSON nesting depth goes over the limit of 32 levels" in page.content.decode()
    assert not Packet.objects.exists()


def test_a_gzip_bomb_is_refused_as_too_large(staff_client, settings):
    settings.EXHIBITION_IMPORT_MAX_UNPACKED_BYTES = 1024 * 1024
    page = upload(staff_client, gzip.compress(b" " * (64 * 1024 * 1024)), name="bomb.json.gz")
    assert page.status_code == 413 and "bomb.json.gz: the unpacked size goes over the limit of 1 MiB" in page.content.decode()
    assert not Packet.objects.exists()


def test_an_upload_over_the_file_size_is_refused_before_it_is_read(settings):
    settings.EXHIBITION_IMPORT_MAX_FILE_BYTES = 1024 * 1024
    host = Client(enforce_csrf_checks=True)  # the CSRF check would read the upload: the size comes first
    host.force_login(get_user_model().objects.create_user("host", password="pw", is_staff=True))
    page = upload(host, b"Q?,A\n" * 300_000, name="big.csv")
    assert page.status_code == 413
    assert "The upload: the file size is 1," in page.content.decode() and "over the limit of 1 MiB" in page.content.decode()
    assert upload(host, b"Q?,A\n").status_code == 403  # and a form without its CSRF token is still refused
    assert not Packet.objects.exists()
    host.get(URL)
    assert upload(host, b"Q?,A\n", csrfmiddlewaretoken=host.cookies["csrftoken"].value).status_code == 200

