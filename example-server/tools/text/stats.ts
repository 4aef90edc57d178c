import { defineTool } from "mcp-dir";
import { z } from "zod";

/**
 * tools/text/stats.ts is the tool "text_stats": folders join the name with "_".
 *
 * With an output schema, the handler returns an object: it is validated
 * against the schema and sent as structuredContent (and as JSON text for
 * clients that read only the content).
 */
const WORDS_PER_MINUTE = 200;

export default defineTool({
  title: "Text statistics",
  description:
    "Counts the words, sentences and characters of a text and estimates its reading time",
  input: {
    text: z.string().describe("The text to measure"),
  },
  output: {
    words: z.number().int().describe("Words, separated by white space"),
    sentences: z.number().int().describe("Sentences, ended by . ! or ?"),
    characters: z.number().int().describe("Characters, white space included"),
    readingMinutes: z.number().describe(`Reading time at ${WORDS_PER_MINUTE} words a minute`),
  },
  annotations: { readOnlyHint: true, idempotentHint: true },
  handler: ({ text }) => {
    const words = text.split(/\s+/).filter(Boolean).length;
    const sentences = text.split(/[.!?]+/).filter((part) => part.trim() !== "").length;
    return {
      words,
      sentences,
      characters: [...text].length,
      readingMinutes: Math.round((words / WORDS_PER_MINUTE) * 10) / 10,
    };
  },
});
