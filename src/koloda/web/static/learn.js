// The table page's "Rules" and "Hint" (issue 31, docs/learn.md), in #table-tools: the page's render calls
// every function of window.koloda_extras with its frame, and this is one of them (table.js never reaches
// in here, nor this into table.js). "Rules" opens the rules of the table's game, its agreements marked, at
// the rule of the phase being played; "Hint", for the seat to move, asks the coach for the move it rates
// best (POST /api/tables/ID/hint with the seat's link) and shows it with its reason, the card outlined.
"use strict";

(() => {
  const TABLE = window.location.pathname.split("/").pop();
  const TOKEN = new URLSearchParams(window.location.search).get("token");
  const phases = {};  // the rule of each phase, by game (GET /api/rules/GAME)
  let frame = null;
  let hint = null;  // the last hint shown: {v, text, words, reason}
  let asking = false;

  async function phasesOf(game) {
    if (phases[game] !== undefined) return;
    phases[game] = {};
    try {
      phases[game] = (await api("GET", `/api/rules/${game}`)).phases;
      if (frame) show(frame);
    } catch (error) {
      // offline: the rules open at their top
    }
  }

  function tools(box) {
    if (!box.querySelector("#rules-link")) {
      box.replaceChildren(
        el("a", { id: "rules-link", class: "tool", target: "_blank", rel: "noopener" }),
        el("button", { id: "hint-ask", class: "tool", type: "button", onclick: ask }),
        el("span", { id: "hint-text", class: "hint-text", "aria-live": "polite" }));
    }
  }

  function show(msg) {
    frame = msg;
    const box = document.getElementById("table-tools");
    const game = msg.table.game;
    if (!box || !["bank", "thousand"].includes(game)) return;
    phasesOf(game);
    tools(box);
    const rule = (phases[game] || {})[msg.view.phase];
    const link = box.querySelector("#rules-link");
    link.textContent = t("web.rulesButton");
    link.href = `/rules/${game}?table=${encodeURIComponent(TABLE)}&lang=${lang()}${rule ? `#rule-${rule}` : ""}`;
    const mine = msg.seat !== null && !msg.table.over && msg.view.current_player === msg.seat && msg.view.actions.length > 0;
    const button = box.querySelector("#hint-ask");
    button.textContent = asking ? t("web.hintThinking") : t("web.hintButton");
    button.disabled = asking;
    button.classList.toggle("hidden", !mine || !TOKEN);
    const said = box.querySelector("#hint-text");
    if (hint && hint.v === msg.v && mine) {
      said.textContent = t("web.hintShown", { move: hint.words[lang()], reason: hint.reason[lang()] });
      document.querySelectorAll(`#hand .card[data-card="${hint.text}"]`).forEach((card) => card.classList.add("hinted"));
    } else if (!asking) {
      said.textContent = "";
    }
  }

  async function ask() {
    if (!frame || asking) return;
    asking = true;
    show(frame);
    const said = document.getElementById("hint-text");
    try {
      hint = await api("POST", `/api/tables/${TABLE}/hint`, { token: TOKEN, v: frame.v });
      document.body.dataset.hint = hint.text;
    } catch (error) {
      hint = null;
      said.textContent = errorText(error);
    }
    asking = false;
    show(frame);
  }

  (window.koloda_extras = window.koloda_extras || []).push(show);
})();
