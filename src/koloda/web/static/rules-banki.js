// The browser's copy of koloda's rules, part 3: the banki referee, as koloda.banki does it: the events and
// their notation (events.py), the state and its rules (state.py, race.py for the Moscow race back, pile.py
// for the Chelyabinsk driver's throw and run, referee.py's helpers) and the referee's messages (text.py).
// Each method mirrors the Python one of the same name, with the same checks in the same order; what the
// referee says (describe, what next, the legal events) is in rules-banki-view.js. tests/web/test_web_rules.py
// holds both copies to the same answers on every case of the project's referee tests.
//
// One thing the browser cannot do alone: the counting-out (rule C1, the event `count`) is drawn from the
// game's seed, which the server never gives away (koloda.banki.view.observe); the page is told the seat it
// landed on only once the count is made (`drawn`), and a count entered offline waits for the server.
"use strict";

(function (R) {
  const B = (R.banki = {});
  const D = () => R.data().banki;
  const msg = R.msg;

  class NotationError extends R.RuleError {}
  B.NotationError = NotationError;
  // An event the page cannot referee without the server (the counting-out, rule C1).
  class NeedsServer extends Error {}
  B.NeedsServer = NeedsServer;

  // koloda.banki.text.message: the referee's message `key`, its ids (ranks, a stage, tagging terms) as words.
  function rankWord(rank) {
    const key = D().ranks[rank];
    return key !== undefined ? msg(key) : msg("banki.rank.custom", { id: rank });
  }
  B.rankWord = rankWord;

  function message(key, params) {
    const values = Object.assign({}, params);
    for (const [name, value] of Object.entries(params || {})) {
      if (name.startsWith("rank") && typeof value === "string") values[name] = rankWord(value);
    }
    if (params && "phase" in params) values.phase = msg(D().phases[params.phase]);
    if (params && "allowed_means" in params) values.allowed_means = msg(D().means_words[params.allowed_means]);
    if (params && "allowed_parts" in params) values.allowed_parts = msg(D().parts_words[params.allowed_parts]);
    return msg(D().keys[key], values);
  }
  B.message = message;
  B.say = (key, lang, params) => message(key, params).text(lang);

  class RefereeError extends R.RuleError {
    constructor(event, key, params) {
      const reason = message(key, params);
      super(event ? msg("banki.refused", { event, reason }) : reason);
      this.key = key;
    }
  }
  B.RefereeError = RefereeError;

  // -- events (koloda.banki.events) ------------------------------------------------------------------------

  const NAME = /^[\p{L}\p{Nl}\p{No}_][\p{L}\p{N}_-]*$/u;
  const DISTANCE = /^(\p{Nd}{1,4})(?:[.,](\p{Nd}{1,2}))?$/u;
  const FIELDS = ["kind", "player", "other", "centimetres", "spear", "where", "means", "part", "foul", "text"];

  function event(kind, fields) {
    const out = { kind, player: null, other: null, centimetres: null, spear: false, where: null, means: null, part: null, foul: null, text: null };
    return Object.assign(out, fields || {});
  }
  B.event = event;
  B.sameEvent = (a, b) => FIELDS.every((name) => a[name] === b[name]);

  function eventText(e) {
    const words = [e.kind];
    if (e.player !== null) words.push(e.player);
    if (e.other !== null) words.push(e.other);
    if (e.centimetres !== null) {
      const metres = Math.floor(e.centimetres / 100), cm = e.centimetres % 100;
      words.push(cm ? `${metres}.${String(cm).padStart(2, "0")}`.replace(/0+$/, "").replace(/\.$/, "") : String(metres));
    }
    if (e.spear) words.push("spear");
    for (const word of [e.where, e.means, e.part, e.foul, e.text]) if (word !== null) words.push(word);
    return words.join(" ");
  }
  B.eventText = eventText;
  const players = (e) => [e.player, e.other].filter((name) => name !== null);

  // koloda.names.clean: the composed form, and no character that does not show or turns the text around.
  const REFUSED = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;
  function cleanName(text) {
    const name = text.normalize("NFC");
    const bad = REFUSED.exec(name);
    if (bad) throw new NotationError(msg("names.refused", { char: "U+" + bad[0].codePointAt(0).toString(16).toUpperCase().padStart(4, "0") }));
    return name;
  }

  function checkName(text) {
    const name = cleanName(text);
    if (!NAME.test(name)) throw new NotationError(msg("banki.notation.name", { name }));
    if (D().reserved.includes(name.toLowerCase())) throw new NotationError(msg("banki.notation.reserved", { name }));
    return name;
  }
  B.checkName = checkName;

  function keyword(word) {
    const lowered = word.toLowerCase();
    if (lowered in D().aliases) return D().aliases[lowered];
    return D().reserved.includes(lowered) ? lowered : word;
  }

  function nameIn(word, text) {
    try {
      return checkName(word);
    } catch (error) {
      if (error instanceof NotationError) throw new NotationError(msg("banki.notation.in", { text, reason: error.msg }));
      throw error;
    }
  }

  const form = (text, shape) => new NotationError(msg("banki.notation.form", { text, form: shape }));
  function arity(text, args, count, shape) {
    if (args.length !== count) throw form(text, shape);
  }
  function choice(text, word, allowed, what) {
    if (!allowed.includes(word)) throw new NotationError(msg("banki.notation.choice", { text, what: msg(what), word, allowed: allowed.join(", ") }));
  }
  const number = (digits) => [...digits].reduce((value, ch) => value * 10 + R.digitValue(ch), 0);

  // Event.parse: an event in canonical or Russian notation; NotationError says what is wrong.
  function parse(text) {
    const words = R.split(text);
    const KINDS = D().kinds;
    if (!words.length) throw new NotationError(msg("banki.notation.empty", { kinds: KINDS.join(", ") }));
    const kind = keyword(words[0]);
    if (!KINDS.includes(kind)) throw new NotationError(msg("banki.notation.unknown", { word: words[0], text, kinds: KINDS.join(", ") }));
    let args = words.slice(1);
    if (kind === "order") {
      if (args.length < 2) throw form(text, "order NAME WHAT TO DO");
      return event("order", { player: nameIn(args[0], text), text: args.slice(1).join(" ") });
    }
    args = args.map(keyword);
    if (["count", "reset", "guarded"].includes(kind)) {
      arity(text, args, 0, kind);
      return event(kind);
    }
    if (kind === "knock" && args.length === 2) {
      choice(text, args[1], ["hand", "foot"], "banki.notation.what.means");
      return event("knock", { player: nameIn(args[0], text), means: args[1] });
    }
    if (["counted", "back", "pick", "knock", "snatch", "last", "join", "leave"].includes(kind)) {
      arity(text, args, 1, `${kind} NAME`);
      return event(kind, { player: nameIn(args[0], text) });
    }
    if (kind === "bring" || kind === "cross") {
      arity(text, args, 2, `${kind} NAME OTHER`);
      return event(kind, { player: nameIn(args[0], text), other: nameIn(args[1], text) });
    }
    if (kind === "kick") {
      arity(text, args, 2, "kick NAME METRES");
      const match = DISTANCE.exec(args[1]);
      if (!match) throw new NotationError(msg("banki.notation.distance", { text, distance: args[1] }));
      const cm = number(match[1]) * 100 + number((match[2] || "0").padEnd(2, "0"));
      return event("kick", { player: nameIn(args[0], text), centimetres: cm });
    }
    if (kind === "tag") {
      arity(text, args, 3, "tag NAME stick|hand PART");
      choice(text, args[1], D().means, "banki.notation.what.means");
      choice(text, args[2], D().parts, "banki.notation.what.part");
      return event("tag", { player: nameIn(args[0], text), means: args[1], part: args[2] });
    }
    if (kind === "foul") {
      arity(text, args, 2, "foul NAME grab|line");
      choice(text, args[1], D().fouls, "banki.notation.what.foul");
      return event("foul", { player: nameIn(args[0], text), foul: args[1] });
    }
    const shape = `${kind} NAME [spear] [pile|field]`;
    if (!args.length) throw form(text, shape);
    const rest = args.slice(1);
    const spear = rest.includes("spear");
    const where = rest.filter((word) => word !== "spear");
    if (rest.filter((word) => word === "spear").length > 1 || where.length > 1) throw form(text, shape);
    if (where.length) choice(text, where[0], D().where, "banki.notation.what.where");
    return event(kind, { player: nameIn(args[0], text), spear, where: where.length ? where[0] : null });
  }
  B.parse = parse;

  // -- the state (koloda.banki.state, race, pile, referee) ------------------------------------------------

  const LISTS = ["rank", "order", "kicks", "stick", "steps", "hit_waiting", "winners", "present", "orders", "history", "news"];
  const equalList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

  class State {
    // `fields`: a position as koloda's tests record one (rules_recorder.snapshot), or none for a new game.
    constructor(options, names, fields) {
      const n = names.length;
      Object.assign(this, {
        options, names: names.slice(), drawn: null, phase: options.first_driver === "counting" ? "count" : "kick",
        rank: Array(n).fill(0), driver: null, order: [], kicks: Array.from({ length: n }, () => []),
        stick: Array(n).fill("hand"), turn: 0, steps: Array(n).fill(0), hit_waiting: Array(n).fill(false),
        can_up: true, tagged: null, just_threw: null, round: 1, winners: [], present: Array(n).fill(true),
        fresh: false, starters: n, orders: [], history: [], news: [],
      }, fields || {});
    }

    copy() {
      const other = Object.create(State.prototype);
      Object.assign(other, this);
      for (const name of LISTS) other[name] = this[name].slice();
      other.names = this.names.slice();
      return other;
    }

    // -- names and queries
    seat(name) {
      const folded = R.casefold(name);
      const seat = this.names.findIndex((known) => R.casefold(known) === folded);
      if (seat < 0) throw new NotationError(msg("banki.notation.no_player", { name, names: this.names.join(", ") }));
      return seat;
    }
    known(name) { return this.names.some((known) => R.casefold(known) === R.casefold(name)); }
    parseEvent(text) {
      const e = parse(text);
      if (e.kind === "join" && e.player !== null && !this.known(e.player)) return e;
      const canon = (name) => (name === null ? null : this.names[this.seat(name)]);
      return Object.assign({}, e, { player: canon(e.player), other: canon(e.other) });
    }
    isOver() { return this.phase === "over"; }
    players() { return this.names.map((_, seat) => seat).filter((seat) => seat !== this.driver && this.present[seat]); }
    kickers() { return this.players(); }
    pendingKickers() {
      const kickers = this.kickers();
      return kickers.filter((p) => kickers.some((q) => q !== p && equalList(this.kicks[q].slice(0, this.kicks[p].length), this.kicks[p])));
    }
    thrower() {
      if (this.phase !== "throw") return null;
      if (this.options.style === "moscow") return this.turn < this.order.length ? this.order[this.turn] : null;
      const count = this.order.length;
      for (let step = 0; step < count; step++) {
        const seat = this.order[(this.turn + step) % count];
        if (this.stick[seat] === "hand") return seat;
      }
      return null;
    }
    allowedKinds() {
      const kinds = D().phase_events[this.phase];
      return this.phase === "throw" && this.options.style === "chelyabinsk" ? kinds.concat(["back"]) : kinds;
    }
    rankId(seat) { return this.options.ranks[this.rank[seat]]; }
    line(seat) { return this.options.lines[this.rank[seat]]; }
    privileges(rank) {
      const index = this.options.ranks.indexOf(rank);
      return [this.options.tag_means[index], this.options.tag_parts[index]];
    }
    orderNames() { return this.order.map((seat) => this.names[seat]); }

    // -- helpers of the rules (referee.py)
    err(text, key, params) { return new RefereeError(text, key, params); }
    addNews(key, params) { this.news.push([key, params || {}]); }
    who(seat) { return { name: this.names[seat], rank: this.rankId(seat) }; }
    nameOf(seat) { return seat === null ? "-" : this.names[seat]; }
    notDriver(text, seat) { if (seat === this.driver) throw this.err(text, "is_driver", { name: this.names[seat] }); }
    mayDrive(text, seat) { if (this.options.never_drive_ranks.includes(this.rankId(seat))) throw this.err(text, "never_drives", this.who(seat)); }
    promoteNow(seat, steps) {
      const top = this.options.ranks.length - 1;
      this.rank[seat] = Math.min(top, this.rank[seat] + steps);
      this.addNews("news_promoted", this.who(seat));
      if (this.rank[seat] === top) this.finish([seat]);
    }
    finish(winners) {
      this.winners = winners;
      this.phase = "over";
      this.addNews("news_winner", { names: winners.map((s) => this.names[s]).join(", ") });
    }

    // -- applying events
    apply(e) {
      const trial = this.copy();
      trial.news = [];
      trial.applyEvent(e);
      trial.history.push(e);
      Object.assign(this, trial);
    }

    applyEvent(e) {
      const text = eventText(e);
      for (const name of players(e)) {
        if (!this.names.includes(name) && e.kind !== "join") throw this.err(text, "unknown_name", { name, names: this.names.join(", ") });
      }
      if (this.phase === "over" && e.kind !== "order") throw this.err(text, "over", { what: e.kind });
      const allowed = this.allowedKinds();
      if (!allowed.includes(e.kind)) throw this.err(text, "wrong_phase", { what: e.kind, phase: this.phase, allowed: allowed.join(", ") });
      if ((e.kind === "join" || e.kind === "leave") && !this.fresh) throw this.err(text, "not_between_rounds", { what: e.kind });
      const last = this.just_threw;
      this.just_threw = null;
      const p = e.player === null || !this.names.includes(e.player) ? null : this.names.indexOf(e.player);
      const q = e.other === null ? null : this.names.indexOf(e.other);
      for (const seat of [p, q]) {
        if (seat !== null && !this.present[seat] && e.kind !== "join") throw this.err(text, "has_left", { name: this.names[seat] });
      }
      this.fresh = false;
      this["on_" + e.kind](e, text, p, q, last);
    }

    // C1: counting out
    on_count() {
      if (this.drawn === null) throw new NeedsServer("count");
      this.setFirstDriver(this.drawn);
    }
    on_counted(e, text, p) { this.setFirstDriver(p); }
    setFirstDriver(seat) {
      this.driver = seat;
      this.addNews("news_driver_first", { name: this.names[seat] });
      this.phase = "kick";
      this.settleKicks();
    }

    // G2, M3, C3: kicks
    on_kick(e, text, p) {
      if (p === this.driver) throw this.err(text, "driver_no_kick", { name: this.names[p] });
      if (!this.pendingKickers().includes(p)) throw this.err(text, "not_kicking", { name: this.names[p] });
      this.kicks[p] = this.kicks[p].concat([e.centimetres]);
      const tied = this.kickers().filter((s) => equalList(this.kicks[s], this.kicks[p]));
      if (tied.length > 1) this.addNews("news_rekick", { names: tied.map((s) => this.names[s]).join(", ") });
      this.settleKicks();
    }
    settleKicks() {
      if (this.pendingKickers().length) return;
      const compare = (a, b) => {  // Python's tuple order, farthest first, stable
        const x = this.kicks[a], y = this.kicks[b];
        for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return y[i] - x[i];
        return y.length - x.length;
      };
      const ranked = this.kickers().slice().sort(compare);
      if (this.driver === null) {
        this.driver = ranked.pop();
        this.addNews("news_driver_first", { name: this.names[this.driver] });
      }
      this.order = ranked;
      this.addNews("news_order", { order: this.orderNames().join(", ") });
      this.startRound();
    }

    // M4, C4-C7: throws
    startRound() {
      const n = this.names.length;
      this.phase = "throw";
      this.stick = Array(n).fill("hand");
      this.steps = Array(n).fill(0);
      this.hit_waiting = Array(n).fill(false);
      this.can_up = true; this.tagged = null; this.turn = 0;
      this.fresh = true;
      this.addNews("news_round", { number: this.round });
    }
    checkThrow(e, text, p) {
      this.notDriver(text, p);
      const thrower = this.thrower();
      if (p !== thrower) {
        if (this.options.style === "chelyabinsk" && this.stick[p] !== "hand") throw this.err(text, "not_in_hand", { name: this.names[p] });
        throw this.err(text, "out_of_turn", { name: this.names[p], turn: this.nameOf(thrower) });
      }
      if (!this.can_up) throw this.err(text, "can_down");
      if (e.spear && !this.options.spear_ranks.includes(this.rankId(p))) throw this.err(text, "no_spear", this.who(p));
    }
    on_hit(e, text, p) {
      this.checkThrow(e, text, p);
      if (e.where !== null) throw this.err(text, "hit_no_where");
      this.can_up = false;
      if (this.options.style === "moscow") {
        this.stick[p] = "field";
        this.steps[p] += this.promotion(p, e);
        this.just_threw = p;
      } else {
        this.stick[p] = "pile";
        this.hit_waiting[p] = true;
      }
      this.afterThrow(p);
    }
    promotion(seat, e) {
      const jump = this.options.spear_jump;
      const spearRank = this.options.spear_ranks.includes(this.rankId(seat));
      return spearRank && (jump === "any_hit" || (jump === "spear_hit" && e.spear)) ? 2 : 1;
    }
    on_miss(e, text, p) {
      this.checkThrow(e, text, p);
      if (this.options.style === "moscow") {
        if (e.where !== null) throw this.err(text, "where_moscow", { kind: "miss" });
        this.stick[p] = "field";
      } else {
        if (e.where === null) throw this.err(text, "where_needed", { name: this.names[p] });
        this.stick[p] = e.where === "pile" ? "pile" : "field";
      }
      this.just_threw = this.stick[p] === "field" ? p : null;
      this.afterThrow(p);
    }
    afterThrow(p) {
      if (this.options.style === "moscow") {
        this.turn += 1;
        if (this.turn === this.order.length) this.phase = "race";
      } else {
        this.turn = (this.order.indexOf(p) + 1) % this.order.length;
        this.checkDriverThrow();
      }
    }
    on_reset(e, text) {
      if (this.can_up) throw this.err(text, "can_up");
      this.can_up = true;
      this.hit_waiting = Array(this.names.length).fill(false);
      if (this.options.style === "chelyabinsk") this.checkDriverThrow();
    }
    on_back(e, text, p) {
      this.notDriver(text, p);
      if (this.stick[p] === "hand") throw this.err(text, "has_stick", { name: this.names[p] });
      if (p === this.tagged) throw this.err(text, "is_tagged", { name: this.names[p] });
      if (this.stick[p] === "pile" && this.can_up) throw this.err(text, "stick_in_pile", { name: this.names[p] });
      this.stick[p] = "hand";
      if (this.options.style === "chelyabinsk") {
        if (this.hit_waiting[p]) {
          this.hit_waiting[p] = false;
          this.promoteNow(p, 1);
        }
      } else {
        this.checkRaceOver();
      }
    }
    on_cross(e, text, p, q, last) {
      if (!this.options.crossed_sticks) throw this.err(text, "cross_off");
      if (last === null) throw this.err(text, "cross_nothing");
      if (p !== last) throw this.err(text, "cross_not_last", { last: this.names[last] });
      if (q === p) throw this.err(text, "same_player");
      this.notDriver(text, q);
      if (this.stick[q] !== "field") throw this.err(text, "cross_not_field", { name: this.names[q] });
      this.mayDrive(text, p);
      this.endRound(p);
    }

    // the end of a round and of the game
    endRound(newDriver) {
      const top = this.options.ranks.length - 1;
      this.steps.forEach((steps, seat) => {
        if (steps) {
          this.rank[seat] = Math.min(top, this.rank[seat] + steps);
          this.addNews("news_promoted", this.who(seat));
        }
      });
      this.steps = Array(this.names.length).fill(0);
      const winners = this.names.map((_, seat) => seat).filter((seat) => this.rank[seat] === top && this.present[seat]);
      if (winners.length) {
        this.finish(winners);
        return;
      }
      const old = this.driver;
      if (newDriver === null || newDriver === old) {
        this.addNews("news_driver_stays", { name: this.names[old] });
      } else {
        this.order.splice(this.order.indexOf(newDriver), 1);
        this.order.push(old);
        this.driver = newDriver;
        this.addNews("news_new_driver", { name: this.names[newDriver], old: this.names[old] });
      }
      this.round += 1;
      this.startRound();
    }

    // G9: joining and leaving between rounds
    on_join(e, text, p) {
      if (p !== null && this.present[p]) throw this.err(text, "already_playing", { name: this.names[p] });
      if (this.present.filter(Boolean).length >= this.options.max_players) throw this.err(text, "too_many", { high: this.options.max_players });
      if (p === null) {
        p = this.names.length;
        this.names = this.names.concat([e.player]);
        this.rank.push(0); this.kicks.push([]); this.stick.push("hand"); this.steps.push(0);
        this.hit_waiting.push(false); this.present.push(true);
      }
      this.present[p] = true;
      this.order.push(p);
      this.addNews("news_joined", { name: this.names[p], rank: this.rankId(p) });
      this.fresh = true;
    }
    on_leave(e, text, p) {
      if (this.present.filter(Boolean).length <= 2) throw this.err(text, "too_few");
      this.present[p] = false;
      if (p === this.driver) {
        const mayDrive = this.order.filter((s) => !this.options.never_drive_ranks.includes(this.rankId(s)));
        const from = mayDrive.length ? mayDrive : this.order;
        this.driver = from[from.length - 1];
        this.order.splice(this.order.indexOf(this.driver), 1);
        this.addNews("news_left_driver", { name: this.names[p], driver: this.names[this.driver] });
      } else {
        this.order.splice(this.order.indexOf(p), 1);
        this.addNews("news_left", { name: this.names[p] });
      }
      this.fresh = true;
    }
    on_order(e, text, p) {
      if (!this.options.winner_orders) throw this.err(text, "no_orders");
      if (this.winners.includes(p)) throw this.err(text, "order_winner", { name: this.names[p] });
      this.orders.push([p, e.text]);
      this.addNews("news_order_given", { name: this.names[p], text: e.text });
    }

    // -- the Moscow race back (race.py)
    taggable(seat) {
      const means = this.privileges(this.rankId(seat))[0];
      return this.phase === "race" && seat !== this.driver && this.stick[seat] !== "hand" && means !== "none" && (means !== "holding" || this.stick[seat] === "carried");
    }
    on_pick(e, text, p) {
      this.notDriver(text, p);
      if (!this.options.tag_means.includes("holding")) throw this.err(text, "pick_unused");
      if (this.stick[p] !== "field") throw this.err(text, "pick_not_field", { name: this.names[p] });
      this.stick[p] = "carried";
    }
    on_bring(e, text, p, q, last) {
      this.notDriver(text, p);
      if (!this.options.fetch_others_ranks.includes(this.rankId(p))) throw this.err(text, "cant_fetch_others", this.who(p));
      if (q === p) throw this.err(text, "same_player");
      this.on_back(e, text, q, null, last);
    }
    on_tag(e, text, p) {
      this.notDriver(text, p);
      if (this.tagged !== null) throw this.err(text, "tag_pending", { name: this.names[this.tagged], driver: this.nameOf(this.driver) });
      if (!this.can_up) throw this.err(text, "can_down");
      if (this.stick[p] === "hand") throw this.err(text, "safe", { name: this.names[p] });
      const [means, parts] = this.privileges(this.rankId(p));
      if (means === "none") throw this.err(text, "cant_tag_rank", this.who(p));
      if (e.part === "head") throw this.err(text, "cant_tag_head");
      if (means === "holding" && this.stick[p] !== "carried") throw this.err(text, "cant_tag_unarmed", this.who(p));
      if ((means === "stick" || means === "hand") && e.means !== means) throw this.err(text, "cant_tag_means", Object.assign({ allowed_means: means }, this.who(p)));
      if (!D().tag_parts[parts].includes(e.part)) throw this.err(text, "cant_tag_part", Object.assign({ allowed_parts: parts }, this.who(p)));
      this.tagged = p;
    }
    on_knock(e, text, p) {
      if (!this.can_up) throw this.err(text, "can_down");
      if (e.means !== null) throw this.err(text, "hand_knock");
      if (p === this.driver) {
        if (this.tagged === null) throw this.err(text, "no_tag");
        this.endRound(this.tagged);
        return;
      }
      if (this.options.no_knock_ranks.includes(this.rankId(p))) throw this.err(text, "no_knock_rank", this.who(p));
      this.can_up = false;
      if (this.tagged !== null) {
        this.tagged = null;
        this.addNews("news_tag_void");
      }
      this.stick[p] = "field";
    }
    on_foul(e, text, p) {
      this.notDriver(text, p);
      if (this.tagged !== null) throw this.err(text, "tag_pending", { name: this.names[this.tagged], driver: this.nameOf(this.driver) });
      if (!this.can_up) throw this.err(text, "can_down");
      if (e.foul === "grab" && this.options.fetch_others_ranks.includes(this.rankId(p))) throw this.err(text, "foul_fetcher", this.who(p));
      if (e.foul === "line" && this.stick[p] !== "hand") throw this.err(text, "line_not_back", { name: this.names[p] });
      this.mayDrive(text, p);
      this.endRound(p);
    }
    checkRaceOver() {
      if (this.players().every((s) => this.stick[s] === "hand")) this.endRound(null);
    }

    // -- the Chelyabinsk driver's throw and run (pile.py)
    checkDriverThrow() {
      if (this.can_up && this.players().every((s) => this.stick[s] === "pile")) this.phase = "driver-throw";
    }
    on_snatch(e, text, p) {
      this.notDriver(text, p);
      if (this.stick[p] !== "pile") throw this.err(text, "not_in_pile", { name: this.names[p] });
      this.stick[p] = "hand";
      this.phase = "throw";
      this.addNews("news_driver_stays", { name: this.nameOf(this.driver) });
      if (this.options.snatch_promotes) this.promoteNow(p, 1);
    }
    on_guarded() { this.phase = "run"; }
    on_last(e, text, p) {
      this.notDriver(text, p);
      this.mayDrive(text, p);
      this.endRound(p);
    }

    // -- history
    undo() {
      if (!this.history.length) throw new RefereeError("undo", "nothing_to_undo");
      const rebuilt = newGame(this.names.slice(0, this.starters), this.options, this.drawn);
      for (const e of this.history.slice(0, -1)) rebuilt.apply(e);
      const undone = this.history[this.history.length - 1];
      Object.assign(this, rebuilt);
      return undone;
    }
  }
  B.State = State;

  // A new game (the set-up is checked by the server, which made it); `drawn`: where the counting-out landed.
  function newGame(names, options, drawn) {
    const state = new State(options, names.map(checkName));
    state.drawn = drawn === undefined ? null : drawn;
    return state;
  }
  B.newGame = newGame;

  // koloda.banki.state.replay of the game the server keeps (its starters, options, events).
  B.replay = function replay(source) {
    const state = newGame(source.names, source.options, source.drawn);
    for (const text of source.events) state.apply(state.parseEvent(text));
    return state;
  };
})(globalThis.KolodaRules);
