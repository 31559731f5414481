"""The player in a real browser: headless Chromium presses play and watches frames and trace advance.

Where students meet it: a page ``player.save`` wrote, nbconvert's HTML export of the executed tour,
and the tour's page on the built MkDocs site. Every request that is not for a local file is refused,
as on a laptop offline: the player must carry everything it needs.

`make test` installs Chromium from the system's packages; Playwright drives it via ``executable_path``.
"""
import contextlib
import io
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
TOUR = ROOT / "notebooks" / "00_tour.ipynb"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make test installs it as root)")

# Until the self-contained player (issue 15, branch player) lands, nbconvert's export shows the widget
# view (its script comes from a CDN, refused here) instead of the player's page, and the MkDocs site
# loads embed-amd.js without require.js ("define is not defined"): no player in either. Remove these
# marks when both branches are merged.
NO_PLAYER_YET = pytest.mark.xfail(strict=False, reason="the tour's player needs the self-contained player "
                                                       "of branch player to show in exports and on the site")
# A player's root: id=player.dom_id, data-frame = the frame shown, with its buttons inside.
PLAYER = "[id^=minitape-player-]:has(.minitape-play)"
VISIBLE = "{opacityProperty: true, visibilityProperty: true}"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


@contextlib.contextmanager
def offline_page(browser, url: str):
    """A page at ``url`` that may load local files only; yields it with its refused requests and errors."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    refused, errors = [], []
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
                  else (refused.append(route.request.url), route.abort()))
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_load_state("load")
    try:
        yield page, f"requests refused: {refused[:5]}; page errors: {errors[:5]}"
    finally:
        context.close()


def shown(page) -> dict:
    """What the player shows now: its frame index, the visible SVG markup and the visible said text."""
    return page.evaluate(f"""() => {{
        const root = document.querySelector("{PLAYER}");
        const visible = e => e.checkVisibility({VISIBLE});
        return {{frame: root.dataset.frame,
                 svg: [...root.querySelectorAll("svg")].filter(visible).map(s => s.outerHTML).join(""),
                 said: [...root.querySelectorAll(".minitape-said")].filter(visible).map(s => s.textContent).join("")}};
    }}""")


def assert_play_changes_the_picture(page, problems: str) -> None:
    assert page.locator(PLAYER).count() >= 1, f"no player on the page ({problems})"
    root = page.locator(PLAYER).first
    root.scroll_into_view_if_needed()
    assert root.locator("svg").first.is_visible(), f"the player shows no picture ({problems})"
    before = shown(page)
    picture_before = root.locator("svg").first.screenshot()
    root.locator(".minitape-play").click()
    page.wait_for_function(f"+document.querySelector('{PLAYER}').dataset.frame >= 3", timeout=15000)
    root.locator(".minitape-play").click()                                 # pause
    after = shown(page)
    assert after["frame"] != before["frame"]
    assert after["said"] != before["said"]
    assert after["svg"] != before["svg"] or root.locator("svg").first.screenshot() != picture_before


def test_player_plays_in_headless_chromium(tmp_path, browser, seed_timeline):
    player = seed_timeline().player()
    page_path = tmp_path / "player.html"
    player.save(str(page_path))

    def said_and_trace(page):
        return page.evaluate("""() => [...document.querySelectorAll('.minitape-said, .minitape-trace')]
            .filter(e => e.checkVisibility()).map(e => e.textContent)""")

    with offline_page(browser, page_path.as_uri()) as (page, problems):
        root = f"#{player.dom_id}"
        assert page.get_attribute(root, "data-frame") == "0", problems
        first_said, first_trace = said_and_trace(page)
        assert page.locator(f"{root} svg").first.is_visible()
        page.click(f"{root} .minitape-play")
        page.wait_for_function(f"document.querySelector('{root}').dataset.frame >= 6", timeout=15000)
        said, trace = said_and_trace(page)
        assert said != first_said and trace.count("running") > first_trace.count("running")
        page.click(f"{root} .minitape-play")                         # pause
        frame = int(page.get_attribute(root, "data-frame"))
        page.click(f"{root} .minitape-next")
        assert int(page.get_attribute(root, "data-frame")) == frame + 1


@pytest.fixture(scope="module")
def exported_tour(tmp_path_factory) -> Path:
    """The tour executed in a fresh kernel and exported by nbconvert to HTML, as a student would."""
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    notebook = nbformat.read(TOUR, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(TOUR.parent)}}).execute()
    html, _ = HTMLExporter().from_notebook_node(notebook)
    path = tmp_path_factory.mktemp("export") / "00_tour.html"
    path.write_text(html, encoding="utf-8")
    return path


@NO_PLAYER_YET
def test_tour_player_plays_in_nbconvert_export_offline(browser, exported_tour):
    with offline_page(browser, exported_tour.as_uri()) as (page, problems):
        assert_play_changes_the_picture(page, problems)


@NO_PLAYER_YET
def test_tour_player_plays_on_the_mkdocs_site_offline(browser, built_site):
    with offline_page(browser, (built_site / "notebooks" / "00_tour" / "index.html").as_uri()) as (page, problems):
        assert_play_changes_the_picture(page, problems)


def tour_gradient_of_y() -> float:
    """Run the tour's cells up to its player through the API, and read what tape.gradient returned for y."""
    import jupytext

    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in jupytext.read(TOUR).cells:
            if cell.cell_type == "code":
                exec(cell.source, namespace)
                if "events.player()" in cell.source:
                    break
    return float(namespace["grad"][0])


def gradient_labels(page, name: str) -> list[str]:
    """The "grad …" lines of the node labelled ``name`` in the picture the player shows now."""
    nodes = page.evaluate(f"""() => [...document.querySelector("{PLAYER}").querySelectorAll("svg g.node")]
        .filter(g => g.checkVisibility({VISIBLE}))
        .map(g => [...g.querySelectorAll("text")].filter(t => t.checkVisibility({VISIBLE}))
                                                  .map(t => t.textContent.trim()))""")
    return [line for lines in nodes if lines and lines[0] == name for line in lines if line.startswith("grad")]


@NO_PLAYER_YET
def test_exported_tour_shows_no_gradient_other_than_tape_gradient(browser, exported_tour):
    expected = tour_gradient_of_y()
    with offline_page(browser, exported_tour.as_uri()) as (page, problems):
        assert page.locator(PLAYER).count() >= 1, f"no player on the page ({problems})"
        root = page.locator(PLAYER).first
        labels, frames = [], []
        while not frames or frames[-1] != root.get_attribute("data-frame"):
            frames.append(root.get_attribute("data-frame"))
            labels += gradient_labels(page, "y")
            root.locator(".minitape-next").click()
        assert len(frames) > 10 and labels, (frames, labels)
        values = {float(re.match(r"grad\s+(\S+)", label).group(1)) for label in labels}
        assert values == {expected}, f"tape.gradient gives y the gradient {expected}; the frames show {labels}"
