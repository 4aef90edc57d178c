/**
 * A Map or a Set in a value a handler returned: JSON.stringify writes either
 * as {}, silently without its entries.
 */
export interface LostCollection {
  /** Words to follow "returned": "a Map, which JSON would send as {} …". */
  unsendable: string;
  /** What to return instead. */
  instead: string;
}

const FROM_MAP = "Object.fromEntries(map) (an object) or [...map] (a list of [key, value] pairs)";
const FROM_SET = "[...set] (an array)";

/** Thrown to stop JSON.stringify at the first one found. */
const FOUND = Symbol("found");

/**
 * The first Map or Set JSON.stringify meets in `value`, after any toJSON
 * (a Map with its own toJSON says what it means), and where: keys from the
 * top joined with "." as validation issues name them. Undefined when none.
 */
export function lostCollection(value: unknown): LostCollection | undefined {
  const paths = new WeakMap<object, string>();
  let top = true;
  let holder = "an object";
  let found: { kind: "Map" | "Set"; path: string } | undefined;
  try {
    JSON.stringify(value, function (this: object, key: string, child: unknown) {
      const parent = top ? undefined : paths.get(this);
      if (top && Array.isArray(child)) holder = "an array";
      top = false;
      const path = parent === undefined ? "" : parent === "" ? key : `${parent}.${key}`;
      const kind = collectionKind(child);
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
  const lost = kind === "Map" ? "its entries" : "its values";
  const replacement = kind === "Map" ? FROM_MAP : FROM_SET;
  return path === ""
    ? {
        unsendable: `a ${kind}, which JSON would send as {} and lose ${lost}`,
        instead: `return ${replacement} instead`,
      }
    : {
        unsendable: `${holder} holding a ${kind} at ${path}, which JSON would send as {} and lose ${lost}`,
        instead: `put ${replacement} there instead`,
      };
}

/** By its tag, not instanceof: a test runner may make the value in another realm. */
function collectionKind(value: unknown): "Map" | "Set" | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const tag = Object.prototype.toString.call(value);
  return tag === "[object Map]" ? "Map" : tag === "[object Set]" ? "Set" : undefined;
}
