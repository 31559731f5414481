"""The player in a real browser: headless Chromium presses play and watches frames and trace advance.

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

    def shown(page, selector):
        return page.evaluate(f"""() => [...document.querySelectorAll('.minitape-slide')]
            .find(s => s.style.display !== 'none').querySelector('{selector}').textContent""")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page()
            page.goto(page_path.as_uri())
            root = f"#{player.dom_id}"
            assert page.get_attribute(root, "data-frame") == "0"
            first_said, first_trace = shown(page, ".minitape-said"), shown(page, ".minitape-trace")
            assert page.locator(f"{root} svg").first.is_visible()
            page.click(f"{root} .minitape-play")
            page.wait_for_function(f"document.querySelector('{root}').dataset.frame >= 6", timeout=15000)
            assert shown(page, ".minitape-said") != first_said
            assert shown(page, ".minitape-trace").count("running") > first_trace.count("running")
            page.click(f"{root} .minitape-play")                         # pause
            frame = int(page.get_attribute(root, "data-frame"))
            page.click(f"{root} .minitape-next")
            assert int(page.get_attribute(root, "data-frame")) == frame + 1
        finally:
            browser.close()
