"""The standings page in a real headless Chromium (Debian's chromium and chromium-driver):
it renders, and a table's report over the broker shows on it without a reload."""

from __future__ import annotations

import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from tournament_net import new_tournament

from companion.tournament.service import TournamentService
from companion.tournament.simulate import play_seating
from companion.tournament.store import TableStore, TournamentStore
from companion.tournament.table import TableClient

pytestmark = pytest.mark.slow


def chromium_paths() -> tuple[str, str]:
    browser = shutil.which("chromium")
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    assert browser and Path(driver).exists(), (
        "Debian's chromium and chromium-driver are needed: ./test.sh installs them")
    return browser, driver


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    binary, driver = chromium_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--hide-scrollbars"):
        options.add_argument(arg)
    chrome = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    chrome.set_page_load_timeout(20)
    yield chrome
    chrome.quit()


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_page_renders_and_updates_after_a_report_without_a_reload(
        tmp_path: Path, browser: webdriver.Chrome) -> None:
    db, _ = new_tournament(tmp_path / "director", 8, {"rounds": 2})
    service = TournamentService(TournamentStore(db), folder=tmp_path / "director" / "t")
    service.start()
    code = service.join_codes("127.0.0.1")[0]
    table = TableClient(TableStore(tmp_path / "table-1.sqlite3"), code, resend_seconds=0.5)
    table.start()
    try:
        r = service.desk.draw_next()
        browser.get(service.page_url())
        # The board is replaced whole on every update: read it in one script each time.
        page = browser.execute_script(
            "return [document.querySelector('h1').textContent,"
            " Array.from(document.querySelectorAll('.tables > li')).map("
            "  li => [li.dataset.table, li.querySelector('.result').textContent.trim()]),"
            " document.querySelectorAll('.standings tbody tr').length];")
        assert page == ["Loopback Cup", [["1", "playing"], ["2", "playing"]], 8]
        WebDriverWait(browser, 10).until(
            lambda b: b.find_element(By.ID, "live").text == "live")
        browser.execute_script("window.notReloaded = 'yes';")
        assert table.wait_for(lambda: table.seating is not None and
                              table.seating.round == r.number, 10)
        assert table.seating is not None
        placings, text = play_seating(table.seating)
        table.report(placings, text)
        want = "result: " + " > ".join(" = ".join(g) for g in placings)
        result = "return document.querySelector(\".tables > li[data-table='1'] .result\")" \
                 ".textContent.trim();"
        WebDriverWait(browser, 10).until(lambda b: b.execute_script(result) == want)
        assert browser.execute_script("return window.notReloaded;") == "yes"
        points = browser.execute_script(
            "return Array.from(document.querySelectorAll('.standings tbody tr')).map("
            "r => [r.querySelector('.n').firstChild.textContent.trim(),"
            " r.querySelector('.pts').textContent]);")
        assert dict(points)[placings[0][0]] == "4"
        for name, size in (("phone", (390, 844)), ("projector", (1920, 1080))):
            browser.set_window_size(*size)
            shot = tmp_path / f"{name}.png"
            browser.save_screenshot(str(shot))
            width, _ = png_size(shot)
            assert width == browser.execute_script("return window.innerWidth;")
            assert browser.execute_script(
                "return document.documentElement.scrollWidth <= window.innerWidth;"), (
                f"the page scrolls sideways on a {name}")
            assert browser.execute_script(
                "const s = document.querySelector('.standings .scroll');"
                "return s.scrollWidth <= s.clientWidth;"), f"the standings overflow on a {name}"
    finally:
        table.stop()
        service.stop()
