// The browser's copy of koloda's rules, part 1: what the Thousand scorer (rules-thousand.js) and the banki
// referee (rules-banki.js, rules-banki-view.js) share. The pages keep score and referee with them while
// the phone is offline (offline.js); tests/web/test_web_rules.py runs every case of the project's scoring and
// referee tests through them and through the Python engines, and the answers must be the same.
//
// No rule's data is written here: the words (the translation catalog's), the tables of keys and the
// notation's keywords come from the server (koloda.web.offline.rules_data), embedded in the page as JSON, and
// KolodaRules.init(data) takes them. This part says a catalog message as koloda.i18n does (str.format
// templates, plural forms, a Msg inside a Msg) and writes values as Python's str() and repr() do, since the
// engines' messages quote the input that way.
"use strict";

(function (root) {
  const R = root.KolodaRules || (root.KolodaRules = {});
  let DATA = null;

  // The data of the rules (koloda.web.offline.rules_data): words, plural tables, tables of keys.
  R.init = function init(data) {
    DATA = data;
    return R;
  };
  R.data = function data() {
    if (!DATA) throw new Error("KolodaRules.init(data) was not called");
    return DATA;
  };

  // -- values as Python writes them ------------------------------------------------------------------------

  // A value Python holds as a float although it is whole (100.0), or a list where the engines expect a tuple:
  // JSON cannot tell them apart, so the tests mark them ({"$float": "100.0"}, {"$list": [...]}).
  class PyFloat { constructor(text) { this.text = text; this.value = Number(text); } }
  class PyList { constructor(items) { this.items = items; } }
  R.PyFloat = PyFloat;
  R.PyList = PyList;
  R.fromMarked = function fromMarked(value) {
    if (Array.isArray(value)) return value.map(fromMarked);
    if (value && typeof value === "object") {
      if ("$float" in value) return new PyFloat(value.$float);
      if ("$list" in value) return new PyList(value.$list.map(fromMarked));
      const out = {};
      for (const [key, item] of Object.entries(value)) out[key] = fromMarked(item);
      return out;
    }
    return value;
  };

  // A JSON value as Python's json module reads it: its arrays are lists (the engines' own tuples are arrays).
  R.fromJson = function fromJson(value) {
    if (Array.isArray(value)) return new PyList(value.map(fromJson));
    if (value && typeof value === "object" && !(value instanceof PyList) && !(value instanceof PyFloat)) {
      const out = {};
      for (const [key, item] of Object.entries(value)) out[key] = fromJson(item);
      return out;
    }
    return value;
  };

  // Python's `type(x) is int` for a value that came through JSON: a whole number JSON writes without an
  // exponent (JavaScript writes 1e21 and up with one, which Python reads as a float).
  R.isInt = (x) => typeof x === "number" && Number.isInteger(x) && Math.abs(x) < 1e21;

  const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

  function hex(code, width) {
    return code.toString(16).padStart(width, "0");
  }

  function reprString(text) {
    const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
    let out = quote;
    for (const ch of text) {
      const code = ch.codePointAt(0);
      if (ch === quote || ch === "\\") out += "\\" + ch;
      else if (ch === "\t") out += "\\t";
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (code < 0x20 || code === 0x7f) out += "\\x" + hex(code, 2);
      else if (code < 0x7f) out += ch;
      else if (NOT_PRINTABLE.test(ch)) {
        out += code < 0x100 ? "\\x" + hex(code, 2) : code < 0x10000 ? "\\u" + hex(code, 4) : "\\U" + hex(code, 8);
      } else out += ch;
    }
    return out + quote;
  }

  // Python's repr of a float: the shortest digits, fixed from 1e-4 up to 1e16, else with an exponent.
  function reprFloat(x) {
    if (Number.isNaN(x)) return "nan";
    if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
    if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
    const [mantissa, exp] = Math.abs(x).toExponential().split("e");
    const digits = mantissa.replace(".", "");
    const power = Number(exp);
    const sign = x < 0 ? "-" : "";
    if (power >= -4 && power < 16) {
      if (power < 0) return sign + "0." + "0".repeat(-power - 1) + digits;
      const whole = digits.length > power + 1 ? digits.slice(0, power + 1) : digits.padEnd(power + 1, "0");
      const frac = digits.length > power + 1 ? digits.slice(power + 1) : "0";
      return sign + whole + "." + frac;
    }
    const tail = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    return sign + tail + "e" + (power < 0 ? "-" : "+") + String(Math.abs(power)).padStart(2, "0");
  }

  // Python's repr of a JSON value (arrays are the engines' tuples).
  function repr(value) {
    if (value === null || value === undefined) return "None";
    if (value === true) return "True";
    if (value === false) return "False";
    if (value instanceof PyFloat) return reprFloat(value.value);
    if (value instanceof PyList) return "[" + value.items.map(repr).join(", ") + "]";
    if (typeof value === "number") return R.isInt(value) ? String(value) : reprFloat(value);
    if (typeof value === "string") return reprString(value);
    if (Array.isArray(value)) {
      if (value.length === 1) return "(" + repr(value[0]) + ",)";
      return "(" + value.map(repr).join(", ") + ")";
    }
    if (typeof value === "object") {
      return "{" + Object.entries(value).map(([k, v]) => reprString(k) + ": " + repr(v)).join(", ") + "}";
    }
    return String(value);
  }
  R.repr = repr;

  // Python's str(): a string is itself, everything else its repr.
  R.str = (value) => (typeof value === "string" ? value : repr(value));

  // A list as Python writes it (the engines' messages show some lists that way).
  R.reprList = (items) => "[" + items.map(repr).join(", ") + "]";

  // Python's f"{value:g}": six significant digits, no trailing zeros, an exponent outside 1e-4..1e6.
  R.formatG = function formatG(value) {
    if (value === 0) return "0";
    const [mantissa, exp] = Math.abs(value).toExponential(5).split("e");
    const power = Number(exp);
    const sign = value < 0 ? "-" : "";
    if (power < -4 || power >= 6) {
      const m = mantissa.replace(/\.?0+$/, "");
      return sign + m + "e" + (power < 0 ? "-" : "+") + String(Math.abs(power)).padStart(2, "0");
    }
    return sign + Number(Math.abs(value).toPrecision(6)).toString();
  };

  // Python's str.casefold, near enough for names: upper then lower folds ß to ss as Python does.
  R.casefold = (text) => text.toUpperCase().toLowerCase();

  // Python's str.split() with no argument: on runs of whitespace as str.isspace() knows it.
  const SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;
  R.split = (text) => text.split(SPACE).filter((word) => word !== "");

  // The value of a decimal digit of any script (Python's int() reads them all): its place in its run of ten.
  R.digitValue = function digitValue(ch) {
    let code = ch.codePointAt(0);
    let place = 0;
    while (/\p{Nd}/u.test(String.fromCodePoint(code - 1))) {
      code -= 1;
      place += 1;
    }
    return place % 10;
  };

  // -- the catalog -------------------------------------------------------------------------------------------

  // A message not yet said (koloda.i18n.Msg): a key and its parameters.
  class Msg {
    constructor(key, params) {
      this.key = key;
      this.params = params || {};
    }
    text(lang) { return say(lang, this.key, this.params); }
  }
  R.Msg = Msg;
  R.msg = (key, params) => new Msg(key, params);

  function entry(lang, key) {
    const words = R.data().words;
    if (key in words[lang]) return words[lang][key];
    if (key in words.en) return words.en[key];
    return undefined;
  }

  R.has = (lang, key) => entry(lang, key) !== undefined;

  // The template of `key` in `lang` (English if the language lacks it, the key if the catalog does); a plural
  // message's form for `n` by the language's table (koloda.web.offline.plural_table: the form of n from 0 to
  // 199, and of 100 + n mod 100 for any other n), its last form when n is not a whole number.
  function template(lang, key, n) {
    const found = entry(lang, key);
    if (found === undefined) return key;
    if (typeof found === "string") return found;
    const table = R.data().plural[R.data().words[lang] && key in R.data().words[lang] ? lang : "en"];
    const index = !R.isInt(n) ? found.length - 1 : table[n >= 0 && n < 200 ? n : 100 + (((n % 100) + 100) % 100)];
    return found[Math.min(index, found.length - 1)];
  }

  const FIELD = /\{\{|\}\}|\{([A-Za-z_]\w*)(?:!([rs]))?(?::([^{}]*))?\}/g;

  // koloda.i18n.say: the message `key` in `lang`, its {name} parameters filled as str.format fills them.
  function say(lang, key, params) {
    params = params || {};
    return template(lang, key, params.n).replace(FIELD, (match, name, conversion, spec) => {
      if (match === "{{") return "{";
      if (match === "}}") return "}";
      if (!(name in params)) throw new Error(`${key}: no parameter ${name}`);
      const value = params[name];
      if (conversion === "r") return repr(value);
      if (value instanceof Msg) {
        if (spec && R.has(lang, `${value.key}.${spec}`)) return say(lang, `${value.key}.${spec}`, value.params);
        return value.text(lang);
      }
      return R.str(value);
    });
  }
  R.say = say;

  // An error of the rules: the Msg that says it, and the web's refusal it becomes (koloda.web.refusals.wrap of
  // a passthrough refusal: the engine's own message in both languages).
  class RuleError extends Error {
    constructor(msg) {
      super(msg.text("en"));
      this.msg = msg;
    }
    text(lang) { return this.msg.text(lang); }
    refusal(code, field) {
      return { error: code, field: field || null, message: this.text("en"), message_ru: this.text("ru") };
    }
  }
  R.RuleError = RuleError;
})(globalThis);
