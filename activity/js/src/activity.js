// The Discord Activity: signs the user in with the Embedded App SDK, shows
// the game of the Activity's channel on the board of the live pages
// (IceBoard, static/board.js), follows it live, and lets its players move
// by dragging a man, by clicking it and then its square, or with the
// keyboard. When no game goes on in the channel, it shows the lobby:
// who is here, the challenges waiting, and a form to challenge someone
// at a time control; after a game, a Rematch. Every path is relative:
// inside Discord the page is the root of the app's URL mapping, which
// points at the listener's /activity/.
import { DiscordSDK } from "@discord/embedded-app-sdk";

const root = document.getElementById("activity");
const clientId = root.dataset.clientId;
let texts = JSON.parse(root.dataset.texts);
const FILES = "abcdefgh";

let token = "";
let instance = "";
let info = null; // the server's answer: game, path, color, texts
let view = null; // the game's view, as the live page has it
let flip = false;
let selected = null; // the square of the man picked up by click or key
let cursor = null; // the keyboard's square
let drag = null; // {from, ghost, moved}
let pending = false; // a move on its way
let polling = null;
let stream = null; // the game's event stream
let inputReady = false;
let lobby = null; // the server's lobby, when no game goes on
let lobbyTimer = null;
let asking = false; // a lobby request on its way
let justSent = false; // the user's challenge was just sent
// crossed says why the game shown started at the user's challenge: the
// opponent's own on the same terms was waiting, and it took that one.
let crossed = "";
// told are the notices of the user's challenges that ended without them
// (declined, withdrawn, expired), by challenge: kept until closed, for
// the server offers each only for a while.
const told = new Map();
const closed = new Set();
// pick is the lobby's form as the user left it: who, which time control
// ("" correspondence, "custom" the minutes and seconds typed), which
// colour, rated or not.
const pick = { to: "", time: "5+3", color: "random", rated: false, level: 0 };
// zone is the device's time zone, for the times of a refusal; "" when it
// names none in the IANA database's alphabet.
const zone = (() => {
  try {
    const z = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    return /^[A-Za-z0-9_+\-\/]{1,64}$/.test(z) && z !== "Local" && !z.includes("..") ? z : "";
  } catch (e) {
    return "";
  }
})();
// arrived is when the view shown came, by the page's monotonic clock: a
// live game's running clock counts down from there and from its age then
// (clockAge, measured by the server), never by the device's wall clock,
// which may be off.
let arrived = 0;

function $(id) {
  return document.getElementById(id);
}

function say(id, text) {
  const el = $(id);
  el.textContent = text || "";
  el.hidden = !text;
}

async function start() {
  let sdk;
  try {
    sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
    await sdk.ready();
    const { code } = await sdk.commands.authorize({
      client_id: clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    });
    const r = await fetch("api/token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code }),
    });
    const body = await r.json();
    if (!r.ok) throw new Error(body.error);
    token = body.access_token;
    await sdk.commands.authenticate({ access_token: token });
    instance = sdk.instanceId;
  } catch (e) {
    say("status", texts.sign_in_failed);
    return;
  }
  await load();
}

function auth() {
  return { Authorization: "Bearer " + token };
}

// load asks which game to show, and the lobby when none goes on: the
// lobby asks again every two seconds, so that a challenge made to the
// user appears, and an accepted one opens its board in both windows.
// game names one the lobby offered (a game of the channel's threads).
async function load(game) {
  clearTimeout(lobbyTimer);
  let r, body;
  const which = typeof game === "number" && game > 0 ? "&game=" + game : "";
  try {
    r = await fetch("api/game?instance=" + encodeURIComponent(instance) + which, { headers: auth(), cache: "no-store" });
    body = await r.json().catch(() => ({}));
  } catch (e) {
    lobbyTimer = setTimeout(load, 3000);
    return;
  }
  if (!r.ok) {
    if (r.status === 503 || info) lobbyTimer = setTimeout(load, r.status === 503 ? 1000 : 5000);
    else say("status", body.error || texts.failed);
    return;
  }
  texts = body.texts;
  document.documentElement.lang = body.lang;
  if (body.game && (!info || info.game !== body.game)) await show(body);
  else if (info && body.game === info.game && info.color !== body.color) {
    info.color = body.color;
    root.dataset.color = body.color;
  }
  lobby = body.lobby || null;
  $("game").hidden = !info;
  drawLobby();
  if (view) render();
  if (lobby) lobbyTimer = setTimeout(load, 2000);
}

// show switches the board to a game: its view, then its events.
async function show(body) {
  if (stream) stream.close();
  stream = null;
  if (polling) clearInterval(polling);
  polling = null;
  info = body;
  view = null;
  selected = null;
  flip = info.color === "b";
  root.dataset.color = info.color;
  root.dataset.game = String(info.game);
  say("refusal", "");
  say("crossed", "");
  await refresh();
  listen();
  if (!inputReady) {
    setUpInput();
    inputReady = true;
  }
}

async function refresh() {
  const r = await fetch(info.path + "/view", { cache: "no-store" });
  if (r.ok) update(await r.json());
}

// update takes a newer view of the game; one that ends it brings the
// lobby, with its Rematch.
function update(v) {
  if (!info || v.game !== info.game || (view && v.rev <= view.rev)) return;
  if (v.base) {
    // A step from the view shown: its positions after the first v.base
    // (the web listener's event stream sends a move so). One from
    // another view than this one is fetched whole.
    if (!view || v.prev !== view.rev || v.base > view.plies.length) {
      refresh().catch(() => {});
      return;
    }
    v.plies = view.plies.slice(0, v.base).concat(v.plies);
    delete v.base;
    delete v.prev;
  }
  const ended = v.over && (!view || !view.over);
  view = v;
  if (view.plies.length > 1) say("crossed", ""); // the game is under way
  arrived = performance.now();
  root.dataset.rev = String(view.rev);
  selected = null;
  render();
  if (ended && !lobby) setTimeout(load, 200);
}

function listen() {
  if (!view || view.over) return;
  if (!window.EventSource) {
    poll();
    return;
  }
  const es = new EventSource(info.path + "/events?after=" + view.rev);
  stream = es;
  let failures = 0;
  es.addEventListener("open", () => {
    failures = 0;
    root.dataset.live = "on";
  });
  es.addEventListener("view", (e) => update(JSON.parse(e.data)));
  es.addEventListener("error", () => {
    root.dataset.live = "off";
    failures++;
    if (es.readyState === EventSource.CLOSED || failures >= 5) {
      es.close();
      poll();
    }
  });
}

function poll() {
  if (polling) return;
  polling = setInterval(() => refresh().catch(() => {}), 5000);
}

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}

function field(label, ...controls) {
  return el("div", { className: "field" }, el("span", { className: "label" }, label), ...controls);
}

// buildLobby makes the lobby's form once: polling redraws only what the
// server says (people, challenges, rematch), never what the user chose.
function buildLobby(box) {
  const T = (k) => texts["lobby." + k];
  const times = el("div", { className: "chips times", role: "group" });
  for (const t of lobby.times) {
    // The speed's name, without the punctuation some languages put
    // before it ("5+3, блиц").
    const speed = t.terms.replace(t.time, "").replace(/^[\s,;:·–—-]+/, "").trim();
    times.append(el("button", { type: "button", className: "chip", title: t.terms }, el("b", {}, t.time), el("small", {}, speed)));
    times.lastChild.dataset.time = t.time;
  }
  const custom = el("button", { type: "button", className: "chip" }, el("b", {}, T("custom")), el("small", { id: "custom-text" }));
  custom.dataset.time = "custom";
  const corr = el("button", { type: "button", className: "chip", id: "corr" }, el("b", {}, T("correspondence")), el("small", { id: "days" }));
  corr.dataset.time = "";
  times.append(custom, corr);
  const mins = el("input", { type: "number", id: "custom-min", min: "1", max: "180", value: "10", inputMode: "numeric" });
  const secs = el("input", { type: "number", id: "custom-sec", min: "0", max: "180", value: "5", inputMode: "numeric" });
  mins.setAttribute("aria-label", T("minutes"));
  secs.setAttribute("aria-label", T("seconds"));
  const customBox = el("div", { className: "custom", id: "custom" },
    el("label", {}, el("span", {}, T("minutes")), mins), el("span", { className: "plus" }, "+"), el("label", {}, el("span", {}, T("seconds")), secs));
  const colors = el("div", { className: "chips colors", role: "group" });
  for (const c of ["random", "white", "black"]) {
    colors.append(el("button", { type: "button", className: "chip" }, el("span", { className: "dot " + c }), el("b", {}, T(c))));
    colors.lastChild.dataset.color = c;
  }
  const rated = el("input", { type: "checkbox", id: "rated" });
  const send = el("button", { type: "button", id: "send", className: "primary" }, T("challenge"));
  box.append(
    el("h2", {}, T("title")),
    el("div", { id: "ended", className: "ended", role: "status" }),
    el("div", { id: "incoming", className: "challenges" }),
    el("div", { id: "games-box", className: "field", hidden: true },
      el("span", { className: "label" }, T("games")), el("div", { id: "games", className: "games" })),
    el("div", { id: "rematch-box", className: "rematch", hidden: true },
      el("button", { type: "button", id: "rematch", className: "primary" }, T("rematch")), el("span", { id: "rematch-text" })),
    field(T("people"), el("div", { id: "people", className: "people" })),
    field(T("opponent"), el("div", { className: "opponent" }, el("select", { id: "opponent" }),
      el("label", { id: "level-box", className: "level", hidden: true }, el("span", {}, T("level")), el("select", { id: "level" })))),
    field(T("time"), times, customBox),
    field(T("color"), colors),
    el("label", { className: "check" }, rated, el("span", {}, T("rated"))),
    send,
    el("p", { id: "lobby-refusal", className: "refusal", role: "alert", hidden: true }),
    el("p", { id: "lobby-note", className: "note", role: "status" }),
  );
  times.addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (b) pick.time = b.dataset.time;
    drawPick();
  });
  colors.addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (b) pick.color = b.dataset.color;
    drawPick();
  });
  rated.addEventListener("change", () => (pick.rated = rated.checked));
  for (const i of [mins, secs]) i.addEventListener("input", drawPick);
  send.addEventListener("click", () => {
    const time = pick.time === "custom" ? mins.value.trim() + "+" + secs.value.trim() : pick.time;
    const who = pick.to === "engine" ? { to: "", engine: true, level: pick.level } : { to: pick.to };
    ask("api/challenge", Object.assign(who, { time, color: pick.color, rated: pick.rated }));
  });
  $("rematch").addEventListener("click", () => {
    const m = lobby && lobby.rematch;
    if (m) ask("api/challenge", { to: m.to, engine: m.engine, level: m.level, time: m.time, color: m.color, rated: m.rated });
  });
  $("level").addEventListener("change", (e) => (pick.level = +e.target.value));
  $("ended").addEventListener("click", (e) => {
    const card = e.target.closest(".notice");
    if (!e.target.closest("button") || !card) return;
    closed.add(card.dataset.id);
    told.delete(card.dataset.id);
    drawEnded();
  });
  $("games").addEventListener("click", (e) => {
    const row = e.target.closest(".game");
    if (e.target.closest("button") && row) load(+row.dataset.id);
  });
  $("incoming").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    const card = e.target.closest(".challenge");
    if (b && card) ask("api/answer", { challenge: +card.dataset.id, accept: b.classList.contains("accept") });
  });
}

// drawPick shows what the user chose in the form.
function drawPick() {
  for (const b of document.querySelectorAll(".times button")) b.setAttribute("aria-pressed", String(b.dataset.time === pick.time));
  for (const b of document.querySelectorAll(".colors button")) b.setAttribute("aria-pressed", String(b.dataset.color === pick.color));
  $("custom").hidden = pick.time !== "custom";
  $("level-box").hidden = pick.to !== "engine";
  $("custom-text").textContent = $("custom-min").value.trim() + "+" + $("custom-sec").value.trim();
}

// drawEnded shows the notices of challenges that ended, until closed.
function drawEnded() {
  $("ended").replaceChildren(
    ...[...told].map(([id, text]) => {
      const close = el("button", { type: "button", className: "close", title: texts["lobby.close"] }, "✕");
      close.setAttribute("aria-label", texts["lobby.close"]);
      const n = el("div", { className: "notice" }, el("p", {}, text), close);
      n.dataset.id = id;
      return n;
    }),
  );
}

// drawLobby shows the lobby as the server last told it.
function drawLobby() {
  const box = $("lobby");
  box.hidden = !lobby;
  root.dataset.lobby = lobby ? "on" : "off";
  if (!lobby) return;
  const T = (k) => texts["lobby." + k];
  if (!box.firstChild) buildLobby(box);
  $("days").textContent = lobby.days;
  const people = $("people");
  people.replaceChildren(...lobby.people.map((p) => el("span", { className: "person" }, p.name)));
  if (!lobby.people.length) people.append(el("span", { className: "note" }, T("alone")));
  const sel = $("opponent");
  const options = [el("option", { value: "" }, T("anyone")), ...lobby.people.map((p) => el("option", { value: p.id }, p.name))];
  if (lobby.engine) options.push(el("option", { value: "engine" }, T("engine")));
  if (pick.to && !lobby.people.some((p) => p.id === pick.to) && !(pick.to === "engine" && lobby.engine)) pick.to = "";
  if (!pick.to && lobby.people.length === 1 && !sel.dataset.touched) pick.to = lobby.people[0].id;
  sel.replaceChildren(...options);
  sel.value = pick.to;
  sel.onchange = () => {
    sel.dataset.touched = "1";
    pick.to = sel.value;
    drawPick();
  };
  const level = $("level");
  if (lobby.engine && !level.options.length) {
    for (let i = 1; i <= lobby.engine.levels; i++) level.append(el("option", { value: String(i) }, String(i)));
    pick.level = lobby.engine.level;
    level.value = String(pick.level);
  }
  for (const n of lobby.ended || []) if (!closed.has(String(n.id))) told.set(String(n.id), n.text);
  drawEnded();
  const games = lobby.games || [];
  $("games-box").hidden = !games.length;
  $("games").replaceChildren(
    ...games.map((g) => {
      const row = el("div", { className: "game" + (g.mine ? " mine" : "") }, el("p", {}, g.text),
        el("button", { type: "button", className: g.mine ? "primary" : "secondary" }, g.mine ? T("play") : T("watch")));
      row.dataset.id = String(g.id);
      return row;
    }),
  );
  const list = $("incoming");
  list.replaceChildren(
    ...lobby.challenges.map((c) => {
      const card = el("div", { className: "challenge" + (c.mine ? " mine" : " incoming") }, el("p", {}, c.text));
      card.dataset.id = String(c.id);
      const actions = el("div", { className: "actions" });
      if (c.mine) actions.append(el("button", { type: "button", className: "decline secondary" }, T("withdraw")));
      else
        actions.append(
          el("button", { type: "button", className: "accept success" }, "✓ " + T("accept")),
          el("button", { type: "button", className: "decline danger" }, "✕ " + T("decline")),
        );
      card.append(actions);
      return card;
    }),
  );
  const waiting = lobby.challenges.some((c) => c.mine);
  if (!waiting) justSent = false;
  $("lobby-note").textContent = waiting ? (justSent ? T("sent") : T("waiting")) : "";
  $("rematch-box").hidden = !lobby.rematch;
  if (lobby.rematch) $("rematch-text").textContent = lobby.rematch.text;
  drawPick();
}

// ask sends one of the lobby's requests; a refusal is shown to the user
// alone, in their language.
async function ask(path, body) {
  if (asking) return;
  asking = true;
  for (const b of document.querySelectorAll(".lobby button")) b.disabled = true;
  say("lobby-refusal", "");
  try {
    const r = await fetch(path, {
      method: "POST",
      headers: Object.assign({ "Content-Type": "application/json" }, auth()),
      body: JSON.stringify(Object.assign({ instance, tz: zone }, body)),
    });
    const got = await r.json().catch(() => ({}));
    if (!r.ok) say("lobby-refusal", got.error || texts.failed);
    else if (got.challenge) justSent = true;
    else if (got.game && got.note) crossed = got.note;
  } catch (e) {
    say("lobby-refusal", texts.failed);
  } finally {
    asking = false;
    for (const b of document.querySelectorAll(".lobby button")) b.disabled = false;
  }
  await load();
  if (crossed) say("crossed", crossed);
  crossed = "";
}

function last() {
  return view.plies[view.plies.length - 1];
}

function mine(c) {
  return c && c !== "*" && info.color.includes(c === c.toUpperCase() ? "w" : "b");
}

function myTurn() {
  return !!view && !view.over && info.color.includes(view.turn);
}

// manAt is the man (FEN letter) on a square of the position shown, "" for
// none, "*" for ice.
function manAt(sq) {
  const cells = IceBoard.parse(last().board);
  return cells[(8 - +sq.charAt(1)) * 8 + FILES.indexOf(sq.charAt(0))];
}

function render() {
  const ply = last();
  IceBoard.draw($("board"), ply, flip, ply.label || "");
  for (const [sq, cls] of [
    [selected, "picked"],
    [cursor, "cursor"],
  ]) {
    if (!sq) continue;
    const g = $("board").querySelector('g[data-square="' + sq + '"]');
    if (g) g.classList.add(cls);
  }
  const top = flip ? view.white : view.black;
  const bottom = flip ? view.black : view.white;
  seatLine($("top"), top, flip ? "w" : "b");
  seatLine($("bottom"), bottom, flip ? "b" : "w");
  tick();
  const lines = [];
  if (!info.color && !view.over) lines.push(texts.watching);
  else if (myTurn()) lines.push(texts.your_move);
  lines.push(...view.status);
  say("status", lines.join("\n"));
  say("help", info.color && !view.over ? texts.keyboard : "");
}

// seatLine shows a player, with their clock in a live game.
function seatLine(el, seat, side) {
  el.replaceChildren(seat.name + (seat.rating ? " · " + seat.rating : ""));
  if (view.clocks && view.clocks.length === 2) {
    const c = document.createElement("span");
    c.className = "clock";
    c.dataset.side = side;
    el.append(" ", c);
  }
}

// clockText is a clock's time as m:ss (h:mm:ss from an hour), the
// running one counted down; the server corrects both with each view.
function clockText(side) {
  let secs = view.clocks[side === "w" ? 0 : 1];
  if (view.clockRuns === side) secs -= ((view.clockAge || 0) + performance.now() - arrived) / 1000;
  secs = Math.max(0, Math.ceil(secs));
  const h = Math.floor(secs / 3600);
  const m = Math.floor(secs / 60) % 60;
  const mm = h > 0 ? h + ":" + String(m).padStart(2, "0") : String(m);
  return mm + ":" + String(secs % 60).padStart(2, "0");
}

function tick() {
  if (!view || !view.clocks) return;
  for (const c of document.querySelectorAll(".clock")) {
    c.textContent = clockText(c.dataset.side);
    c.classList.toggle("running", view.clockRuns === c.dataset.side);
  }
}
setInterval(() => {
  if (view && view.clockRuns) tick();
}, 250);

// squareAt is the square under a point of the page, or null.
function squareAt(x, y) {
  const r = $("board").getBoundingClientRect();
  const f = Math.floor(((x - r.left) / r.width) * 8);
  const k = Math.floor(((y - r.top) / r.height) * 8);
  if (f < 0 || f > 7 || k < 0 || k > 7) return null;
  return flip ? FILES.charAt(7 - f) + (k + 1) : FILES.charAt(f) + (8 - k);
}

function pieceFile(c) {
  return (c === c.toUpperCase() ? "w" : "b") + c.toUpperCase();
}

function setUpInput() {
  const board = $("board");
  board.addEventListener("pointerdown", (e) => {
    if (!myTurn() || pending) return;
    const sq = squareAt(e.clientX, e.clientY);
    if (!sq) return;
    const c = manAt(sq);
    if (selected && sq !== selected && !mine(c)) return; // a click on the target: pointerup plays it
    if (!mine(c)) return;
    e.preventDefault();
    board.setPointerCapture(e.pointerId);
    const ghost = document.createElement("img");
    ghost.src = "static/pieces/" + pieceFile(c) + ".svg";
    ghost.className = "ghost";
    const size = board.getBoundingClientRect().width / 8;
    ghost.style.width = ghost.style.height = size + "px";
    document.body.appendChild(ghost);
    drag = { from: sq, ghost, size, moved: false };
    moveGhost(e);
    const g = board.querySelector('g[data-square="' + sq + '"]');
    if (g) g.classList.add("lifted");
  });
  board.addEventListener("pointermove", (e) => {
    if (!drag) return;
    drag.moved = true;
    moveGhost(e);
  });
  const drop = (e) => {
    const sq = squareAt(e.clientX, e.clientY);
    if (!drag) {
      if (selected && sq && sq !== selected && e.type === "pointerup") play(selected, sq);
      return;
    }
    const from = drag.from;
    drag.ghost.remove();
    drag = null;
    if (e.type === "pointerup" && sq && sq !== from) {
      play(from, sq);
      return;
    }
    // A click without a move picks the man up, or puts it back.
    selected = selected === from ? null : from;
    render();
  };
  board.addEventListener("pointerup", drop);
  board.addEventListener("pointercancel", drop);
  board.addEventListener("keydown", (e) => {
    if (!view) return;
    if (!cursor) cursor = info.color === "b" ? "e7" : "e2";
    let f = FILES.indexOf(cursor.charAt(0));
    let k = +cursor.charAt(1);
    const d = flip ? -1 : 1;
    switch (e.key) {
      case "ArrowLeft": f -= d; break;
      case "ArrowRight": f += d; break;
      case "ArrowUp": k += d; break;
      case "ArrowDown": k -= d; break;
      case "Escape": selected = null; break;
      case "Enter":
      case " ":
        if (!myTurn() || pending) break;
        if (mine(manAt(cursor)) && selected !== cursor) selected = cursor;
        else if (selected && selected !== cursor) {
          play(selected, cursor);
          e.preventDefault();
          return;
        } else selected = null;
        break;
      default:
        return;
    }
    e.preventDefault();
    f = Math.max(0, Math.min(7, f));
    k = Math.max(1, Math.min(8, k));
    cursor = FILES.charAt(f) + k;
    render();
  });
}

function moveGhost(e) {
  drag.ghost.style.left = e.clientX - drag.size / 2 + "px";
  drag.ghost.style.top = e.clientY - drag.size / 2 + "px";
}

// play sends a move, asking first which man a pawn becomes.
function play(from, to) {
  selected = null;
  const c = manAt(from);
  if ((c === "P" && to.charAt(1) === "8") || (c === "p" && to.charAt(1) === "1")) {
    const box = $("promote");
    box.replaceChildren();
    const label = document.createElement("span");
    label.textContent = texts.promote;
    box.append(label);
    for (const [p, name] of [["q", texts.queen], ["r", texts.rook], ["b", texts.bishop], ["n", texts.knight]]) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = name;
      b.addEventListener("click", () => {
        box.hidden = true;
        send(from + to + p);
      });
      box.append(b);
    }
    box.hidden = false;
    render();
    return;
  }
  send(from + to);
}

async function send(move) {
  pending = true;
  say("refusal", "");
  try {
    const r = await fetch("api/move", {
      method: "POST",
      headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
      body: JSON.stringify({ instance, game: info.game, rev: view.rev, move, tz: zone }),
    });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) say("refusal", body.error || texts.failed);
    else await refresh();
  } catch (e) {
    say("refusal", texts.failed);
  } finally {
    pending = false;
    render();
  }
}

start();
