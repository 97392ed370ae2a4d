// The relationship finder: progressive enhancement of relationship/index.html.
// The people come from kin.js (a script, not fetched, so that the page works
// from file://): window.chronicleKin.p is a list of
// [name, reference, page slug, sex, father index or -1, mother index or -1].
(function () {
  "use strict";
  var data = window.chronicleKin;
  var form = document.getElementById("kinship");
  var answer = document.getElementById("kin-answer");
  if (!data || !form || !answer) { return; }
  var people = data.p;
  var root = form.getAttribute("data-root") || "";
  var byKey = {};
  var list = document.getElementById("kin-people");
  var options = document.createDocumentFragment();
  people.forEach(function (p, i) {
    var label = p[1] ? p[0] + " (" + p[1] + ")" : p[0];
    byKey[label.toLowerCase()] = i;
    byKey[p[0].toLowerCase()] = i;
    if (p[1]) { byKey[p[1].toLowerCase()] = i; }
    var option = document.createElement("option");
    option.value = label;
    options.appendChild(option);
  });
  list.appendChild(options);
  form.hidden = false;
  var note = document.querySelector(".no-script");
  if (note) { note.hidden = true; }

  function find(text) {
    var key = text.trim().toLowerCase();
    return Object.prototype.hasOwnProperty.call(byKey, key) ? byKey[key] : -1;
  }

  // Every ancestor of i (i included) with the fewest generations up to them
  // and the child through whom they are reached.
  function ancestry(i) {
    var depth = {}, via = {}, level = [i];
    depth[i] = 0;
    for (var up = 1; level.length && up <= 40; up++) {
      var next = [];
      level.forEach(function (q) {
        [people[q][4], people[q][5]].forEach(function (parent) {
          if (parent >= 0 && !(parent in depth)) {
            depth[parent] = up; via[parent] = q; next.push(parent);
          }
        });
      });
      level = next;
    }
    return { depth: depth, via: via };
  }

  var ORD = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh",
             "eighth", "ninth", "tenth"];
  function nth(n) { return ORD[n - 1] || n + "th"; }
  function greats(n, word) {
    if (n === 1) { return word; }
    if (n === 2) { return "grand" + word; }
    if (n === 3) { return "great-grand" + word; }
    return (n - 2) + "× great-grand" + word;
  }
  function words(upA, upB, male, half) {
    if (upA === 0) { return greats(upB, male ? "father" : "mother"); }
    if (upB === 0) { return greats(upA, male ? "son" : "daughter"); }
    if (upA === 1 && upB === 1) { return (half ? "half-" : "") + (male ? "brother" : "sister"); }
    if (upA === 1) { return (upB > 2 ? greats(upB - 1, "").replace(/grand$/, "") : "") + (male ? "uncle" : "aunt"); }
    if (upB === 1) { return (upA > 2 ? greats(upA - 1, "").replace(/grand$/, "") : "") + (male ? "nephew" : "niece"); }
    var degree = Math.min(upA, upB) - 1, removed = Math.abs(upA - upB);
    var text = nth(degree) + " cousin";
    if (removed === 1) { text += " once removed"; }
    else if (removed === 2) { text += " twice removed"; }
    else if (removed > 2) { text += " " + removed + " times removed"; }
    return text;
  }

  function link(i) {
    var p = people[i];
    var a = document.createElement("a");
    a.href = root + "people/" + p[2] + "/index.html";
    a.textContent = p[1] ? p[0] + " (" + p[1] + ")" : p[0];
    return a;
  }

  function say(parts) {
    var para = document.createElement("p");
    parts.forEach(function (part) {
      para.appendChild(typeof part === "number" ? link(part) : document.createTextNode(part));
    });
    answer.appendChild(para);
  }

  function relate(a, b) {
    answer.textContent = "";
    if (a === b) { say([a, " is the same person."]); return; }
    var A = ancestry(a), B = ancestry(b);
    var best = Infinity, nearest = [];
    Object.keys(A.depth).forEach(function (key) {
      if (key in B.depth) {
        var total = A.depth[key] + B.depth[key];
        if (total < best) { best = total; nearest = [+key]; }
        else if (total === best) { nearest.push(+key); }
      }
    });
    if (!nearest.length) {
      say([a, " and ", b, " share no known ancestor."]);
      return;
    }
    nearest.sort(function (x, y) { return x - y; });
    var c = nearest[0], upA = A.depth[c], upB = B.depth[c];
    var half = upA === 1 && upB === 1 && nearest.length === 1;
    say([a, " is the " + words(upA, upB, people[a][3] === "M", half) + " of ", b, "."]);
    var common = [nearest.length > 1 ? "Nearest common ancestors: " : "Nearest common ancestor: "];
    nearest.forEach(function (q, k) { if (k) { common.push(" and "); } common.push(q); });
    common.push(".");
    say(common);
    // The path: up from a to the ancestor, then down to b.
    var path = chainDown(A, c, a).reverse().concat(chainDown(B, c, b).slice(1));
    var ol = document.createElement("ol");
    ol.className = "kin-path";
    path.forEach(function (i) {
      var li = document.createElement("li");
      li.appendChild(link(i));
      ol.appendChild(li);
    });
    answer.appendChild(ol);
  }

  // From the ancestor c down to its descendant origin, through the child
  // by whom each ancestor was reached.
  function chainDown(X, c, origin) {
    var chain = [c];
    while (chain[chain.length - 1] !== origin) { chain.push(X.via[chain[chain.length - 1]]); }
    return chain;
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var a = find(form.elements.a.value), b = find(form.elements.b.value);
    answer.textContent = "";
    if (a < 0 || b < 0) {
      say(["No one of that name or number: pick a name from the list."]);
      return;
    }
    relate(a, b);
  });
})();
