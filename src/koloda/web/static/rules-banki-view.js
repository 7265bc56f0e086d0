// The browser's copy of koloda's rules, part 4: what the banki referee says, as koloda.banki.view and
// koloda.web.banki say it: the situation in words (describe), what happens next (whatNext), what the last
// event did (newsText), the open yard (observe), the events that may come next (legalEvents, the page's
// taps) and the page's JSON (toJson). Mirrors the Python functions of the same names.
"use strict";

(function (R) {
  const B = R.banki;
  const D = () => R.data().banki;
  const say = (lang, key, params) => R.say(lang, key, params);
  const rankName = (rank, lang) => B.rankWord(rank).text(lang);

  function describe(state, lang) {
    const variant = say(lang, D().variants[state.options.style]);
    const phase = say(lang, D().phases[state.phase]);
    const lines = [say(lang, "banki.describe.head", { variant, round: state.round, phase })];
    if (state.driver !== null) {
      const can = say(lang, state.can_up ? "banki.describe.can_up" : "banki.describe.can_down");
      const driver = `${state.names[state.driver]} (${rankName(state.rankId(state.driver), lang)})`;
      lines.push(say(lang, "banki.describe.driver", { driver, can }));
    }
    const seats = state.order.length ? state.order : state.names.map((_, seat) => seat);
    seats.forEach((seat, index) => {
      const parts = [`${index + 1}. ${state.names[seat]}`,
        say(lang, "banki.describe.line", { rank: rankName(state.rankId(seat), lang), metres: R.formatG(state.line(seat)) })];
      if (["throw", "race", "driver-throw"].includes(state.phase)) parts.push(say(lang, D().sticks[state.stick[seat]]));
      if (state.steps[seat]) parts.push(say(lang, "banki.describe.steps", { steps: state.steps[seat] }));
      if (state.tagged === seat) parts.push(say(lang, "banki.describe.tagged"));
      if (state.kicks[seat].length && state.phase === "kick") parts.push(say(lang, "banki.describe.kicks", { kicks: state.kicks[seat].map((cm) => R.formatG(cm / 100)).join(", ") }));
      lines.push(parts.join(" — "));
    });
    for (const [seat, text] of state.orders) lines.push(B.say("news_order_given", lang, { name: state.names[seat], text }));
    return lines.join("\n");
  }
  B.describe = describe;

  function tagTerms(state, seat, lang) {
    const [means, parts] = state.privileges(state.rankId(seat));
    return `${state.names[seat]} (${say(lang, D().means_words[means])}, ${say(lang, D().parts_words[parts])})`;
  }

  function chelyabinskSticks(state, lang, out) {
    const names = (test) => state.players().filter(test).map((s) => state.names[s]);
    const field = names((s) => state.stick[s] === "field");
    const pile = names((s) => state.stick[s] === "pile");
    const waiting = names((s) => state.hit_waiting[s]);
    if (field.length) out.push(B.say("next_chel_back_field", lang, { names: field.join(", ") }));
    if (pile.length) out.push(B.say("next_chel_pile", lang, { names: pile.join(", ") }));
    if (waiting.length) out.push(B.say("next_chel_hitter", lang, { names: waiting.join(", ") }));
  }

  function whatNext(state, lang) {
    const names = state.names;
    const phase = state.phase;
    const driver = state.driver === null ? "-" : names[state.driver];
    const out = [];
    const s = (key, params) => B.say(key, lang, params);
    if (phase === "count") return [s("next_count")];
    if (phase === "kick") {
      out.push(s("next_kick", { names: state.pendingKickers().map((seat) => names[seat]).join(", ") }));
      if (state.driver === null) out.push(s("next_kick_driver"));
      return out;
    }
    if (phase === "over") {
      const winners = state.winners.map((seat) => names[seat]).join(", ");
      out.push(s("next_over", { names: winners }));
      if (state.options.winner_orders) out.push(s("next_orders", { names: winners }));
      return out;
    }
    if (phase === "driver-throw") return [s("next_driver_throw", { driver })];
    if (phase === "run") return [s("next_run", { driver, rank: state.options.ranks[0] })];
    const just = state.just_threw;
    if (just !== null && state.options.crossed_sticks) out.push(s("next_cross", { name: names[just] }));
    if (!state.can_up) out.push(phase === "throw" ? s("next_reset") : s("next_can_down_race"));
    if (phase === "throw") {
      const thrower = state.thrower();
      if (thrower !== null) {
        const where = state.options.style === "moscow" ? "" : ` ${inWords("pile", lang)}|${inWords("field", lang)}`;
        out.push(s("next_throw", { name: names[thrower], rank: state.rankId(thrower), line: R.formatG(state.line(thrower)), where }));
        if (state.options.spear_ranks.includes(state.rankId(thrower))) out.push(s("next_spear", { name: names[thrower] }));
      }
      if (state.options.style === "chelyabinsk") chelyabinskSticks(state, lang, out);
      if (state.fresh) out.push(s("next_roster"));
      return out;
    }
    const outThere = state.players().filter((seat) => state.stick[seat] !== "hand");
    out.push(s("next_race", { names: outThere.map((seat) => names[seat]).join(", ") }));
    if (state.tagged !== null) {
      out.push(s("next_tagged", { name: names[state.tagged], driver }));
    } else if (state.can_up) {
      const may = outThere.filter((seat) => state.taggable(seat));
      if (may.length) out.push(s("next_may_tag", { driver, list: may.map((seat) => tagTerms(state, seat, lang)).join("; ") }));
      else out.push(s("next_no_tag"));
      const safe = outThere.filter((seat) => !state.taggable(seat));
      if (safe.length) out.push(s("next_safe", { list: safe.map((seat) => `${names[seat]} (${rankName(state.rankId(seat), lang)})`).join(", ") }));
      out.push(s("next_fouls"));
    }
    const holding = outThere.filter((seat) => state.privileges(state.rankId(seat))[0] === "holding");
    if (holding.length) out.push(s("next_pick", { names: holding.map((seat) => names[seat]).join(", ") }));
    const fetchers = state.players().filter((seat) => state.options.fetch_others_ranks.includes(state.rankId(seat))).map((seat) => names[seat]);
    if (fetchers.length) out.push(s("next_bring", { names: fetchers.join(", ") }));
    return out;
  }
  B.whatNext = whatNext;

  B.newsText = (state, lang) => state.news.map(([key, params]) => B.say(key, lang, params));

  // The open yard: everything but the seed (koloda.banki.view.observe).
  function observe(state, seat) {
    return {
      names: state.names.slice(), you: seat === undefined ? null : seat, options: state.options, phase: state.phase,
      round: state.round, driver: state.driver, order: state.order.slice(),
      ranks: state.names.map((_, s) => state.rankId(s)), sticks: state.stick.slice(),
      kicks: state.kicks.map((k) => k.slice()), can_up: state.can_up, tagged: state.tagged, thrower: state.thrower(),
      pending_promotions: state.steps.slice(), winners: state.winners.slice(), present: state.present.slice(),
      orders: state.orders.map(([s, text]) => [s, text]), history: state.history.map(B.eventText),
    };
  }
  B.observe = observe;

  function* candidates(state) {
    const ev = B.event;
    const names = state.names;
    const kinds = state.allowedKinds();
    const here = names.filter((_, seat) => state.present[seat]);
    for (const kind of ["count", "reset", "guarded"]) if (kinds.includes(kind)) yield ev(kind);
    if (kinds.includes("counted")) for (const name of here) yield ev("counted", { player: name });
    if (kinds.includes("kick")) {
      for (const seat of state.pendingKickers()) for (const m of [3, 7, 11]) yield ev("kick", { player: names[seat], centimetres: m * 100 });
    }
    const simple = ["hit", "back", "pick", "knock", "snatch", "last", "leave"];
    for (const name of here) {
      for (const kind of simple) if (kinds.includes(kind)) yield ev(kind, { player: name });
      if (kinds.includes("hit")) yield ev("hit", { player: name, spear: true });
      if (kinds.includes("miss")) {
        yield ev("miss", { player: name });
        yield ev("miss", { player: name, spear: true });
        for (const where of ["pile", "field"]) yield ev("miss", { player: name, where });
      }
      if (kinds.includes("foul")) for (const foul of ["grab", "line"]) yield ev("foul", { player: name, foul });
      if (kinds.includes("tag")) {
        for (const means of ["stick", "hand"]) for (const part of ["torso", "arm", "leg", "heel"]) yield ev("tag", { player: name, means, part });
      }
      if (kinds.includes("bring") && state.options.fetch_others_ranks.includes(state.rankId(state.seat(name)))) {
        for (const other of here) if (other !== name) yield ev("bring", { player: name, other });
      }
      if (kinds.includes("order") && state.options.winner_orders) yield ev("order", { player: name, text: "whistle three times" });
    }
    if (kinds.includes("cross") && state.just_threw !== null) {
      const thrower = names[state.just_threw];
      for (const other of here) if (other !== thrower) yield ev("cross", { player: thrower, other });
    }
    if (kinds.includes("join")) for (let seat = 0; seat < names.length; seat++) if (!state.present[seat]) yield ev("join", { player: names[seat] });
  }

  // The events the rules allow now (apply judges; a count waiting for the server is listed, as it may be).
  function legalEvents(state) {
    const out = [];
    for (const e of candidates(state)) {
      try {
        state.copy().apply(e);
      } catch (error) {
        if (error instanceof B.RefereeError) continue;
        if (!(error instanceof B.NeedsServer)) throw error;
      }
      out.push(e);
    }
    return out;
  }
  B.legalEvents = legalEvents;

  function templates(state) {
    const out = [];
    if (state.allowedKinds().includes("kick")) for (const seat of state.pendingKickers()) out.push(`kick ${state.names[seat]}`);
    if (state.allowedKinds().includes("join") && state.fresh && state.present.filter(Boolean).length < state.options.max_players) out.push("join");
    if (state.phase === "over" && state.options.winner_orders) {
      for (const seat of state.players()) if (!state.winners.includes(seat)) out.push(`order ${state.names[seat]}`);
    }
    return out;
  }
  B.templates = templates;

  // koloda.banki.events.in_words: an event line with its keywords in `lang` (an order's own words kept).
  function inWords(text, lang) {
    if (lang === "en") return text;
    const words = text.split(" ");
    const keep = words[0] === "order" ? 2 : words.length;
    const russian = D().russian;
    return words.map((word, i) => (i < keep && Object.prototype.hasOwnProperty.call(russian, word) ? russian[word] : word)).join(" ");
  }
  B.inWords = inWords;

  // koloda.web.banki.to_json: what the referee page shows.
  B.toJson = function toJson(id, state) {
    const listed = legalEvents(state).filter((e) => e.kind !== "kick" && e.kind !== "order").map(B.eventText);
    const started = templates(state);
    const view = observe(state);
    const out = { id, names: state.names.slice(), view, over: state.isOver(), suggestions: listed, templates: started };
    for (const lang of ["ru", "en"]) {
      out[lang] = {
        describe: describe(state, lang), next: whatNext(state, lang), news: B.newsText(state, lang),
        history: view.history.map((line) => inWords(line, lang)),
        suggestions: listed.map((text) => inWords(text, lang)),
        templates: started.map((text) => inWords(text, lang)),
      };
    }
    out.source = {
      names: state.names.slice(0, state.starters), options: state.options, events: state.history.map(B.eventText),
      drawn: state.history.some((e) => e.kind === "count") ? state.drawn : null,
    };
    return out;
  };

  // koloda.web.banki.add_event: referee one line of text; a refused one throws the web's refusal.
  B.addEvent = function addEvent(state, text) {
    try {
      state.apply(state.parseEvent(text));
    } catch (error) {
      if (error instanceof R.RuleError) throw error.refusal("bad_event", "event");
      throw error;
    }
    return state;
  };
})(globalThis.KolodaRules);
