import { defineTool } from "mcp-dir";
import { z } from "zod";
import { MEMBERS, TEAMS } from "../lib/team.js";

/**
 * tools/report.ts is the tool "report": a long job that runs as a task.
 *
 * task: "optional" lets a client that supports tasks get a task at once and
 * poll it (tasks/get) while the handler goes on in the background; other
 * clients wait for the result as for any call. The handler is the same
 * either way: ctx.progress becomes the task's status message, and
 * tasks/cancel aborts ctx.signal. Try it with `mcp-dir call report`.
 */
export default defineTool({
  title: "Team report",
  description: "Writes a report on each team, one section at a time; runs as a task",
  input: {
    pauseMs: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .default(300)
      .describe("How long each section takes to write, in milliseconds"),
  },
  annotations: { readOnlyHint: true },
  task: "optional",
  handler: async ({ pauseMs }, ctx) => {
    const sections: string[] = [];
    for (const [done, team] of TEAMS.entries()) {
      await ctx.progress(done, TEAMS.length, `writing the ${team} section`);
      await pause(pauseMs, ctx.signal);
      const members = MEMBERS.filter((member) => member.team === team);
      const lines = members.map((member) => `- ${member.name}: ${member.skills.join(", ")}`);
      sections.push(`## ${team} (${members.length})\n${lines.join("\n")}`);
    }
    return `# Team report\n\n${sections.join("\n\n")}`;
  },
});

/** Waits `ms`, or rejects with why as soon as `signal` aborts (the task was cancelled). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
