// A table: the server is the authority; this page shows the view it sends and sends the clicked action
// with the version it was chosen at. Reload or a dropped connection: reconnect and resync.
"use strict";

const TABLE_ID = window.location.pathname.split("/").pop();
const TOKEN = new URLSearchParams(window.location.search).get("token");
const CARD_RE = /^(10|[6-9JQKA])[SCDH]$/;
let msg = null;          // the last sync or event
let socket = null;
let selected = null;     // Thousand gifts: the card picked before its recipient
let endShown = false;
let retry = 500;

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/${TABLE_ID}`);
  socket.addEventListener("open", () => {
    retry = 500;
    setConn(true);
    // patch: events come as patches of the last full frame (docs/api.md, "Frames"); v: what we hold
    socket.send(JSON.stringify({ type: "hello", token: TOKEN || undefined, v: msg ? msg.v : undefined, patch: true }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    setConn(false);
    if (event.code === 4403 || event.code === 4404) return;  // a wrong link stays wrong
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

// The connection: a dot and a word in the header (white on the header's green; offline in a red pill).
function setConn(up) {
  const conn = document.getElementById("conn");
  conn.textContent = up ? t("web.online") : t("web.offline");
  conn.className = `conn ${up ? "up" : "down"}`;
  document.body.dataset.connected = up ? "1" : "0";
}

// A patch maps each changed key to {set}, {append}, {patch} (a nested object) or {del} (koloda.web.frames).
function applyPatch(old, patch) {
  const out = Object.assign({}, old);
  for (const [key, op] of Object.entries(patch)) {
    if ("set" in op) out[key] = op.set;
    else if ("append" in op) out[key] = old[key].concat(op.append);
    else if ("patch" in op) out[key] = applyPatch(old[key], op.patch);
    else delete out[key];
  }
  return out;
}

function receive(data) {
  if (data.type === "event" && data.patch) {
    if (!msg || msg.v !== data.base) {  // not the frame it patches: ask for the whole table
      socket.send(JSON.stringify({ type: "sync", v: msg ? msg.v : 0 }));
      return;
    }
    data = Object.assign(applyPatch(msg, data.patch), { type: "event" });
  }
  if (data.type === "sync" || data.type === "event") {
    msg = data;
    fairNote(TABLE_ID, msg);
    if (data.type === "sync" || (data.view && data.view.current_player !== msg.seat)) selected = null;
    render();
  } else if (data.type === "error") {
    say(errorText(data));
    document.body.dataset.lastError = data.code;
  }
}

function send(action) {
  say("");
  socket.send(JSON.stringify({ type: "act", v: msg.v, action }));
}

// A line under the hand: why a card cannot be played, or the server's refusal.
function say(text) {
  document.getElementById("error").textContent = text;
}

// The seats' names; one the server named by default ("Bot 2", "Player 1" for an unnamed seat made through
// the API) is said in the page's language.
function names() { return msg.table.seats.map((s, i) => seatName(s.name, i)); }
// Text the server wrote (the Thousand's score table and its status line) names the seats as they are
// stored: a default name in it is said in the page's language too.
function localNames(text) {
  let out = String(text);
  msg.table.seats.forEach((seat, i) => {
    const local = seatName(seat.name, i);
    if (local !== seat.name) out = out.split(seat.name).join(local);
  });
  return out;
}
function who(seat) { return seat === null || seat === undefined ? "—" : names()[seat]; }

function render() {
  const view = msg.view;
  const game = msg.table.game;
  const mine = msg.seat !== null && view.current_player === msg.seat && view.actions.length > 0;
  Object.assign(document.body.dataset, {
    v: msg.v, game, phase: view.phase, myturn: mine ? "1" : "0", over: msg.table.over ? "1" : "0",
    deal: view.deal,
    results: game === "bank" ? view.results.length : game === "thousand" ? msg.scores.ru.rows.length : "",
  });
  document.getElementById("title").textContent = `${t("web.table")} ${msg.table.id} · ${gameTitle(game)}`;
  document.title = `koloda · ${gameTitle(game)} ${msg.table.id}`;
  if (!DRAWN.has(game)) { renderAnyGame(view, mine); return; }
  renderSeats(view, game);
  const status = document.getElementById("status");
  status.className = `status${mine ? " me" : ""}`;
  status.textContent = msg.table.over ? t("web.matchOver")
    : mine ? t("web.yourTurn") : `${t("web.turnOf")}: ${who(view.current_player)}`;
  const last = lastMove(view, game);
  document.getElementById("last").textContent = last ? t("web.lastMove", last) : "";
  if (game === "bank") { renderBankZones(view); } else { renderThousandZones(view); }
  renderHand(view, game, mine);
  renderLog(view, game);
  renderScores(game);
  document.getElementById("hand-panel").classList.toggle("hidden", msg.seat === null);
  if (msg.seat === null) status.textContent += ` · ${t("web.spectator")}`;
  renderEnd(view, game);
  renderCoach();
  fairRender(TABLE_ID, msg);
  window.koloda_extras?.forEach((fn) => fn(msg));
}

// The games this page draws itself; any other registered game gets renderAnyGame (docs/architecture.md).
const DRAWN = new Set(["bank", "thousand"]);
const HEADER = new Set(["seat", "players", "deal", "phase", "current_player", "version", "legal_actions", "actions"]);

// A game the page does not know: the seats with their points, the observation's own fields as text, the
// seat's hand and a button for each legal action, and the points table.
function renderAnyGame(view, mine) {
  const points = msg.returns || (msg.scores && msg.scores.returns) || [];
  document.getElementById("seats").replaceChildren(...msg.table.seats.map((seat, i) =>
    el("div", { class: `seat${view.current_player === i ? " turn" : ""}`, dataset: { seat: i } },
      el("div", { class: "who" }, `${who(i)}${i === msg.seat ? ` (${t("web.you")})` : ""}`),
      el("div", { class: "facts" }, `${t("web.score")}: ${points[i] ?? "—"}`))));
  const status = document.getElementById("status");
  status.className = `status${mine ? " me" : ""}`;
  status.textContent = msg.table.over ? t("web.matchOver") : mine ? t("web.yourTurn") : `${t("web.turnOf")}: ${who(view.current_player)}`;
  const fields = Object.entries(view).filter(([key]) => !HEADER.has(key) && key !== "hand" && key !== "history");
  document.getElementById("zones").replaceChildren(zone(`${t("web.deal")} ${view.deal}`,
    ...fields.map(([key, value]) => el("div", {}, `${key}: ${JSON.stringify(value)}`))));
  document.getElementById("hand").replaceChildren(...(view.hand || []).map((c) => el("span", { class: "chip" }, String(c))));
  document.getElementById("actions").replaceChildren(...(mine ? view.actions : []).map(([id, text]) =>
    el("button", { class: "act", type: "button", dataset: { action: id }, onclick: () => send(id) }, text)));
  document.getElementById("log").replaceChildren(...(view.history || []).map(([seat, text]) => el("li", {}, `${who(seat)}: ${text}`)));
  document.getElementById("scores").replaceChildren(el("div", { class: "table-wrap" },
    tableEl(names(), [names().map((_, i) => String(points[i] ?? "—"))])));
  document.getElementById("hand-panel").classList.toggle("hidden", msg.seat === null);
}

function renderSeats(view, game) {
  const counts = game === "bank" ? view.hand_counts : view.hand_sizes;
  const totals = view.totals;
  document.getElementById("seats").replaceChildren(...msg.table.seats.map((seat, i) => {
    const facts = [`${t("web.cardsWord")}: ${counts[i]}`, `${t("web.score")}: ${totals[i]}`];
    if (game === "bank") facts.push(`${t("web.captured")}: ${view.captured_points[i]}`);
    else facts.push(`${t("web.tricksWord")}: ${view.tricks_won[i]}`);
    const tags = [];
    if (i === view.dealer) tags.push(`· ${t("web.dealerWord")}`);
    if (seat.bot) tags.push(`· ${t("web.botOfLevel", { level: levelText(seat.bot) })}`);
    if (i === msg.seat) tags.push(`(${t("web.you")})`);
    const turn = view.current_player === i && !msg.table.over;
    return el("div", { class: `seat${turn ? " turn" : ""}`, dataset: { seat: i }, "aria-current": turn ? "true" : null },
      el("div", { class: "who" }, turn ? el("span", { class: "marker", "aria-hidden": "true" }, "▶ ") : "",
        `${who(i)} ${tags.join(" ")}`),
      el("div", { class: "facts" }, facts.join(" · ")));
  }));
}

// The last move of the deal, as {name, move}: what the last player did, in words.
function lastMove(view, game) {
  if (game === "bank") {
    const last = view.history.length ? view.history[view.history.length - 1] : null;
    return last ? { name: who(last[0]), move: prettyAction(last[1]) } : null;
  }
  const trick = view.trick && view.trick.cards.length ? view.trick : view.tricks[view.tricks.length - 1];
  if (view.phase === "playing" && trick && trick.cards.length) {
    const [seat, card] = trick.cards[trick.cards.length - 1];
    return { name: who(seat), move: prettyAction(card) };
  }
  const bid = view.bids.length ? view.bids[view.bids.length - 1] : null;
  return bid ? { name: who(bid[0]), move: bid[1] === "pass" ? t("web.pass") : bid[1] } : null;
}

// A card that has just arrived on the bank or the trick slides in (not when motion is reduced: CSS).
let lastArrival = "";
function arriving(node, key) {
  if (key !== lastArrival) node.classList.add("arrive");
  lastArrival = key;
  return node;
}

function zone(title, ...content) {
  return el("div", { class: "zone" }, el("h2", {}, title), ...content);
}

// Bank's trump set-ups (option "trumps", rule 3) as the page says them.
const TRUMP_KEYS = {
  own: "web.trumps.own", none: "web.trumps.none", one: "web.trumps.one", two: "web.trumps.two",
  "senior-junior": "web.trumps.senior-junior",
};

function trumpsText(setup) {
  return TRUMP_KEYS[setup] ? t(TRUMP_KEYS[setup]) : setup;
}

const GAME_KEYS = { bank: "web.bankGame", thousand: "web.thousandGame" };

function gameTitle(game) {
  if (GAME_KEYS[game]) return t(GAME_KEYS[game]);
  return msg && msg.title ? msg.title[lang()] || game : game;  // a game registered later
}

// Bank's trumps in words: whose is which when each has his own (rule 3.2), else the deal's suits.
function bankTrumps(view) {
  if (view.trumps === "none" || !view.trump_suits.length) return t("web.trumpsNone");
  const suits = view.trump_suits.map((s) => SUITS[s] || "?");
  if (view.trumps === "own") {
    const others = suits.map((s, i) => (i === msg.seat ? null : `${who(i)} ${s}`)).filter(Boolean).join(", ");
    if (msg.seat === null) return t("web.trumpsOwnAll", { others });
    return t("web.trumpsOwn", { mine: suits[msg.seat], others });
  }
  return t("web.trumpsShared", { setup: trumpsText(view.trumps), suits: suits.join(" ") });
}

function renderBankZones(view) {
  const shown = view.bank.slice(-6);
  const pile = el("div", { class: "pile" }, shown.map((c, i) => (i === shown.length - 1
    ? arriving(cardEl(c, "top"), `${view.deal}:${view.bank.length}:${c}`) : cardEl(c))));
  const owner = view.bank_top_owner;
  const top = view.bank.length
    ? el("div", { class: "note" }, owner === null ? t("web.openCard") : t("web.laidBy", { name: who(owner) })) : "";
  const cover = view.to_cover
    ? t("web.toCoverHow", { card: prettyAction(view.to_cover) }) : t("web.leadAny");
  document.getElementById("zones").replaceChildren(
    zone(`${t("web.bank")} (${view.bank.length})`, view.bank.length ? pile : el("span", {}, "—"), top,
      el("div", { class: "cover" }, cover)),
    zone(t("web.stock"), el("div", { class: "row" }, view.stock_size ? cardBack("small") : "", `${view.stock_size}`)),
    zone(t("web.trumps"), el("div", { class: "trumps" }, bankTrumps(view)),
      el("div", { class: "note" }, `${t("web.deal")} ${view.deal}`)),
  );
}

function renderThousandZones(view) {
  // the first hand's 100 is compulsory (rule G5): said so where the bids are
  const bids = view.bids.map(([seat, bid], i) => `${who(seat)}: ${bid === "pass" ? t("web.pass") : bid}`
    + (i === 0 ? ` (${t("web.compulsory")})` : "")).join(", ");
  const talon = view.talon ? el("div", { class: "cards" }, view.talon.map((c) => cardEl(c, "small")))
    : el("div", { class: "cards" }, [0, 1, 2].map(() => cardBack("small")));
  const trick = view.trick ? view.trick.cards : [];
  const trickEl = el("div", { class: "cards" }, trick.map(([seat, c], i) => {
    const card = cardEl(c, i === trick.length - 1 ? "small top" : "small");
    if (i === trick.length - 1) arriving(card, `${view.deal}:${view.tricks.length}:${c}`);
    return el("span", { class: "trick-card" }, card, who(seat));
  }));
  const last = view.tricks.length ? view.tricks[view.tricks.length - 1] : null;
  const lastEl = last ? el("div", { class: "cards" }, last.cards.map(([seat, c]) =>
    el("span", { class: "trick-card" }, cardEl(c, "small"), who(seat))), el("span", {}, `→ ${who(last.winner)}`)) : "—";
  const contract = [];
  if (view.declarer !== null) contract.push(`${t("web.declarer")}: ${who(view.declarer)} ${view.contract || view.high_bid}`);
  if (view.bomb) contract.push(t("web.bomb"));
  if (view.trump) contract.push(`${t("web.trump")}: ${SUITS[view.trump]}`);
  const marriages = view.marriages.map((m) => `${who(m.seat)} ${m.suit ? SUITS[m.suit] : "A"} ${m.value}`).join(", ");
  const zones = [
    zone(t("web.bidding"), el("div", {}, bids || "—"), el("div", {}, contract.join(" · "))),
    zone(t("web.talon"), talon),
    zone(t("web.trick"), trick.length ? trickEl : el("span", {}, "—")),
    zone(t("web.lastTrick"), lastEl),
  ];
  if (marriages) zones.push(zone(t("web.marriages"), el("div", {}, marriages)));
  if (view.gifts.length) {
    zones.push(zone(t("web.giftsGiven"), el("div", {}, view.gifts.map(([seat, c]) => `${prettyAction(c)} → ${who(seat)}`).join(", "))));
  }
  document.getElementById("zones").replaceChildren(...zones);
}

// Gift recipients: "1" the first opponent after the declarer, "2" the next (the sitting dealer skipped).
function opponents(view) {
  const seats = [];
  for (let k = 1; k < view.players; k++) {
    const seat = (view.declarer + k) % view.players;
    if (!(view.players === 4 && seat === view.dealer)) seats.push(seat);
  }
  return seats;
}

// The hand: the cards that may be played stand up, outlined; the others are greyed and say why when tapped
// (the server's reason: the same check as a played card, so nothing is guessed here). The hand is one
// keyboard stop: the arrow keys move between the cards, Enter or Space plays the one with the focus.
let handFocus = -1;  // the index of the card that had the keyboard's focus, kept across renders

function renderHand(view, game, mine) {
  const byCard = {};
  const others = [];
  for (const [id, text] of view.actions) {
    if (CARD_RE.test(text)) byCard[text] = id;
    else others.push([id, text]);
  }
  const giving = game === "thousand" && view.phase === "giving" && mine;
  const giftCards = new Set(giving ? others.map(([, text]) => text.split(">")[0]) : []);
  const playing = Object.keys(byCard).length > 0;
  const hand = document.getElementById("hand");
  const nodes = view.hand.map((c) => {
    const id = byCard[c];
    const node = cardEl(c);
    let activate;
    if (mine && id !== undefined) {
      node.classList.add("legal");
      node.dataset.action = id;
      activate = () => send(id);
    } else if (giving && giftCards.has(c)) {
      node.classList.add("legal");
      node.dataset.gift = c;
      if (selected === c) node.classList.add("selected");
      node.setAttribute("aria-pressed", selected === c ? "true" : "false");
      activate = () => { selected = c; render(); };
    } else {
      node.classList.add("dim");
      node.setAttribute("aria-disabled", "true");
      node.setAttribute("aria-label", `${cardName(c)}: ${t("web.cantPlay")}`);
      if (mine && playing) activate = () => send(c);  // the server says why (illegal, with the reason)
      else if (mine) activate = () => say(t("web.notCardTime"));
      else if (msg.seat !== null && !msg.table.over) activate = () => say(t("web.waitTurn", { name: who(view.current_player) }));
      else activate = () => {};
    }
    node.setAttribute("role", "button");
    node.tabIndex = -1;
    node.addEventListener("click", activate);
    return node;
  });
  const hadFocus = hand.contains(document.activeElement);  // a card played by the keyboard: focus stays
  hand.replaceChildren(...handRows(nodes));
  hand.dataset.count = String(nodes.length);
  if (nodes.length) {
    const first = nodes.findIndex((n) => n.classList.contains("legal"));
    const at = handFocus >= 0 && handFocus < nodes.length ? handFocus : Math.max(first, 0);
    nodes[at].tabIndex = 0;
    if (hadFocus) nodes[at].focus();
  }
  const box = document.getElementById("actions");
  box.replaceChildren();
  if (!mine) {
    if (msg.seat !== null && !msg.table.over) box.append(el("span", { class: "muted" }, t("web.noMoves")));
    return;
  }
  if (game === "thousand") { thousandActions(view, others, box, giving); return; }
  for (const [id, text] of others) {
    box.append(el("button", { class: "act", type: "button", dataset: { action: id }, onclick: () => send(id) }, prettyAction(text)));
  }
}

// A hand of more than HAND_ROW cards (Bank's, after a bank is taken) is laid in rows of equal length, each
// fanned on its own, so that a card's index strip never gets too narrow to read.
const HAND_ROW = 12;

function handRows(nodes) {
  const rows = Math.ceil(nodes.length / HAND_ROW);
  if (rows <= 1) return nodes;
  const size = Math.ceil(nodes.length / rows);
  return Array.from({ length: rows }, (_, r) => el("div", { class: "hand-row" }, nodes.slice(r * size, (r + 1) * size)));
}

function handKeys(event) {
  const cards = [...document.querySelectorAll("#hand .card")];
  const at = cards.indexOf(document.activeElement);
  if (at < 0) return;
  let next = at;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") next = Math.min(at + 1, cards.length - 1);
  else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = Math.max(at - 1, 0);
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = cards.length - 1;
  else if (event.key === "Enter" || event.key === " ") { event.preventDefault(); cards[at].click(); return; }
  else return;
  event.preventDefault();
  cards[at].tabIndex = -1;
  cards[next].tabIndex = 0;
  cards[next].focus();
  handFocus = next;
}

function thousandActions(view, others, box, giving) {
  if (giving) {
    if (!selected) { box.append(el("span", { class: "muted" }, t("web.pickGift"))); return; }
    const opp = opponents(view);
    for (const [id, text] of others) {
      const [c, k] = text.split(">");
      if (c !== selected) continue;
      box.append(el("button", { class: "act", type: "button", dataset: { action: id }, onclick: () => { selected = null; send(id); } },
        `${t("web.give")} ${prettyAction(c)} → ${who(opp[Number(k) - 1])}`));
    }
    return;
  }
  const numbers = others.filter(([, text]) => /^\d+$/.test(text));
  if (numbers.length) {
    const select = el("select", { id: "bid-value", "aria-label": t("web.bid") },
      numbers.map(([id, text]) => el("option", { value: id }, text)));
    box.append(select, el("button", { class: "act", type: "button", id: "bid-button", onclick: () => send(Number(select.value)) },
      view.phase === "contract" ? t("web.setContract") : t("web.bid")));
  }
  for (const [id, text] of others) {
    if (/^\d+$/.test(text)) continue;
    if (text === "bomb") {  // giving up the deal (rule S7): outlined, and asked first
      const ask = async () => { if (await confirmAction(() => t("web.confirmBomb"), () => t("web.bomb"))) send(id); };
      box.append(el("button", { class: "secondary", type: "button", dataset: { action: id }, onclick: ask }, t("web.bomb")));
      continue;
    }
    let label = prettyAction(text);
    if (text.endsWith("+")) label = `${prettyAction(text.slice(0, -1))} + ${t("web.marriage")}`;
    box.append(el("button", { class: "act", type: "button", dataset: { action: id }, onclick: () => send(id) }, label));
  }
}

function renderLog(view, game) {
  const items = [];
  if (game === "bank") {
    for (const [seat, text] of view.history) items.push(`${who(seat)}: ${prettyAction(text)}`);
  } else {
    for (const [seat, bid] of view.bids) items.push(`${who(seat)}: ${bid === "pass" ? t("web.pass") : bid}`);
    view.tricks.forEach((trick) => {
      items.push(`${t("web.trick")}: ${trick.cards.map(([seat, c]) => `${who(seat)} ${prettyAction(c)}`).join(", ")} → ${who(trick.winner)}`);
    });
    if (view.trick) items.push(`${t("web.trick")}: ${view.trick.cards.map(([seat, c]) => `${who(seat)} ${prettyAction(c)}`).join(", ")}`);
  }
  const log = document.getElementById("log");
  log.replaceChildren(...items.map((text) => el("li", {}, text)));
  log.scrollTop = log.scrollHeight;
}

function signed(n) { return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0"; }

// Bank's bonuses (rules 7.2-7.5) in the page's language: the catalog's words of each rule.
const BONUS_KEYS = { "7.2": "bank.bonus.7.2", "7.3": "bank.bonus.7.3", "7.4": "bank.bonus.7.4", "7.5": "bank.bonus.7.5" };

function bonusText(rule, what, place) {
  return BONUS_KEYS[rule] ? t(BONUS_KEYS[rule], { place }) : what;
}

function bankTable() {
  const head = [t("web.deal"), ...names()];
  const rows = msg.scores.results.map((r) => [String(r.number), ...names().map((_, seat) => {
    const extra = r.bonuses[seat].map(([rule, what, points]) => `${bonusText(rule, what, r.places[seat])} ${signed(points)} (${rule})`);
    if (r.penalties[seat]) extra.push(`${t("web.penalties")} ${signed(-Math.abs(r.penalties[seat]))}`);
    return `${signed(r.scores[seat])} → ${r.totals[seat]}${extra.length ? ` [${extra.join("; ")}]` : ""}`;
  })]);
  return tableEl(head, rows);
}

function scoresEl(game) {
  const box = el("div", {});
  if (game === "bank") {
    box.append(el("div", { class: "table-wrap" }, bankTable()));
  } else {
    const table = msg.scores[lang()];
    box.append(el("div", { class: "table-wrap" }, tableEl(table.head.map(localNames),
      table.rows.map((row) => row.map(localNames)))));
    if (table.status) box.append(el("p", { class: "muted" }, localNames(table.status)));
  }
  const chart = el("div", {});
  chart.innerHTML = chartSvg({ ...msg.scores.chart, names: names() });
  box.append(chart);
  return box;
}

function renderScores(game) {
  document.getElementById("scores").replaceChildren(scoresEl(game));
}

function renderEnd(view, game) {
  if (!msg.table.over) return;
  const winner = game === "bank" ? view.winner : msg.scores.winner;
  document.getElementById("end-body").replaceChildren(
    el("p", { class: "status" }, `${t("web.winner")}: ${who(winner)}`), scoresEl(game));
  if (!endShown) { document.getElementById("end").classList.remove("hidden"); endShown = true; }
}

// The coach (docs/analysis.md): once the game is over, a seat's decisions rated, each with the better
// move. A player asks for their own seat; anyone may pick a seat of a public table (no private link).
function renderCoach() {
  const open = msg.table.seats.every((seat) => seat.bot || seat.open);
  const shown = msg.table.over && DRAWN.has(msg.table.game) && (msg.seat !== null || open);
  document.getElementById("coach-panel").classList.toggle("hidden", !shown);
  const select = document.getElementById("coach-seat");
  select.classList.toggle("hidden", msg.seat !== null);
  if (select.options.length !== names().length) {
    select.replaceChildren(...names().map((name, i) => el("option", { value: i }, name)));
  }
}

async function askCoach() {
  const status = document.getElementById("coach-status");
  const button = document.getElementById("coach-ask");
  button.disabled = true;
  const seat = msg.seat !== null ? msg.seat : Number(document.getElementById("coach-seat").value);
  try {
    const data = await api("POST", `/api/tables/${TABLE_ID}/analysis`, { seat, token: TOKEN || undefined });
    if (data.status !== "done") {
      status.textContent = t("web.coachProgress", { done: data.done, total: data.total });
      setTimeout(askCoach, 1000);
      return;
    }
    showCoach(data.analysis);
  } catch (error) {
    status.textContent = errorText(error);
  }
  button.disabled = false;
}

function showCoach(analysis) {
  const marked = analysis.moves.filter((move) => move.mark).length;
  document.getElementById("coach-status").textContent = t("web.coachSummary", { moves: analysis.moves.length, marked });
  document.body.dataset.coach = String(analysis.moves.length);
  document.getElementById("coach").replaceChildren(...analysis.moves.map((move) => el("li",
    { class: move.mark === "??" ? "blunder" : move.mark ? "mistake" : null, dataset: { mark: move.mark } },
    `${prettyAction(move.action)}${move.mark}`,
    move.mark ? ` — ${t("web.coachBetter")}: ${prettyAction(move.best)} (${(move.value_played - move.value_best).toFixed(1)})` : "")));
}

document.getElementById("coach-ask").addEventListener("click", askCoach);
document.getElementById("end-close").addEventListener("click", () => document.getElementById("end").classList.add("hidden"));
document.getElementById("hand").addEventListener("keydown", handKeys);
document.getElementById("hand").addEventListener("focusin", (e) => {
  handFocus = [...document.querySelectorAll("#hand .card")].indexOf(e.target);
});
langSwitch(() => { setConn(document.body.dataset.connected === "1"); if (msg) render(); });
setConn(false);
connect();
