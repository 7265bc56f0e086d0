// The browser's side of tests/web/test_web_rules.py: every recorded case (rules_recorder.py) through the
// browser's copy of the rules (koloda/web/static/rules-*.js), answered in the shape of rules_cases.answers.
"use strict";

function runCases(data, cases) {
  const R = KolodaRules.init(data);
  const T = R.thousand, B = R.banki;
  const error = (e) => {
    if (e instanceof R.RuleError) return { error: { en: e.text("en"), ru: e.text("ru") } };
    throw e;
  };
  const deal = (recorded) => (recorded.$type ? recorded : T.dealInput(R.fromMarked(recorded)));
  const player = (name) => ({ name, gender: T.guessGender(name) });

  function scoreJson(score, names, options) {
    const out = { made: score.made, delta: score.delta, raw: score.raw, rounded: score.rounded, total: score.total, notes: score.notes, barrel: score.barrel, winner: score.winner };
    for (const lang of ["ru", "en"]) {
      out[lang] = { explain: T.explain(score, names, lang), cells: score.delta.map((_, seat) => T.cell(score, seat, lang, options)) };
    }
    return out;
  }

  function book(session) {
    const names = cases.names.slice(0, session.players);
    let b;
    try {
      b = new T.Book(session.options, session.players, R.fromMarked(session.start));
    } catch (e) {
      return [error(e)];
    }
    for (const recorded of session.deals) b.apply(deal(recorded));
    const out = session.steps.map((step) => {
      try {
        return scoreJson(step.op === "undo" ? b.undo() : b.apply(deal(step.deal)), names, session.options);
      } catch (e) {
        return error(e);
      }
    });
    out.push(T.sheetJson(0, { players: names.map(player), book: b }));
    return out;
  }

  function line(c) {
    const b = new T.Book(c.book.options, c.book.players, R.fromMarked(c.book.start));
    for (const recorded of c.book.deals) b.apply(deal(recorded));
    const game = { players: c.players, book: b };
    try {
      T.addLine(game, c.line);
    } catch (e) {
      if (e instanceof Error) throw e;
      return { refusal: e };
    }
    return { sheet: T.sheetJson(0, game) };
  }

  function state(snapshot, drawn) {
    const fields = Object.assign({}, snapshot);
    delete fields.options; delete fields.seed; delete fields.names;
    fields.history = snapshot.history.map(B.parse);
    fields.kicks = snapshot.kicks.map((k) => k.slice());
    const s = new B.State(snapshot.options, snapshot.names, fields);
    s.drawn = drawn;
    return s;
  }

  function game(session, drawn) {
    let s = state(session.state, drawn);
    return session.steps.map((step) => {
      if (step.state) s = state(step.state, drawn);
      if (step.op === "parse") {
        try {
          return { parsed: B.eventText(s.parseEvent(step.text)) };
        } catch (e) {
          return error(e);
        }
      }
      try {
        if (step.op === "undo") {
          try {
            s.undo();
          } catch (e) {
            if (e instanceof R.RuleError) throw e.refusal("bad_event", "event");
            throw e;
          }
        } else {
          B.addEvent(s, step.text);
        }
      } catch (e) {
        if (e instanceof Error) throw e;
        return { refusal: e };
      }
      return B.toJson(0, s);
    });
  }

  return {
    books: cases.books.map(book),
    lines: cases.lines.map(line),
    games: cases.games.map((session, index) => game(session, cases.drawn[index])),
  };
}
