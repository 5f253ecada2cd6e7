// Corners by hand: each tap on the photo places the next corner (TL, TR, BR, BL).
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
    function draw() {
      var k = img.clientWidth / img.naturalWidth / scale;
      var html = "";
      if (points.length > 1) {
        html += '<polygon points="' + points.map(function (p) {
          return p[0] * k + "," + p[1] * k;
        }).join(" ") + '"/>';
      }
      points.forEach(function (p, i) {
        html += '<circle cx="' + p[0] * k + '" cy="' + p[1] * k + '" r="13"/>' +
          '<text x="' + p[0] * k + '" y="' + p[1] * k + '">' + (i + 1) + "</text>";
      });
      marks.innerHTML = html;
    }
    function ready() {
      scale = parseFloat(box.getAttribute("data-factor")) || 1;
      read();
      draw();
      box.setAttribute("data-ready", ""); // taps count from now on (the photo has its size)
    }
    img.addEventListener("click", function (e) {
      if (!box.hasAttribute("data-ready")) return;
      if (points.length >= 4) points = [];
      var rect = img.getBoundingClientRect();
      var k = img.naturalWidth / rect.width * scale;
      points.push([(e.clientX - rect.left) * k, (e.clientY - rect.top) * k]);
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
