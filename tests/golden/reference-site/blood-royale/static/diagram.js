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
  // A wide tree opened at its top left corner shows a phone nothing but
  // blank paper: the frame is scrolled sideways to its first generation
  // instead, unless the address names a box in it (the browser shows that
  // one). An embedded drawing is reached only where the browser allows it
  // (not from file://); the frame then stays as it is.
  function topSpan(root) {
    var nodes = root.querySelectorAll("g.node");
    var top = Infinity, left = Infinity, right = -Infinity, i, box;
    for (i = 0; i < nodes.length; i++) {
      top = Math.min(top, nodes[i].getBoundingClientRect().top);
    }
    for (i = 0; i < nodes.length; i++) {
      box = nodes[i].getBoundingClientRect();
      if (box.top - top < 1) {
        left = Math.min(left, box.left);
        right = Math.max(right, box.right);
      }
    }
    return left <= right ? [left, right] : null;
  }
  function targetIn(frame) {
    if (!window.location.hash) { return false; }
    var target;
    try { target = document.getElementById(decodeURIComponent(window.location.hash.slice(1))); }
    catch (e) { return false; }
    return !!target && frame.contains(target);
  }
  function showTop(frame, drawing, embedded) {
    if (frame.scrollWidth <= frame.clientWidth || targetIn(frame)) { return; }
    var inside = drawing, shift = 0;
    if (embedded) {
      try { inside = drawing.contentDocument; } catch (e) { inside = null; }
      if (!inside || !inside.documentElement) { return; }
      // Boxes inside an embedded document are measured from its own corner.
      shift = drawing.getBoundingClientRect().left;
    }
    var span = topSpan(inside);
    if (!span) { return; }
    var frameBox = frame.getBoundingClientRect();
    var left = span[0] + shift - frameBox.left + frame.scrollLeft;
    var right = span[1] + shift - frameBox.left + frame.scrollLeft;
    var wanted = (left + right) / 2 - frame.clientWidth / 2;
    // The first box of the row stays in sight when the row is wider than the frame.
    frame.scrollLeft = Math.max(0, Math.min(wanted, left - 8));
  }
  function placeOnce(figure) {
    var frame = figure.querySelector(".diagram-frame");
    var drawing = figure.querySelector(".diagram-frame > svg, .diagram-frame > object");
    if (!frame || !drawing) { return; }
    var embedded = drawing.tagName.toLowerCase() === "object";
    if (embedded) {
      drawing.addEventListener("load", function () { showTop(frame, drawing, true); });
    }
    showTop(frame, drawing, embedded);
  }
  // A person page's charts are opened on the person (drawn with class
  // "self"), who may stand far to the right of a wide row of children.
  function showSelf(frame) {
    if (frame.scrollWidth <= frame.clientWidth) { return; }
    var self = frame.querySelector("g.self");
    if (!self) { return; }
    var box = self.getBoundingClientRect(), frameBox = frame.getBoundingClientRect();
    var middle = (box.left + box.right) / 2 - frameBox.left + frame.scrollLeft;
    frame.scrollLeft = Math.max(0, middle - frame.clientWidth / 2);
  }
  function all() {
    var figures = document.querySelectorAll("figure.diagram");
    for (var i = 0; i < figures.length; i++) { setUp(figures[i]); placeOnce(figures[i]); }
    var charts = document.querySelectorAll("figure.person-chart .chart-frame");
    for (var j = 0; j < charts.length; j++) { showSelf(charts[j]); }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", all);
  } else { all(); }
}());
