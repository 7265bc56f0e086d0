// Shuffles anyone can check (docs/web.md, the section on fair shuffles): what this browser saw of a table's deals, and its own check
// of the secret once the table reveals it. The browser keeps the commitment it was first shown and this
// seat's hand at the first frame of each deal; at the end it hashes the secret itself, deals every deal
// it saw again from the secret with the game's own deal (the same as koloda.seeds, koloda/bank/deal.py and
// koloda/thousand/deal.py), and compares. It trusts the server for nothing but the public facts of each
// deal (its stream's label, the dealer, the seats dealt to), which cannot make a wrong secret deal the
// hands this seat saw.
"use strict";

const FAIR_STORE = "koloda.fair.";

function fairKey(tableId, seat) { return `${FAIR_STORE}${tableId}.${seat === null ? "watch" : seat}`; }

function fairLoad(tableId, seat) {
  try { return JSON.parse(window.localStorage.getItem(fairKey(tableId, seat))); } catch { return null; }
}

function fairSave(tableId, seat, data) {
  try { window.localStorage.setItem(fairKey(tableId, seat), JSON.stringify(data)); } catch { /* private mode */ }
}

// Every frame: the first commitment seen (and when), a later different one noted, and this seat's hand at
// the first frame of each deal with that frame's version (a deal first seen in its middle is not checked).
function fairNote(tableId, message) {
  const fair = message.table && message.table.fair;
  if (!fair || fair.kind !== "secret") return null;
  const seat = message.seat;
  const data = fairLoad(tableId, seat) || { commitment: fair.commitment, seen: new Date().toISOString(), hands: {} };
  if (fair.commitment !== data.commitment) data.changed = fair.commitment;
  const view = message.view;
  if (seat !== null && view && Array.isArray(view.hand) && view.deal && !(view.deal in data.hands)) {
    data.hands[view.deal] = { v: message.v, hand: view.hand.slice() };
  }
  fairSave(tableId, seat, data);
  return data;
}

function fairBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function fairHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function fairCommitment(secret) {
  return fairHex(await window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
}

// koloda.seeds.Stream: block i = HMAC-SHA256(secret, label, 0, i as 8 big-endian bytes), eight 32-bit
// big-endian words each; below(n) takes the top bits of the next word and draws again past n.
class FairStream {
  constructor(key, label) {
    this.key = key;
    this.label = new TextEncoder().encode(label);
    this.block = 0;
    this.words = [];
  }

  async word() {
    if (!this.words.length) {
      const message = new Uint8Array(this.label.length + 9);
      message.set(this.label, 0);
      new DataView(message.buffer).setBigUint64(this.label.length + 1, BigInt(this.block));
      const digest = new DataView(await window.crypto.subtle.sign("HMAC", this.key, message));
      for (let i = 0; i < 8; i += 1) this.words.push(digest.getUint32(4 * i));
      this.block += 1;
    }
    return this.words.shift();
  }

  async below(n) {
    if (n === 1) return 0;
    const shift = 32 - (n - 1).toString(2).length;
    for (;;) {
      const value = (await this.word()) >>> shift;
      if (value < n) return value;
    }
  }

  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
  }
}

const FAIR_SUITS = "SCDH";
const FAIR_GAMES = {
  // koloda/bank/deal.py shuffle: four cards each from the dealer's left, popped from the deck's end
  bank: {
    ranks: ["6", "7", "8", "9", "10", "J", "Q", "K", "A"],
    deal(deck, dealer, seats, players) {
      const hands = Array.from({ length: players }, () => []);
      const order = [];
      for (let k = 0; k < players; k += 1) {
        const seat = (dealer + 1 + k) % players;
        if (seats.includes(seat)) order.push(seat);
      }
      for (let round = 0; round < 4; round += 1) for (const seat of order) hands[seat].push(deck.pop());
      return hands;
    },
  },
  // koloda/thousand/deal.py shuffle: seven cards each from the dealer's left (the dealer of four sits
  // out, rule G2), the last three to the talon
  thousand: {
    ranks: ["9", "10", "J", "Q", "K", "A"],
    deal(deck, dealer, seats, players) {
      const hands = Array.from({ length: players }, () => []);
      let seat = dealer;
      for (const start of [0, 7, 14]) {
        seat = seat === dealer ? (dealer + 1) % players : seats[(seats.indexOf(seat) + 1) % seats.length];
        hands[seat] = deck.slice(start, start + 7);
      }
      return hands;
    },
  },
};

// Every seat's hand of one deal ({label, dealer, seats}) dealt again from the secret, as card texts.
async function fairHands(game, secret, deal, players) {
  const rules = FAIR_GAMES[game];
  const key = await window.crypto.subtle.importKey("raw", fairBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const size = rules.ranks.length * 4;
  const deck = Array.from({ length: size }, (_, i) => i);
  await new FairStream(key, deal.label).shuffle(deck);
  const card = (id) => rules.ranks[id % rules.ranks.length] + FAIR_SUITS[Math.floor(id / rules.ranks.length)];
  return rules.deal(deck, deal.dealer, deal.seats, players).map((hand) => hand.map(card));
}

function fairSame(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

// The check the page's button runs: {ok, lines} (words in the page's language; t() is common.js's).
async function fairCheck(tableId, seat, game, players, answer) {
  const saved = fairLoad(tableId, seat);
  const lines = [];
  let ok = answer.ok === true;
  const own = await fairCommitment(answer.secret);
  if (own !== answer.commitment) { ok = false; lines.push(t("web.fairWrongSecret")); }
  if (saved) {
    if (own !== saved.commitment || saved.changed) {
      ok = false;
      lines.push(t("web.fairChanged", { seen: new Date(saved.seen).toLocaleString() }));
    } else {
      lines.push(t("web.fairCommitmentOk", { seen: new Date(saved.seen).toLocaleString() }));
    }
    let checked = 0;
    let skipped = 0;
    for (const [number, seen] of Object.entries(saved.hands)) {
      const deal = answer.deals[Number(number) - 1];
      if (!deal || deal.version !== seen.v || !FAIR_GAMES[game]) { skipped += 1; continue; }
      const hands = await fairHands(game, answer.secret, deal, players);
      if (!fairSame(hands[seat], seen.hand)) {
        ok = false;
        lines.push(t("web.fairHandWrong", { deal: number }));
      } else {
        checked += 1;
      }
    }
    if (checked) lines.push(t("web.fairHandsOk", { count: checked }));
    if (skipped) lines.push(t("web.fairSkipped", { count: skipped }));
  } else {
    lines.push(t("web.fairNothingSeen"));
  }
  if (answer.ok !== true) lines.push(t("web.fairServerFailed", { reason: answer.failure || "" }));
  lines.unshift(ok ? t("web.fairOk") : t("web.fairBad"));
  return { ok, lines };
}

// The table page's panel: how this table deals, the commitment (and the secret once shown), the check.
function fairRender(tableId, message) {
  const fair = message.table.fair;
  const panel = document.getElementById("fair-panel");
  if (!panel || !fair) return;
  const text = document.getElementById("fair-text");
  const code = document.getElementById("fair-code");
  const button = document.getElementById("fair-check");
  const record = document.getElementById("fair-record");
  const revealed = fair.kind === "secret" ? fair.secret !== null : message.table.over;
  if (fair.kind === "secret") {
    text.textContent = revealed ? t("web.fairRevealed") : t("web.fairSecret");
    code.textContent = revealed
      ? `${t("web.fairSecretIs")}: ${fair.secret}`
      : `${t("web.fairCommitmentIs")}: ${fair.commitment}`;
  } else if (fair.kind === "host") {
    text.textContent = t("web.fairHost", { seed: fair.seed });
    code.textContent = "";
  } else {
    text.textContent = t("web.fairNumber");
    code.textContent = fair.seed === null ? "" : `${t("web.fairSeedIs")}: ${fair.seed}`;
  }
  panel.classList.toggle("warn", fair.kind === "host");
  button.classList.toggle("hidden", !(fair.kind === "secret" && revealed));
  record.classList.toggle("hidden", !revealed);
  record.href = `/api/tables/${tableId}/record`;
  button.onclick = async () => {
    const result = document.getElementById("fair-result");
    result.replaceChildren(el("li", {}, t("web.fairChecking")));
    let answer;
    try { answer = await api("GET", `/api/tables/${tableId}/fairness`); } catch (error) {
      result.replaceChildren(el("li", {}, errorText(error)));
      return;
    }
    const checked = await fairCheck(tableId, message.seat, message.table.game, message.table.players, answer);
    const command = `koloda verify table-${tableId}.json --commitment ${answer.commitment}`;
    result.replaceChildren(...checked.lines.map((line) => el("li", {}, line)),
      el("li", {}, t("web.fairCommand"), " ", el("code", {}, command)));
    document.body.dataset.fair = checked.ok ? "ok" : "bad";
  };
}
