/* Client-side search over names and reference numbers. Optional: every
   page works without it, and the people page lists everyone. */
(function () {
  "use strict";
  var form = document.querySelector("form.search");
  if (!form || !window.fetch) { return; }
  var input = form.querySelector("input");
  var list = document.getElementById("results");
  var root = form.getAttribute("data-root") || "";
  var entries = [];
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function show() {
    var q = fold(input.value.trim());
    while (list.firstChild) { list.removeChild(list.firstChild); }
    if (!q) { return; }
    var shown = 0;
    for (var i = 0; i < entries.length && shown < 50; i++) {
      var e = entries[i];
      var hay = fold(e.n + " " + e.r.join(" "));
      if (hay.indexOf(q) === -1) { continue; }
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + e.u;
      a.textContent = e.n;
      li.appendChild(a);
      if (e.r.length) { li.appendChild(document.createTextNode(" " + e.r.join(" "))); }
      if (e.y) { li.appendChild(document.createTextNode(" (" + e.y + ")")); }
      list.appendChild(li);
      shown++;
    }
  }
  fetch(form.getAttribute("data-index"))
    .then(function (r) { return r.ok ? r.json() : []; })
    .then(function (data) { entries = data; form.hidden = false; input.addEventListener("input", show); })
    .catch(function () { /* no index (e.g. file://): the people page remains */ });
})();
