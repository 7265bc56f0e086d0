// The lessons (issue 31, docs/learn.md): short lessons on prepared deals, played in the browser. The server
// played each lesson through once (koloda.web.learn) and sent its steps with the page: at each step the
// learner's view (a table's frame's view), the right move, and the engine's answer to every other move
// this page lets the learner try, in both languages. So a lesson needs no request, and every refusal is
// the engine's own words with the rule it names (a link to the rules page). What is done is kept in the
// browser (localStorage "koloda-learn": {game: [lesson ids]}).
"use strict";

const LESSONS = JSON.parse(document.getElementById("koloda-lessons").textContent);
const DONE_KEY = "koloda-learn";
const CARD_TEXT = /^(10|[6-9JQKA])[SCDH]$/;
let current = null;  // {game, index, step, answer}

function doneOf() {
  try {
    const found = JSON.parse(localStorage.getItem(DONE_KEY) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch (error) {
    return {};
  }
}

function markDone(game, id) {
  const done = doneOf();
  done[game] = [...new Set([...(done[game] || []), id])];
  localStorage.setItem(DONE_KEY, JSON.stringify(done));
}

function lessonOf(game, index) { return LESSONS[game].lessons[index]; }
function words(lesson) { return lesson.words[lang()] || lesson.words.ru; }

// The seats' names: the lesson's, as many as its deal has seats, the learner's own seat "you".
function names(lesson) {
  const list = words(lesson).names.slice(0, lesson.steps.length ? lesson.steps[0].view.players : lesson.end.players);
  const you = t("web.you");
  list[lesson.seat] = you.charAt(0).toUpperCase() + you.slice(1);
  return list;
}

function renderList() {
  const done = doneOf();
  document.getElementById("games").replaceChildren(...Object.entries(LESSONS).map(([game, data]) =>
    el("div", { class: "lesson-game", dataset: { game } },
      el("h3", {}, data.title[lang()] || game),
      el("ol", { class: "lesson-items" }, data.lessons.map((lesson, index) => {
        const finished = (done[game] || []).includes(lesson.id);
        return el("li", { class: finished ? "done" : null },
          el("button", { type: "button", class: "lesson-open", dataset: { game, lesson: lesson.id },
            onclick: () => openLesson(game, index) },
          el("span", { class: "lesson-mark", "aria-hidden": "true" }, finished ? "✓" : "·"), " ", words(lesson).title),
          el("span", { class: "muted" }, ` ${words(lesson).goal}`),
          finished ? el("span", { class: "visually-hidden" }, ` (${t("web.lessonDone")})`) : "");
      })))));
}

function openLesson(game, index) {
  current = { game, index, step: 0, answer: null };
  window.location.hash = `${game}/${lessonOf(game, index).id}`;
  render();
  document.getElementById("lesson-title").focus();
}

function closeLesson() {
  current = null;
  window.history.replaceState(null, "", window.location.pathname);
  render();
}

// A move as the page says it: the card in the page's ranks, a gift to whom, a marriage declared.
function moveText(text, view, lesson) {
  if (/^(10|[9JQKA])[SCDH]>[12]$/.test(text)) {
    const [card, k] = text.split(">");
    const who = names(lesson);
    const seats = [1, 2].map((d) => (view.declarer + d) % view.players);
    return `${t("web.give")} ${prettyAction(card)} → ${who[seats[Number(k) - 1]]}`;
  }
  if (text.endsWith("+")) return `${prettyAction(text.slice(0, -1))} + ${t("web.marriage")}`;
  return prettyAction(text);
}

function renderSeats(view, lesson) {
  const who = names(lesson);
  const counts = view.hand_counts || view.hand_sizes || [];
  document.getElementById("lesson-seats").replaceChildren(...who.map((name, seat) =>
    el("div", { class: `seat${view.current_player === seat ? " turn" : ""}`, dataset: { seat } },
      el("div", { class: "who" }, name),
      el("div", { class: "facts" }, `${t("web.cardsWord")}: ${counts[seat] ?? 0} · ${t("web.score")}: ${view.totals[seat]}`))));
}

function zone(title, ...content) {
  return el("div", { class: "zone" }, el("h3", {}, title), ...content);
}

function bankZones(view, lesson) {
  const who = names(lesson);
  const shown = view.bank.slice(-6);
  const pile = el("div", { class: "pile" }, shown.map((c, i) => cardEl(c, i === shown.length - 1 ? "small top" : "small")));
  const cover = view.to_cover ? t("web.toCoverHow", { card: prettyAction(view.to_cover) }) : t("web.leadAny");
  let trumps = t("web.trumpsNone");
  if (view.trumps !== "none" && view.trump_suits.length) {
    const suits = view.trump_suits.map((s) => SUITS[s] || "?");
    if (view.trumps === "own") {
      const others = suits.map((s, i) => (i === lesson.seat ? null : `${who[i]} ${s}`)).filter(Boolean).join(", ");
      trumps = t("web.trumpsOwn", { mine: suits[lesson.seat], others });
    } else {
      trumps = t("web.trumpsShared", { setup: t(TRUMP_SETUPS[view.trumps] || "web.trumps"), suits: suits.join(" ") });
    }
  }
  return [
    zone(`${t("web.bank")} (${view.bank.length})`, view.bank.length ? pile : el("span", {}, "—"), el("div", { class: "cover" }, cover)),
    zone(t("web.trumps"), el("div", {}, trumps), el("div", { class: "note" }, `${t("web.stock")}: ${view.stock_size}`)),
  ];
}

const TRUMP_SETUPS = {
  own: "web.trumps.own", none: "web.trumps.none", one: "web.trumps.one", two: "web.trumps.two",
  "senior-junior": "web.trumps.senior-junior",
};

function thousandZones(view, lesson) {
  const who = names(lesson);
  const bids = view.bids.map(([seat, bid], i) => `${who[seat]}: ${bid === "pass" ? t("web.pass") : bid}`
    + (i === 0 ? ` (${t("web.compulsory")})` : "")).join(", ");
  const facts = [];
  if (view.declarer !== null) facts.push(`${t("web.declarer")}: ${who[view.declarer]} ${view.contract || view.high_bid}`);
  if (view.trump) facts.push(`${t("web.trump")}: ${SUITS[view.trump]}`);
  const zones = [zone(t("web.bidding"), el("div", {}, bids), el("div", {}, facts.join(" · ")))];
  if (view.talon) zones.push(zone(t("web.talon"), el("div", { class: "cards" }, view.talon.map((c) => cardEl(c, "small")))));
  const trick = view.trick ? view.trick.cards : [];
  if (trick.length) {
    zones.push(zone(t("web.trick"), el("div", { class: "cards" }, trick.map(([seat, c]) =>
      el("span", { class: "trick-card" }, cardEl(c, "small"), who[seat])))));
  }
  return zones;
}

function renderLog(moves, view, lesson) {
  const who = names(lesson);
  document.getElementById("lesson-log").replaceChildren(...moves.map(([seat, text]) =>
    el("li", {}, `${who[seat] ?? ""}: ${moveText(text, view, lesson)}`)));
}

function tryMove(action) {
  const lesson = lessonOf(current.game, current.index);
  const step = lesson.steps[current.step];
  if (action === step.play) {
    current.step += 1;
    current.answer = null;
    if (current.step === lesson.steps.length) markDone(current.game, lesson.id);
  } else {
    current.answer = step.answers[String(action)] || null;
    document.body.dataset.refused = String((Number(document.body.dataset.refused) || 0) + 1);
  }
  render();
}

function renderHand(view, step) {
  const hand = document.getElementById("lesson-hand");
  hand.replaceChildren(...view.hand.map((card) => {
    const node = cardEl(card);
    const action = step ? step.cards[card] : undefined;
    node.setAttribute("role", "button");
    node.tabIndex = step ? 0 : -1;
    if (step && action !== undefined) {
      node.dataset.action = action;
      node.addEventListener("click", () => tryMove(action));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); tryMove(action); }
      });
    }
    return node;
  }));
  const box = document.getElementById("lesson-actions");
  box.replaceChildren();
  if (!step) return;
  const lesson = lessonOf(current.game, current.index);
  const buttons = [...view.actions.filter(([, text]) => !CARD_TEXT.test(text)), ...step.offer];
  for (const [action, text] of buttons) {
    box.append(el("button", { class: "act", type: "button", dataset: { action }, onclick: () => tryMove(action) },
      moveText(text, view, lesson)));
  }
}

function renderAnswer(lesson) {
  const box = document.getElementById("lesson-answer");
  const answer = current.answer;
  if (!answer) { box.replaceChildren(); return; }
  const why = answer.why[lang()] || answer.why.en || "";
  const link = el("a", { href: `/rules/${lesson.game}?lang=${lang()}#rule-${answer.rule}`, class: "rule-link" },
    t("web.lessonRule", { rule: answer.rule }));
  box.replaceChildren(el("span", {}, why), " ", link);
}

function render() {
  renderList();
  const section = document.getElementById("lesson");
  document.getElementById("lesson-list").classList.toggle("hidden", current !== null);
  section.classList.toggle("hidden", current === null);
  if (!current) { delete document.body.dataset.lesson; return; }
  const lesson = lessonOf(current.game, current.index);
  const said = words(lesson);
  const over = current.step >= lesson.steps.length;
  const step = over ? null : lesson.steps[current.step];
  const view = over ? lesson.end : step.view;
  const previous = current.step > 0 ? lesson.steps[current.step - 1].after : [];
  Object.assign(document.body.dataset, { lesson: lesson.id, step: String(current.step), over: over ? "1" : "0" });
  document.getElementById("lesson-title").textContent = said.title;
  document.getElementById("lesson-title").tabIndex = -1;
  document.getElementById("lesson-goal").textContent = `${said.goal} · ${t("web.lessonStep", { step: Math.min(current.step + 1, lesson.steps.length), count: lesson.steps.length })}`;
  document.getElementById("lesson-step").textContent = over ? said.done : said.steps[current.step];
  renderSeats(view, lesson);
  document.getElementById("lesson-zones").replaceChildren(...(lesson.game === "bank" ? bankZones(view, lesson) : thousandZones(view, lesson)));
  renderLog([...previous, ...(step ? step.before : [])], view, lesson);
  renderHand(view, step);
  renderAnswer(lesson);
  const next = document.getElementById("lesson-next");
  const more = current.index + 1 < LESSONS[current.game].lessons.length;
  next.classList.toggle("hidden", !over || !more);
}

function fromHash() {
  const [game, id] = window.location.hash.slice(1).split("/");
  const index = LESSONS[game] ? LESSONS[game].lessons.findIndex((lesson) => lesson.id === id) : -1;
  if (index >= 0) { current = { game, index, step: 0, answer: null }; render(); }
}

document.getElementById("lesson-back").addEventListener("click", closeLesson);
document.getElementById("lesson-again").addEventListener("click", () => openLesson(current.game, current.index));
document.getElementById("lesson-next").addEventListener("click", () => openLesson(current.game, current.index + 1));
langSwitch(render);
render();
fromHash();
