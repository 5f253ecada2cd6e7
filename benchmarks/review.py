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

``python benchmarks/review.py --pairs``: two photos of one board read into one review
(scorer.vision.combine), without the browser: per pair the lanes asked by each photo alone and
by the two together, the lanes read right and the lanes wrong and not asked; then the time to
read a second photo of 12 MP (the detector, and the whole "Add another photo" request through
the app, its child process included), median of --runs. Pairs: each sample photo with the same
board from across the table (turned half round, 0.6 x, JPEG q80: another phone), and the two
dev photos of one Europe layout (../shared/dev_photos/europe-all-pieces-2*.jpg, if present).
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


def across_the_table(photo: Path) -> bytes:
    """The board of ``photo`` as another phone across the table sees it: turned half round,
    0.6 x, JPEG quality 80."""
    import io

    from PIL import Image

    image = Image.open(photo).rotate(180)
    buffer = io.BytesIO()
    image.resize((image.width * 3 // 5, image.height * 3 // 5)).save(buffer, "JPEG", quality=80)
    return buffer.getvalue()


def read_pair(first: bytes, second: bytes, board_name: str, colors: list[str],
              truth: dict[str, str | None]) -> dict:
    """Each photo alone and the two combined: lanes asked, right, wrong and not asked."""
    from scorer.boards import load_board
    from scorer.vision import detect
    from scorer.vision.combine import combine_lanes

    board = load_board(board_name)
    alone = [detect(data, board, colors).routes for data in (first, second)]
    together = combine_lanes(alone, colors, board=board)
    return {"alone": [lane_figures(routes, truth, colors) for routes in alone],
            "together": lane_figures(together, truth, colors), "lanes": len(together)}


def lane_figures(routes, truth: dict[str, str | None],
                 colors: list[str] | None = None) -> tuple[int, int, int]:
    """Of a review's lanes: how many it asks, how many are read right, and how many are wrong
    and not asked (``truth``: each lane's true owner; ``colors``: the colours in play)."""
    from scorer.vision.combine import is_asked

    asked = sum(is_asked(r, colors) for r in routes)
    right = sum(r.owner == truth.get(r.route) for r in routes)
    wrong = sum(r.owner != truth.get(r.route) and not is_asked(r, colors) for r in routes)
    return asked, right, wrong


def pairs(runs: int) -> None:
    """``--pairs``: see the module's docstring."""
    found = []
    for photo in sorted(SAMPLES.glob("*.jpg")):
        board_name, colors, routes = labels(photo)
        found.append((f"{photo.stem} + across", photo.read_bytes(), across_the_table(photo),
                      board_name, colors, routes))
    dev = REAL.parent / "europe-all-pieces-2.jpg"
    if dev.exists():
        board_name, colors, routes = labels(dev)
        found.append(("europe-all-pieces-2 + -stations", dev.read_bytes(),
                      (REAL.parent / "europe-all-pieces-2-stations.jpg").read_bytes(),
                      board_name, colors, routes))
    print(f"{'pair':34} lanes  asked: 1st 2nd both   right: 1st 2nd both   "
          f"wrong, not asked: 1st 2nd both")
    worse = 0
    for name, first, second, board_name, colors, routes in found:
        r = read_pair(first, second, board_name, colors, routes)
        (a1, r1, w1), (a2, r2, w2) = r["alone"]
        a, right, wrong = r["together"]
        worse += a > min(a1, a2)
        print(f"{name:34} {r['lanes']:5}  {a1:10} {a2:3} {a:4}  {r1:10} {r2:3} {right:4}  "
              f"{w1:18} {w2:3} {wrong:4}")
    print(f"pairs asking more than their photo asking fewest: {worse} of {len(found)}")
    second_photo_time(runs)


def second_photo_time(runs: int) -> None:
    """The time to read a second photo of 12 MP (sample usa-01, 4032 x 3024): the detector
    alone, and the whole 'Add another photo' request (checks, child process, rectified view,
    combination, storing)."""
    import io

    from scorer.boards import load_board
    from scorer.vision import detect

    photo = SAMPLES / "usa-01.jpg"
    data = photo.read_bytes()
    board_name, colors, _routes = labels(photo)
    board = load_board(board_name)
    detect(data, board, colors)  # warm up: the model, OpenCV
    detector = []
    for _ in range(runs):
        start = time.perf_counter()
        detect(data, board, colors)
        detector.append(time.perf_counter() - start)
    instance = tempfile.mkdtemp(prefix="review-bench-")
    app = create_app({"DATABASE": f"{instance}/t.sqlite3", "SECRET_KEY": "bench"})
    client = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text).group(1)
    game = client.post("/api/games", json={"variant": board_name, "players": [
        {"name": n, "color": c} for n, c in zip(NAMES, colors, strict=False)]}).get_json()["id"]

    def send(url: str) -> float:
        start = time.perf_counter()
        answer = client.post(url, data={"csrf_token": token,
                                        "photo": (io.BytesIO(data), "board.jpg")},
                             content_type="multipart/form-data")
        assert answer.status_code == 303, answer.text[:300]
        return time.perf_counter() - start

    review = client.post(f"/games/{game}/scan", data={
        "csrf_token": token, "photo": (io.BytesIO(data), "board.jpg")},
        content_type="multipart/form-data").headers["Location"]
    send(review + "/photos")  # warm up: the child processes' server
    added = []
    for _ in range(runs):
        # a fresh review each time: the quotas keep a few photos per game
        review = client.post(f"/games/{game}/scan", data={
            "csrf_token": token, "photo": (io.BytesIO(data), "board.jpg")},
            content_type="multipart/form-data").headers["Location"]
        added.append(send(review + "/photos"))
    print(f"second photo, 12 MP (usa-01 4032x3024), median of {runs}: detector "
          f"{statistics.median(detector) * 1000:.0f} ms, 'Add another photo' request "
          f"{statistics.median(added) * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", nargs="*", type=Path, default=None)
    parser.add_argument("--samples", type=int, default=12, help="how many sample photos")
    parser.add_argument("--shots", type=Path, help="save phone screenshots of each step here")
    parser.add_argument("--pairs", action="store_true", help="two photos of one board")
    parser.add_argument("--runs", type=int, default=7, help="--pairs: timing runs")
    args = parser.parse_args()
    if args.pairs:
        pairs(args.runs)
        return
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
