/**
 * A server directory whose handlers ask for input in every way an author can:
 * elicitation, sampling, roots, several at once, several rounds, from a
 * prompt and a resource, and one that never stops asking.
 */
export const ASKING_SERVER = {
  "mcp-dir.config.json": JSON.stringify({ inputRounds: { maxRounds: 3 } }),
  "tools/ask-name.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Greets the user by the name they give",
  handler: async (_args, ctx) => {
    ctx.roundState.runs = Number(ctx.roundState.runs ?? 0) + 1;
    const answer = await ctx.elicit({ message: "What is your name?", schema: { name: z.string() } });
    const said = answer.action === "accept" ? "Hello, " + answer.content.name : "No name: " + answer.action;
    return said + " (runs: " + ctx.roundState.runs + ")";
  },
});`,
  "tools/capital.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Asks the client's model",
  handler: async (_args, ctx) => {
    const reply = await ctx.sample("What is the capital of France?");
    return reply.content.type === "text" ? reply.content.text : "no text";
  },
});`,
  "tools/where.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Lists the client's roots",
  handler: async (_args, ctx) => (await ctx.roots()).map((root) => root.uri).join(", "),
});`,
  "tools/all-at-once.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Asks three things in one round",
  handler: async (_args, ctx) => {
    ctx.roundState.runs = Number(ctx.roundState.runs ?? 0) + 1;
    const [name, reply, roots] = await Promise.all([
      ctx.elicit({ message: "What is your name?", schema: { name: z.string() } }),
      ctx.sample("What is the capital of France?"),
      ctx.roots(),
    ]);
    const who = name.action === "accept" ? name.content.name : "nobody";
    const text = reply.content.type === "text" ? reply.content.text : "";
    return who + " / " + text + " / " + roots.length + " root(s) (runs: " + ctx.roundState.runs + ")";
  },
});`,
  "tools/two-steps.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Asks twice, the second question built from the first answer",
  input: { greeting: z.string() },
  handler: async ({ greeting }, ctx) => {
    ctx.roundState.runs = Number(ctx.roundState.runs ?? 0) + 1;
    const name = await ctx.elicit({ message: "What is your name?", schema: { name: z.string() } });
    const who = name.action === "accept" ? name.content.name : "you";
    const color = await ctx.elicit(
      { message: "Which colour do you like, " + who + "?", schema: { color: z.string() } },
      { key: "colour" },
    );
    const likes = color.action === "accept" ? color.content.color : "nothing";
    return greeting + " " + who + ", who likes " + likes + " (runs: " + ctx.roundState.runs + ")";
  },
});`,
  "tools/buy.ts": `import { randomUUID } from "node:crypto";
import { defineTool } from "mcp-dir";
import { z } from "zod";
// The author's own store (a database in real life): the orders charged, and how often anything was.
const charged = new Set();
let charges = 0;
function chargeOnce(orderId) {
  if (charged.has(orderId)) return;
  charged.add(orderId);
  charges += 1;
}
export default defineTool({
  description: "Charges once per order, however often a requestState is replayed (the README's guard)",
  handler: async (_args, ctx) => {
    ctx.roundState.orderId ??= randomUUID();
    const confirm = await ctx.elicit({ message: "Buy it?", schema: { ok: z.boolean() } });
    if (confirm.action !== "accept" || !confirm.content.ok) return "not bought";
    chargeOnce(String(ctx.roundState.orderId));
    const wrap = await ctx.elicit({ message: "Gift wrap?", schema: { wrap: z.boolean() } }, { key: "wrap" });
    return "bought" + (wrap.action === "accept" && wrap.content.wrap ? ", wrapped" : "") + "; charges so far: " + charges;
  },
});`,
  "tools/buy-naively.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
let charges = 0;
export default defineTool({
  description: "Guards its charge with ctx.roundState alone, which a replayed requestState runs past",
  handler: async (_args, ctx) => {
    const confirm = await ctx.elicit({ message: "Buy it?", schema: { ok: z.boolean() } });
    if (confirm.action !== "accept" || !confirm.content.ok) return "not bought";
    if (!ctx.roundState.charged) {
      charges += 1;
      ctx.roundState.charged = true;
    }
    await ctx.elicit({ message: "Gift wrap?", schema: { wrap: z.boolean() } }, { key: "wrap" });
    return "bought; charges so far: " + charges;
  },
});`,
  "tools/pay.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Asks to pay today's price, which set-price may change between rounds",
  handler: async (_args, ctx) => {
    const price = globalThis.price ?? 5;
    const pay = await ctx.elicit({ message: "Pay " + price + " EUR?", schema: { ok: z.boolean() } });
    if (pay.action !== "accept" || !pay.content.ok) return "not paid";
    const wrap = await ctx.elicit({ message: "Gift wrap?", schema: { wrap: z.boolean() } }, { key: "wrap" });
    return "paid " + price + " EUR" + (wrap.action === "accept" && wrap.content.wrap ? ", wrapped" : "");
  },
});`,
  "tools/set-price.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Changes the price pay asks for",
  input: { price: z.number() },
  handler: ({ price }) => {
    globalThis.price = price;
    return "price: " + price;
  },
});`,
  "tools/keeps-asking.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Never has enough",
  handler: async (_args, ctx) => {
    for (let i = 1; ; i++) {
      await ctx.elicit({ message: "Question " + i, schema: { answer: z.string() } });
    }
  },
});`,
  "tools/careful.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Samples when it can",
  handler: async (_args, ctx) => {
    try {
      await ctx.sample("Hello?");
      return "sampled";
    } catch (error) {
      return "caught: " + error.message;
    }
  },
});`,
  "prompts/topic.ts": `import { definePrompt } from "mcp-dir";
import { z } from "zod";
export default definePrompt({
  description: "Asks the user for a topic",
  get: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "Which topic?", schema: { topic: z.string() } });
    return "Write about " + (answer.action === "accept" ? answer.content.topic : "anything");
  },
});`,
  "resources/secret.ts": `import { defineResource } from "mcp-dir";
import { z } from "zod";
export default defineResource({
  uri: "memo://secret",
  read: async (_request, ctx) => {
    const answer = await ctx.elicit({ message: "Password?", schema: { password: z.string() } });
    return answer.action === "accept" && answer.content.password === "open" ? "the secret" : "denied";
  },
});`,
  "tools/sign-in.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
// What a real server keeps in its store: who finished signing in, and how to tell the client.
const finishers = new Map();
let connected = false;
export const signIn = defineTool({
  name: "sign-in",
  description: "Sends the user to a page to sign in",
  handler: async (_args, ctx) => {
    const outcome = await ctx.elicit({
      message: "Sign in to Example",
      url: "https://example.com/connect?session=s1",
      elicitationId: "sign-in-s1",
    });
    finishers.set(outcome.elicitationId, outcome.complete);
    return outcome.action + " " + outcome.elicitationId;
  },
});
export const callback = defineTool({
  name: "sign-in-callback",
  description: "What the page's callback does: records the sign-in and tells the client",
  input: { id: z.string() },
  handler: ({ id }) => {
    connected = true;
    finishers.get(id)?.();
    return "signed in";
  },
});
export const signOut = defineTool({
  name: "sign-out",
  description: "Forgets the sign-in",
  handler: () => {
    connected = false;
    return "signed out";
  },
});
export const needsSignIn = defineTool({
  name: "needs-sign-in",
  description: "Works only once the user has signed in",
  handler: (_args, ctx) => {
    if (!connected) {
      throw ctx.urlElicitationRequired({
        message: "Connect your Example account",
        url: "https://example.com/connect?session=s2",
        elicitationId: "sign-in-s2",
      });
    }
    return "signed in: working";
  },
});
export const plainHttp = defineTool({
  name: "plain-http",
  description: "Sends the user to a page that is not https",
  handler: async (_args, ctx) => {
    try {
      await ctx.elicit({ message: "Look", url: "http://example.com/look" });
      return "sent";
    } catch (error) {
      return "caught: " + error.message;
    }
  },
});`,
};
