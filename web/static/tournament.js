// tournament.js keeps a tournament's page up to date without a reload:
// each state its server's event stream sends as a commit changes it (a
// result, a round's pairings, a withdrawal, the end), or, when no stream
// gets through, polled (live.js). The server writes the standings and
// rounds as the page's template does; the script only puts them in.
"use strict";

(function () {
  var root = document.getElementById("tournament");
  if (!root) return;
  var texts = JSON.parse(root.dataset.texts);
  var version = root.dataset.version;
  var base = location.pathname.replace(/\/$/, "");
  var stop = null;

  function live(ok) {
    var el = document.getElementById("live");
    if (el) window.iceageLive.mark(el, texts, ok);
  }

  function update(v) {
    if (v.v === version) return;
    version = v.v;
    root.dataset.version = version;
    // Parsed as an inert document: nothing of it runs.
    var doc = new DOMParser().parseFromString(v.html, "text/html");
    document.getElementById("standings").replaceChildren.apply(document.getElementById("standings"), Array.from(doc.body.childNodes));
    document.getElementById("title").textContent = v.title;
    document.title = v.title;
    if (v.over) {
      root.dataset.over = "true";
      if (stop) stop();
      var el = document.getElementById("live");
      if (el) el.remove();
    }
  }

  if (root.dataset.over === "true") return;
  stop = window.iceageLive.follow(base + "/events?after=" + version, base + "/view", update, live);
})();
