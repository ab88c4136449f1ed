// The Discord Activity: signs the user in with the Embedded App SDK, shows
// the game of the Activity's channel on the board of the live pages
// (IceBoard, static/board.js), follows it live, and lets its players move
// by dragging a man, by clicking it and then its square, or with the
// keyboard. Every path is relative: inside Discord the page is the root
// of the app's URL mapping, which points at the listener's /activity/.
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
  const r = await fetch("api/game?instance=" + encodeURIComponent(instance), {
    headers: { Authorization: "Bearer " + token },
    cache: "no-store",
  });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) {
    say("status", body.error || texts.failed);
    return;
  }
  info = body;
  texts = body.texts;
  document.documentElement.lang = body.lang;
  flip = info.color === "b";
  root.dataset.color = info.color;
  await refresh();
  listen();
  setUpInput();
}

async function refresh() {
  const r = await fetch(info.path + "/view", { cache: "no-store" });
  if (r.ok) update(await r.json());
}

// update takes a newer view of the game.
function update(v) {
  if (view && (v.game !== view.game || v.rev <= view.rev)) return;
  view = v;
  arrived = performance.now();
  root.dataset.rev = String(view.rev);
  selected = null;
  render();
}

function listen() {
  if (!view || view.over) return;
  if (!window.EventSource) {
    poll();
    return;
  }
  const es = new EventSource(info.path + "/events?after=" + view.rev);
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
  if (!info.color) lines.push(texts.watching);
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
      body: JSON.stringify({ instance, game: info.game, rev: view.rev, move }),
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
