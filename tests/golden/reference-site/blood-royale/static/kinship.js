// The relationship finder: progressive enhancement of relationship/index.html.
// The people come from kin.js (a script, not fetched, so that the page works
// from file://): window.chronicleKin.p is a list of
// [name, reference, page slug, sex, father index or -1, mother index or -1].
// Its words, the page's language's, are JSON in the page (#kin-words).
(function () {
  "use strict";
  var data = window.chronicleKin;
  var form = document.getElementById("kinship");
  var answer = document.getElementById("kin-answer");
  // The words of the page's language, from the page itself (chronicle/publish/
  // kin.py kinship_table): the same names as the house pages' succession tables.
  var table = document.getElementById("kin-words");
  if (!data || !form || !answer || !table) { return; }
  var W = JSON.parse(table.textContent);
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

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
    });
  }
  function ordinal(n) { return W.ordinals[n - 1] || fill(W.nth, { n: n }); }
  function words(upA, upB, male, half) {
    var sex = male ? "M" : "F", n, names;
    if (upA === 0 || upB === 0) {
      n = upB || upA;
      names = (upA === 0 ? W.up : W.down)[sex];
      return n <= 3 ? names[n - 1] : fill(names[3], { nth: W.short[n - 3] });
    }
    if (upA === 1 && upB === 1) { return W.sibling[sex][half ? 1 : 0]; }
    if (upA === 1 || upB === 1) {
      n = Math.max(upA, upB) - 1;
      names = (upA === 1 ? W.uncle : W.nephew)[sex];
      return n <= 2 ? names[n - 1] : fill(names[2], { nth: W.short[n - 2] });
    }
    var degree = Math.min(upA, upB) - 1, removed = Math.abs(upA - upB);
    var cousin = fill(W.cousin[sex], { nth: ordinal(degree) });
    if (removed === 0) { return cousin; }
    if (removed <= 2) { return fill(W.removed[removed - 1], { cousin: cousin }); }
    return fill(W.removed[2], { cousin: cousin, n: removed });
  }

  // "de", "le", "la", "que" before a vowel, where the language elides them ("l’oncle
  // d’Edward"), as chronicle/narration/grammar.py does for the site's sentences.
  var VOWELS = "AEIOUYÀÂÉÈÊËÎÏÔÛaeiouyàâéèêëîïôû";
  var INSIDE = new RegExp("(^|[^\\wÀ-ÿ’-])(de|De|le|Le|la|La|que|Que) (?=[" + VOWELS + "])", "g");
  var LAST = /(^|[^\wÀ-ÿ’-])(de|De|le|Le|la|La|que|Que) $/;
  function elided(word) { return /^[Qq]ue$/.test(word) ? word.slice(0, 2) + "’" : word.charAt(0) + "’"; }
  function elide(text, next) {
    if (!W.elide) { return text; }
    text = text.replace(INSIDE, function (whole, before, word) { return before + elided(word); });
    if (next && VOWELS.indexOf(next.charAt(0)) >= 0) {
      text = text.replace(LAST, function (whole, before, word) { return before + elided(word); });
    }
    return text;
  }

  function link(i) {
    var p = people[i];
    var a = document.createElement("a");
    a.href = root + "people/" + p[2] + "/index.html";
    a.textContent = name(i);
    return a;
  }

  function name(i) { var p = people[i]; return p[1] ? p[0] + " (" + p[1] + ")" : p[0]; }

  // A sentence of the table, its blanks filled: a person (an index) is a link,
  // a list of them is joined by the language's "and".
  function say(template, values) {
    var para = document.createElement("p");
    var pieces = template.split(/(%\(\w+\)s)/);
    var parts = [];
    pieces.forEach(function (piece) {
      var key = /^%\((\w+)\)s$/.exec(piece);
      var value = key ? values[key[1]] : piece;
      if (typeof value === "number") { parts.push(value); }
      else if (Array.isArray(value)) {
        value.forEach(function (q, k) { if (k) { parts.push(W.and); } parts.push(q); });
      } else if (value !== undefined) { parts.push(String(value)); }
    });
    parts.forEach(function (part, k) {
      if (typeof part === "number") { para.appendChild(link(part)); return; }
      var next = parts[k + 1];
      para.appendChild(document.createTextNode(
        elide(part, typeof next === "number" ? name(next) : next)));
    });
    answer.appendChild(para);
  }

  function relate(a, b) {
    answer.textContent = "";
    if (a === b) { say(W.same, { who: a }); return; }
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
      say(W.none, { who: a, whom: b });
      return;
    }
    nearest.sort(function (x, y) { return x - y; });
    var c = nearest[0], upA = A.depth[c], upB = B.depth[c];
    var half = upA === 1 && upB === 1 && nearest.length === 1;
    var male = people[a][3] === "M";
    say(fill(W.is[male ? "M" : "F"], { kinship: words(upA, upB, male, half) }),
        { who: a, whom: b });
    say(W.common[nearest.length > 1 ? 1 : 0], { people: nearest });
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
      say(W.unknown, {});
      return;
    }
    relate(a, b);
  });
})();
