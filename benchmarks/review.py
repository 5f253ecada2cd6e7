"""Taps, page weight and time of the photo review on a phone, from the upload to the applied game.

``python benchmarks/review.py [--real PATH ...] [--samples N]``: serves the app (werkzeug,
threaded, a temporary instance folder) and drives Debian's Chromium at the phone viewport
(390 x 844, touch) through the whole flow for each photo: a game with the photo's players
(their colours from its labels), "Read the board" with the photo, then every card the review
asks (the button of the lane's true owner: one tap whether the reading was right or not), then
Apply. Reports per photo the taps (the camera's own not counted), the lanes asked, how many of
those readings were right, the lanes still wrong after Apply (read wrongly and not asked),
and per step the bytes sent (gzip, as on the wire, and unpacked) and the time from the tap to
the answer shown. Without --real it also reads ../shared/dev_photos/usa-img-4134.jpg if
present (a real photo; never committed).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.web import create_app  # noqa: E402

SAMPLES = ROOT / "sample_photos"
REAL = ROOT.parent / "shared" / "dev_photos" / "usa-img-4134.jpg"
CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve"]


def serve() -> str:
    from werkzeug.serving import make_server

    instance = tempfile.mkdtemp(prefix="review-bench-")
    app = create_app({"DATABASE": f"{instance}/t.sqlite3", "SECRET_KEY": "bench"})
    app.instance_path = instance
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def labels(photo: Path) -> tuple[str, list[str], dict[str, str | None]]:
    """The board, the players' colours and each lane's true colour."""
    truth = json.loads(photo.with_suffix(".json").read_text())
    routes = truth["routes"]
    colors = truth.get("players") or sorted({c for c in routes.values() if c})
    return truth["map"], colors, routes


class Meter:
    """Bytes of every response while a step runs, as sent (gzip) and unpacked."""

    def __init__(self, page) -> None:
        self.responses: list = []
        page.on("response", lambda response: self.responses.append(response))

    def start(self) -> None:
        self.responses.clear()
        self.t0 = time.perf_counter()

    def stop(self) -> dict:
        wire = body = 0
        for response in self.responses:
            try:
                wire += response.request.sizes()["responseBodySize"]
                body += len(response.body())
            except Exception:  # a redirect has no body
                continue
        return {"ms": (time.perf_counter() - self.t0) * 1000, "wire": wire, "body": body}


def run(browser, base: str, photo: Path, shots: Path | None = None) -> dict:
    board, colors, truth = labels(photo)
    context = browser.new_context(**PHONE, base_url=base)
    page = context.new_page()
    meter = Meter(page)
    players = dict(zip(NAMES, colors, strict=False))
    owner_of = {c: n for n, c in players.items()}
    game = page.request.post("/api/games", data={"variant": board, "players": [
        {"name": n, "color": c} for n, c in players.items()]}).json()["id"]
    page.goto(f"/games/{game}/scan")
    page.locator("[data-scan-photo]").set_input_files(str(photo))
    steps = {}
    taps = 1  # "Read the board"
    meter.start()
    page.locator(".scan-form button[type=submit]").tap()
    page.wait_for_url(re.compile(r"/scan/[\w-]+$"), timeout=120_000)
    page.wait_for_load_state("load")
    steps["upload → review"] = meter.stop()

    def shot(step: str) -> None:
        if shots:
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / f"{photo.stem}-{step}.png"))

    shot("1-review")
    height = page.evaluate("document.documentElement.scrollHeight")
    asked = right = 0
    answers = []
    while page.locator("#card [data-progress]").count():
        card = page.locator("#card")
        lane = card.get_attribute("data-card")
        true = owner_of.get(truth.get(lane) or "", "")
        read = card.locator("[data-as-read]").get_attribute("data-pick")
        asked += 1
        right += read == true
        meter.start()
        card.locator(f'[data-pick="{true}"]').tap()
        taps += 1
        page.wait_for_function(
            "lane => !document.querySelector(`#card[data-card='${lane}'] [data-progress]`)",
            arg=lane)
        answers.append(meter.stop())
    checks = page.locator("[data-check]").all_inner_texts()
    if checks:
        page.locator("[data-check]").first.scroll_into_view_if_needed()
        shot("2-checks")
    fixes = 0
    while page.locator("[data-check] a").count():  # the least sure lane named first: nobody
        lane = page.locator("[data-check] a").first
        route = re.search(r"lane=([\w-]+)", lane.get_attribute("href")).group(1)
        lane.tap()
        page.locator(f'#card[data-card="{route}"] [data-pick=""]').tap()
        page.locator(f'#scan-lanes [data-route-id="{route}"][data-owner=""]').wait_for(
            state="attached")
        fixes += 2
    taps += fixes
    meter.start()
    page.locator("[data-apply-scan]").tap()
    taps += 1
    page.wait_for_url(re.compile(rf"/games/{game}(/scan/[\w-]+/apply)?$"))
    page.wait_for_load_state("load")
    steps["Apply → game"] = meter.stop()
    shot("3-applied")
    if page.url.endswith("/apply"):  # refused: the review again, with its checks
        checks.append("Apply refused: " + " ".join(page.locator("[data-error]").all_inner_texts()))
    score = page.request.get(f"/api/games/{game}/score").json()
    owned = {r: p["name"] for p in score["players"] for r in p["routes"]}
    wrong = sum(owned.get(r) != owner_of.get(c or "") for r, c in truth.items())
    context.close()
    return {"photo": photo.name, "taps": taps, "asked": asked, "right": right, "checks": checks,
            "fixes": fixes,
            "wrong_after": wrong, "height": height, "steps": steps, "answers": answers}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", nargs="*", type=Path, default=None)
    parser.add_argument("--samples", type=int, default=12, help="how many sample photos")
    parser.add_argument("--shots", type=Path, help="save phone screenshots of each step here")
    args = parser.parse_args()
    photos = sorted(SAMPLES.glob("*.jpg"))[:args.samples]
    photos += args.real if args.real is not None else ([REAL] if REAL.exists() else [])
    from playwright.sync_api import sync_playwright

    base = serve()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        run(browser, base, photos[0])  # warm up: OpenCV, the model, the browser's cache
        results = [run(browser, base, photo, args.shots) for photo in photos]
        browser.close()
    kb = 1024
    print(f"{'photo':28} taps asked right wrong-left  page-px  upload→review  "
          f"card answer (median)  Apply→game")
    for r in results:
        up, done = r["steps"]["upload → review"], r["steps"]["Apply → game"]
        if r["answers"]:
            card = (f"{statistics.median(a['ms'] for a in r['answers']):5.0f} ms "
                    f"{statistics.median(a['wire'] for a in r['answers']) / kb:5.1f}/"
                    f"{statistics.median(a['body'] for a in r['answers']) / kb:5.0f} kB")
        else:
            card = f"{'-':>25}"
        size = f"{up['wire'] / kb:4.0f}/{up['body'] / kb:4.0f} kB"
        applied = f"{done['ms']:4.0f} ms {done['wire'] / kb:4.0f}/{done['body'] / kb:4.0f} kB"
        print(f"{r['photo']:28} {r['taps']:4} {r['asked']:5} {r['right']:5} "
              f"{r['wrong_after']:10} {r['height']:8} {up['ms']:5.0f} ms {size}  {card}  "
              f"{applied}")
        for check in r["checks"]:
            print("    " + " ".join(check.split()))
        if r["fixes"]:
            print(f"    {r['fixes']} of the taps set the lanes named by the checks to nobody")
    print("kB: gzip as sent / unpacked, every response of the step (page, photo, scripts).")


if __name__ == "__main__":
    main()
