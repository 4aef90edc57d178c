/**
 * Matches a URI against a URI template's parts in time linear in the URI's
 * length. The parts compile to a small program that runs as a Pike VM (the
 * method of RE2 and Thompson's construction): every way the template could
 * still match advances one character at a time, together, each program
 * position held at most once, so no choice is ever retried. Lazy and greedy
 * parts keep the priority a backtracking regular expression gives them, so a
 * URI splits into the same values it did when templates became RegExps.
 */

/** Which characters (UTF-16 code units) a part may take. */
export class CharClass {
  private readonly ascii = new Uint8Array(128);

  private constructor(
    private readonly listed: ReadonlySet<number>,
    private readonly listedAreTaken: boolean,
  ) {
    for (let code = 0; code < 128; code++) {
      this.ascii[code] = listed.has(code) === listedAreTaken ? 1 : 0;
    }
  }

  static oneOf(characters: string): CharClass {
    return new CharClass(codesOf(characters), true);
  }

  static anyExcept(characters: string): CharClass {
    return new CharClass(codesOf(characters), false);
  }

  takes(code: number): boolean {
    return code < 128 ? this.ascii[code] === 1 : this.listed.has(code) === this.listedAreTaken;
  }
}

function codesOf(characters: string): Set<number> {
  return new Set(Array.from(characters, (c) => c.charCodeAt(0)));
}

export type TemplatePart =
  /** These characters, in order. */
  | { readonly kind: "literal"; readonly text: string }
  /** One character of the class. */
  | { readonly kind: "one"; readonly takes: CharClass }
  /**
   * A run of the class: at least `min` characters, as few as fit if lazy, else
   * as many; with `max`, at most that many once percent-decoded (see
   * decodedCharacter).
   */
  | {
      readonly kind: "run";
      readonly takes: CharClass;
      readonly min: 0 | 1;
      readonly lazy: boolean;
      readonly max?: number;
    }
  /** The body's characters, kept as the next numbered value. */
  | { readonly kind: "capture"; readonly body: readonly TemplatePart[] }
  /** The body if it fits, else nothing. */
  | { readonly kind: "optional"; readonly body: readonly TemplatePart[] };

const PERCENT = "%".charCodeAt(0);
const HEX = CharClass.oneOf("0123456789ABCDEFabcdef");
/** The first hex digit of an escaped UTF-8 continuation byte (0x80 to 0xBF). */
const CONTINUATION = CharClass.oneOf("89ABab");
const LOW_SURROGATE = CharClass.oneOf(
  String.fromCharCode(...Array.from({ length: 0x400 }, (_, i) => 0xdc00 + i)),
);

/** What matching cost: the characters examined, summed over the ways tried together. */
export interface MatchWork {
  steps: number;
}

/** Reads one character that equals `a`. */
const CHAR = 0;
/** Reads one character that `classes[a]` takes. */
const CLASS = 1;
/** Goes on at `a`, and at lower priority at `b`. */
const SPLIT = 2;
/** Goes on at `a`. */
const JUMP = 3;
/** Notes the position in slot `a`. */
const SAVE = 4;
/** Succeeds if the input ends here. */
const MATCH = 5;

export interface TemplateMatcher {
  /** Each capture's text in order (undefined where an optional part was absent), or undefined. */
  match(input: string, work?: MatchWork): (string | undefined)[] | undefined;
}

export function compileTemplateParts(parts: readonly TemplatePart[]): TemplateMatcher {
  const program: [op: number, a: number, b: number][] = [];
  const classes: CharClass[] = [];
  let captures = 0;
  const emit = (op: number, a = 0, b = 0): number => program.push([op, a, b]) - 1;
  const classIndex = (takes: CharClass): number => {
    const known = classes.indexOf(takes);
    return known === -1 ? classes.push(takes) - 1 : known;
  };
  const compile = (part: TemplatePart): void => {
    switch (part.kind) {
      case "literal":
        for (let i = 0; i < part.text.length; i++) emit(CHAR, part.text.charCodeAt(i));
        return;
      case "one":
        emit(CLASS, classIndex(part.takes));
        return;
      case "run": {
        // Greedy prefers to take another character; lazy prefers to leave.
        const split = (take: number, leave: number) =>
          part.lazy ? emit(SPLIT, leave, take) : emit(SPLIT, take, leave);
        if (part.max !== undefined) {
          // A copy of one decoded character for each the value may hold, with a
          // way out after the first `min`. A thread holds no counter (threads at
          // one instruction are merged), so the count is where the thread is.
          const leaves: number[] = [];
          for (let held = 0; held < part.max; held++) {
            if (held >= part.min) leaves.push(split(program.length + 1, -1));
            decodedCharacter(part.takes);
          }
          for (const at of leaves) (program[at] as number[])[part.lazy ? 1 : 2] = program.length;
          return;
        }
        if (part.min === 1) {
          const take = emit(CLASS, classIndex(part.takes));
          split(take, take + 2);
          return;
        }
        const loop = split(program.length + 1, program.length + 3);
        emit(CLASS, classIndex(part.takes));
        emit(JUMP, loop);
        return;
      }
      case "capture": {
        const slot = 2 * captures++;
        emit(SAVE, slot);
        for (const inner of part.body) compile(inner);
        emit(SAVE, slot + 1);
        return;
      }
      case "optional": {
        const choice = emit(SPLIT, program.length + 1); // `b` is set once the body's end is known
        for (const inner of part.body) compile(inner);
        (program[choice] as number[])[2] = program.length;
        return;
      }
    }
  };
  /**
   * One character of a value once percent-decoded: an escaped UTF-8 sequence
   * (a byte, then any continuation bytes), a surrogate pair, or any other
   * character the class takes (a "%" that starts no escape among them). For
   * well-formed UTF-8 the fewest copies a value can take is its length in code
   * points; the caller checks the decoded value, as a malformed one may differ.
   */
  const decodedCharacter = (takes: CharClass): void => {
    const setB = (at: number) => {
      (program[at] as number[])[2] = program.length;
    };
    let pastUnescaped: number | undefined;
    if (takes.takes(PERCENT)) {
      const escapedOrNot = emit(SPLIT, program.length + 1);
      emit(CHAR, PERCENT);
      emit(CLASS, classIndex(HEX));
      emit(CLASS, classIndex(HEX));
      const continues = emit(SPLIT, program.length + 1);
      emit(CHAR, PERCENT);
      emit(CLASS, classIndex(CONTINUATION));
      emit(CLASS, classIndex(HEX));
      emit(JUMP, continues);
      setB(continues);
      pastUnescaped = emit(JUMP);
      setB(escapedOrNot);
    }
    emit(CLASS, classIndex(takes));
    const pair = emit(SPLIT, program.length + 1);
    emit(CLASS, classIndex(LOW_SURROGATE));
    setB(pair);
    if (pastUnescaped !== undefined) (program[pastUnescaped] as number[])[1] = program.length;
  };
  for (const part of parts) compile(part);
  emit(MATCH);
  const start = parts[0]?.kind === "literal" ? parts[0].text : "";
  return new PikeVm(program, classes, 2 * captures, start);
}

/**
 * Where a thread can go without reading, from each instruction a thread enters:
 * the instructions that read (or match) it reaches, in priority order, each
 * with the slots it saves on the way. Worked out once, so a step only copies.
 */
class Successors {
  /** Entries `first[pc]` to `first[pc + 1]` are those of `pc`. */
  readonly first: Int32Array;
  readonly target: Int32Array;
  /** Slots `saveFirst[entry]` to `saveFirst[entry + 1]` of `saveSlot` are those the entry saves. */
  readonly saveFirst: Int32Array;
  readonly saveSlot: Int32Array;

  constructor(program: readonly (readonly [number, number, number])[]) {
    const first = [0];
    const targets: number[] = [];
    const saveFirst = [0];
    const saveSlots: number[] = [];
    // The instructions met from `from` (those marked `from`): a bounded run
    // makes programs of many thousand instructions, so no Set per instruction.
    const seen = new Int32Array(program.length).fill(-1);
    for (let from = 0; from < program.length; from++) {
      const follow = (pc: number, saves: readonly number[]): void => {
        if (seen[pc] === from) return;
        seen[pc] = from;
        const [op, a, b] = program[pc] as readonly [number, number, number];
        if (op === JUMP) follow(a, saves);
        else if (op === SPLIT) {
          follow(a, saves);
          follow(b, saves);
        } else if (op === SAVE) follow(pc + 1, [...saves, a]);
        else {
          targets.push(pc);
          saveSlots.push(...saves);
          saveFirst.push(saveSlots.length);
        }
      };
      follow(from, []);
      first.push(targets.length);
    }
    this.first = Int32Array.from(first);
    this.target = Int32Array.from(targets);
    this.saveFirst = Int32Array.from(saveFirst);
    this.saveSlot = Int32Array.from(saveSlots);
  }
}

/**
 * Runs every thread of the program in step, one character at a time: at most
 * one thread per instruction, in priority order, so the work per character is
 * bounded by the program's size. Its buffers are reused across calls (matching
 * is synchronous, so calls never overlap).
 */
class PikeVm implements TemplateMatcher {
  private readonly ops: Uint8Array;
  private readonly as: Int32Array;
  private readonly successors: Successors;
  /** The generation in which each instruction last gained a thread, numbered across calls. */
  private readonly queued: Float64Array;
  private generation = 0;
  /** Two lists of threads, the current position's and the next's: instructions and slots. */
  private readonly pcs: readonly [Int32Array, Int32Array];
  private readonly saved: readonly [Int32Array, Int32Array];
  /** The slots of a thread that has saved nothing. */
  private readonly unsaved: Int32Array;

  constructor(
    program: readonly (readonly [number, number, number])[],
    private readonly classes: readonly CharClass[],
    private readonly slots: number,
    /** The literal text every match starts with (its instructions come first). */
    private readonly start: string,
  ) {
    this.ops = Uint8Array.from(program, (instruction) => instruction[0]);
    this.as = Int32Array.from(program, (instruction) => instruction[1]);
    this.successors = new Successors(program);
    this.queued = new Float64Array(program.length).fill(-1);
    const size = program.length;
    this.pcs = [new Int32Array(size), new Int32Array(size)];
    this.saved = [new Int32Array(size * slots), new Int32Array(size * slots)];
    this.unsaved = new Int32Array(slots).fill(-1);
  }

  match(input: string, work?: MatchWork): (string | undefined)[] | undefined {
    const { ops, as, classes, slots, pcs, saved, start } = this;
    // Most templates a URI meets differ from it in their first characters.
    if (!input.startsWith(start)) {
      if (work) work.steps += start.length;
      return undefined;
    }
    let generation = ++this.generation;
    let now = 0;
    let count = this.enter(0, 0, start.length, this.unsaved, 0, start.length, generation);
    let steps = start.length;
    let at = start.length;
    for (; at < input.length && count > 0; at++) {
      const code = input.charCodeAt(at);
      const [nowPcs, nowSaved] = [pcs[now] as Int32Array, saved[now] as Int32Array];
      const next = 1 - now;
      let nextCount = 0;
      generation++;
      for (let thread = 0; thread < count; thread++) {
        const pc = nowPcs[thread] as number;
        const op = ops[pc];
        if (op === MATCH) continue; // the input goes on past the template's end
        steps++;
        const a = as[pc] as number;
        if (op === CHAR ? code === a : (classes[a] as CharClass).takes(code)) {
          const row = thread * slots;
          nextCount = this.enter(next, nextCount, pc + 1, nowSaved, row, at + 1, generation);
        }
      }
      now = next;
      count = nextCount;
    }
    this.generation = generation;
    if (work) work.steps += steps;
    return at === input.length ? this.matched(input, now, count) : undefined;
  }

  /**
   * Adds to list `into` (holding `count` threads) those that entering `pc` at `at`
   * leads to, except where a thread of higher priority is already; each starts
   * with the slots at `from[base...]`. Returns the list's new count.
   */
  private enter(
    into: number,
    count: number,
    pc: number,
    from: Int32Array,
    base: number,
    at: number,
    generation: number,
  ): number {
    const { first, target, saveFirst, saveSlot } = this.successors;
    const { queued, slots } = this;
    const [pcs, saved] = [this.pcs[into] as Int32Array, this.saved[into] as Int32Array];
    let added = count;
    for (let entry = first[pc] as number; entry < (first[pc + 1] as number); entry++) {
      const to = target[entry] as number;
      if (queued[to] === generation) continue;
      queued[to] = generation;
      pcs[added] = to;
      const row = added * slots;
      for (let slot = 0; slot < slots; slot++) saved[row + slot] = from[base + slot] as number;
      for (let save = saveFirst[entry] as number; save < (saveFirst[entry + 1] as number); save++) {
        saved[row + (saveSlot[save] as number)] = at;
      }
      added++;
    }
    return added;
  }

  /** The captures of the first thread (by priority) in `list` that reached the template's end. */
  private matched(input: string, list: number, count: number): (string | undefined)[] | undefined {
    const { slots } = this;
    const [pcs, saved] = [this.pcs[list] as Int32Array, this.saved[list] as Int32Array];
    for (let thread = 0; thread < count; thread++) {
      if (this.ops[pcs[thread] as number] !== MATCH) continue;
      const values: (string | undefined)[] = [];
      for (let slot = thread * slots; slot < (thread + 1) * slots; slot += 2) {
        const [start, end] = [saved[slot] as number, saved[slot + 1] as number];
        values.push(start === -1 || end === -1 ? undefined : input.slice(start, end));
      }
      return values;
    }
    return undefined;
  }
}
