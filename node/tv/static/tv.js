// The TV view: draws the public table the node pushes over server-sent events.
// It only listens: nothing here can send a move. Every text a player chose (a name)
// goes in with textContent, never as HTML.
"use strict";

const RETRY_MS = 3000; // a refused or broken stream is opened again after this

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

// A card as the game gives it: a colour (a word, or none), a big value and under it a mark.
// The page knows no game: each game's public drawing (its tv_board) names these.
function cardNode(card, count, extra) {
  const node = el("div", "card" + (extra ? " " + extra : ""));
  if (card) {
    if (card.colour) node.classList.add(card.colour);
    node.title = card.label;
    node.dataset.card = card.label;
    node.append(el("span", "value", card.value), el("span", "mark", card.mark));
  } else {
    node.classList.add(count ? "back" : "empty");
  }
  if (count !== undefined && count > 1) node.append(el("span", "count", "×" + count));
  return node;
}

// A place in a player's area: its top card (a back when face down, a dashed outline
// when empty) over its caption; or a row of such cards over one caption.
function place(spot) {
  const node = el("div", "place");
  node.dataset.place = spot.key || "";
  if (spot.row) {
    const row = el("div", "row-of-cards");
    for (const item of spot.row) row.append(cardNode(item.top, item.count, "small"));
    node.append(row);
  } else {
    node.append(cardNode(spot.top, spot.count, "medium"));
  }
  node.append(el("span", "label", spot.caption));
  return node;
}

function roundText(state) {
  switch (state.phase) {
    case "starting": return "the node is starting…";
    case "lobby": return "In the lobby";
    case "dealing": return "Round " + state.round + ": dealing…";
    case "playing": if (state.progress) return state.progress;
      return "Round " + state.round + (state.rounds ? " of " + state.rounds : " · first to " + state.target);
    case "over": return "Game over";
    default: return "";
  }
}

function bannerText(state) {
  if (state.phase === "over" && state.winner !== null) {
    const best = Math.max(0, ...state.players.map((p) => p.total));
    return state.winner + " wins with " + best + " " + (state.unit || "points") + "!";
  }
  // A game of rounds that ends drawn, or one whose every round was void.
  if (state.phase === "over" && state.results.length) return "Nobody wins";
  const last = state.results.length ? state.results[state.results.length - 1] : null;
  if (state.phase === "dealing" && last && last.ended_by) {
    return "Round " + last.round + " was ended by " + last.ended_by;
  }
  if (state.phase === "lobby") {
    const ready = state.players.filter((p) => p.ready).length;
    const seated = state.players.length;
    if (seated < 2) return "Waiting for players to sit down";
    return ready + " of " + seated + " players ready";
  }
  return "";
}

function drawCentre(state) {
  const centre = document.getElementById("centre");
  centre.replaceChildren();
  for (const group of state.centre || []) {
    const node = el("div", "group");
    node.dataset.group = group.key || "";
    node.append(el("h2", "", group.caption));
    const piles = el("div", "piles");
    if (group.piles.length === 0) piles.append(cardNode(null, 0));
    for (const pile of group.piles) piles.append(cardNode(pile.top, pile.count, "pile"));
    node.append(piles);
    if (group.done) node.append(el("div", "done", group.done + " done"));
    centre.append(node);
  }
}

function playerStatus(player) {
  if (player.away) return "away";
  if (!player.present) return "left";
  return player.area ? player.area.status : "";
}

function drawPlayer(player, over) {
  const node = el("div", "player");
  node.dataset.seat = player.seat;
  const status = playerStatus(player);
  if (status === "left" || status === "out") node.classList.add("gone");
  const head = el("div", "head");
  head.append(el("span", "name", player.name), el("span", "state", status));
  if (!over && player.area && player.live !== null) head.append(el("span", "live", "round " + (player.live >= 0 ? "+" : "") + player.live));
  head.append(el("span", "total", player.total));
  node.append(head);
  const area = player.area;
  if (area && !over) {
    const cards = el("div", "cards");
    for (const spot of area.places) cards.append(place(spot));
    node.append(cards);
  }
  return node;
}

function drawLobby(state) {
  const list = el("div", "lobby");
  for (const player of state.players) {
    const row = el("div", "row");
    row.append(el("span", "name", player.name), el("span", "back", player.back));
    row.append(el("span", player.ready ? "ready" : "notready", player.ready ? "ready" : "not ready"));
    list.append(row);
  }
  return list;
}

function drawScores(state) {
  const scores = document.getElementById("scores");
  scores.replaceChildren();
  const show = state.results.length > 0 && state.phase !== "playing";
  scores.hidden = !show;
  if (!show) return;
  const table = el("table", "scores");
  const head = el("tr");
  head.append(el("th", "", "Player"));
  for (const result of state.results) head.append(el("th", "", "R" + result.round));
  head.append(el("th", "", "Total"));
  table.append(head);
  for (const player of state.players) {
    const row = el("tr");
    row.append(el("td", "", player.name));
    for (const result of state.results) {
      const points = result.scores[String(player.seat)];
      row.append(el("td", "", points === undefined ? "" : points));
    }
    row.append(el("td", "", player.total));
    table.append(row);
  }
  scores.append(el("h2", "", "Scores"), table);
}

function draw(frame) {
  // A node still starting sends only its phase: draw it as an empty table.
  const state = Object.assign(
    { title: "", table: "", players: [], centre: [], results: [], headline: "", legend: "", progress: "", unit: "points" }, frame);
  window.tvState = state;
  const title = [state.title, state.table].filter((part) => part).join(" · ");
  document.getElementById("title").textContent = title || "The table";
  document.title = (title || "The table") + ": the table";
  document.getElementById("headline").textContent = state.headline;
  document.getElementById("legend").textContent = state.legend;
  document.getElementById("round").textContent = roundText(state);
  const banner = document.getElementById("banner");
  banner.textContent = bannerText(state);
  banner.hidden = banner.textContent === "";
  const players = document.getElementById("players");
  players.replaceChildren();
  if (state.phase === "lobby") players.append(drawLobby(state));
  else for (const player of state.players || []) players.append(drawPlayer(player, state.phase === "over"));
  if (state.phase === "over") document.getElementById("centre").replaceChildren();
  else drawCentre(state);
  drawScores(state);
}

function showLink(live) {
  const link = document.getElementById("link");
  link.className = "link " + (live ? "live" : "connecting");
  link.textContent = live ? "live" : "reconnecting…";
}

function connect() {
  const events = new EventSource("/events");
  events.onopen = () => showLink(true);
  events.onmessage = (message) => draw(JSON.parse(message.data));
  events.onerror = () => {
    showLink(false);
    // The browser tries again by itself after a broken stream; not after a refusal.
    if (events.readyState === EventSource.CLOSED) setTimeout(connect, RETRY_MS);
  };
}

connect();
