import { defineTool, text } from "mcp-dir";
import { z } from "zod";
import { openPoll, PollShape, summary } from "../lib/polls.js";

/**
 * tools/poll.ts is the tool "poll", and views/poll.ts is its view (MCP Apps):
 * a view named like a tool shows that tool's result, in clients that render
 * views. Others get the text, as from any tool.
 */
export default defineTool({
  title: "Run a poll",
  description: "Asks the team a question with a few answers; people vote in the poll's view",
  input: {
    question: z.string().min(1).describe("The question"),
    options: z.array(z.string().min(1)).min(2).max(6).describe("The answers to choose from"),
  },
  output: PollShape,
  handler: ({ question, options }) => {
    const poll = openPoll(question, options);
    return { content: [text(summary(poll))], structuredContent: poll };
  },
});
