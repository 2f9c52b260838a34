"""The Gradio app in a real browser: headless Chromium (Debian's) driven by Playwright.

Walks through both modes like a user, checks what the page shows against ``rouge_plus.score``,
and saves screenshots to ``$ROUGE_PLUS_ARTIFACTS/screenshots`` (default ``artifacts/``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow  # a browser and the app's server: over 2 minutes

pytest.importorskip("gradio", reason="the app needs gradio")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="browser tests need the Python playwright package"
)

from support.app_server import REPO, running_app  # noqa: E402

import rouge_plus  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip(
        "browser tests need Chromium on PATH (Debian: apt-get install -y chromium)",
        allow_module_level=True,
    )

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 120_000
DEFAULT_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

SPINACH_PREDICTION = "Water spinach is a leaf vegetable commonly eaten in tropical areas of Asia."
SPINACH_REFERENCES = [
    "Water spinach is a green leafy vegetable grown in the tropics.",
    "Water spinach is a semi-aquatic tropical plant grown as a vegetable.",
    "Water spinach is a commonly eaten leaf vegetable of Asia.",
]
CAR_PREDICTION = "The car is fast and cheap to run."
CAR_REFERENCES = [
    "This automobile is quick and inexpensive to operate.",
    "A fast auto that is economical to drive.",
]
SYNONYM_TYPES = ["rouge1", "rouge1+synonyms", "rougeL"]
CORPUS = [
    {"prediction": "The cat sat on the mat.", "references": ["A cat was sitting on the mat."]},
    {"prediction": "Stocks fell sharply on Monday.", "references": ["Shares dropped on Monday."]},
    {"prediction": "It rained all day.", "references": ["Rain fell all day.", "A wet day."]},
    {"prediction": "The team won the final.", "references": ["The final was won by the team."]},
    {"prediction": "New bridge opens downtown.", "references": ["A new bridge opened downtown."]},
]


def screenshot_dir() -> Path:
    base = Path(os.environ.get("ROUGE_PLUS_ARTIFACTS", REPO / "artifacts"))
    directory = base / "screenshots"
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.fixture(scope="module")
def page():
    with running_app() as url, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": 1360, "height": 1000})
            tab.set_default_timeout(TIMEOUT_MS)
            tab.goto(url, timeout=TIMEOUT_MS)
            yield tab
        finally:
            browser.close()


def test_single_pair_example_scores_and_highlights(page) -> None:
    # The page scores the first example on load.
    page.wait_for_selector("#pair-highlights mark")
    page.locator("#pair-examples").get_by_text("Water spinach is a leaf", exact=False).click()
    page.wait_for_selector("#pair-highlights :text('Reference 3')")

    expected = rouge_plus.score(
        [SPINACH_PREDICTION], [SPINACH_REFERENCES], rouge_types=DEFAULT_TYPES
    )
    table = page.locator("#pair-scores").inner_text()
    for name, label in [("rouge1", "ROUGE-1"), ("rouge2", "ROUGE-2"), ("rougeL", "ROUGE-L")]:
        assert label in table
        assert f"{expected[name]:.4f}" in table
    assert "np.float64" not in page.content()

    highlights = page.locator("#pair-highlights")
    assert highlights.locator(".rp-card").count() == 3
    assert highlights.locator("mark.rp-both").count() >= 3
    assert highlights.locator(".rp-legend").inner_text().count("LCS") == 2
    assert highlights.locator("mark.rp-synonym").count() == 0


def test_synonym_example_selects_its_types_and_marks_synonyms(page) -> None:
    page.locator("#pair-examples").get_by_text("The car is fast", exact=False).click()
    page.wait_for_selector("#pair-highlights mark.rp-synonym")
    page.wait_for_selector("#pair-highlights :text('Reference 2')")

    expected = rouge_plus.score([CAR_PREDICTION], [CAR_REFERENCES], rouge_types=SYNONYM_TYPES)
    table = page.locator("#pair-scores").inner_text()
    assert "ROUGE-1+synonyms" in table
    for name in SYNONYM_TYPES:
        assert f"{expected[name]:.4f}" in table
    highlights = page.locator("#pair-highlights")
    assert "synonym" in highlights.locator(".rp-legend").inner_text()
    synonyms = highlights.locator(".rp-card").first.locator("mark.rp-synonym")
    assert synonyms.all_inner_texts() == [
        "car", "fast", "cheap", "run", "automobile", "quick", "inexpensive", "operate"
    ]  # fmt: skip
    page.screenshot(path=str(screenshot_dir() / "single.png"), full_page=True)


def _choose_profile(page, option: str, tokenizer: str) -> None:
    """Pick a profile, and wait until its change handler has set the tokenizer picker (the
    server answers that event; scoring before it would read the previous tokenizer)."""
    page.locator("#profile input").click()
    page.get_by_role("option", name=option).click()
    sync_api.expect(page.get_by_label("Tokenizer")).to_have_value(tokenizer, timeout=TIMEOUT_MS)


def test_advanced_profile_switches_tokenizer_and_multi_ref(page) -> None:
    page.locator("#advanced").get_by_text("Advanced").click()
    _choose_profile(page, "rouge155 (ROUGE-1.5.5)", "rouge155")
    try:
        page.locator("#score-pair").click()
        page.wait_for_selector("#pair-signature :text('profile:rouge155')")
        signature = page.locator("#pair-signature").inner_text()
        assert "tok:rouge155" in signature and "multiref:pooled" in signature
    finally:  # the later tests expect the default profile
        _choose_profile(page, "default (rouge_score)", "default")
    page.locator("#score-pair").click()
    page.wait_for_selector("#pair-signature :text('profile:default')")


def test_empty_prediction_shows_a_message(page) -> None:
    page.locator("#prediction textarea").fill("")
    page.locator("#score-pair").click()
    message = page.locator(".toast-body").filter(has_text="The prediction is empty")
    message.wait_for()
    assert "Traceback" not in page.content()
    message.locator(".toast-close").click()
    message.wait_for(state="detached")


def test_oversized_upload_is_refused_with_a_message(page, tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    with big.open("wb") as handle:
        handle.truncate(10 * 1024 * 1024)
    page.get_by_role("tab", name="Corpus").click()
    page.locator("#corpus-file input[type=file]").set_input_files(str(big))
    message = page.locator(".toast-body").first
    message.wait_for()
    # Gradio's upload limit (launch(max_file_size=...)) answers before app.py reads anything.
    assert "maximum allowed size of 5" in message.inner_text()
    message.locator(".toast-close").click()
    message.wait_for(state="detached")


def clear_upload(page) -> None:
    """Remove the file an earlier test uploaded, if any."""
    clear = page.locator("#corpus-file button[aria-label='Clear']")
    if clear.count():
        clear.click()


def test_corpus_upload_scores_with_intervals(page, tmp_path: Path) -> None:
    corpus_file = tmp_path / "corpus.jsonl"
    corpus_file.write_text("\n".join(json.dumps(row) for row in CORPUS), encoding="utf-8")

    page.get_by_role("tab", name="Corpus").click()
    page.locator("#corpus-file input[type=file]").set_input_files(str(corpus_file))
    page.wait_for_selector("#corpus-status :text('5 rows')")
    page.locator("#score-corpus").click()
    page.wait_for_selector("#corpus-summary table")
    page.wait_for_selector("#corpus-download a")

    # The types picked earlier in the session: the status line's signature names them.
    page.wait_for_selector("#corpus-status :text('Scored 5 examples')")
    types = re.search(r"types:([^|]+)", page.locator("#corpus-status").inner_text()).group(1)
    per_example = rouge_plus.score(
        [row["prediction"] for row in CORPUS],
        [row["references"] for row in CORPUS],
        rouge_types=types.split(","),
        use_aggregator=False,
    )
    summary = page.locator("#corpus-summary").inner_text()
    assert "95% CI" in summary
    for name in types.split(","):
        assert f"{np.mean(per_example[name]):.4f}" in summary
    page.wait_for_timeout(500)  # let the histogram image settle before the screenshot
    page.screenshot(path=str(screenshot_dir() / "corpus.png"), full_page=True)


def test_corpus_compares_a_second_prediction_column(page, tmp_path: Path) -> None:
    corpus_file = tmp_path / "two_systems.jsonl"
    rows = [{**row, "other": row["references"][0]} for row in CORPUS]
    corpus_file.write_text("\n".join(json.dumps(row) for row in rows), encoding="utf-8")

    page.get_by_role("tab", name="Corpus").click()
    clear_upload(page)
    page.locator("#corpus-file input[type=file]").set_input_files(str(corpus_file))
    page.wait_for_selector("#corpus-status :text('columns: prediction, references, other')")
    page.locator("#compare-columns input").click()
    offered = page.get_by_role("option").all_inner_texts()
    assert "other" in offered and "references" not in offered and "prediction" not in offered
    page.get_by_role("option", name="other").click()
    page.locator("#score-corpus").click()
    page.wait_for_selector("#corpus-comparison table")
    table = page.locator("#corpus-comparison").inner_text()
    assert "Baseline: prediction" in table and "other" in table and "paired approximate" in table
    assert "Examples for power 0.8" in table and "paired t-test" in table


def test_a_phone_shows_the_inputs_on_its_first_screen(page) -> None:
    """At a phone's width (390 px) the options come after the inputs, which are on the
    first screen."""
    phone = page.context.browser.new_page(viewport={"width": 390, "height": 844})
    try:
        phone.set_default_timeout(TIMEOUT_MS)
        phone.goto(page.url, timeout=TIMEOUT_MS)
        phone.wait_for_selector("#pair-highlights mark")
        prediction = phone.locator("#prediction textarea").bounding_box()
        options = phone.locator("#options").bounding_box()
        phone.screenshot(path=str(screenshot_dir() / "phone.png"))
        assert prediction["y"] + prediction["height"] < 844
        assert options["y"] > prediction["y"]
    finally:
        phone.close()


def overflow(page, selector: str) -> list[str]:
    """The cells of the table in ``selector`` that reach past its box or the screen, and the
    box itself if it scrolls sideways: what a phone would not show."""
    return page.evaluate(
        """(selector) => {
            const box = document.querySelector(selector);
            const right = Math.min(box.getBoundingClientRect().right, window.innerWidth) + 1;
            const clipped = [...box.querySelectorAll("th, td")]
                .filter((cell) => cell.getBoundingClientRect().right > right)
                .map((cell) => cell.innerText);
            if (box.scrollWidth > box.clientWidth + 1) clipped.push(selector + " scrolls");
            return clipped;
        }""",
        selector,
    )


def test_a_phone_shows_every_column_of_the_results(page) -> None:
    """At 390 px the pair's F column (the headline number) and the corpus table's interval
    are on the screen, not clipped or scrolled out of sight."""
    phone = page.context.browser.new_page(viewport={"width": 390, "height": 844})
    try:
        phone.set_default_timeout(TIMEOUT_MS)
        phone.goto(page.url, timeout=TIMEOUT_MS)
        phone.wait_for_selector("#pair-scores table")
        assert overflow(phone, "#pair-scores") == []
        phone.get_by_role("tab", name="Corpus").click()
        phone.get_by_text("Load the sample corpus").click()
        phone.wait_for_selector("#corpus-status :text('rows')")
        phone.locator("#score-corpus").click()
        phone.wait_for_selector("#corpus-summary table")
        phone.screenshot(path=str(screenshot_dir() / "phone-corpus.png"), full_page=True)
        assert overflow(phone, "#corpus-summary") == []
    finally:
        phone.close()


def test_a_pair_being_scored_again_marks_the_previous_result_stale(page) -> None:
    """While a new pair computes (its requests held back here), the previous result is dimmed
    as stale; the new result replaces it, current again."""
    page.get_by_role("tab", name="Single pair").click()
    page.locator("#prediction textarea").fill("The cat sat on the mat.")
    page.locator("#references textarea").fill("A dog ran.")
    page.locator("#score-pair").click()
    page.wait_for_selector("#pair-scores:not(.rp-stale) :text('0.0000')")
    page.locator("#references textarea").fill("The cat sat on the mat.")
    held, released = [], []

    def hold(route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/gradio_api/queue/join*", hold)
    try:
        page.locator("#score-pair").click()
        page.wait_for_selector("#pair-scores.rp-stale")
        while not held:
            page.wait_for_timeout(50)
        assert "0.0000" in page.locator("#pair-scores").inner_text()  # the old result, dimmed
        assert page.locator("#pair-highlights.rp-stale").count() == 1
    finally:
        released.append(True)
        for route in held:
            route.continue_()
    page.wait_for_selector("#pair-scores:not(.rp-stale) :text('1.0000')")
    page.unroute("**/gradio_api/queue/join*")
    assert page.locator(".rp-stale").count() == 0


def test_a_csv_without_a_prediction_column_is_told_its_columns(page, tmp_path: Path) -> None:
    corpus_file = tmp_path / "no_prediction.csv"
    corpus_file.write_text("summary_a,gold\nThe cat sat.,A cat sat.\n", encoding="utf-8")
    page.get_by_role("tab", name="Corpus").click()
    clear_upload(page)
    page.locator("#corpus-file input[type=file]").set_input_files(str(corpus_file))
    status = page.locator("#corpus-status")
    sync_api.expect(status).to_contain_text("columns: summary_a, gold", timeout=TIMEOUT_MS)
    sync_api.expect(status).to_contain_text("choose the prediction column")
    page.locator("#score-corpus").click()
    message = page.locator(".toast-body").filter(has_text="Choose the prediction column")
    message.wait_for()
    assert "summary_a, gold" in message.inner_text()
    message.locator(".toast-close").click()
