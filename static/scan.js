// Corners by hand: each tap on the photo places the next corner (TL, TR, BR, BL); once the
// four are placed (by the taps, or found by the detector) a corner is dragged, or a tap moves
// the nearest one there. The box may show a band beyond the photo's edges, where corners of a
// board the photo cuts are placed.
// The form's inputs hold photo pixels, so the page also works by typing them in.
(function () {
  "use strict";
  function init() {
    var box = document.querySelector("[data-corner-photo]");
    if (!box) return;
    document.documentElement.classList.add("js");
    var img = box.querySelector("[data-corner-img]");
    var marks = box.querySelector("[data-corner-marks]");
    var form = document.querySelector("[data-corner-form]");
    var inputs = form.querySelectorAll("[data-corner-inputs] input");
    var points = [];
    var scale = 1; // photo pixels per pixel of the shown (reduced) photo
    var dragging = -1, moved = false;
    var band = [0, 0, 0, 0]; // top, right, bottom, left beyond the photo

    function read() {
      points = [];
      for (var i = 0; i < 4; i++) {
        var x = parseFloat(inputs[2 * i].value), y = parseFloat(inputs[2 * i + 1].value);
        if (isFinite(x) && isFinite(y)) points.push([x, y]);
      }
    }
    function write() {
      for (var i = 0; i < 8; i++) {
        var p = points[i >> 1];
        inputs[i].value = p ? Math.round(p[i & 1] * 10) / 10 : "";
      }
    }
    // box px per photo px, and where the photo's top left lies in the box
    function frame() {
      return {k: img.clientWidth / img.naturalWidth / scale, x: img.offsetLeft, y: img.offsetTop};
    }
    function onScreen(p, f) { return [f.x + p[0] * f.k, f.y + p[1] * f.k]; }
    function inPhoto(p) {
      var w = img.naturalWidth * scale, h = img.naturalHeight * scale;
      return p[0] >= 0 && p[1] >= 0 && p[0] <= w && p[1] <= h;
    }
    function draw() {
      var f = frame();
      marks.innerHTML = points.length > 1 ? '<polygon points="' + points.map(function (p) {
        return onScreen(p, f).join(",");
      }).join(" ") + '"/>' : "";
      box.querySelectorAll("[data-corner]").forEach(function (h) { h.remove(); });
      points.forEach(function (p, i) {
        var s = onScreen(p, f), handle = document.createElement("span");
        handle.className = "corner-handle" + (inPhoto(p) ? "" : " outside");
        handle.setAttribute("data-corner", i);
        handle.style.left = s[0] + "px";
        handle.style.top = s[1] + "px";
        handle.textContent = i + 1;
        box.appendChild(handle);
      });
    }
    function ready() {
      scale = parseFloat(box.getAttribute("data-factor")) || 1;
      // the band the page came with, as shares of the photo's width or height
      var w = img.naturalWidth, h = img.naturalHeight, inner = img.clientWidth;
      var pad = getComputedStyle(box);
      band = [parseFloat(pad.paddingTop) / (inner * h / w), parseFloat(pad.paddingRight) / inner,
        parseFloat(pad.paddingBottom) / (inner * h / w), parseFloat(pad.paddingLeft) / inner];
      read();
      draw();
      box.setAttribute("data-ready", ""); // taps count from now on (the photo has its size)
    }
    function at(e) { // photo px under the pointer
      var rect = box.getBoundingClientRect(), f = frame();
      return [(e.clientX - rect.left - box.clientLeft - f.x) / f.k,
        (e.clientY - rect.top - box.clientTop - f.y) / f.k];
    }
    function nearest(p) {
      var best = 0, bestD = Infinity;
      points.forEach(function (q, i) {
        var d = Math.hypot(q[0] - p[0], q[1] - p[1]);
        if (d < bestD) { best = i; bestD = d; }
      });
      return best;
    }
    // a finger on a corner's mark drags it (the marks take no scrolling); elsewhere it
    // scrolls the page, and a tap places the next corner or moves the nearest one there
    box.addEventListener("pointerdown", function (e) {
      var handle = e.target.closest("[data-corner]");
      if (!handle || !box.hasAttribute("data-ready")) return;
      dragging = parseInt(handle.getAttribute("data-corner"), 10);
      moved = false;
      box.setPointerCapture(e.pointerId);
      e.preventDefault();
    });
    box.addEventListener("pointermove", function (e) {
      if (dragging < 0) return;
      points[dragging] = at(e);
      moved = true;
      draw();
    });
    // the band beyond the photo grows to hold a corner dropped past it (with room round its
    // mark), as the server sizes it round the corners found (scan.corner_margins)
    function fitBand() {
      var w = img.naturalWidth * scale, h = img.naturalHeight * scale;
      var xs = points.map(function (p) { return p[0] / w; });
      var ys = points.map(function (p) { return p[1] / h; });
      var need = [-Math.min.apply(null, ys), Math.max.apply(null, xs) - 1,
        Math.max.apply(null, ys) - 1, -Math.min.apply(null, xs)];
      var grow = false;
      band = band.map(function (b, i) {
        var want = need[i] > 0 ? Math.min(need[i] + 0.06, 0.8) : 0;
        if (want > b) { grow = true; return want; }
        return b;
      });
      if (!grow) return;
      var across = 1 + band[1] + band[3], tall = h / w;
      box.style.padding = [band[0] * tall, band[1], band[2] * tall, band[3]].map(function (b) {
        return (100 * b / across).toFixed(2) + "%";
      }).join(" ");
      box.classList.add("beyond");
    }
    function drop() {
      if (dragging >= 0 && moved) {
        write();
        fitBand();
        draw();
      }
      dragging = -1;
    }
    box.addEventListener("pointerup", drop);
    box.addEventListener("pointercancel", drop);
    box.addEventListener("click", function (e) {
      if (!box.hasAttribute("data-ready")) return;
      if (moved) { moved = false; return; } // the end of a drag, not a tap
      var p = at(e);
      if (points.length < 4) points.push(p);
      else points[nearest(p)] = p;
      write();
      draw();
    });
    form.querySelector("[data-corner-reset]").addEventListener("click", function () {
      points = [];
      write();
      draw();
    });
    window.addEventListener("resize", draw);
    if (img.complete && img.naturalWidth) ready(); else img.addEventListener("load", ready);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
