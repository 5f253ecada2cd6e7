// Terminus: the little JavaScript the pages need on top of htmx. Everything here is an
// enhancement: without it the board is a set of links and the forms still post.
(function () {
  "use strict";

  // The selected player: set at once on tap, so a lane tapped right after a player button
  // is already claimed for that player (the server is told too, through the form's hx-post).
  function selectPlayer(name) {
    document.querySelectorAll("[data-active-player]").forEach(function (input) { input.value = name; });
    document.querySelectorAll("[data-active-name]").forEach(function (el) { el.textContent = name; });
    document.querySelectorAll("#players button[data-player]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.getAttribute("data-player") === name ? "true" : "false");
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("#players button[data-player]");
    if (button) {
      var name = button.getAttribute("data-player");
      selectPlayer(name);
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

  // Keep the selection after a swap of the player bar answered by the server.
  document.addEventListener("htmx:afterSettle", function () {
    var input = document.querySelector("#controls [data-active-player]");
    if (input && input.value) selectPlayer(input.value);
  });

  // Pinch, drag and zoom buttons on the board. The transform lives on #pan, outside the
  // swapped #board, so it survives every htmx swap.
  function setupMap(map) {
    var viewport = map.querySelector(".viewport");
    var pan = map.querySelector(".pan");
    if (!viewport || !pan) return;
    var s = 1, tx = 0, ty = 0, MAX = 6;
    var pointers = new Map();
    var gesture = null, moved = false;

    function apply() {
      viewport.classList.toggle("zoomed", s > 1.01);
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
    map.querySelectorAll("[data-zoom]").forEach(function (b) {
      b.addEventListener("click", function () {
        var kind = b.getAttribute("data-zoom");
        var cx = viewport.clientWidth / 2, cy = viewport.clientHeight / 2;
        if (kind === "fit") { s = 1; tx = 0; ty = 0; apply(); }
        else zoomAt(kind === "in" ? 1.6 : 1 / 1.6, cx, cy);
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
    // A drag or a pinch is not a tap: swallow the click it ends with.
    viewport.addEventListener("click", function (e) {
      if (moved) { e.preventDefault(); e.stopPropagation(); moved = false; }
    }, true);
    window.addEventListener("resize", apply);
  }

  // A tap that never reached the server (bad Wi-Fi) or failed there must not look recorded.
  function showProblem(kind) {
    var bar = document.getElementById("message");
    var text = document.body.getAttribute("data-msg-" + kind);
    if (!bar || !text) return;
    var p = document.createElement("p");
    p.className = "msg error";
    p.setAttribute("data-error", "");
    p.textContent = text;
    bar.replaceChildren(p);
  }
  document.addEventListener("htmx:sendError", function () { showProblem("network"); });
  document.addEventListener("htmx:responseError", function (e) {
    if (!e.detail.xhr || e.detail.xhr.status >= 500) showProblem("server");
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

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".map").forEach(setupMap);
    localTimes(document);
  });
})();
