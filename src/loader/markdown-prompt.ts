import { brand } from "../define/brand.js";
import type { PromptArgumentSpec } from "../define/prompt.js";
import { unfilledPlaceholders } from "../define/prompt-placeholders.js";
import type { Icon } from "../protocol/types.js";
import type { Definition } from "../registry/definition.js";
import { parseFrontMatter } from "./front-matter.js";

export type MarkdownPrompt =
  | { ok: true; definition: Definition; warnings: string[] }
  | { ok: false; problems: string[] };

const KEYS = ["name", "title", "description", "icons", "arguments"];
const ARGUMENT_KEYS = ["name", "title", "description", "required"];

/**
 * A prompt written as Markdown: the YAML front matter gives name, title,
 * description, icons and arguments; the body is one user message whose
 * `{{argument}}` placeholders are filled in. Icons are checked where a code
 * prompt's are (compilePrompt), so both are refused with the same words.
 */
export function markdownPrompt(source: string): MarkdownPrompt {
  const parsed = parseFrontMatter(source);
  if (!parsed.ok) return { ok: false, problems: [parsed.message] };
  const { data } = parsed;
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const key of Object.keys(data).filter((key) => !KEYS.includes(key))) {
    warnings.push(`front matter key "${key}" is not used; the keys are ${KEYS.join(", ")}`);
  }
  for (const key of ["name", "title", "description"]) {
    if (data[key] !== undefined && typeof data[key] !== "string") {
      problems.push(`front matter "${key}" must be text, got ${JSON.stringify(data[key])}`);
    }
  }
  const args = promptArguments(data.arguments, problems, warnings);
  const body = promptBody(parsed.body);
  if (body.trim() === "")
    problems.push("the body is empty: write the prompt's text below the front matter");
  if (problems.length > 0) return { ok: false, problems };

  for (const name of unfilledPlaceholders(body, new Set(args.map((a) => a.name)))) {
    warnings.push(
      `{{${name}}} in the body is not an argument, so it is always empty; add it to "arguments" in the front matter`,
    );
  }
  const definition = brand("prompt", {
    ...(data.name !== undefined && { name: data.name as string }),
    ...(data.title !== undefined && { title: data.title as string }),
    ...(data.description !== undefined && { description: data.description as string }),
    ...(data.icons !== undefined && { icons: data.icons as Icon[] }),
    ...(args.length > 0 && { arguments: args }),
    messages: [{ role: "user" as const, content: body }],
  }) as unknown as Definition;
  return { ok: true, definition, warnings };
}

/**
 * The prompt's text as written: the blank lines that part it from the front
 * matter are layout, and so is the line break that ends the file; all else,
 * an indented first line (a code block) and blank lines at the end included,
 * is the author's.
 */
function promptBody(written: string): string {
  return written.replace(/^(?:[ \t]*\r?\n)+/, "").replace(/\r?\n$/, "");
}

/** `arguments:` is a list of names or of { name, title, description, required }. */
function promptArguments(
  value: unknown,
  problems: string[],
  warnings: string[],
): PromptArgumentSpec[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(
      'front matter "arguments" must be a list, such as:\n    arguments:\n      - name: topic\n        description: What to write about\n        required: true',
    );
    return [];
  }
  return value.flatMap((item: unknown, index): PromptArgumentSpec[] => {
    if (typeof item === "string") return [{ name: item }];
    const spec = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const where = `front matter arguments[${index}]`;
    if (typeof spec.name !== "string" || spec.name === "") {
      problems.push(`${where} needs a name (name: topic)`);
      return [];
    }
    for (const key of Object.keys(spec).filter((key) => !ARGUMENT_KEYS.includes(key))) {
      warnings.push(
        `${where} ("${spec.name}"): key "${key}" is not used; the keys are ${ARGUMENT_KEYS.join(", ")}`,
      );
    }
    for (const key of ["title", "description"]) {
      if (spec[key] !== undefined && typeof spec[key] !== "string") {
        problems.push(`${where} ("${spec.name}"): ${key} must be text`);
      }
    }
    if (spec.required !== undefined && typeof spec.required !== "boolean") {
      problems.push(`${where} ("${spec.name}"): required must be true or false`);
    }
    return [
      {
        name: spec.name,
        ...(typeof spec.title === "string" && { title: spec.title }),
        ...(typeof spec.description === "string" && { description: spec.description }),
        ...(spec.required === true && { required: true }),
      },
    ];
  });
}
