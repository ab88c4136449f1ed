// board.js draws an Ice Age Chess position as SVG: the squares, the ice,
// the men (the cburnett set, see NOTICE.txt), the last move, a king in
// check, and the men that would freeze or froze. No library: the board
// is ours, under the project's licence.
"use strict";

var IceBoard = (function () {
  var NS = "http://www.w3.org/2000/svg";
  var FILES = "abcdefgh";
  var MEN = { K: "wK", Q: "wQ", R: "wR", B: "wB", N: "wN", P: "wP", k: "bK", q: "bQ", r: "bR", b: "bB", n: "bN", p: "bP" };

  function el(name, attrs) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  // parse reads FEN's board field into 64 cells, a8 first: a man's
  // letter, "*" for ice, "" for an empty square.
  function parse(board) {
    var cells = [];
    var ranks = board.split("/");
    for (var r = 0; r < 8; r++) {
      var row = ranks[r] || "";
      for (var i = 0; i < row.length; i++) {
        var c = row.charAt(i);
        if (c >= "1" && c <= "8") {
          for (var n = 0; n < +c; n++) cells.push("");
        } else {
          cells.push(c);
        }
      }
      while (cells.length < (r + 1) * 8) cells.push("");
    }
    return cells;
  }

  // xy is the top-left corner of a square (e.g. "e4") on a board of 8
  // units, White at the bottom unless flipped.
  function xy(square, flip) {
    var f = FILES.indexOf(square.charAt(0)), r = +square.charAt(1) - 1;
    return flip ? [7 - f, r] : [f, 7 - r];
  }

  function marks(list) {
    var m = {};
    (list || []).forEach(function (s) { m[s] = true; });
    return m;
  }

  // draw replaces the board in container with ply's position.
  function draw(container, ply, flip, label) {
    var svg = el("svg", { viewBox: "0 0 8 8", role: "img", class: "iceboard", "aria-label": label || "" });
    var cells = parse(ply.board);
    var freeze = marks(ply.freeze), frozen = marks(ply.frozen), filled = marks(ply.filled);
    for (var i = 0; i < 64; i++) {
      var file = i % 8, rank = 7 - Math.floor(i / 8);
      var sq = FILES.charAt(file) + (rank + 1);
      var p = xy(sq, flip), x = p[0], y = p[1];
      var light = (file + rank) % 2 === 1;
      var cls = "sq " + (light ? "light" : "dark");
      if (sq === ply.from || sq === ply.to) cls += " last";
      var g = el("g", { "data-square": sq });
      g.appendChild(el("rect", { x: x, y: y, width: 1, height: 1, class: cls }));
      var c = cells[i];
      if (c === "*") {
        g.setAttribute("data-ice", "");
        g.appendChild(el("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, rx: 0.12, class: "ice" + (frozen[sq] ? " frozen" : filled[sq] ? " filled" : "") }));
        g.appendChild(el("path", { d: "M" + (x + 0.22) + " " + (y + 0.3) + "l0.2 -0.1M" + (x + 0.2) + " " + (y + 0.48) + "l0.38 -0.2", class: "glint" }));
      } else if (MEN[c]) {
        if (sq === ply.check) g.appendChild(el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.48, class: "check" }));
        if (freeze[sq]) g.appendChild(el("rect", { x: x + 0.04, y: y + 0.04, width: 0.92, height: 0.92, rx: 0.1, class: "freeze" }));
        g.setAttribute("data-man", c);
        g.appendChild(el("image", { href: "/static/pieces/" + MEN[c] + ".svg", x: x, y: y, width: 1, height: 1 }));
      }
      svg.appendChild(g);
    }
    // Coordinates along the bottom and the left edge.
    for (var k = 0; k < 8; k++) {
      var fileName = flip ? FILES.charAt(7 - k) : FILES.charAt(k);
      var t = el("text", { x: k + 0.94, y: 7.95, class: "coord", "text-anchor": "end" });
      t.textContent = fileName;
      svg.appendChild(t);
      var rankName = flip ? k + 1 : 8 - k;
      var u = el("text", { x: 0.04, y: k + 0.22, class: "coord" });
      u.textContent = String(rankName);
      svg.appendChild(u);
    }
    container.replaceChildren(svg);
  }

  return { draw: draw, parse: parse };
})();
