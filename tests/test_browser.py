"""The saved player in a real browser: headless Chromium, every network request refused, presses its
controls and watches picture, words, memory and trace follow.

`make test` installs Chromium from the system's packages; Playwright drives it via ``executable_path``.
"""
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make test installs it as root)")
def test_player_plays_in_headless_chromium(tmp_path, capsys, seed_timeline):
    from playwright.sync_api import sync_playwright

    player = seed_timeline().player()
    page_path = tmp_path / "player.html"
    player.save(str(page_path))
    root = f"#{player.dom_id}"
    requested = []

    def refuse(route):
        if not route.request.url.startswith("file://"):
            requested.append(route.request.url)
            return route.abort()
        return route.continue_()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            page.route("**/*", refuse)
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(page_path.as_uri())

            def frame():
                return int(page.get_attribute(root, "data-frame"))

            def text(name):
                return page.text_content(f"{root} .minitape-{name}")

            def picture():
                return page.evaluate(f"""() => [...document.querySelectorAll('{root} svg g')]
                    .map(g => g.getAttribute('class') + [...g.querySelectorAll('text')].map(t => t.textContent))
                    .join('|')""")

            assert frame() == 0 and page.locator(f"{root} svg").first.is_visible()
            first_picture, first_trace = picture(), text("trace")
            n = len(player.frames)
            assert page.input_value(f"{root} .minitape-slider") == "1" and text("position") == f"step 1 of {n}"

            page.click(f"{root} .minitape-play")
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
            assert errors == [] and requested == []
        finally:
            browser.close()
