"""The sequence notebooks (09: a transformer, 10: a recurrent network) on the built docs site, in headless
Chromium with every network request refused: their players play, and their memory-over-time figures say
in text the peaks the notebooks measured.  And notebook 08's player, whose picture is wider than its box,
opens with nothing scrolled sideways, on the site and in an nbconvert export.

The browser, the offline page and the player's selectors are tests/test_browser.py's; the site is the
shared ``built_site`` (tests/conftest.py).
"""
import contextlib
import re
from pathlib import Path

import pytest

from test_browser import (NOTEBOOK_08, PLAYER, assert_play_changes_the_picture, browser,  # noqa: F401
                          export_html, go_to_step, offline_page)
from test_browser import pytestmark  # noqa: F401  (skipped where Chromium is not installed)

#: The figure compare_memory draws carries its title as text; the notebooks keep the default one.
COMPARISON = "memory held by all the tapes together, per schedule"


def notebook_page(site: Path, name: str) -> Path:
    """A notebook's page on the built site, with directory URLs (``name/index.html``) or without (``name.html``)."""
    folder = site / "notebooks" / name / "index.html"
    return folder if folder.exists() else site / "notebooks" / f"{name}.html"


@contextlib.contextmanager
def page_with_console(browser, url: str, width: int = 1280):  # noqa: F811
    """``offline_page`` at ``url``, also gathering the console's errors that are not a refused request."""
    with offline_page(browser, url) as (page, problems):
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text) if message.type == "error"
                and "net::ERR_FAILED" not in message.text else None)
        page.set_viewport_size({"width": width, "height": 900})
        page.reload()
        page.wait_for_load_state("load")
        yield page, problems, console


def comparison_text(page) -> list[str]:
    """The texts of the memory-over-time figure on the page, in document order.  The figure is an inline
    ``<svg>`` (nbconvert) or an ``<img>`` whose source is the SVG as a data URL (mkdocs-jupyter); an image
    counts only once the browser has drawn it."""
    return page.evaluate(f"""() => {{
        const drawn = [...document.querySelectorAll("img[src^='data:image/svg+xml']")]
            .filter(img => img.complete && img.naturalWidth > 0)
            .map(img => {{
                const [head, body] = img.src.split(",");
                const text = head.endsWith(";base64")
                    ? new TextDecoder().decode(Uint8Array.from(atob(body), c => c.charCodeAt(0)))
                    : decodeURIComponent(body);
                return new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
            }});
        const svg = [...document.querySelectorAll("svg"), ...drawn].find(s => s.textContent.includes("{COMPARISON}"));
        return svg ? [...svg.querySelectorAll("text")].map(t => t.textContent.trim()) : [];
    }}""")


def printed_peaks(page) -> dict[str, str]:
    """The peaks each notebook prints beside its figure: ``name: peak N bytes`` -> {name: N}."""
    text = page.evaluate("() => document.body.innerText")
    return dict(re.findall(r"^\s*(.+?): peak +([\d,]+) bytes", text, flags=re.M))


@pytest.mark.parametrize("name, schedules", [
    ("09_transformer_checkpointing", ["none", "per block", "√L: 2 segments of 2 blocks"]),
    ("10_checkpointing_through_time", ["plain", "per step", "Revolve"]),
])
def test_sequence_notebooks_play_and_draw_memory_over_time(browser, built_site, name, schedules):  # noqa: F811
    with page_with_console(browser, notebook_page(built_site, name).as_uri()) as (page, problems, console):
        assert_play_changes_the_picture(page, problems)
        texts, peaks = comparison_text(page), printed_peaks(page)
        assert console == [] and "errors: []" in problems, (console, problems)
    assert COMPARISON in texts, f"no memory-over-time figure on {name}'s page"
    assert "bytes held" in texts and any(text.startswith("step: each event") for text in texts), texts
    assert [schedule for schedule in schedules if schedule not in peaks] == [], peaks
    for schedule in schedules:               # the legend says the peak the notebook printed, to the byte
        assert any(text.startswith(f"{schedule} — peak {peaks[schedule]} bytes") for text in texts), (schedule, texts)


def horizontal_scroll(page) -> dict:
    """How far the page, the player's picture and anything between them are scrolled sideways, and the
    page's horizontal overflow (scrollWidth beyond clientWidth)."""
    return page.evaluate(f"""() => {{
        const root = document.querySelector("{PLAYER}");
        const picture = root.querySelector(".minitape-picture");
        const ancestors = [];
        for (let e = root.parentElement; e; e = e.parentElement) if (e.scrollLeft) ancestors.push(e.className);
        const page = document.scrollingElement;
        return {{picture: picture.scrollLeft, wider: picture.scrollWidth > picture.clientWidth,
                 page: page.scrollLeft, overflow: page.scrollWidth - page.clientWidth, ancestors}};
    }}""")


def assert_opens_unscrolled(page, problems: str) -> None:
    """The player opens on its last frame, the whole program, seen from the picture's left edge; stepping
    through the frames follows each step sideways, and coming back to the last frame returns to that edge."""
    assert page.locator(PLAYER).count() >= 1, f"no player on the page ({problems})"
    root = page.locator(PLAYER).first
    root.scroll_into_view_if_needed()
    unscrolled = {"picture": 0, "page": 0, "overflow": 0, "ancestors": []}
    scroll = horizontal_scroll(page)
    assert scroll["wider"], scroll               # the picture is wider than its box: the case that could scroll
    assert scroll == {**scroll, **unscrolled}, scroll
    n, followed = int(root.locator(".minitape-slider").get_attribute("max")), []
    for step in range(1, n + 1):
        go_to_step(page, step)
        followed.append(horizontal_scroll(page)["picture"])
    assert max(followed) > 0, followed           # some step in progress lies beyond the box's right edge
    assert horizontal_scroll(page) == {**scroll, **unscrolled}, followed


@pytest.mark.parametrize("width", [1280, 760])
def test_notebook_08s_player_opens_unscrolled_on_the_site(browser, built_site, width):  # noqa: F811
    """MkDocs Material's content column is about 700 px at a 760 px window: the picture scrolls inside its own
    box, which opens at its left edge; nothing else on the page is scrolled or overflows."""
    with page_with_console(browser, notebook_page(built_site, "08_cnn_checkpointing").as_uri(), width) as \
            (page, problems, console):
        assert_opens_unscrolled(page, problems)


@pytest.fixture(scope="module")
def exported_08_player(tmp_path_factory) -> Path:
    """Notebook 08's cells that make its player (the data, the block, the player; not the training), executed
    in a fresh kernel and exported by nbconvert to HTML: the player as a student's export shows it."""
    wanted = ["import minitape", "load_digits(return_X_y=True)", "class ResidualBlock", "events.player()"]
    return export_html(NOTEBOOK_08, tmp_path_factory.mktemp("export"), timeout=300, keep=wanted)


@pytest.mark.parametrize("width", [1280, 760])
def test_notebook_08s_player_opens_unscrolled_in_the_export(browser, exported_08_player, width):  # noqa: F811
    with page_with_console(browser, exported_08_player.as_uri(), width) as (page, problems, console):
        assert_opens_unscrolled(page, problems)
