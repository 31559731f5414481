"""The saved player in a real browser: headless Chromium, every network request refused, presses its
controls and watches picture, words, memory and trace follow.

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

# The player used to be a widget view in exports, whose script comes from a CDN (refused here), and the
# MkDocs site loaded embed-amd.js without require.js: no player in either.  These tests hold that fixed.
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
    root = f"#{player.dom_id}"
    with offline_page(browser, page_path.as_uri()) as (page, problems):
        def frame():
            return int(page.get_attribute(root, "data-frame"))

        def text(name):
            return page.text_content(f"{root} .minitape-{name}")

        def picture():
            return page.evaluate(f"""() => [...document.querySelectorAll('{root} svg g')]
                .map(g => g.getAttribute('class') + [...g.querySelectorAll('text')].map(t => t.textContent))
                .join('|')""")

        n = len(player.frames)                   # it opens on the whole program: the last frame
        assert frame() == n - 1 and page.locator(f"{root} svg").first.is_visible()
        assert text("trace") == "running\n" * 8 and text("position") == f"step {n} of {n}"
        assert picture().count("mt-hidden") < picture().count("g")

        page.click(f"{root} .minitape-play")                                     # ▶ plays from step 1
        assert frame() == 0 and page.input_value(f"{root} .minitape-slider") == "1"
        first_picture, first_trace = picture(), text("trace")
        page.wait_for_function(f"document.querySelector('{root}').dataset.frame >= 6", timeout=15000)
        assert picture() != first_picture and text("trace").count("running") > first_trace.count("running")
        page.click(f"{root} .minitape-play")                                     # pause
        paused = frame()
        page.click(f"{root} .minitape-next")
        assert frame() == paused + 1
        page.click(f"{root} .minitape-prev")
        page.click(f"{root} .minitape-prev")
        assert frame() == paused - 1
        assert page.input_value(f"{root} .minitape-slider") == str(paused) == text("position").split()[1]

        page.fill(f"{root} .minitape-slider", str(n))                            # the slider drives the frame
        page.dispatch_event(f"{root} .minitape-slider", "input")
        assert frame() == n - 1 and text("said") == player.frames[-1].said
        assert text("trace") == "running\n" * 8 and "peak 16 bytes" in text("memory")

        page.select_option(f"{root} .minitape-speed", "4")                      # faster, from the start
        page.click(f"{root} .minitape-play")
        page.wait_for_function(f"document.querySelector('{root}').dataset.frame == {n - 1}", timeout=15000)

        widths = page.evaluate(f"""() => [...document.querySelectorAll('{root} button')]
            .map(b => [b.textContent, b.scrollWidth <= b.clientWidth])""")
        assert all(fits for _, fits in widths), widths                           # "▶▶" is not cut
        before = page.evaluate(f"document.querySelector('{root} svg').getBoundingClientRect().width")
        page.click(f"{root} .minitape-zoom-in")
        assert page.evaluate(f"document.querySelector('{root} svg').getBoundingClientRect().width") > before
        assert "refused: []" in problems and "errors: []" in problems, problems


def export_html(notebook_path: Path, folder: Path, timeout: int, keep: list[str] | None = None) -> Path:
    """``notebook_path`` executed in a fresh kernel and exported by nbconvert to HTML in ``folder``, as a student
    would; with ``keep``, only the cells holding one of those texts (each must be found)."""
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    notebook = nbformat.read(notebook_path, as_version=4)
    if keep is not None:
        notebook.cells = [cell for cell in notebook.cells if any(text in cell.source for text in keep)]
        assert len(notebook.cells) == len(keep)
    NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(notebook_path.parent)}}).execute()
    html, _ = HTMLExporter().from_notebook_node(notebook)
    path = folder / f"{notebook_path.stem}.html"
    path.write_text(html, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def exported_tour(tmp_path_factory) -> Path:
    """The tour executed in a fresh kernel and exported by nbconvert to HTML, as a student would."""
    return export_html(TOUR, tmp_path_factory.mktemp("export"), timeout=120)


def test_tour_player_plays_in_nbconvert_export_offline(browser, exported_tour):
    with offline_page(browser, exported_tour.as_uri()) as (page, problems):
        assert_play_changes_the_picture(page, problems)


def test_tour_player_plays_on_the_mkdocs_site_offline(browser, built_site):
    with offline_page(browser, (built_site / "notebooks" / "00_tour.html").as_uri()) as (page, problems):
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


def test_exported_tour_shows_no_gradient_other_than_tape_gradient(browser, exported_tour):
    expected = tour_gradient_of_y()
    with offline_page(browser, exported_tour.as_uri()) as (page, problems):
        assert page.locator(PLAYER).count() >= 1, f"no player on the page ({problems})"
        root = page.locator(PLAYER).first
        go_to_step(page, 1)
        labels, frames = [], []
        while not frames or frames[-1] != root.get_attribute("data-frame"):
            frames.append(root.get_attribute("data-frame"))
            labels += gradient_labels(page, "y")
            root.locator(".minitape-next").click()
        assert len(frames) > 10 and labels, (frames, labels)
        values = {float(re.match(r"grad\s+(\S+)", label).group(1)) for label in labels}
        assert values == {expected}, f"tape.gradient gives y the gradient {expected}; the frames show {labels}"


def go_to_step(page, step: int) -> None:
    """Move the first player's slider to ``step`` (1 is the first frame), as a student dragging it."""
    slider = page.locator(PLAYER).first.locator(".minitape-slider")
    slider.fill(str(step))
    slider.dispatch_event("input")


def read_every_frame(page, shots: dict[int, str] | None = None) -> tuple[list[list[str]], list[str], str]:
    """Every frame's visible node labels (first lines) and caption, and the legend's text; screenshots of
    the frames named in ``shots`` (step -> path) on the way."""
    root = page.locator(PLAYER).first
    root.scroll_into_view_if_needed()
    n = int(root.locator(".minitape-slider").get_attribute("max"))
    labels, captions = [], []
    for step in range(1, n + 1):
        go_to_step(page, step)
        labels.append(page.evaluate(f"""() => [...document.querySelector("{PLAYER}").querySelectorAll("svg g.node")]
            .filter(g => g.checkVisibility({VISIBLE}))
            .map(g => (g.querySelector("text") || {{}}).textContent || "")"""))
        captions.append(root.locator(".minitape-said").text_content())
        if shots and step in shots:
            root.screenshot(path=shots[step])
    return labels, captions, root.locator(".minitape-legend").text_content()


def assert_numbers_explained(labels: list[list[str]], captions: list[str], legend: str) -> None:
    """Every ``#n`` shown is explained by the legend, and they count 1, 2, 3... with no gap."""
    shown = {int(n) for text in [*captions, *(label for frame in labels for label in frame)]
             for n in re.findall(r"#(\d+)\b", text)}
    if shown:
        assert "#n: the n-th value the picture shows, unnamed" in legend, legend
        assert shown == set(range(1, max(shown) + 1)), f"#n with gaps: {sorted(shown)}"


def test_the_tours_player_names_the_users_values(browser, exported_tour):
    with offline_page(browser, exported_tour.as_uri()) as (page, problems):
        n = int(page.locator(PLAYER).first.locator(".minitape-slider").get_attribute("max"))
        shots = {1: "/tmp/g2_tour_first.png", (n + 1) // 2: "/tmp/g2_tour_middle.png", n: "/tmp/g2_tour_last.png"}
        labels, captions, legend = read_every_frame(page, shots)
    everything = {label for frame in labels for label in frame}
    assert {"y", "r"} <= everything, everything                                   # events.names = locals()
    assert "the local tape watches y" in captions and any("and y" in caption for caption in captions), captions
    assert_numbers_explained(labels, captions, legend)
    assert "errors: []" in problems, problems      # nbconvert's template asks CDNs for require.js: refused, unneeded


NOTEBOOK_08 = ROOT / "notebooks" / "08_cnn_checkpointing.ipynb"


@pytest.fixture(scope="module")
def exported_08(tmp_path_factory) -> Path:
    """Notebook 08 executed and exported to HTML: its player shows one residual block recomputed."""
    return export_html(NOTEBOOK_08, tmp_path_factory.mktemp("export"), timeout=600)


def test_notebook_08s_player_labels_keras_variables_by_their_paths(browser, exported_08):
    with offline_page(browser, exported_08.as_uri()) as (page, problems):
        n = int(page.locator(PLAYER).first.locator(".minitape-slider").get_attribute("max"))
        shots = {1: "/tmp/g2_08_first.png", (n + 1) // 2: "/tmp/g2_08_middle.png", n: "/tmp/g2_08_last.png"}
        labels, captions, legend = read_every_frame(page, shots)
    watched = [caption for caption in captions if caption.startswith("the local tape watches")]
    assert watched and not any("#" in caption for caption in watched), watched
    assert any(caption.endswith("/kernel") for caption in watched), watched     # a Keras variable's path
    everything = {label for frame in labels for label in frame}
    assert "image" in everything and any(label.endswith("/kernel") for label in everything), everything
    assert_numbers_explained(labels, captions, legend)
    assert "errors: []" in problems, problems      # nbconvert's template asks CDNs for require.js: refused, unneeded


def test_trace_and_picture_are_seen_together_in_a_docs_sites_narrow_column(tmp_path, browser, seed_timeline):
    """MkDocs Material's content column is about 700 px wide: the side panel stays beside the picture there,
    and in a narrower one it goes below a picture capped to half the window, so the trace is still in view."""
    player = seed_timeline().player()
    for width, side_by_side in [(700, True), (420, False)]:
        path = tmp_path / f"column{width}.html"
        path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body style='margin:0'>"
                        f"<div style='width:{width}px;margin:0 auto'>{player.to_html()}</div></body></html>")
        with offline_page(browser, path.as_uri()) as (page, problems):
            boxes = page.evaluate(f"""() => Object.fromEntries(["picture", "trace"].map(name =>
                [name, document.querySelector("#{player.dom_id} .minitape-" + name).getBoundingClientRect().toJSON()]))""")
            if width == 700:
                page.screenshot(path="/tmp/g2_docs_column.png")
        picture, trace = boxes["picture"], boxes["trace"]
        assert (trace["left"] >= picture["right"]) == side_by_side, boxes
        assert trace["bottom"] <= 900 and trace["height"] > 10, boxes       # in the first screenful, with the picture


# What fit prints in notebook 08 (batches of 32, two epochs, validation data), as Keras 3 prints it.
FIT_BAR = re.compile(r"\d+/\d+ ━{20} \d+s \d+(s|ms|us)/step - accuracy: \d\.\d{4} - loss: \d\.\d{4}"
                     r" - val_accuracy: \d\.\d{4} - val_loss: \d\.\d{4}")


def assert_fit_lines_shown(page, screenshot: str) -> None:
    """The page shows fit's lines, Epoch 1/2, its bar, Epoch 2/2, its bar; no stale progress widget."""
    output = page.locator(".jp-OutputArea", has_text="Epoch 1/2").first       # fit's cell's outputs
    output.scroll_into_view_if_needed()
    assert output.is_visible()
    lines = [line.strip() for line in output.inner_text().splitlines() if line.strip()]
    assert len(lines) == 4 and lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2", lines
    assert FIT_BAR.fullmatch(lines[1]) and FIT_BAR.fullmatch(lines[3]), lines
    assert "0%|" not in page.evaluate("() => document.body.innerText")
    output.screenshot(path=screenshot)


def test_notebook_08s_fit_lines_are_in_its_nbconvert_export(browser, exported_08):
    with offline_page(browser, exported_08.as_uri()) as (page, problems):
        assert_fit_lines_shown(page, "/tmp/k3_08_fit_export.png")


def test_notebook_08s_fit_lines_are_on_the_site_opened_from_disk(browser, built_site):
    with offline_page(browser, (built_site / "notebooks" / "08_cnn_checkpointing.html").as_uri()) as (page, problems):
        assert_fit_lines_shown(page, "/tmp/k3_08_fit_site.png")
        page.screenshot(path="/tmp/k3_08_fit_site_page.png")


def test_the_site_opened_from_disk_navigates_and_its_contents_links_resolve(browser, built_site):
    """Click each link of the left-hand navigation from the home page, opened as a file: each lands on its
    page (not a directory listing), and each link of that page's right-hand contents finds its heading."""
    with offline_page(browser, (built_site / "index.html").as_uri()) as (page, problems):
        links = page.locator("nav.md-nav--primary a.md-nav__link[href]")
        hrefs = [href for href in links.evaluate_all("links => links.map(a => a.getAttribute('href'))")
                 if not href.startswith("#")]
        assert len(hrefs) >= 20, hrefs
        landed, unresolved = [], {}
        for href in hrefs:
            page.goto((built_site / "index.html").as_uri())
            with page.expect_navigation():
                page.locator(f'nav.md-nav--primary a.md-nav__link[href="{href}"]').first.click()
            landed.append((href, page.url, page.locator("article.md-content__inner").count()))
            missing = page.evaluate("""() => [...document.querySelectorAll("nav.md-nav--secondary a.md-nav__link")]
                .map(a => decodeURIComponent(a.hash.slice(1))).filter(id => !document.getElementById(id))""")
            if missing:
                unresolved[href] = missing
    wrong = [entry for entry in landed if not entry[1].endswith(entry[0].split("#")[0]) or entry[2] != 1]
    assert wrong == [] and unresolved == {}, (wrong, unresolved, problems)
