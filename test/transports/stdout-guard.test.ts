/**
 * stdout is the protocol channel: author code's output goes to stderr while
 * anyone holds stdout, and holds overlap (a load, a reload, stdio serving) in
 * any order without one giving stdout back under another.
 */
import { describe, expect, it } from "vitest";
import { guardStdout } from "../../src/transports/stdout-guard.js";

function streams() {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = { write: (text: string) => void out.push(text) };
  const stderr = { write: (text: string) => void err.push(text) };
  return { stdout, stderr, out, err };
}

describe("the stdout guard", () => {
  it("sends what is written to stdout to stderr while held, and gives stdout back after", () => {
    const s = streams();
    const guard = guardStdout(s);
    const end = guard.hold();
    s.stdout.write("author, held\n");
    guard.write("message, held\n");
    end();
    s.stdout.write("author, after\n");
    expect(s.out).toEqual(["message, held\n", "author, after\n"]);
    expect(s.err).toEqual(["author, held\n"]);
  });

  it("writes the protocol's messages to stdout when serving begins while a load holds it", () => {
    const s = streams();
    const guard = guardStdout(s);
    const load = guard.hold();
    const serving = guard.hold();
    load();
    guard.write("response\n");
    s.stdout.write("author, while serving\n");
    expect(s.out).toEqual(["response\n"]);
    expect(s.err).toEqual(["author, while serving\n"]);
    serving();
  });

  it("keeps author output off stdout when a reload that began before serving ends after it began", () => {
    const s = streams();
    const guard = guardStdout(s);
    const reload = guard.hold();
    s.stdout.write("author, reloading\n");
    const serving = guard.hold();
    reload();
    reload();
    s.stdout.write("author, served\n");
    guard.write("response\n");
    expect(s.out).toEqual(["response\n"]);
    expect(s.err).toEqual(["author, reloading\n", "author, served\n"]);
    serving();
    s.stdout.write("after every hold\n");
    expect(s.out).toEqual(["response\n", "after every hold\n"]);
  });

  it("tells a result's writer when its text is handed over, held or not", () => {
    const s = streams();
    const written: string[] = [];
    const stdout = {
      write: (text: string, done?: () => void) => {
        s.out.push(text);
        done?.();
      },
    };
    const guard = guardStdout({ stdout, stderr: s.stderr });
    guard.write("free\n", () => written.push("free"));
    const end = guard.hold();
    guard.write("held\n", () => written.push("held"));
    end();
    expect(s.out).toEqual(["free\n", "held\n"]);
    expect(written).toEqual(["free", "held"]);
  });
});
