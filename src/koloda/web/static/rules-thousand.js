// The browser's copy of koloda's rules, part 2: the Thousand score sheet, as koloda.thousand.scoring (the
// ScoreBook: rules S1-S14 of docs/rules/thousand.md), koloda.thousand.sheet.scorefile (a deal line read and
// checked) and koloda.thousand.sheet.table with koloda.web.sheets (the page's table, status, chart) do it.
// Every function mirrors the Python one of the same name, in the same order of checks, so that a deal is
// scored and refused alike; tests/web/test_web_rules.py holds them to it.
"use strict";

(function (R) {
  const T = (R.thousand = {});
  const D = () => R.data().thousand;
  const msg = R.msg;

  class ScoringError extends R.RuleError {}
  T.ScoringError = ScoringError;
  const fail = (key, params) => new ScoringError(msg(key, params));

  // -- one deal's result (DealInput) -------------------------------------------------------------------------

  // {declarer, bid, bomb, points, marriages, sitting}: points and marriages are arrays (Python's tuples).
  function dealInput(fields) {
    return { declarer: fields.declarer, bid: fields.bid, bomb: fields.bomb === undefined ? false : fields.bomb,
      points: fields.points || [], marriages: fields.marriages || [], sitting: fields.sitting === undefined ? null : fields.sitting };
  }
  T.dealInput = dealInput;

  const items = (value) => (value instanceof R.PyList ? value.items : value);
  const truthy = (value) => items(value).length > 0;
  const marriagesOf = (deal, seat) => (truthy(deal.marriages) ? items(items(deal.marriages)[seat]) : []);
  const ownPoints = (deal, seat) => (truthy(deal.points) ? items(deal.points)[seat] : 0) + marriagesOf(deal, seat).reduce((a, b) => a + b, 0);

  // -- words ---------------------------------------------------------------------------------------------

  const number = (value) => (value < 0 ? D().minus + String(-value) : String(value));
  const signed = (value) => (value > 0 ? "+" + value : number(value));
  T.number = number;

  function guessGender(name) {
    const first = name.trim().split(" ")[0].toLowerCase();
    const female = D().female_endings.some((end) => first.endsWith(end));
    return female && !D().male_in_a.includes(first) ? "f" : "m";
  }
  T.guessGender = guessGender;

  const defaultNames = (players, lang) => Array.from({ length: players }, (_, seat) => R.say(lang, "thousand.player", { number: seat + 1 }));

  function verbKey(made, gender) {
    return D().verbs.find(([m, g]) => m === Boolean(made) && g === gender)[2];
  }

  // DealScore.explain: the game column ('Anna 120 — made (85 + marriage 60)', in the catalog's words).
  function explain(score, names, lang, genders) {
    const deal = score.deal;
    names = names || defaultNames(score.delta.length, lang);
    const name = names[deal.declarer];
    const gender = genders ? genders[deal.declarer] : guessGender(name);
    if (deal.bomb) return R.say(lang, "thousand.scoring.bomb", { name, bid: deal.bid });
    const parts = [String(items(deal.points)[deal.declarer])].concat(
      marriagesOf(deal, deal.declarer).map((value) => R.say(lang, "thousand.scoring.marriage", { value })));
    const verb = R.say(lang, verbKey(score.made, gender));
    return R.say(lang, "thousand.scoring.explain", { name, bid: deal.bid, verb, parts: parts.join(" + ") });
  }
  T.explain = explain;

  function marks(score, seat, lang, options) {
    const notes = score.notes[seat];
    const out = [];
    if (notes.includes("barrel_fall")) out.push(R.say(lang, "thousand.mark.barrel_fall"));
    if (notes.includes("barrel_reset")) out.push(R.say(lang, "thousand.mark.barrel_reset"));
    const left = score.barrel[seat];
    if (notes.includes("barrel")) {
      out.push(left === null ? R.say(lang, "thousand.mark.barrel") : R.say(lang, "thousand.mark.barrel_left", { n: left }));
    } else if (options.rule_800 !== "off" && score.total[seat] >= options.threshold_800 && score.winner === null) {
      out.push(`${options.threshold_800}+`);
    }
    if (notes.includes("bolt")) out.push(R.say(lang, "thousand.mark.bolt"));
    if (notes.includes("bolt_penalty")) out.push(R.say(lang, "thousand.mark.bolt_penalty", { points: signed(-options.bolt_penalty) }));
    if (notes.includes("dump")) out.push(R.say(lang, "thousand.mark.dump"));
    return out;
  }

  // DealScore.cell: '+30 (25) → 30', with the marks of the options.
  function cell(score, seat, lang, options) {
    let text = signed(score.delta[seat]);
    if (seat !== score.deal.declarer && score.raw[seat] !== score.delta[seat]) text += ` (${score.raw[seat]})`;
    text += ` → ${number(score.total[seat])}`;
    const found = options ? marks(score, seat, lang, options) : [];
    return text + found.map((mark) => ` [${mark}]`).join("");
  }
  T.cell = cell;

  // -- checking (S2, S3, S7, S10) -----------------------------------------------------------------------------

  const roundDefence = (points, rounding) => (rounding === "home" ? Math.floor((points + 5) / 10) * 10
    : rounding === "tournament" ? Math.floor((points + 4) / 10) * 10 : Math.floor((points + 2) / 5) * 5);
  T.roundDefence = roundDefence;

  const marriageValues = (options) => (options.ace_marriage ? D().marriage_values.concat([D().ace_marriage]) : D().marriage_values);

  function checkBid(options, bid) {
    if (!R.isInt(bid)) throw fail("thousand.scoring.bid_type", { bid: R.repr(bid) });
    if (bid < options.min_bid) throw fail("thousand.scoring.bid_low", { bid, low: options.min_bid });
    if (bid % options.bid_step) throw fail("thousand.scoring.bid_step", { bid, step: options.bid_step });
    const top = D().deck_points + marriageValues(options).reduce((a, b) => a + b, 0);
    if (bid > top) throw fail("thousand.scoring.bid_high", { bid, top });
    return bid;
  }

  const inSeats = (value, players) => R.isInt(value) && value >= 0 && value < players;

  function checkDeal(book, deal) {
    if (deal && deal.$type) throw fail("thousand.scoring.deal_type", { type: deal.$type });
    const { options, players } = book;
    if (book.winner() !== null) throw fail("thousand.scoring.over", { seat: book.winner() });
    if (!inSeats(deal.declarer, players)) throw fail("thousand.scoring.declarer", { declarer: R.repr(deal.declarer), last: players - 1 });
    if (players === 4) {
      if (!inSeats(deal.sitting, players)) throw fail("thousand.scoring.sitting_seat", { sitting: R.repr(deal.sitting) });
      if (deal.sitting === deal.declarer) throw fail("thousand.scoring.sitting_declares", { seat: deal.sitting });
    } else if (deal.sitting !== null) {
      throw fail("thousand.scoring.sitting_only_4", { players, sitting: deal.sitting });
    }
    checkBid(options, deal.bid);
    if (typeof deal.bomb !== "boolean") throw fail("thousand.scoring.bomb_type", { bomb: R.repr(deal.bomb) });
    if (deal.bomb) {
      if (truthy(deal.points) || items(deal.marriages).some(truthy)) throw fail("thousand.scoring.bomb_played");
      if (!book.bombAllowed(deal.declarer)) throw fail("thousand.scoring.bombs_used", { seat: deal.declarer, allowed: options.bombs_per_game });
      return;
    }
    const points = items(deal.points);
    if (points.length !== players || points.some((p) => !R.isInt(p))) throw fail("thousand.scoring.points", { players, points: R.str(deal.points) });
    if (points.some((p) => p < 0)) throw fail("thousand.scoring.negative", { points: R.str(deal.points) });
    const played = points.reduce((sum, p, seat) => (seat === deal.sitting ? sum : sum + p), 0);
    if (played !== D().deck_points) throw fail("thousand.scoring.sum", { played, deck: D().deck_points, points: R.str(deal.points) });
    if (truthy(deal.marriages) && items(deal.marriages).length !== players) throw fail("thousand.scoring.marriages", { players, marriages: R.str(deal.marriages) });
    const allowed = marriageValues(options);
    const seen = new Set();
    for (let seat = 0; seat < players; seat++) {
      const values = marriagesOf(deal, seat);
      if (values.length && seat === deal.sitting) throw fail("thousand.scoring.sitting_marriage", { seat });
      for (const value of values) {
        if (!R.isInt(value) || !allowed.includes(value)) throw fail("thousand.scoring.marriage_value", { value: R.repr(value), allowed: allowed.join(", ") });
        if (seen.has(value)) throw fail("thousand.scoring.marriage_twice", { value });
        seen.add(value);
      }
    }
  }

  // -- scoring (S1, S4-S13) -------------------------------------------------------------------------------

  function defence(options, total, points, onBarrel, notes) {
    if (onBarrel) return 0;
    const line = options.threshold_800;
    if (options.rule_800 === "home" && total >= line && points > 0) { notes.push("line_800"); return 0; }
    if (options.rule_800 === "tournament" && total + points > line && points > 0) { notes.push("line_800"); return Math.max(0, line - total); }
    return points;
  }

  function score(options, before, deal) {
    const raws = [], roundeds = [], deltas = [], notes = [], states = [];
    let made = null, winner = null;
    before.forEach((state, seat) => {
      const marks = [];
      const onBarrel = state.barrel !== null;
      let fell = false, bolts = state.bolts, bombs = state.bombs, raw, rounded, delta;
      if (seat === deal.declarer) {
        if (deal.bomb) {
          raw = rounded = delta = 0;
          bombs += 1;
          marks.push("bomb");
        } else {
          raw = rounded = ownPoints(deal, seat);
          made = raw >= deal.bid;
          delta = made ? deal.bid : -deal.bid;
          marks.push(made ? "made" : "failed");
          if (made && state.total + deal.bid >= options.target) { winner = seat; marks.push("winner"); }
          else if (made && onBarrel) delta = 0;
          else if (!made && onBarrel) {
            fell = true;
            delta = { minus_bid: -deal.bid, fall: -options.barrel_fall, both: -deal.bid - options.barrel_fall }[options.barrel_failed];
          }
        }
      } else {
        const sitting = seat === deal.sitting;
        let counts;
        if (sitting) {
          marks.push("sitting");
          raw = truthy(deal.points) ? items(deal.points)[seat] : 0;
          counts = options.sitting_as_defender;
        } else {
          raw = deal.bomb ? options.bomb_points : ownPoints(deal, seat);
          counts = true;
        }
        rounded = counts && !deal.bomb ? roundDefence(raw, options.rounding) : raw;
        if (rounded !== raw) marks.push("rounded");
        delta = counts ? defence(options, state.total, rounded, onBarrel, marks) : rounded;
        if (delta > 0 && state.total + delta > options.defender_cap) { delta = Math.max(0, options.defender_cap - state.total); marks.push("cap"); }
        if (options.bolts !== null && !onBarrel && !sitting && raw === 0) bolts += 1;
      }
      if (seat === deal.declarer && deal.bomb && options.bolts !== null && !onBarrel) bolts += 1;
      if (options.bolts !== null && bolts > state.bolts) {
        marks.push("bolt");
        if (bolts >= options.bolts) { delta -= options.bolt_penalty; bolts = 0; marks.push("bolt_penalty"); }
      }
      let barrel = state.barrel;
      if (onBarrel && winner !== seat && !fell) {
        barrel = (state.barrel || 0) + 1;
        if (options.barrel_deals !== null && barrel >= options.barrel_deals) { fell = true; delta -= options.barrel_fall; }
      }
      if (fell) { barrel = null; marks.push("barrel_fall"); }
      if (winner === seat) barrel = null;
      let total = state.total + delta;
      if (options.barrel && winner !== seat && total >= options.barrel_threshold) {
        total = options.barrel_threshold;
        if (barrel === null && !fell) { barrel = 0; marks.push("barrel_on"); }
      }
      let falls = state.falls + (fell ? 1 : 0);
      if (fell && options.barrel_fall_reset !== null && falls >= options.barrel_fall_reset) { total = 0; falls = 0; marks.push("barrel_reset"); }
      if (options.dump && winner !== seat && Math.abs(total) === 555) { total = 0; marks.push("dump"); }
      if (barrel !== null) marks.push("barrel");
      raws.push(raw); roundeds.push(rounded); deltas.push(total - state.total); notes.push(marks);
      states.push({ total, barrel, falls, bolts, bombs });
    });
    const left = states.map((s) => (s.barrel === null ? null : options.barrel_deals === null ? null : options.barrel_deals - s.barrel));
    return [{ deal, made, delta: deltas, raw: raws, rounded: roundeds, total: states.map((s) => s.total), notes, barrel: left, winner }, states];
  }

  // -- the book (ScoreBook) ------------------------------------------------------------------------------

  function startStates(options, players, start) {
    const totals = start === null || start === undefined ? Array(players).fill(0) : items(start);
    if (totals.length !== players || totals.some((total) => !R.isInt(total))) throw fail("thousand.scoring.start", { players, start: R.str(start === undefined ? null : start) });
    const top = options.barrel ? options.barrel_threshold : options.target - 1;
    for (const total of totals) if (total > top) throw fail("thousand.scoring.start_high", { total, top });
    return totals.map((total) => ({ total, barrel: options.barrel && total === options.barrel_threshold ? 0 : null, falls: 0, bolts: 0, bombs: 0 }));
  }

  class Book {
    constructor(options, players, start) {
      if (!R.isInt(players) || players < 2 || players > 4) throw fail("thousand.scoring.players", { players: R.repr(players) });
      this.options = options;
      this.players = players;
      this.states = [startStates(options, players, start)];
      this.deals = [];
    }
    totals() { return this.seats().map((s) => s.total); }
    seats() { return this.states[this.states.length - 1]; }
    winner() { return this.deals.length ? this.deals[this.deals.length - 1].winner : null; }
    bombAllowed(seat) {
      const limit = this.options.bombs_per_game;
      return limit === null || this.seats()[seat].bombs < limit;
    }
    apply(deal) {
      checkDeal(this, deal);
      const [result, states] = score(this.options, this.seats(), deal);
      this.states.push(states);
      this.deals.push(result);
      return result;
    }
    undo() {
      if (!this.deals.length) throw fail("thousand.scoring.no_undo");
      this.states.pop();
      return this.deals.pop();
    }
    copy() {
      const other = Object.create(Book.prototype);
      Object.assign(other, this, { states: this.states.slice(), deals: this.deals.slice() });
      return other;
    }
  }
  T.Book = Book;

  // -- a deal line of a sheet (scorefile.deal_from_json) ----------------------------------------------

  class ScoreFileError extends R.RuleError {}
  const bad = (key, params) => new ScoreFileError(msg(key, params));
  // What Python's reader lets through as a TypeError (an unhashable name): koloda.web.sheets refuses it
  // as unreadable_deal.
  class Unreadable extends Error {}
  T.Unreadable = Unreadable;

  const isList = (value) => value instanceof R.PyList;
  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value) && !isList(value) && !(value instanceof R.PyFloat);
  const KIND_TEST = { str: (v) => typeof v === "string", list: isList, dict: isObject, int: R.isInt };

  function get(data, key, kind, where) {
    if (!(key in data)) throw bad("scorefile.no_key", { where: msg(where), key: R.repr(key) });
    const value = data[key];
    if (!KIND_TEST[kind](value)) throw bad("scorefile.kind", { key: R.repr(key), kind: msg(D().kinds[kind]), value: R.repr(value) });
    return value;
  }

  function noUnknown(data, known, where) {
    const unknown = Object.keys(data).filter((key) => !known.includes(key)).sort();
    if (unknown.length) throw bad("scorefile.unknown_keys", { where: msg(where), keys: unknown.join(", "), known: known.slice().sort().join(", ") });
  }

  // One deal line (names, not seats) as a deal of the book; ScoreFileError (or ScoringError) if it is bad.
  function dealFromJson(line, players, book) {
    const data = R.fromJson(line);
    if (!isObject(data)) throw bad("scorefile.deal", { data: R.repr(data) });
    const KEYS = D().deal_keys;
    noUnknown(data, KEYS, "scorefile.where.deal");
    const seats = new Map(players.map((player, seat) => [player.name, seat]));
    const seatOf = (name, what) => {
      if (isList(name) || isObject(name)) throw new Unreadable(`TypeError: unhashable type: '${isList(name) ? "list" : "dict"}'`);
      if (typeof name !== "string" || !seats.has(name)) throw bad("scorefile.not_player", { what: msg(what), name: R.repr(name), names: [...seats.keys()].join(", ") });
      return seats.get(name);
    };
    if (book.winner() !== null) throw bad("scorefile.over", { name: players[book.winner()].name });
    const declarer = seatOf(get(data, "declarer", "str", "scorefile.where.deal"), "scorefile.what.declarer");
    const sitting = "sitting" in data ? seatOf(data.sitting, "scorefile.what.sitting") : null;
    if ((sitting === null) !== (players.length !== 4)) throw bad("scorefile.sitting");
    if (sitting === declarer) throw bad("scorefile.sitting_declares", { name: players[declarer].name });
    const bid = "bid" in data ? data.bid : null;
    const bomb = "bomb" in data ? data.bomb : false;
    if (bomb === true) {
      const extra = KEYS.filter((key) => key in data && !["declarer", "bid", "bomb", "sitting"].includes(key)).sort();
      if (extra.length) throw bad("scorefile.bomb_extra", { keys: extra.join(", ") });
      if (!book.bombAllowed(declarer)) throw bad("scorefile.bombs_used", { name: players[declarer].name, allowed: book.options.bombs_per_game });
      return dealInput({ declarer, bid, bomb: true, sitting });
    }
    if (bomb !== false) throw bad("scorefile.bomb", { bomb: R.repr(bomb) });
    const pointsMap = get(data, "points", "dict", "scorefile.where.deal");
    for (const name of Object.keys(pointsMap)) seatOf(name, "scorefile.what.points");
    const missing = players.filter((p, seat) => !(p.name in pointsMap) && seat !== sitting).map((p) => p.name);
    if (missing.length) throw bad("scorefile.points_missing", { names: missing.join(", ") });
    const points = players.map((player) => (player.name in pointsMap ? pointsMap[player.name] : 0));
    const marriagesMap = "marriages" in data ? data.marriages : {};
    if (!isObject(marriagesMap)) throw bad("scorefile.marriages", { marriages: R.repr(marriagesMap) });
    for (const [name, values] of Object.entries(marriagesMap)) {
      seatOf(name, "scorefile.what.marriages");
      if (!isList(values)) throw bad("scorefile.marriages_list", { name, values: R.repr(values) });
      if (values.items.length && seats.get(name) === sitting) throw bad("scorefile.sitting_marriage", { name });
    }
    const marriages = players.map((player) => (player.name in marriagesMap ? marriagesMap[player.name].items.slice() : []));
    return dealInput({ declarer, bid, points, marriages: marriages.some((m) => m.length) ? marriages : [], sitting });
  }
  T.dealFromJson = dealFromJson;

  // -- the sheet (koloda.web.sheets over a ScoredGame) ------------------------------------------------------

  // A stored player: the plain name (gender guessed), or {name, gender}.
  const player = (item) => (typeof item === "string" ? { name: item, gender: guessGender(item) } : { name: item.name, gender: item.gender || guessGender(item.name) });

  // A sheet from what the server stores (players, full options, deal lines): every line scored again.
  function loadSheet(source) {
    const players = source.players.map(player);
    const game = { players, book: new Book(source.options, players.length, null) };
    for (const line of source.lines) addLine(game, line);
    return game;
  }
  T.loadSheet = loadSheet;

  // Score a deal line (koloda.web.sheets.add_deal); a bad one throws the web's refusal and changes nothing.
  function addLine(game, line) {
    try {
      return game.book.apply(dealFromJson(line, game.players, game.book));
    } catch (error) {
      if (error instanceof R.RuleError) throw error.refusal("bad_deal");
      if (error instanceof Unreadable) throw new R.RuleError(msg("refusal.unreadable_deal", { detail: error.message })).refusal("bad_deal");
      throw error;
    }
  }
  T.addLine = addLine;

  function statusLine(game, lang) {
    const { book } = game;
    const options = book.options;
    const parts = [];
    const barrel = [];
    book.seats().forEach((state, seat) => {
      if (state.barrel === null) return;
      const name = game.players[seat].name;
      if (options.barrel_deals === null) barrel.push(name);
      else barrel.push(R.say(lang, "thousand.table.barrel_left", { name, n: options.barrel_deals - state.barrel }));
    });
    const nobody = R.say(lang, "thousand.table.nobody");
    if (options.barrel) parts.push(R.say(lang, "thousand.table.barrel", { threshold: options.barrel_threshold, who: barrel.join(", ") || nobody }));
    if (options.rule_800 !== "off") {
      const past = book.seats().map((state, seat) => [state, seat]).filter(([state]) => state.total >= options.threshold_800 && state.barrel === null).map(([, seat]) => game.players[seat].name);
      parts.push(R.say(lang, "thousand.table.line_800", { line: options.threshold_800, who: past.join(", ") || nobody }));
    }
    if (options.bombs_per_game !== null) {
      parts.push(R.say(lang, "thousand.table.bombs_left", { who: game.players.map((p, seat) => `${p.name} ${options.bombs_per_game - book.seats()[seat].bombs}`).join(", ") }));
    }
    if (options.bolts !== null) {
      parts.push(R.say(lang, "thousand.table.bolts", { who: game.players.map((p, seat) => `${p.name} ${book.seats()[seat].bolts}`).join(", ") }));
    }
    return parts.length ? parts.join(". ") + "." : "";
  }

  function winnerLine(game, lang) {
    const seat = game.book.winner();
    if (seat === null) return null;
    const p = game.players[seat];
    const total = number(game.book.totals()[seat]);
    return R.say(lang, p.gender === "f" ? "thousand.table.winner_f" : "thousand.table.winner", { name: p.name, total });
  }

  // koloda.thousand.sheet.table.page_table: the table in both languages, the status, the winner, the chart.
  function pageTable(game) {
    const { book } = game;
    const names = game.players.map((p) => p.name);
    const genders = game.players.map((p) => p.gender);
    const out = {};
    for (const lang of ["ru", "en"]) {
      out[lang] = {
        head: [R.say(lang, "thousand.table.deal"), R.say(lang, "thousand.table.game"), ...names],
        rows: book.deals.map((s, index) => [String(index + 1), explain(s, names, lang, genders), ...names.map((_, seat) => cell(s, seat, lang, book.options))]),
        status: statusLine(game, lang),
        winner: winnerLine(game, lang),
      };
    }
    const options = book.options;
    out.chart = {
      names,
      series: names.map((_, seat) => [0, ...book.deals.map((s) => s.total[seat])]),
      target: options.target,
      line_800: options.rule_800 !== "off" ? options.threshold_800 : null,
      barrel: options.barrel ? options.barrel_threshold : null,
    };
    out.winner = book.winner();
    return out;
  }
  T.pageTable = pageTable;

  // scorefile.deal_to_json: a deal as a line of the sheet (names, not seats).
  function dealToJson(deal, names) {
    const data = { declarer: names[deal.declarer], bid: deal.bid };
    if (deal.bomb) {
      data.bomb = true;
    } else {
      data.points = Object.fromEntries(names.map((name, seat) => [name, items(deal.points)[seat]]));
      const marriages = names.map((name, seat) => [name, marriagesOf(deal, seat)]).filter(([, values]) => values.length);
      if (marriages.length) data.marriages = Object.fromEntries(marriages.map(([name, values]) => [name, values.slice()]));
    }
    if (deal.sitting !== null) data.sitting = names[deal.sitting];
    return data;
  }
  T.dealToJson = dealToJson;

  // Player.to_json: the plain name, or {name, gender} where the guess from the name would be wrong.
  const playerJson = (p) => (guessGender(p.name) === p.gender ? p.name : { name: p.name, gender: p.gender });

  // koloda.web.sheets.sheet_json: what the sheet page shows, and the source it is scored again from.
  T.sheetJson = function sheetJson(id, game) {
    const { book } = game;
    const names = game.players.map((p) => p.name);
    return Object.assign({
      id, players: names, options: book.options, deals: book.deals.length,
      bomb_allowed: game.players.map((_, seat) => book.bombAllowed(seat)), over: book.winner() !== null,
    }, pageTable(game), {
      source: { players: game.players.map(playerJson), options: book.options, lines: book.deals.map((s) => dealToJson(s.deal, names)) },
    });
  };
})(globalThis.KolodaRules);
