"""README.md opens with the Space's front matter; PyPI gets the README without it."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_space_front_matter():
    yaml = pytest.importorskip("yaml")
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n"), "the Space front matter must open the README"
    meta = yaml.safe_load(text[4:].partition("\n---\n")[0])
    assert meta["sdk"] == "gradio" and meta["app_file"] == "app.py"
    assert {"evaluate", "metric"} <= set(meta["tags"])


def test_pypi_long_description_renders_without_the_front_matter(monkeypatch):
    markdown = pytest.importorskip("readme_renderer.markdown")
    captured = {}
    monkeypatch.setattr("setuptools.setup", lambda **kwargs: captured.update(kwargs))
    runpy.run_path(str(REPO / "setup.py"), run_name="__main__")  # setup() runs as a script
    assert captured["long_description_content_type"] == "text/markdown"
    html = markdown.render(captured["long_description"], variant="GFM")
    assert html is not None and html.lstrip().startswith("<h1")
    assert "sdk:" not in html and "app_file" not in html
    assert "Metric Description" in html and "<table>" in html


def test_readme_has_every_section_of_evaluates_metric_card():
    """The sections of evaluate's module card template, at their levels, in its order."""
    import re

    text = (REPO / "README.md").read_text(encoding="utf-8")
    card = [
        "## Metric Description",
        "## How to Use",
        "### Inputs",
        "### Output Values",
        "#### Values from Popular Papers",
        "### Examples",
        "## Limitations and Bias",
        "## Citation",
        "## Further References",
    ]
    headings = [h for h in re.findall(r"^#{2,4} .+$", text, re.M) if h in card]
    assert headings == card
