import { defineTool } from "mcp-dir";
import { z } from "zod";

/**
 * tools/primes.ts is the tool "primes": a long job that reports progress and
 * stops when the client cancels.
 *
 * ctx.progress(done, total, message) sends notifications/progress when the
 * client asked for it (a progressToken) and does nothing otherwise.
 * ctx.signal aborts when the client cancels the request or disconnects.
 */
const STEPS = 10;

export default defineTool({
  title: "Count primes",
  description: "Counts the prime numbers below a limit, reporting progress as it goes",
  input: {
    below: z.number().int().min(2).max(10_000_000).describe("Count the primes below this number"),
  },
  annotations: { readOnlyHint: true, idempotentHint: true },
  handler: async ({ below }, ctx) => {
    const composite = new Uint8Array(below);
    let count = 0;
    const step = Math.ceil(below / STEPS);
    for (let start = 0; start < below; start += step) {
      ctx.signal.throwIfAborted();
      const end = Math.min(below, start + step);
      for (let n = Math.max(2, start); n < end; n++) {
        if (composite[n]) continue;
        count++;
        for (let multiple = n * n; multiple < below; multiple += n) composite[multiple] = 1;
      }
      await ctx.progress(end, below, `${count} primes below ${end}`);
      // Let cancellation and other requests through between steps.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return `There are ${count} primes below ${below}.`;
  },
});
