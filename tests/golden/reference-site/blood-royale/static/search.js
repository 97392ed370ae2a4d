/* Search over people, houses, provinces, battles and turns. Optional: every
   page works without it, and the people page lists everyone.

   The index is a script (search-index.js), not a file to fetch, so that the
   search works from a site opened from the disk. Names, places and titles
   go through MiniSearch (prefix and typo-tolerant matching, ranked); the
   reference numbers are matched here, case-sensitively (E1a00 is not
   E1A00), and a number that matches comes first. */
(function () {
  "use strict";
  var form = document.querySelector("form.search");
  var rows = window.chronicleSearchIndex;
  if (!form || !rows || !window.MiniSearch) { return; }
  var input = form.querySelector("input");
  var list = document.getElementById("results");
  var root = form.getAttribute("data-root") || "";
  var kinds = (form.getAttribute("data-kinds") || "").split("|");
  var LIMIT = 50;

  function fold(term) {
    return term.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function url(row) {
    return root + (row[0] === 0 ? "people/" + row[4] + "/index.html" : row[4]);
  }

  var search = new window.MiniSearch({
    fields: ["name", "extra"],
    storeFields: [],
    processTerm: function (term) { return fold(term); },
    searchOptions: {
      boost: { name: 3 }, prefix: true, fuzzy: 0.2, combineWith: "AND",
      processTerm: function (term) { return fold(term); }
    }
  });
  var refs = [];  // [number, row index], sorted by number
  search.addAll(rows.map(function (row, i) {
    row[2].split(" ").forEach(function (ref) { if (ref) { refs.push([ref, i]); } });
    return { id: i, name: row[1], extra: row[3] };
  }));
  refs.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]; });

  function byReference(q) {
    // Exact numbers first, then the numbers that start with the query.
    var exact = [], starting = [];
    var lo = 0, hi = refs.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (refs[mid][0] < q) { lo = mid + 1; } else { hi = mid; } }
    for (var i = lo; i < refs.length && refs[i][0].lastIndexOf(q, 0) === 0; i++) {
      (refs[i][0] === q ? exact : starting).push(refs[i][1]);
    }
    return exact.concat(starting);
  }

  function show() {
    var q = input.value.trim();
    while (list.firstChild) { list.removeChild(list.firstChild); }
    if (!q) { return; }
    var seen = {}, order = [];
    function add(i) { if (!seen[i]) { seen[i] = true; order.push(i); } }
    if (q.indexOf(" ") === -1) { byReference(q).forEach(add); }
    search.search(q).forEach(function (hit) { add(hit.id); });
    order.slice(0, LIMIT).forEach(function (i) {
      var row = rows[i];
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = url(row);
      a.textContent = row[1];
      li.appendChild(a);
      var more = [kinds[row[0]] || "", row[2], row[3]].filter(Boolean).join(" · ");
      if (more) { li.appendChild(document.createTextNode(" — " + more)); }
      list.appendChild(li);
    });
  }

  form.hidden = false;
  input.addEventListener("input", show);
  form.addEventListener("submit", function (e) { e.preventDefault(); show(); });
  var asked = new URLSearchParams(window.location.search).get("q");
  if (asked) { input.value = asked; show(); }
})();
