/**
 * What a thrown value says, in words a client can show: an Error's message
 * (or an error-like object's), a string as it is, any other object as its
 * JSON, a primitive as text. Never throws, whatever was thrown: a
 * null-prototype object, one whose `toString` or getters throw, a Proxy.
 */
export function thrownMessage(thrown: unknown): string {
  try {
    return describe(thrown);
  } catch {
    return "a thrown value that cannot be read";
  }
}

function describe(thrown: unknown): string {
  if (typeof thrown === "string") return thrown;
  if (typeof thrown === "function") return "a thrown function";
  if (typeof thrown !== "object" || thrown === null) return String(thrown);
  // An Error of another realm (a vm context) is no instanceof Error here, but has its message.
  const { message } = thrown as { message?: unknown };
  if (typeof message === "string") return message;
  const json = jsonOf(thrown);
  return json === undefined || json === "{}" ? "a thrown object with no message" : json;
}

/** Its JSON, or undefined for an object JSON cannot hold (a cycle, a BigInt). */
function jsonOf(value: object): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** For the developer's terminal: the stack when there is one, else the message. */
export function thrownDetail(thrown: unknown): string {
  try {
    if (thrown instanceof Error && typeof thrown.stack === "string") return thrown.stack;
  } catch {
    // A Proxy whose traps throw: its message says so.
  }
  return thrownMessage(thrown);
}

/** The error a tool's handler threw, behind the isError result its caller gets instead. */
const thrownBehind = new WeakMap<object, unknown>();

/** `result` stands for `thrown`: tracing records the throw on the handler's span. */
export function standsForThrown<R extends object>(result: R, thrown: unknown): R {
  thrownBehind.set(result, thrown);
  return result;
}

/** What a handler threw, when `result` was made from its throw. */
export function thrownBehindResult(result: unknown): unknown {
  return typeof result === "object" && result !== null ? thrownBehind.get(result) : undefined;
}
