/**
 * A value in what a handler returned that JSON.stringify writes as {},
 * silently without what it holds: a Map or a Set (their entries), a WeakMap
 * or a WeakSet, a Promise (what it resolves to: an `await` forgotten), a
 * RegExp (its pattern), an Error (its message).
 */
export interface LostValue {
  /** Words to follow "returned": "a Map, which JSON would send as {} …". */
  unsendable: string;
  /** What to return instead. */
  instead: string;
}

type Kind = "Map" | "Set" | "WeakMap" | "WeakSet" | "Promise" | "RegExp" | "Error";

/** Where the replacement goes: the value returned, or a place inside it. */
interface Place {
  /** "return" or "put". */
  verb: string;
  /** "" or " there". */
  there: string;
}

const WORDS: Record<Kind, { lost: string; instead: (place: Place) => string }> = {
  Map: {
    lost: "its entries",
    instead: ({ verb, there }) =>
      `${verb} Object.fromEntries(map) (an object) or [...map] (a list of [key, value] pairs)${there} instead`,
  },
  Set: {
    lost: "its values",
    instead: ({ verb, there }) => `${verb} [...set] (an array)${there} instead`,
  },
  WeakMap: {
    lost: "its entries",
    instead: ({ verb, there }) =>
      `${verb} an object of what you mean to send${there} instead (a WeakMap cannot list its entries)`,
  },
  WeakSet: {
    lost: "its values",
    instead: ({ verb, there }) =>
      `${verb} an array of what you mean to send${there} instead (a WeakSet cannot list its values)`,
  },
  Promise: {
    lost: "what it resolves to",
    instead: ({ verb, there }) => `await it and ${verb} what it resolves to${there}`,
  },
  RegExp: {
    lost: "its pattern",
    instead: ({ verb, there }) =>
      `${verb} regexp.source (its pattern) or regexp.toString() (/pattern/flags)${there} instead`,
  },
  Error: {
    lost: "its message",
    instead: ({ verb, there }) => `${verb} error.message${there} instead, or throw the error`,
  },
};

/** Thrown to stop JSON.stringify at the first one found. */
const FOUND = Symbol("found");

/**
 * The first value JSON.stringify meets in `value` that it would write as {}
 * and lose what it holds, after any toJSON (an Error or a Map with its own
 * toJSON says what it means), and where: keys from the top joined with "." as
 * validation issues name them. Undefined when none. Each one found is written
 * as {}, so only a JSON text holding "{}" can have lost one.
 */
export function lostValue(value: unknown): LostValue | undefined {
  const paths = new WeakMap<object, string>();
  let top = true;
  let holder = "an object";
  let found: { kind: Kind; path: string } | undefined;
  try {
    JSON.stringify(value, function (this: object, key: string, child: unknown) {
      const parent = top ? undefined : paths.get(this);
      if (top && Array.isArray(child)) holder = "an array";
      top = false;
      const path = parent === undefined ? "" : parent === "" ? key : `${parent}.${key}`;
      const kind = emptiedKind(child);
      if (kind !== undefined) {
        found = { kind, path };
        throw FOUND;
      }
      if (typeof child === "object" && child !== null) paths.set(child, path);
      return child;
    });
  } catch (error) {
    if (error !== FOUND) return undefined;
  }
  if (found === undefined) return undefined;
  const { kind, path } = found;
  const a = kind === "Error" ? "an" : "a";
  const { lost, instead } = WORDS[kind];
  const sentAs = `which JSON would send as {} and lose ${lost}`;
  return path === ""
    ? {
        unsendable: `${a} ${kind}, ${sentAs}`,
        instead: instead({ verb: "return", there: "" }),
      }
    : {
        unsendable: `${holder} holding ${a} ${kind} at ${path}, ${sentAs}`,
        instead: instead({ verb: "put", there: " there" }),
      };
}

/**
 * The kind of an object JSON writes as {} though it holds something: by its
 * tag, not instanceof, as a test runner may make the value in another realm
 * (an Error by either: a subclass may name its own tag). One with fields of
 * its own (an Error's `code`) is written with them, not as {}, and let be.
 */
function emptiedKind(value: unknown): Kind | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  const kind = Object.hasOwn(WORDS, tag)
    ? (tag as Kind)
    : value instanceof Error
      ? "Error"
      : undefined;
  return kind !== undefined && Object.keys(value).length === 0 ? kind : undefined;
}
