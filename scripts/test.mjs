// `npm test` after the build: the type check and the linter run beside vitest rather
// than before it. vitest's children wait on sockets and timers for a good part of the
// run, leaving a core idle some of the time, which the checks (some 30 s of CPU on a
// fresh clone) fill: at a lower priority, so that they take only what vitest leaves
// (measured on a fresh clone, vitest took 164 s beside them at the same priority).
// What a check prints is held and shown whole when it ends, so it does not break up
// vitest's lines; the exit code is the first failure's, in the order below.
// Usage: node scripts/test.mjs [vitest arguments]
import { spawn } from "node:child_process";
import { constants, setPriority } from "node:os";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** A command whose output is kept until it ends; resolves with its exit code. */
function check(name, command, args) {
  const started = performance.now();
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  // Before npm starts the check itself, which inherits the priority.
  try {
    if (child.pid !== undefined) setPriority(child.pid, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Gone already, or not to be lowered here: it runs as it is.
  }
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (text) => {
    output += text;
  });
  child.stderr.setEncoding("utf8").on("data", (text) => {
    output += text;
  });
  return new Promise((resolve) => {
    child.once("error", (error) => {
      process.stderr.write(`${name}: could not run ${command}: ${error.message}\n`);
      resolve(1);
    });
    child.once("close", (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const verdict = code === 0 ? "passed" : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(`\n${name} ${verdict} in ${seconds} s\n${code === 0 ? "" : output}`);
      resolve(code ?? 1);
    });
  });
}

/** A command whose output goes straight to this process's; resolves with its exit code. */
function run(command, args) {
  const child = spawn(command, args, { stdio: "inherit" });
  return new Promise((resolve) => {
    child.once("error", () => resolve(1));
    child.once("close", (code) => resolve(code ?? 1));
  });
}

const codes = await Promise.all([
  check("typecheck", NPM, ["run", "--silent", "typecheck"]),
  check("lint", NPM, ["run", "--silent", "lint"]),
  run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)]),
]);
process.exitCode = codes.find((code) => code !== 0) ?? 0;
