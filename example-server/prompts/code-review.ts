import { definePrompt } from "mcp-dir";
import { z } from "zod";

/**
 * prompts/code-review.ts would be the prompt "code-review"; an explicit name
 * wins over the name derived from the path, so this is "code_review".
 *
 * Arguments are a zod shape of strings (optional ones are not required);
 * `complete` offers values for an argument as the user types (completion/complete).
 */
const LANGUAGES = ["typescript", "javascript", "python", "go", "rust", "java", "julia", "elixir"];
const FOCUS = ["security", "performance", "readability", "tests"];

export default definePrompt({
  name: "code_review",
  title: "Code review",
  description: "Asks for a focused review of a piece of code",
  arguments: {
    code: z.string().describe("The code to review"),
    language: z.string().optional().describe("The language it is written in"),
    focus: z
      .string()
      .optional()
      .describe(`What to look at first: ${FOCUS.join(", ")}`),
  },
  complete: {
    // A list is filtered by what the user typed; a function gets the typed value.
    language: LANGUAGES,
    focus: ({ value }) => FOCUS.filter((item) => item.startsWith(value.toLowerCase())),
  },
  get: ({ code, language, focus }) => [
    {
      role: "user",
      content: [
        `Please review this ${language ? `${language} ` : ""}code${focus ? `, focusing on ${focus}` : ""}.`,
        "Point out bugs first, then risky patterns, then style; suggest concrete changes.",
        "",
        `\`\`\`${language ?? ""}`,
        code,
        "```",
      ].join("\n"),
    },
  ],
});
