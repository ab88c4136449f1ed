// game.js keeps a game's live page up to date: the view the page came
// with, then each revision from the server's event stream (which resumes
// from the last revision it sent after a drop), or, when no stream gets
// through, from polling (live.js). The buttons and the arrow keys go back through
// the moves, each with its Ice Age.
"use strict";

(function () {
  var root = document.getElementById("game");
  if (!root) return;
  var view = JSON.parse(root.dataset.view);
  var texts = JSON.parse(root.dataset.texts);
  var flip = root.dataset.flip === "true";
  var shown = null; // the ply shown while replaying; null follows the game
  var base = location.pathname.replace(/\/$/, "");
  var lang = document.documentElement.lang || "en";

  function $(id) { return document.getElementById(id); }

  function text(el, s) { el.textContent = s; }

  function player(el, seat, white) {
    el.replaceChildren();
    var dot = document.createElement("span");
    dot.className = "dot " + (white ? "white" : "black");
    var name = document.createElement("span");
    name.className = "name";
    name.textContent = seat.name;
    el.append(dot, name);
    if (seat.rating) {
      var r = document.createElement("span");
      r.className = "rating";
      r.textContent = seat.rating;
      el.append(" ", r);
    }
    if (view.clocks && view.clocks.length === 2) {
      var c = document.createElement("span");
      c.className = "clock";
      c.dataset.side = white ? "w" : "b";
      el.append(" ", c);
    }
  }

  // arrived is when the view shown came, by the page's monotonic clock:
  // the running clock counts down from there and from its age then, as
  // the server measured it (clockAge), never by the viewer's wall clock,
  // which may be off.
  var arrived = performance.now();

  // clockText is a clock's time as m:ss (h:mm:ss from an hour), its
  // running side counted down.
  function clockText(side) {
    var secs = view.clocks[side === "w" ? 0 : 1];
    if (view.clockRuns === side) {
      secs -= ((view.clockAge || 0) + performance.now() - arrived) / 1000;
    }
    secs = Math.max(0, Math.ceil(secs));
    var h = Math.floor(secs / 3600), m = Math.floor(secs / 60) % 60, s = secs % 60;
    var mm = h > 0 ? h + ":" + String(m).padStart(2, "0") : String(m);
    return mm + ":" + String(s).padStart(2, "0");
  }

  function tick() {
    document.querySelectorAll(".clock").forEach(function (c) {
      c.textContent = clockText(c.dataset.side);
      c.classList.toggle("running", view.clockRuns === c.dataset.side);
    });
  }
  setInterval(function () { if (view.clockRuns) tick(); }, 250);

  function current() { return shown === null ? view.plies.length - 1 : shown; }

  function render() {
    var i = current();
    var ply = view.plies[i];
    IceBoard.draw($("board"), ply, flip, i === view.plies.length - 1 ? view.description : ply.label || "");
    player($("top"), flip ? view.white : view.black, flip);
    player($("bottom"), flip ? view.black : view.white, !flip);
    if (view.clocks) tick();
    var status = $("status");
    status.replaceChildren();
    var lines = [];
    if (shown !== null && shown !== view.plies.length - 1) {
      lines.push(texts["web.replaying"].replace("{ply}", i).replace("{plies}", view.plies.length - 1));
      lines.push(ply.countdown);
    } else {
      lines = view.status.slice();
      if (view.deadline) {
        var when = new Date(view.deadline);
        var fmt = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
        lines.push(texts["board.deadline"].replace("{when}", fmt.format(when)));
      }
    }
    lines.forEach(function (l) {
      var p = document.createElement("p");
      p.textContent = l;
      status.append(p);
    });
    var ice = $("iceage");
    ice.replaceChildren();
    if (ply.iceAge) {
      var title = document.createElement("strong");
      title.textContent = texts["iceage.title"];
      ice.append(title, " ", ply.iceAge);
    }
    moves(i);
    $("first").disabled = $("prev").disabled = i === 0;
    $("next").disabled = $("last").disabled = i === view.plies.length - 1;
  }

  function moves(at) {
    var list = $("moves");
    list.replaceChildren();
    var li = null;
    for (var i = 1; i < view.plies.length; i++) {
      var p = view.plies[i];
      if (!li || !p.black) {
        li = document.createElement("li");
        var n = document.createElement("span");
        n.className = "num";
        n.textContent = p.number + (p.black ? "…" : ".");
        li.append(n);
        list.append(li);
      }
      var b = document.createElement("button");
      b.type = "button";
      b.className = "move" + (i === at ? " at" : "") + (p.iceAge ? " iceage" : "");
      b.textContent = p.san;
      b.dataset.ply = i;
      li.append(" ", b);
    }
  }

  function go(i) {
    i = Math.max(0, Math.min(view.plies.length - 1, i));
    shown = i === view.plies.length - 1 ? null : i;
    render();
  }

  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(current() - 1); });
  $("next").addEventListener("click", function () { go(current() + 1); });
  $("last").addEventListener("click", function () { go(view.plies.length - 1); });
  $("flip").addEventListener("click", function () { flip = !flip; render(); });
  $("moves").addEventListener("click", function (e) {
    var b = e.target.closest("button.move");
    if (b) go(+b.dataset.ply);
  });
  document.addEventListener("keydown", function (e) {
    if (e.target.closest && e.target.closest("input, textarea")) return;
    switch (e.key) {
      case "ArrowLeft": go(current() - 1); break;
      case "ArrowRight": go(current() + 1); break;
      case "Home": go(0); break;
      case "End": go(view.plies.length - 1); break;
      default: return;
    }
    e.preventDefault();
  });

  // update takes a newer view, whole or as a step from the one shown
  // (its positions after the first v.base); a replay stays where it is.
  function update(v) {
    if (v.game !== view.game || v.rev <= view.rev) return;
    if (v.base) {
      if (v.prev !== view.rev || v.base > view.plies.length) {
        refetch();
        return;
      }
      v.plies = view.plies.slice(0, v.base).concat(v.plies);
      delete v.base;
      delete v.prev;
    }
    view = v;
    arrived = performance.now();
    if (shown !== null && shown >= view.plies.length) shown = null;
    render();
    root.dataset.rev = String(view.rev);
  }

  function live(ok) { window.iceageLive.mark($("live"), texts, ok); }

  // refetch reads the whole view, for a step that does not follow the
  // view shown.
  function refetch() {
    fetch(base + "/view", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(update)
      .catch(function () { live(false); });
  }

  function listen() {
    window.iceageLive.follow(base + "/events?after=" + view.rev, base + "/view", update, live);
  }

  root.dataset.rev = String(view.rev);
  render();
  if (!view.over) listen(); else live(true);
})();
