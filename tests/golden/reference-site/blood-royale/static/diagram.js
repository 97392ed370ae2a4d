/* Zoom buttons for the drawings' frames. Optional: without this script a
   drawing is shown at 100 % and its frame scrolls. */
(function () {
  "use strict";
  var STEPS = [0.25, 0.35, 0.5, 0.7, 1, 1.4, 2];
  function natural(drawing) {
    if (!drawing.dataset.width) {
      var box = drawing.getBoundingClientRect();
      drawing.dataset.width = box.width;
      drawing.dataset.height = box.height;
    }
    return [Number(drawing.dataset.width), Number(drawing.dataset.height)];
  }
  function setUp(figure) {
    if (figure.dataset.zoomReady) { return; }
    figure.dataset.zoomReady = "1";
    var tools = figure.querySelector(".diagram-tools");
    var drawing = figure.querySelector(".diagram-frame > svg, .diagram-frame > object");
    if (!tools || !drawing) { return; }
    var step = STEPS.indexOf(1);
    function apply() {
      var size = natural(drawing);
      var zoom = STEPS[step];
      drawing.style.width = (size[0] * zoom) + "px";
      drawing.style.height = (size[1] * zoom) + "px";
      figure.dataset.zoom = String(zoom);
    }
    tools.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) { return; }
      var what = button.getAttribute("data-zoom");
      if (what === "in") { step = Math.min(STEPS.length - 1, step + 1); }
      else if (what === "out") { step = Math.max(0, step - 1); }
      else { step = STEPS.indexOf(1); }
      apply();
    });
    tools.hidden = false;
  }
  function all() {
    var figures = document.querySelectorAll("figure.diagram");
    for (var i = 0; i < figures.length; i++) { setUp(figures[i]); }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", all);
  } else { all(); }
}());
