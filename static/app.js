// Terminus: the little JavaScript the pages need on top of htmx. Everything here is an
// enhancement: without it the board is a set of links and the forms still post.
(function () {
  "use strict";

  // The selected player: set at once on tap, so a lane tapped right after a player button
  // is already claimed for that player (the server is told too, through the form's hx-post).
  function selectPlayer(name) {
    var was = document.querySelector("#controls [data-active-player]");
    if (was && was.value !== name) dropInstead();  // it offered the last player's lanes
    document.querySelectorAll("[data-active-player]").forEach(function (input) { input.value = name; });
    document.querySelectorAll("[data-active-name]").forEach(function (el) { el.textContent = name; });
    document.querySelectorAll("#players button[data-player]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.getAttribute("data-player") === name ? "true" : "false");
    });
    document.querySelectorAll("#strip button[data-pick-player]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.getAttribute("data-pick-player") === name ? "true" : "false");
    });
    // A deck ticket the player already holds is not offered again.
    document.querySelectorAll("button[data-holders]").forEach(function (b) {
      // a ticket the deck holds twice (Switzerland) may be held twice by one player
      var held = b.getAttribute("data-holders").split("\n").filter(function (h) {
        return h === name;
      }).length;
      b.disabled = held >= Number(b.getAttribute("data-copies") || 1);
    });
  }

  document.addEventListener("click", function (event) {
    // The player bar, or the strip over the map (its buttons belong to the bar's form).
    var button = event.target.closest("#players button[data-player], #strip button[data-pick-player]");
    if (button) {
      var name = button.getAttribute("data-player") || button.getAttribute("data-pick-player");
      selectPlayer(name);
      // The server is told here rather than by htmx's own listener, which a bar swapped in
      // by the last answer gets only when htmx settles it: a tap before that posted the form
      // the old way, and the page it loaded threw away the lane taps still on their way.
      if (window.htmx && button.form && button.form.hasAttribute("hx-post")) {
        event.preventDefault();
        htmx.ajax("POST", button.form.getAttribute("hx-post"),
                  { source: button.form, values: { player: name } });
      }
      // Remembered at once, so a reload right after the tap still shows this player.
      var game = button.form && button.form.getAttribute("data-game");
      if (game) {
        document.cookie = "player_" + game + "=" + encodeURIComponent(name) +
          "; path=/; max-age=86400; samesite=lax";
      }
    }
    var fill = event.target.closest("[data-fill-name]");
    if (fill) {
      var empty = Array.prototype.find.call(
        document.querySelectorAll(".player-row input"), function (i) { return !i.value; });
      if (empty) { empty.value = fill.getAttribute("data-fill-name"); empty.focus(); }
    }
  });

  // The new-game form shows as many player rows as the chosen rule set seats (Express: 4);
  // a hidden row keeps what was typed in it, for a change of mind, but is not sent.
  function seatPlayers(choice) {
    var form = choice.closest("form");
    var legend = form && form.querySelector("[data-seats-legend]");
    if (!legend) return;
    legend.textContent = choice.getAttribute("data-players-legend");
    var seats = Number(choice.getAttribute("data-max-players"));
    form.querySelectorAll(".player-row").forEach(function (row, index) {
      row.hidden = index >= seats;
      row.querySelectorAll("input, select").forEach(function (field) {
        field.disabled = row.hidden;
      });
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("input[data-max-players]")) {
      seatPlayers(event.target);
    }
  });

  // Keep the selection after a swap of the player bar answered by the server.
  document.addEventListener("htmx:afterSettle", function () {
    var input = document.querySelector("#controls [data-active-player]");
    if (input && input.value) selectPlayer(input.value);
  });

  // The strip at the top of the screen shows the players once their bar is scrolled away;
  // its height is what the map leaves room for (app.css --strip-h).
  function measureStrip() {
    var strip = document.querySelector("[data-strip]");
    var row = strip && strip.querySelector(".strip-players");
    if (!row) return;
    var shown = strip.classList.contains("show");
    strip.classList.add("show");
    document.documentElement.style.setProperty("--strip-h", row.offsetHeight + "px");
    strip.classList.toggle("show", shown);
  }
  function watchPlayerBar() {
    var strip = document.querySelector("[data-strip]");
    var bar = document.getElementById("players");
    if (!strip || !bar || !window.IntersectionObserver) return;
    new IntersectionObserver(function (entries) {
      var e = entries[0];
      strip.classList.toggle("show", !e.isIntersecting && e.boundingClientRect.top < 0);
    }).observe(bar);
  }
  window.addEventListener("resize", measureStrip);
  document.addEventListener("htmx:afterSettle", measureStrip);

  // Pinch, drag and zoom buttons on the board. The transform lives on #pan, outside the
  // swapped #board, so it survives every htmx swap.
  function setupMap(map) {
    var viewport = map.querySelector(".viewport");
    var pan = map.querySelector(".pan");
    if (!viewport || !pan || map.hasAttribute("data-map-ready")) return;
    map.setAttribute("data-map-ready", "");
    map.querySelectorAll(".zoom[hidden]").forEach(function (z) { z.hidden = false; });
    var s = 1, tx = 0, ty = 0, MAX = 6;
    var pointers = new Map();
    var gesture = null, moved = false;

    // The scale at which the board fills the height of the zoomed viewport: on a phone the
    // board opens at it (lanes twice as big as on the whole board), dragged sideways to see
    // the rest while an upward swipe still scrolls the page.
    function fillScale() {
      var was = viewport.classList.contains("zoomed");
      viewport.classList.add("zoomed");  // the zoomed layout: its height, its width
      var h = viewport.clientHeight, board = pan.offsetHeight;
      viewport.classList.toggle("zoomed", was);
      return board ? Math.max(1, h / board) : 1;
    }

    // A phone upright has a screen taller than the board is: zoomed in past the opening
    // scale, the game's map grows to the board's height, up to the screen under the strip.
    var upright = !!map.closest(".game-page") && window.innerHeight > window.innerWidth
      && viewport.clientWidth < 600;
    function grow() {
      if (!upright) return;
      var strip = parseFloat(getComputedStyle(document.documentElement)
        .getPropertyValue("--strip-h")) || 92;
      var room = window.innerHeight - strip - 8;
      var board = pan.offsetHeight * s;
      viewport.style.height = s > fill + 0.01 && board > opening
        ? Math.min(room, board) + "px" : "";
    }
    function apply() {
      viewport.classList.toggle("zoomed", s > 1.01);
      viewport.classList.toggle("sideways", s > 1.01 && s <= fill + 0.01);
      grow();
      var w = viewport.clientWidth, h = viewport.clientHeight;
      var cw = pan.offsetWidth * s, ch = pan.offsetHeight * s;
      tx = Math.min(0, Math.max(w - cw, tx));
      ty = ch > h ? Math.min(0, Math.max(h - ch, ty)) : 0;
      pan.style.transform = "translate(" + tx + "px," + ty + "px) scale(" + s + ")";
    }
    function zoomAt(factor, cx, cy) {
      var next = Math.min(MAX, Math.max(1, s * factor));
      tx = cx - (cx - tx) * (next / s);
      ty = cy - (cy - ty) * (next / s);
      s = next;
      apply();
    }
    function local(e) {
      var r = viewport.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    }
    var fill = fillScale();
    var opening = pan.offsetHeight * fill;  // the zoomed map's height as the page styles it
    if (map.querySelector("[data-zoom]") && !map.hasAttribute("data-open")
        && viewport.clientWidth < 600 && fill > 1.2) {
      s = fill;
      tx = (viewport.clientWidth - pan.offsetWidth * s) / 2;
      apply();
    }
    // The middle of the highlighted longest path (results), in unscaled board pixels.
    function pathCentre() {
      var box = null, r = pan.getBoundingClientRect();
      map.querySelectorAll(".on-path").forEach(function (el) {
        var b = el.getBoundingClientRect();
        box = box ? { l: Math.min(box.l, b.left), t: Math.min(box.t, b.top),
                      r: Math.max(box.r, b.right), b: Math.max(box.b, b.bottom) }
                  : { l: b.left, t: b.top, r: b.right, b: b.bottom };
      });
      return box && { x: ((box.l + box.r) / 2 - r.left) / s, y: ((box.t + box.b) / 2 - r.top) / s };
    }
    map.querySelectorAll("[data-zoom]").forEach(function (b) {
      b.addEventListener("click", function () {
        var kind = b.getAttribute("data-zoom");
        var cx = viewport.clientWidth / 2, cy = viewport.clientHeight / 2;
        var path = kind === "in" && s < 1.01 ? pathCentre() : null;
        if (kind === "fit") { s = 1; tx = 0; ty = 0; apply(); }
        else if (path) {
          // From the whole board, + zooms in on the path shown, not on the board's middle.
          s = 1.6;
          apply();  // the zoomed layout first: its size decides where the middle is
          tx = viewport.clientWidth / 2 - path.x * s;
          ty = viewport.clientHeight / 2 - path.y * s;
          apply();
        } else zoomAt(kind === "in" ? 1.6 : 1 / 1.6, cx, cy);
        // Grown to the screen's height, the map is brought up under the strip.
        if (viewport.style.height && kind === "in") viewport.scrollIntoView({ block: "start" });
      });
    });
    viewport.addEventListener("wheel", function (e) {
      if (!e.ctrlKey && s === 1 && e.deltaY > 0) return; // let the page scroll
      e.preventDefault();
      var p = local(e);
      zoomAt(e.deltaY < 0 ? 1.25 : 1 / 1.25, p.x, p.y);
    }, { passive: false });
    viewport.addEventListener("pointerdown", function (e) {
      pointers.set(e.pointerId, local(e));
      moved = false;
      startGesture();
    });
    function startGesture() {
      var pts = Array.from(pointers.values());
      if (pts.length === 1) gesture = { x: pts[0].x, y: pts[0].y, tx: tx, ty: ty };
      else if (pts.length === 2) {
        gesture = {
          d: Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y) || 1,
          mx: (pts[0].x + pts[1].x) / 2, my: (pts[0].y + pts[1].y) / 2, s: s, tx: tx, ty: ty,
        };
      }
    }
    window.addEventListener("pointermove", function (e) {
      if (!pointers.has(e.pointerId) || !gesture) return;
      pointers.set(e.pointerId, local(e));
      var pts = Array.from(pointers.values());
      if (pts.length === 1 && s > 1) {
        var dx = pts[0].x - gesture.x, dy = pts[0].y - gesture.y;
        if (viewport.classList.contains("sideways")) dy = 0;  // the page scrolls instead
        if (Math.abs(dx) + Math.abs(dy) > 8) moved = true;
        if (moved) { tx = gesture.tx + dx; ty = gesture.ty + dy; apply(); }
      } else if (pts.length === 2 && gesture.d) {
        moved = true;
        var d = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y);
        var mx = (pts[0].x + pts[1].x) / 2, my = (pts[0].y + pts[1].y) / 2;
        var next = Math.min(MAX, Math.max(1, gesture.s * d / gesture.d));
        tx = mx - (gesture.mx - gesture.tx) * (next / gesture.s);
        ty = my - (gesture.my - gesture.ty) * (next / gesture.s);
        s = next;
        apply();
      }
    });
    function end(e) {
      pointers.delete(e.pointerId);
      if (pointers.size) startGesture(); else gesture = null;
    }
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
    // Where the finger went down and up, as the pointer events report it: the click that
    // follows may have been moved by the browser's touch adjustment to a neighbouring lane.
    // A tap is acted on at its pointerup, not at the click after it: right after a swipe
    // (the page still gliding) the browser spends the tap on stopping the glide and sends no
    // click, and such a tap was lost without a word. The click that may follow is swallowed.
    var lastUp = null, downAt = null, tapDone = null;
    viewport.addEventListener("pointerdown", function (e) {
      downAt = e.isPrimary ? { x: e.clientX, y: e.clientY, t: e.timeStamp } : null;
    }, true);
    viewport.addEventListener("pointerup", function (e) {
      lastUp = { x: e.clientX, y: e.clientY, t: e.timeStamp };
      var down = downAt;
      downAt = null;
      if (!down || moved || !e.isPrimary || e.button > 0) return;
      if (Math.hypot(e.clientX - down.x, e.clientY - down.y) > 10) return;
      if (e.timeStamp - down.t > 800) return;  // a long press: not a tap
      if (boardTap(viewport, e.clientX, e.clientY)) {
        tapDone = { x: e.clientX, y: e.clientY, t: e.timeStamp };
      }
    }, true);
    // A drag or a pinch is not a tap: swallow the click it ends with. A tap on the board goes
    // to the lane or city nearest the point touched (see boardTap).
    viewport.addEventListener("click", function (e) {
      if (moved) { e.preventDefault(); e.stopPropagation(); moved = false; return; }
      if (!e.isTrusted) return;
      if (tapDone && e.timeStamp - tapDone.t < 1000
          && Math.hypot(e.clientX - tapDone.x, e.clientY - tapDone.y) < 30) {
        tapDone = null;  // its tap was handled at the pointerup
        e.preventDefault(); e.stopPropagation();
        return;
      }
      if (!lastUp || e.timeStamp - lastUp.t > 1500) {
        // Not a finger (Enter on a focused lane): the element clicked, through the queue too.
        var link = e.target.closest && e.target.closest("a[hx-post][data-route-id], a[hx-post][data-city]");
        if (link && window.htmx) { e.preventDefault(); e.stopPropagation(); queueTap(link); }
        return;
      }
      var point = lastUp;
      lastUp = null;
      if (boardTap(viewport, point.x, point.y)) { e.preventDefault(); e.stopPropagation(); }
    }, true);
    window.addEventListener("resize", function () { fill = fillScale(); apply(); });
  }

  // --- Taps on the board, hit-tested on the point touched --------------------------------
  // Chromium's touch adjustment sends a tap to the "best" link near the finger, and on a
  // phone the two lanes of a double are a few pixels apart: a tap on one lane could claim
  // the other. So the board finds the lane (or city) itself, in board coordinates.

  function segmentDistance(p, a, b) {
    var dx = b.x - a.x, dy = b.y - a.y, len = dx * dx + dy * dy;
    var t = len ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len)) : 0;
    return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
  }

  function laneDistance(lane, p) {
    var line = lane.querySelector("polyline");  // the board's hit line, the scan's halo
    var pts = (line && line.getAttribute("points") || "").trim().split(/\s+/).map(function (xy) {
      var c = xy.split(","); return { x: +c[0], y: +c[1] };
    });
    var best = Infinity;
    for (var i = 1; i < pts.length; i++) best = Math.min(best, segmentDistance(p, pts[i - 1], pts[i]));
    return best;
  }

  // The lanes and the city nearest the point (x, y in client pixels), with the scale and
  // the point in board units.
  function nearest(svg, x, y) {
    var ctm = svg.getScreenCTM();
    if (!ctm) return null;
    var p = new DOMPoint(x, y).matrixTransform(ctm.inverse());
    var lanes = [], city = null;
    svg.querySelectorAll("a[data-route-id]").forEach(function (lane) {
      lanes.push({ el: lane, d: laneDistance(lane, p) });
    });
    lanes.sort(function (a, b) { return a.d - b.d; });
    svg.querySelectorAll("a[data-city]").forEach(function (el) {
      var dot = el.querySelector(".dot");
      var d = Math.hypot(p.x - +dot.getAttribute("cx"), p.y - +dot.getAttribute("cy"));
      if (!city || d < city.d) city = { el: el, d: d };
    });
    return { lanes: lanes, city: city, k: Math.hypot(ctm.a, ctm.b), p: p };
  }

  function ends(lane) {
    var id = lane.getAttribute("data-route-id");
    return id.replace(/--2$/, "");
  }

  // Returns true when the tap was handled here (a request sent or a choice offered).
  function boardTap(viewport, x, y) {
    var svg = viewport.querySelector("svg");
    if (!svg || !svg.querySelector("a[data-route-id]") || !window.htmx) return false;
    var near = nearest(svg, x, y);
    if (!near) return false;
    var k = near.k;  // screen pixels per board unit
    var modeInput = document.querySelector("#controls input[name=mode]:checked");
    var mode = modeInput ? modeInput.value : "routes";
    var lane = near.lanes[0], city = near.city;
    var laneReach = Math.max(14, LANE_REACH_PX / k), cityReach = Math.max(26, 16 / k);
    var target = null;
    // A route's first city picked (routes mode): the tap names its other end, the nearest
    // city the first one has a lane to, within a fingertip and a half; the first city again
    // cancels.
    var first = mode === "routes" && document.querySelector("#board a[data-city].picked");
    var end = first && neighbourTapped(svg, first, x, y, k);
    if (end) { queueTap(end); return true; }
    if (city && mode !== "routes" && city.d <= cityReach) target = city.el;
    else if (city && city.d <= Math.max(16, 6 / k)) target = city.el;
    else if (lane && lane.d <= laneReach) target = lane.el;
    else if (city && city.d <= 26) target = city.el;
    if (!target) return true;  // open sea: nothing to do
    if (target === lane.el && svg.closest(".scan-map")) {
      chooseOwner(lane.el);
      return true;
    }
    if (target !== lane.el) {
      // A route's first city picked: the lanes the finger may have meant are offered too.
      var lanes = [];
      if (mode === "routes" && !first && lane.d <= laneReach) {
        var guess = likeliest(svg, near, k);
        lanes = [guess].concat(guess.instead).filter(function (l) { return open(l.el); });
      }
      queueTap(target, null, undefined, ids(lanes.slice(0, 4)));
      return true;
    }
    // A lane: the likeliest the finger meant, the next likeliest offered beside the answer
    // ("Not this one?"), one tap to take one instead.
    var meant = likeliest(svg, near, k);
    queueTap(meant.el, null, undefined, ids(meant.instead));
    return true;
  }

  function ids(lanes) {
    return lanes.map(function (l) { return l.el.getAttribute("data-route-id"); });
  }

  // A finger lands ~FINGER_PX off where it aims, and on the whole board lanes run 5-10 px
  // apart: the lane nearest the tap was the one meant two times in three. So the tap goes to
  // the likeliest lane the selected player may claim, for a player who aims at a lane's
  // middle (README: entering a board fastest), weighing how far the finger is from a point
  // of the lane, in fingers, with how far that point is from the lane's middle, in quarters
  // of the lane. A tap on a lane's printed spaces (ON_LANE_PX) counts as one on its middle.
  var FINGER_PX = 8;
  var ALONG = 0.25;  // how far along a lane from its middle a player aims: a quarter of it
  var ON_LANE_PX = 2;  // a tap this near a lane is on it (the printed spaces' half width)
  var LANE_REACH_PX = 20;  // a tap farther than this from every lane is open sea
  var INSTEAD_REACH_PX = 32;  // free lanes this near the tap are offered instead (four at most)
  var NEIGHBOUR_PX = 30;  // a route's second city: this near its dot (neighbourTapped)

  // How unlikely it is that a finger at board point ``p`` meant lane ``l`` ({ el, d: its
  // distance }), the lower the likelier: 0 on its middle, 0.5 a finger from its middle or on
  // it a quarter of its length away from its middle, 2 on its end (half the square of the
  // distance counted in fingers and in quarters of the lane).
  function miss(svg, l, p, k) {
    var finger = FINGER_PX / k, pts = lanePoints(svg, l.el), len = pts[pts.length - 1].s;
    var best = Infinity;
    pts.forEach(function (q) {
      var off = Math.hypot(p.x - q.x, p.y - q.y) / finger;
      var along = (q.s - len / 2) / (ALONG * len || 1);
      best = Math.min(best, (off * off + along * along) / 2);
    });
    var across = l.d / finger;
    return l.d * k <= ON_LANE_PX ? Math.min(best, across * across / 2) : best;
  }

  // The lane a tap on the board claims ({ el, instead: the lanes to offer instead }), from
  // the lanes nearest the point (nearest()): the likeliest (miss()) the selected player may
  // claim (open()) within reach. Nearest the player's own lane, a lane to claim counts only
  // up to a finger farther, and a tap on their own lane releases it; on a lane they may not
  // claim (another player's, closed, the other lane of their double), only within a finger
  // of the tap, else the tap goes to that lane and the answer says why it is refused.
  function likeliest(svg, near, k) {
    var lane = near.lanes[0], on = lane.d * k <= ON_LANE_PX;
    var reach = Math.max(14, LANE_REACH_PX / k);  // as boardTap's
    if (!free(lane.el) && claimable(lane.el)) reach = on ? -1 : lane.d + FINGER_PX / k;
    else if (!open(lane.el) && on) reach = FINGER_PX / k;
    var ranked = [];
    near.lanes.forEach(function (l) {
      if (l.d * k <= INSTEAD_REACH_PX && open(l.el)) {
        ranked.push({ el: l.el, d: l.d, miss: miss(svg, l, near.p, k) });
      }
    });
    ranked.sort(function (a, b) { return a.miss - b.miss; });
    var meant = ranked.filter(function (l) { return l.d <= reach; })[0];
    if (!meant) return { el: lane.el, instead: [] };
    return { el: meant.el, instead: ranked.filter(function (l) {
      return l !== meant;
    }).slice(0, 4) };
  }

  // Points along a lane's hit line, a few board units apart, each with how far along the
  // line it lies (s); kept per board drawing.
  var alongs = new WeakMap();
  function lanePoints(svg, lane) {
    var known = alongs.get(svg);
    if (!known) alongs.set(svg, known = {});
    var id = lane.getAttribute("data-route-id");
    if (known[id]) return known[id];
    var corners = lane.querySelector("polyline").getAttribute("points").trim().split(/\s+/)
      .map(function (xy) { var c = xy.split(","); return { x: +c[0], y: +c[1] }; });
    var pts = [{ x: corners[0].x, y: corners[0].y, s: 0 }], s = 0;
    for (var i = 1; i < corners.length; i++) {
      var a = corners[i - 1], b = corners[i], step = Math.hypot(b.x - a.x, b.y - a.y);
      var n = Math.max(1, Math.ceil(step / 4));
      for (var j = 1; j <= n; j++) {
        pts.push({ x: a.x + (b.x - a.x) * j / n, y: a.y + (b.y - a.y) * j / n,
                   s: s + step * j / n });
      }
      s += step;
    }
    known[id] = pts;
    return pts;
  }

  // A lane the selected player may claim: nobody's, not closed to them.
  function free(lane) {
    return !/\b(own|closed)\b/.test(lane.getAttribute("class") || "");
  }

  // The selected player's colour, as the lanes' classes name it ("own-red").
  function myColor() {
    var me = document.querySelector('#players button[data-player][aria-pressed="true"]');
    var color = me && /\bpc-(\w+)/.exec(me.getAttribute("class") || "");
    return color ? color[1] : null;
  }

  // A lane the selected player may claim or release: not another player's, not closed.
  function claimable(lane) {
    var kind = lane.getAttribute("class") || "";
    if (/\bclosed\b/.test(kind)) return false;
    if (!/\bown\b/.test(kind)) return true;
    var color = myColor();
    return !!color && kind.indexOf("own-" + color) >= 0;
  }

  // A free lane the rules let the selected player claim: not the other lane of a double
  // they hold one lane of (one player may never own both).
  function open(lane) {
    if (!free(lane)) return false;
    var color = myColor(), route = ends(lane);
    return !color || !Array.prototype.some.call(
      lane.ownerSVGElement.querySelectorAll("a.own-" + color), function (mine) {
        return ends(mine) === route;
      });
  }

  // Which city each lane joins, from the board's drawing: the cities nearest its two ends
  // (the lanes carry their ids, the cities their names), kept per board drawing.
  var joins = new WeakMap();
  function laneEnds(svg) {
    var known = joins.get(svg);
    if (known) return known;
    var dots = Array.prototype.map.call(svg.querySelectorAll("a[data-city]"), function (el) {
      var dot = el.querySelector(".dot");
      return { name: el.getAttribute("data-city"), x: +dot.getAttribute("cx"),
               y: +dot.getAttribute("cy") };
    });
    function nearestCity(x, y) {
      var best = null;
      dots.forEach(function (c) {
        var d = Math.hypot(c.x - x, c.y - y);
        if (!best || d < best.d) best = { name: c.name, d: d };
      });
      return best && best.name;
    }
    known = {};
    svg.querySelectorAll("a[data-route-id] polyline").forEach(function (line) {
      var pts = line.getAttribute("points").trim().split(/\s+/);
      var a = pts[0].split(","), b = pts[pts.length - 1].split(",");
      var one = nearestCity(+a[0], +a[1]), two = nearestCity(+b[0], +b[1]);
      (known[one] = known[one] || []).push(two);
      (known[two] = known[two] || []).push(one);
    });
    joins.set(svg, known);
    return known;
  }

  // The city a tap names as the other end of a route from ``first`` (or ``first`` itself,
  // to cancel): the nearest of those within NEIGHBOUR_PX of the finger; null if none is.
  function neighbourTapped(svg, first, x, y, k) {
    var ctm = svg.getScreenCTM();
    var p = new DOMPoint(x, y).matrixTransform(ctm.inverse());
    var name = first.getAttribute("data-city");
    var allowed = (laneEnds(svg)[name] || []).concat([name]);
    var best = null;
    svg.querySelectorAll("a[data-city]").forEach(function (el) {
      if (allowed.indexOf(el.getAttribute("data-city")) < 0) return;
      var dot = el.querySelector(".dot");
      var d = Math.hypot(p.x - +dot.getAttribute("cx"), p.y - +dot.getAttribute("cy")) * k;
      if (d <= NEIGHBOUR_PX && (!best || d < best.d)) best = { el: el, d: d };
    });
    return best && best.el;
  }

  // A chooser of big buttons (a lane's owner, one lane of a double) with a cancel button,
  // shown over the page until a choice or the cancel removes it.
  function showChooser(box) {
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "btn";
    cancel.textContent = document.body.getAttribute("data-msg-cancel") || "×";
    cancel.addEventListener("click", function () { box.remove(); });
    box.appendChild(cancel);
    document.body.appendChild(box);
  }

  // The photo review: a lane's owner is picked among big buttons (nobody, each player) rather
  // than stepped through one tap at a time (up to six taps with five players).
  var bounce = null;  // where the last owner was picked: { x, y, at }

  function chooseOwner(lane) {
    var old = document.getElementById("lane-choice");
    if (old) old.remove();
    bounce = null;  // a new choice: its buttons are tapped on purpose
    var svg = lane.closest("#scan-lanes");
    var id = lane.getAttribute("data-route-id");
    var colors = JSON.parse(svg.getAttribute("data-colors"));
    var box = document.createElement("div");
    box.id = "lane-choice";
    box.className = "lane-choice owner-choice";
    box.setAttribute("role", "dialog");
    var question = document.createElement("p");
    var title = lane.querySelector("title");
    question.textContent = title ? title.textContent : id;
    box.appendChild(question);
    JSON.parse(svg.getAttribute("data-owners")).forEach(function (owner) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "btn big lane-pick" + (owner ? " pc-" + colors[owner] : "");
      button.setAttribute("data-pick-owner", owner);
      var shown = owner === lane.getAttribute("data-owner");
      button.setAttribute("aria-pressed", shown ? "true" : "false");
      var swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.setAttribute("aria-hidden", "true");
      button.appendChild(swatch);
      button.appendChild(document.createTextNode(owner || svg.getAttribute("data-nobody")));
      button.addEventListener("click", function (e) {
        box.remove();
        // The second tap of a double tap lands where the box was (on the bar's Apply, say):
        // it is swallowed below, as the same finger.
        bounce = { x: e.clientX, y: e.clientY, at: Date.now() };
        var current = document.querySelector('#scan-lanes a[data-route-id="' + CSS.escape(id) + '"]');
        if (current) queueTap(current, null, owner);
      });
      box.appendChild(button);
    });
    showChooser(box);
  }
  document.addEventListener("click", function (e) {
    if (!bounce || Date.now() - bounce.at > DOUBLE_TAP_MS) return;
    if (Math.hypot(e.clientX - bounce.x, e.clientY - bounce.y) > 30) return;
    if (e.target.closest && e.target.closest(".scan-map")) return;  // at worst, a new choice
    e.preventDefault();
    e.stopPropagation();
  }, true);

  // Where each lane of a double lies on the screen beside the other ("upper lane", "left
  // lane"): two lanes of one colour have the same title, and this tells them apart.
  function sides(lanes) {
    var words = JSON.parse((lanes[0].closest("[data-sides]") || document.body)
      .getAttribute("data-sides") || "{}");
    var c = lanes.map(function (lane) {
      var r = lane.querySelector("polyline").getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    var across = Math.abs(c[0].x - c[1].x) > Math.abs(c[0].y - c[1].y);
    return c.map(function (p, i) {
      var o = c[1 - i];
      var side = across ? (p.x < o.x ? "left" : "right") : (p.y < o.y ? "upper" : "lower");
      return { side: side, word: words[side] || "" };
    });
  }

  // Two big buttons, one per lane of a double (two cities tapped, both lanes free); the
  // lane's title names it and its colour, then its side.
  function chooseLane(lanes) {
    var old = document.getElementById("lane-choice");
    if (old) old.remove();
    var box = document.createElement("div");
    box.id = "lane-choice";
    box.className = "lane-choice";
    box.setAttribute("role", "dialog");
    var question = document.createElement("p");
    question.textContent = document.body.getAttribute("data-msg-which-lane") || "";
    box.appendChild(question);
    lanes = lanes.slice().sort(function (a, b) {
      return a.getAttribute("data-route-id") < b.getAttribute("data-route-id") ? -1 : 1;
    });
    var where = lanes.length === 2 ? sides(lanes) : lanes.map(function () {
      return { side: "", word: "" };
    });
    lanes.forEach(function (lane, i) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "btn big lane-pick " + (lane.getAttribute("class") || "").split(/\s+/)
        .filter(function (c) { return /^c-/.test(c); }).join(" ");
      button.setAttribute("data-pick-route", lane.getAttribute("data-route-id"));
      var swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.setAttribute("aria-hidden", "true");
      button.appendChild(swatch);
      var title = lane.querySelector("title");
      var text = document.createElement("span");
      text.textContent = title ? title.textContent : "";
      var extra = document.createElement("b");
      extra.className = "lane-side";
      extra.setAttribute("data-side", where[i].side);
      extra.textContent = where[i].word;
      text.appendChild(extra);
      button.appendChild(text);
      button.addEventListener("click", function () {
        box.remove();
        var current = document.querySelector('#board a[data-route-id="' +
          lane.getAttribute("data-route-id") + '"]');
        if (current) queueTap(current);
      });
      box.appendChild(button);
    });
    showChooser(box);
  }

  // A lane claimed by a tap on the board (answered 200: a refusal is 422), with the next
  // likeliest free lanes: "Not this one?" and a button per lane (placeInstead) until the
  // next tap, or INSTEAD_MS. A button releases the lane claimed and claims its own in one
  // step (one Undo). After a city picked as a route's first end, the lanes the finger may
  // have meant: a button claims its lane (and the city is dropped, as by any lane tapped).
  // (Called as the answer is swapped in: the lane's old element may still be in the page.)
  var INSTEAD_MS = 8000;
  function offerInstead(tap) {
    var claimed = document.querySelector(tap.key);
    if (!claimed) return;
    dropInstead();
    var id = claimed.getAttribute("data-route-id");  // none: a city picked
    var row = document.createElement("div");
    row.id = "instead";
    row.className = "instead-offer";
    row.setAttribute("role", "group");
    row.setAttribute("data-instead", id || claimed.getAttribute("data-city"));
    row.appendChild(Object.assign(document.createElement("span"), {
      textContent: document.body.getAttribute("data-msg-instead") || "" }));
    tap.instead.forEach(function (other) {
      var lane = document.querySelector('#board a[data-route-id="' + CSS.escape(other) + '"]');
      if (!lane || !free(lane)) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "btn lane-pick " + (lane.getAttribute("class") || "").split(/\s+/)
        .filter(function (c) { return /^c-/.test(c); }).join(" ");
      button.setAttribute("data-instead-route", other);
      button.appendChild(Object.assign(document.createElement("span"), { className: "swatch" }));
      // its cities (the title's first part; the swatch shows its colour), and the lane of a
      // double by its side: both lanes may have one colour. The other lane of the one
      // claimed: its side alone.
      var title = lane.querySelector("title");
      var text = (title ? title.textContent : other).split(" · ")[0];
      var sibling = id && ends(lane) === ends(claimed) ? claimed : document.querySelector(
        '#board a[data-route-id="' + CSS.escape(ends(lane) === other ? other + "--2" : ends(lane)) + '"]');
      var side = sibling && sibling !== lane ? sides([lane, sibling])[0].word : "";
      text = sibling === claimed ? side || text : [text, side].filter(Boolean).join(" · ");
      button.appendChild(document.createTextNode(text));
      button.addEventListener("click", function () {
        dropInstead();
        var now = document.querySelector('#board a[data-route-id="' + CSS.escape(other) + '"]');
        if (now) queueTap(now, null, undefined, null, id ? { instead: id } : undefined);
      });
      row.appendChild(button);
    });
    if (!row.querySelector("button")) return;
    document.body.appendChild(row);
    placeInstead(row);
    row.timer = setTimeout(dropInstead, INSTEAD_MS);
  }
  // Over the map, the offer's buttons took taps meant for the lanes under them: it shows
  // under the map when the screen has room there, else above it (under the strip), else at
  // the bottom of the screen.
  function placeInstead(row) {
    var map = document.getElementById("viewport");
    if (!map) return;
    var r = map.getBoundingClientRect(), h = row.offsetHeight + 8;
    var strip = document.querySelector("[data-strip].show");
    var top = strip ? strip.getBoundingClientRect().bottom : 0;
    if (window.innerHeight - r.bottom >= h) {
      row.style.top = r.bottom + 4 + "px";
      row.style.bottom = "auto";
    } else if (r.top - top >= h) {
      row.style.bottom = window.innerHeight - r.top + 4 + "px";
    }
  }
  function dropInstead() {
    var row = document.getElementById("instead");
    if (row) { clearTimeout(row.timer); row.remove(); }
  }

  // Two cities tapped (or typed) that a double joins, both lanes free: the answer says so
  // and names them; the chooser offers both.
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    var offer = e.target.id === "message" && e.target.querySelector("[data-offer-routes]");
    if (!offer) return;
    var lanes = offer.getAttribute("data-offer-routes").split(" ").map(function (id) {
      return document.querySelector('#board a[data-route-id="' + CSS.escape(id) + '"]');
    }).filter(Boolean);
    if (lanes.length > 1) chooseLane(lanes);
  });

  // The route finder ("par fra"): Enter claims the lane of the first route offered (the
  // best match, server-side) when it has one lane to claim (looked up first if the
  // suggestions are not those of the text typed); a lane claimed from it empties the box for
  // the next route, the keyboard left open.
  var findOnArrival = false;
  function soleLane(form) {
    var results = document.getElementById("route-results");
    var input = form.querySelector("input[name=q]");
    if (!results || results.getAttribute("data-for") !== input.value) return null;
    var first = results.querySelector("[data-found-route]");
    var open = first ? Array.prototype.filter.call(
      first.querySelectorAll("form"), function (f) {
        var b = f.querySelector("button"), verb = f.querySelector("input[name=do]");
        return b && !b.disabled && verb && verb.value === "claim";
      }) : [];
    return open.length === 1 ? open[0].querySelector("button") : null;
  }
  // The button Enter would tap, marked as such.
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.target.id !== "route-results" && e.detail.target.id !== "route-results") return;
    var form = document.querySelector("form[data-route-search]");
    var button = form && soleLane(form);
    if (button) button.setAttribute("data-enter", "");
  });
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.hasAttribute || !form.hasAttribute("data-route-search") || !window.htmx) return;
    e.preventDefault();
    var button = soleLane(form);
    if (button) button.click();
    else { findOnArrival = true; htmx.trigger(form, "find"); }
  }, true);
  document.addEventListener("htmx:afterSwap", function (e) {
    if (e.target.id !== "route-results" && e.detail.target.id !== "route-results") return;
    var form = document.querySelector("form[data-route-search]");
    var button = findOnArrival && form && soleLane(form);
    findOnArrival = false;
    if (button) button.click();
  });
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("#route-results form[data-tap] button");
    var form = document.querySelector("form[data-route-search]");
    if (!button || !form || !window.htmx || button.disabled) return;
    // (after the queue has read the form)
    setTimeout(function () {
      var input = form.querySelector("input[name=q]");
      input.value = "";
      document.getElementById("route-results").replaceChildren();
      if (document.activeElement === input || e.detail === 0) input.focus();
    }, 0);
  });

  // --- Taps sent to the server: queued, one at a time, in the order they were made -------
  // An answer swaps in new elements for what it changed: the lane tapped, the forms of Undo
  // and Redo, the whole board when the page was behind (or the whole photo review), and htmx
  // listens to those only once it has settled them, 20 ms after the swap or later on a busy
  // phone. A tap in between reached an element nobody listened to yet, and a tap that htmx
  // queued behind the one in flight (hx-sync) was dropped with the element the answer
  // replaced: both sent nothing and said nothing. So a tap is queued here by what it names
  // (a lane, a city, a form's button) with what it meant when it was made, and sent from that
  // lane, city or form as it is on the page once the answer to the tap before it is in, with
  // the version that answer left; answers then also come back in order.
  // Bad Wi-Fi: a tap that finds no connection, or whose answer does not come, waits at the
  // head of the queue and is sent again (every RETRY_MS, and when the phone says it is back
  // online); the taps after it wait behind it, in order, and the page says how many wait.
  // Each tap carries an id made here: a tap that did reach the server, its answer lost on
  // the way, is known by it there and answered as the first time, not applied twice
  // (scorer/web/play.py, once_per_tap).
  var DOUBLE_TAP_MS = 300;  // Android's double-tap time; tests/browser/conftest.py waits it out
  // A tap whose answer has not come in this long is taken as lost on the way: sent again.
  var TAP_TIMEOUT_MS = 10000;
  var RETRY_MS = 2000;
  var taps = [];        // waiting: { key, values, at, id, waited }
  var sending = null;   // the tap in flight: { el, tap, config, xhr }
  var last = null;      // the last tap accepted: { key, values, at }
  var offline = false;  // the last request found no connection, or got no answer
  var retryTimer = null;

  // 128 random bits as hex (crypto.randomUUID needs https, and the table's server is http).
  function tapId() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  // What a tap means at the moment it is made, so a tap sent later still does that. The
  // board: claim or release as the lane shows it (its hx-vals), for the player selected
  // then, in the mode chosen then. The photo review: the owner picked (chooseOwner), else
  // the one after the owner shown.
  function intent(el, owner, extra) {
    var review = el.closest("#scan-lanes");
    var attr = el.hasAttribute("data-route-id") ? "data-route-id" : "data-city";
    var key = (review ? "#scan-lanes" : "#board") + " a[" + attr + '="' +
      CSS.escape(el.getAttribute(attr)) + '"]';
    var values = {};
    if (review) {
      var owners = JSON.parse(review.getAttribute("data-owners"));
      values.owner = owner !== undefined ? owner
        : owners[(owners.indexOf(el.getAttribute("data-owner")) + 1) % owners.length];
    } else {
      if (el.hasAttribute("hx-vals")) values = JSON.parse(el.getAttribute("hx-vals"));
      var player = document.querySelector("#controls [data-active-player]");
      var mode = document.querySelector("#controls input[name=mode]:checked");
      if (player) values.player = player.value;
      if (mode) values.mode = mode.value;
      Object.assign(values, extra || {});
    }
    return { key: key, values: values, at: Date.now(), survives: true };
  }

  // A form that changes the game (a ticket's + or ✕, a custom ticket, the Express order,
  // Undo, Redo) names itself in data-tap; its fields are taken as they are when tapped (the
  // player selected then), except those marked data-read-when-sent: Undo's cursor is read
  // from the page the answers before it left, so a second Undo takes back one more step.
  // data-tap-repeat: the same tap again while the first waits is a second step, not a bounce.
  function formIntent(form, button) {
    var values = {};
    new FormData(form, button).forEach(function (value, name) { values[name] = value; });
    form.querySelectorAll("[data-read-when-sent]").forEach(function (input) {
      delete values[input.name];
    });
    return { key: 'form[data-tap="' + CSS.escape(form.getAttribute("data-tap")) + '"]',
             url: form.getAttribute("hx-post"), values: values, at: Date.now(),
             repeat: form.hasAttribute("data-tap-repeat"),
             survives: !form.querySelector("[data-read-when-sent]") };
  }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // A double tap is one tap: a second tap on the same lane, city or button within
  // DOUBLE_TAP_MS of the one before, or meaning the same as the tap on it still waiting for
  // its answer, is the same finger twice, not "claim, then release" or "the next owner, then
  // the one after" (Undo and the Express arrows: only within DOUBLE_TAP_MS).
  // ``instead``: the lanes to offer instead of this one once it is claimed (boardTap);
  // ``extra``: more fields to send (the lane this one replaces).
  function queueTap(el, button, owner, instead, extra) {
    var tap = el.tagName === "FORM" ? formIntent(el, button) : intent(el, owner, extra);
    if (instead && instead.length) tap.instead = instead;
    var pending = sending && sending.tap.key === tap.key ? [sending.tap] : [];
    pending = pending.concat(taps.filter(function (t) { return t.key === tap.key; }));
    var again = last && last.key === tap.key && tap.at - last.at < DOUBLE_TAP_MS;
    if (again) last.at = tap.at;  // a finger bouncing on: still the one tap
    if (again || (!tap.repeat && pending.some(function (t) { return same(t.values, tap.values); }))) {
      return;
    }
    last = tap;
    dropInstead();  // "not this one?" was about the tap before
    tap.id = tapId();
    tap.waited = offline;  // made while offline: it will be answered late
    taps.push(tap);
    saveTaps();
    next();
    markPending();
    showOffline();
  }

  function next() {
    if (sending || !window.htmx) return;
    if (offline && navigator.onLine === false) {  // the "online" event sends it, or the timer
      if (!retryTimer && taps.length) retryTimer = setTimeout(retry, RETRY_MS);
      return;
    }
    var tap = taps.shift();
    if (!tap) return;
    // The board and the review always hold every lane and city, unless the server answered
    // with something else in their place: then the tap cannot go, and says so. A form's tap
    // carries all it needs: it goes even if its form went meanwhile (a new deck search).
    var el = document.querySelector(tap.key) || (tap.url ? document.body : null);
    if (!el) { showProblem("server"); next(); return; }
    sending = { el: el, tap: tap };
    try {
      var url = tap.url || el.getAttribute("hx-post");
      // (htmx's promise fails when no answer came: no connection, a timeout. Its events
      // are no use for that: those of a lane redrawn meanwhile by a poll reach nobody.)
      htmx.ajax("POST", url, tap.url ? { source: el, swap: "none" } : { source: el })
        .then(function () { answered(false); }, function () { answered(true); });
    } catch (err) {
      answered(false);  // the taps after it still go
      throw err;
    }
  }

  // The buttons of those forms: queued too, so a tap right after an answer (before htmx has
  // settled the swapped form) does not post the form the old way and reload the page, and a
  // tap while another is in flight is not dropped. Without htmx the forms post as they are.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("form[data-tap] button");
    if (!button || button.type !== "submit" || button.disabled || !window.htmx) return;
    event.preventDefault();
    if (button.form.reportValidity()) queueTap(button.form, button);
  });

  document.addEventListener("htmx:configRequest", function (e) {
    if (!sending || e.detail.elt !== sending.el) return;
    var values = sending.tap.values;
    Object.keys(values).forEach(function (k) { e.detail.parameters[k] = values[k]; });
    e.detail.parameters.tap = sending.tap.id;
    e.detail.timeout = TAP_TIMEOUT_MS;
    sending.config = e.detail;  // the request's own: its later events carry it
  });
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (sending && e.detail.requestConfig === sending.config) sending.xhr = e.detail.xhr;
  });

  // ``failed``: no answer came (no connection, a timeout); a proxy with no server behind it
  // (502, 503, 504) is no answer either. Such a tap waits to be sent again, first.
  var NO_SERVER = [502, 503, 504];
  function answered(failed) {
    var done = sending;
    var status = done && done.xhr ? done.xhr.status : 0;
    sending = null;
    if (done && (failed || NO_SERVER.indexOf(status) >= 0)) {
      done.tap.waited = true;
      taps.unshift(done.tap);  // first again: the taps after it wait behind it
      goOffline();
    } else {
      if (done && done.tap.waited && status >= 400 && status < 500) refusedLate();
      if (status >= 500) showProblem("server");
      if (status === 200 && done.tap.instead && !taps.length) offerInstead(done.tap);
      if (status) backOnline();
      next();
    }
    saveTaps();
    markPending();
    showOffline();
  }

  // Any other request without an answer (a poll) says the page is offline; any answer says
  // the connection is back, and the waiting taps go at once.
  function noAnswer(e) {
    if (!sending || e.detail.requestConfig !== sending.config) goOffline();
  }
  document.addEventListener("htmx:sendError", noAnswer);
  document.addEventListener("htmx:timeout", noAnswer);
  document.addEventListener("htmx:responseError", function (e) {
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (sending && e.detail.requestConfig === sending.config) return;  // a tap: answered()
    if (NO_SERVER.indexOf(status) >= 0) noAnswer(e);
    else if (!e.detail.xhr || status >= 500) showProblem("server");
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (status && NO_SERVER.indexOf(status) < 0) backOnline();
  });
  function backOnline() {
    if (!offline) return;
    offline = false;
    var line = document.querySelector("#message [data-offline]");
    if (line) line.remove();
    next();
  }

  // The waiting taps outlive a reload of the page (in this tab, for SAVED_MS): sent again
  // with their ids, those that did arrive count once. Not Undo and Redo, whose step is read
  // from the page when sent: on a page loaded since, it would be another step.
  var SAVED_MS = 15 * 60 * 1000;
  var savedKey = "terminus-taps:" + location.pathname;
  function saveTaps() {
    try {
      var kept = (sending ? [sending.tap] : []).concat(taps)
        .filter(function (t) { return t.survives; });
      if (kept.length) sessionStorage.setItem(savedKey, JSON.stringify(kept));
      else sessionStorage.removeItem(savedKey);
    } catch (err) { /* no storage (private mode, full): they wait in the page only */ }
  }
  function restoreTaps() {
    var saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(savedKey) || "null"); } catch (err) { return; }
    if (!Array.isArray(saved)) return;
    saved.forEach(function (tap) {
      if (Date.now() - tap.at > SAVED_MS || !tap.id) return;
      if (!tap.url && !document.querySelector(tap.key)) return;  // a form's tap goes without it
      tap.waited = true;
      taps.push(tap);
    });
    saveTaps();
    next();
    markPending();
    showOffline();
  }

  function goOffline() {
    offline = true;
    showOffline();
    if (!retryTimer && taps.length) retryTimer = setTimeout(retry, RETRY_MS);
  }
  function retry() {
    retryTimer = null;
    next();
    if (!sending && taps.length && !retryTimer) retryTimer = setTimeout(retry, RETRY_MS);
  }
  window.addEventListener("online", retry);
  window.addEventListener("offline", goOffline);

  // "Offline: 3 taps waiting", in the message bar until the connection is back.
  function showOffline() {
    var bar = document.getElementById("message");
    if (!bar || !offline) return;
    var waiting = taps.length + (sending ? 1 : 0);
    // (English and French both take the singular for one tap; none has a sentence of its own)
    var text = document.body.getAttribute(
      "data-msg-offline" + (waiting === 1 ? "-one" : waiting ? "-many" : "")) || "";
    var line = bar.querySelector("[data-offline]");
    if (!line) {
      line = document.createElement("p");
      line.className = "msg offline";
      line.setAttribute("data-offline", "");
      bar.replaceChildren(line);
      keepRefusals(bar);
    }
    line.textContent = text.replace("{count}", waiting);
    placeMessage();
  }

  // A tap that waited for the connection and is refused when it arrives (another phone took
  // the lane meanwhile): its refusal says it was sent late and stays longer, as the table may
  // have looked away since that tap was made.
  function refusedLate() {
    var line = document.querySelector("#message [data-error]:not(.earlier)");
    var late = document.body.getAttribute("data-msg-late");
    if (!line || !late || line.classList.contains("late")) return;
    var reason = line.textContent;
    line.replaceChildren(Object.assign(document.createElement("b"), { textContent: late }),
                         " " + reason);
    line.classList.add("late");
    line.setAttribute("data-refusal", line.textContent);
    refusals = refusals.filter(function (r) { return r.text !== reason; });
    refusals.push({ text: line.textContent, until: Date.now() + KEEP_LATE_REFUSAL_MS,
                    late: true });
  }

  // A tap waiting in the queue or on its way shows on what was tapped (the lane, the city,
  // the form's button) until its answer is in, so that on a slow connection nobody taps again
  // to be sure. Answers swap in new lanes and forms: the mark is put back on those.
  function markPending() {
    document.querySelectorAll(".tap-pending").forEach(function (el) {
      el.classList.remove("tap-pending");
    });
    (sending ? [sending.tap] : []).concat(taps).forEach(function (tap) {
      var el = document.querySelector(tap.key);
      if (el) el.classList.add("tap-pending");
    });
  }
  document.addEventListener("htmx:afterSwap", markPending);
  document.addEventListener("htmx:oobAfterSwap", markPending);

  // The version the page shows goes with every change asked for: the answer then carries
  // only what changed since (the whole board when the server does not know every version
  // between): whichever version a poll has put the page at meanwhile, it applies as is.
  document.addEventListener("htmx:configRequest", function (e) {
    var status = document.querySelector("#status[data-version]");
    if (status && e.detail.verb === "post") {
      e.detail.parameters.v = status.getAttribute("data-version");
    }
  });

  // An answer can be older than the page: a poll read before a tap was recorded and answered
  // after it. Its board, counters and tickets would show the tap undone until the next poll,
  // so they are left out; its message (a poll has none) still comes. So is an answer that
  // carries only the changes from a version (data-base) other than the page's: the next poll
  // brings them from the page's own. Its parts are swapped one by one, the status (which
  // holds the version) first after the message, all in one go.
  var staleAnswer = false;
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var target = e.detail.target;
    if (target.id === "status") {
      var incoming = e.detail.fragment.querySelector("[data-version]");
      var version = incoming && incoming.getAttribute("data-version");
      var base = incoming && incoming.getAttribute("data-base");
      var shown = target.getAttribute("data-version");
      staleAnswer = version !== null && (+version < +shown || (base !== null && base !== shown));
      if (staleAnswer) setTimeout(function () { staleAnswer = false; }, 0);
    }
    if (staleAnswer && target.id !== "message") e.detail.shouldSwap = false;
  });

  // A refusal (or a lost connection) stays in view a few seconds whatever answers come
  // meanwhile: the answer to a tap made right after it must not wipe out, before anyone could
  // read it, the news that this tap changed nothing.
  var KEEP_REFUSAL_MS = 4000;
  var KEEP_LATE_REFUSAL_MS = 20000;
  var refusals = [];  // { text, until, late }
  function keepRefusals(bar) {
    var now = Date.now();
    var shown = Array.prototype.map.call(bar.querySelectorAll("[data-error]"),
      function (p) { return p.getAttribute("data-refusal") || p.textContent; });
    refusals = refusals.filter(function (r) { return r.until > now; });
    shown.forEach(function (text) {
      if (!refusals.some(function (r) { return r.text === text; })) {
        refusals.push({ text: text, until: now + KEEP_REFUSAL_MS });
      }
    });
    // Under the newer answer, not on top of it: the last tap's answer comes first, and the
    // older refusal is told as older, so the tap just made does not look refused too.
    refusals.forEach(function (r) {
      if (shown.indexOf(r.text) < 0) bar.append(earlierLine(r.text, r.late));
    });
  }
  document.addEventListener("htmx:oobAfterSwap", function (e) {
    if (e.target.id === "message") keepRefusals(e.target);
  });
  // (The swapped bar is in the page only once the swap has settled.)
  document.addEventListener("htmx:afterSettle", function () {
    requestAnimationFrame(placeMessage);
  });

  // On the game page the answer to a tap shows where the eye is, over the hint above the map
  // or, the map scrolled up, just under the strip, and only as wide as the map: never over
  // the page's links, Undo, the mode switch or the zoom buttons beside the map.
  function placeMessage() {
    var bar = document.getElementById("message");
    var strip = bar && bar.closest("[data-strip]");
    var view = document.getElementById("viewport");
    var hint = document.querySelector("#controls .hint");
    // (only a bar that shows something: a fixed empty one stops the browser from keeping
    // the map still when the page above it grows, the final round's banner)
    if (!strip || !view || !hint || !bar.children.length) return;
    var players = strip.querySelector(".strip-players").getBoundingClientRect();
    var map = view.getBoundingClientRect();
    var top = Math.max(players.bottom, hint.getBoundingClientRect().top, 0);
    var left = Math.max(map.left, 0), right = Math.min(map.right, window.innerWidth);
    bar.style.position = "fixed";
    bar.style.right = "auto";
    bar.style.left = left + "px";
    bar.style.width = right - left + "px";
    top = Math.min(top, window.innerHeight - bar.offsetHeight - 8);
    // the zoom buttons in a row above the map (the whole board shown): beside them if the
    // answer has room there, else under them
    var zoom = view.closest(".map").querySelector(".zoom").getBoundingClientRect();
    if (zoom.height && zoom.top < top + bar.offsetHeight && zoom.bottom > top
        && zoom.left < right && zoom.right > left) {
      if (zoom.left - left >= 0.6 * (right - left)) bar.style.width = zoom.left - 4 - left + "px";
      else top = zoom.bottom + 4;
    }
    bar.style.top = top + "px";
  }
  var placing = false;
  window.addEventListener("scroll", function () {
    if (placing) return;
    placing = true;
    requestAnimationFrame(function () { placing = false; placeMessage(); });
  }, { passive: true });
  // The photo review's answers leave its message bar alone: a new answer clears it the same.
  function reviewAnswered(e) {
    var bar = document.getElementById("message");
    if (e.target.id !== "scan-review" || !bar) return;
    bar.replaceChildren();
    keepRefusals(bar);
  }
  document.addEventListener("htmx:afterSwap", reviewAnswered);
  document.addEventListener("htmx:oobAfterSwap", reviewAnswered);

  function errorLine(text) {
    var p = document.createElement("p");
    p.className = "msg error";
    p.setAttribute("data-error", "");
    p.textContent = text;
    return p;
  }

  function earlierLine(text, late) {
    var p = errorLine(text);
    p.classList.add("earlier");
    if (late) p.classList.add("late");
    p.setAttribute("data-refusal", text);
    var before = document.body.getAttribute("data-msg-earlier");
    if (before) p.prepend(Object.assign(document.createElement("b"), { textContent: before + " " }));
    return p;
  }

  // A tap that failed on the server must not look recorded.
  function showProblem(kind) {
    var bar = document.getElementById("message");
    var text = document.body.getAttribute("data-msg-" + kind);
    if (!bar || !text) return;
    bar.replaceChildren(errorLine(text));
    keepRefusals(bar);
    placeMessage();
  }

  // A form that must go once (a photo's Apply): a second tap while the first one's page loads
  // would post again, and its answer ("applied already") would replace the first one's.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.hasAttribute || !form.hasAttribute("data-submit-once")) return;
    if (form.hasAttribute("data-sent")) { e.preventDefault(); return; }
    form.setAttribute("data-sent", "");
  });

  // Dates are stored in UTC: show them in the phone's own time.
  function localTimes(root) {
    root.querySelectorAll("time[datetime][data-local]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) {
        t.textContent = d.toLocaleString(document.documentElement.lang, {
          year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
      }
    });
  }

  // Copy buttons (the results' summary): shown only where a script can copy.
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-copy]");
    var source = button && document.querySelector(button.getAttribute("data-copy"));
    if (!source) return;
    source.select();
    var done = function () { button.textContent = button.getAttribute("data-copied"); };
    if (navigator.clipboard) navigator.clipboard.writeText(source.value).then(done, function () {});
    else if (document.execCommand("copy")) done();
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-copy][hidden]").forEach(function (b) { b.hidden = false; });
    var seated = document.querySelector("input[data-max-players]:checked");
    if (seated) seatPlayers(seated);
    measureStrip();
    watchPlayerBar();
    // A phone on its side has room for the strip and the map only: open there.
    var strip = document.querySelector("[data-strip]");
    var view = document.getElementById("viewport");
    if (strip && view && window.innerHeight < 500 && window.innerWidth > window.innerHeight
        && !location.hash && window.scrollY === 0) {
      view.scrollIntoView({ block: "start" });
    }
    document.querySelectorAll(".map").forEach(setupMap);
    localTimes(document);
    restoreTaps();
  });
  // A map that arrives in an htmx swap (the results' longest-path view) gets its zoom too.
  document.addEventListener("htmx:load", function (e) {
    var root = e.detail.elt;
    if (!root.querySelectorAll) return;
    if (root.matches(".map")) setupMap(root);
    root.querySelectorAll(".map").forEach(setupMap);
  });
})();
