import { defineTool, text } from "mcp-dir";
import { z } from "zod";
import { PollShape, summary, vote } from "../lib/polls.js";

/**
 * A tool only the poll's view calls (visibility ["app"]): the model never
 * sees it, and clients that show no views are not offered it at all.
 */
export default defineTool({
  title: "Vote in a poll",
  description: "Counts one vote for an answer of a poll",
  input: { id: z.string(), option: z.string().describe("The answer voted for") },
  output: PollShape,
  _meta: { ui: { resourceUri: "ui://poll", visibility: ["app"] } },
  handler: ({ id, option }) => {
    const poll = vote(id, option);
    return { content: [text(summary(poll))], structuredContent: poll };
  },
});
