// live.js follows a live page's server: the "view" events of its event
// stream (which resumes after a drop from the last event it sent), or,
// when no stream gets through, its view polled every 5 s. One home for
// the game's page and the tournament's.
"use strict";

window.iceageLive = {
  // mark shows in el whether the page is live, in the page's words.
  mark: function (el, texts, ok) {
    el.className = "live " + (ok ? "on" : "off");
    el.textContent = ok ? texts["web.live"] : texts["web.reconnecting"];
  },

  // follow hands each view to update, from the stream at events or by
  // polling view, and tells live whether it gets through. It returns a
  // function that stops following.
  follow: function (events, view, update, live) {
    var polling = null, es = null;
    function poll() {
      if (polling) return;
      polling = setInterval(function () {
        fetch(view, { credentials: "same-origin", cache: "no-store" })
          .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
          .then(function (v) { live(true); update(v); })
          .catch(function () { live(false); });
      }, 5000);
    }
    function stop() {
      if (polling) clearInterval(polling);
      if (es) es.close();
    }
    if (!window.EventSource) { poll(); return stop; }
    es = new EventSource(events);
    var failures = 0;
    es.addEventListener("open", function () { failures = 0; live(true); });
    es.addEventListener("view", function (e) { update(JSON.parse(e.data)); });
    es.addEventListener("error", function () {
      live(false);
      failures++;
      // The browser reconnects by itself, with Last-Event-ID; when it
      // gives up, or keeps failing (a proxy that buffers), poll.
      if (es.readyState === EventSource.CLOSED || failures >= 5) {
        es.close();
        poll();
      }
    });
    return stop;
  }
};
