import { basename } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { pathToFileURL } from "node:url";
import type { InputRequest, Responders } from "../client/index.js";
import type { ElicitResult } from "../protocol/types.js";
import { canAskOnTerminal } from "./stdout.js";

type Params = Record<string, unknown>;
type FieldSchema = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: { const: unknown; title?: string }[];
  default?: unknown;
};

/** What `mcp-dir call` can answer: the user at the terminal, and the working directory as root. */
export const TERMINAL_CAPABILITIES = { elicitation: { form: {}, url: {} }, roots: {} };

/** Reading stops at end of input (Ctrl-D): the user cancelled. */
class Cancelled extends Error {}

/**
 * Answers a handler's asks at the terminal: each elicitation field is asked
 * for on stderr and read from stdin; roots are the working directory.
 * Without a terminal to ask on there is no elicitation responder, so a
 * handler that asks the user ends the call with an InputRequiredError naming
 * what was asked. One reader serves every ask of a call: lines typed (or
 * pasted) ahead of a question wait in its buffer. Close it after the call.
 */
export class TerminalAnswers {
  private terminal: Interface | undefined;
  private lines: AsyncIterator<string> | undefined;

  responders(): Responders {
    const roots = {
      roots: [{ uri: pathToFileURL(process.cwd()).href, name: basename(process.cwd()) }],
    };
    if (!canAskOnTerminal()) return { roots };
    return {
      roots,
      elicitation: (request) =>
        elicit((question) => this.ask(question), request as unknown as Params),
    };
  }

  private async ask(question: string): Promise<string> {
    if (!this.terminal) {
      this.terminal = createInterface({ input: process.stdin, output: process.stderr });
      this.lines = this.terminal[Symbol.asyncIterator]();
    }
    this.terminal.setPrompt(question);
    this.terminal.prompt();
    const line = await this.lines?.next();
    if (!line || line.done) throw new Cancelled();
    return line.value;
  }

  close(): void {
    this.terminal?.close();
  }
}

async function elicit(
  ask: (question: string) => Promise<string>,
  params: Params,
): Promise<ElicitResult<Record<string, unknown>>> {
  try {
    process.stderr.write(`\n${String(params.message)}\n`);
    if (params.mode === "url") {
      process.stderr.write(`Open this page in your browser: ${String(params.url)}\n`);
      const done = await ask("Press Enter when you are done there, or d to decline, c to cancel: ");
      const said = done.trim().toLowerCase();
      if (said.startsWith("d")) return { action: "decline" };
      if (said.startsWith("c")) return { action: "cancel" };
      return { action: "accept" };
    }
    const choice = (await ask("Answer (a), decline (d) or cancel (c)? [a] ")).trim().toLowerCase();
    if (choice.startsWith("d")) return { action: "decline" };
    if (choice.startsWith("c")) return { action: "cancel" };
    const schema = (params.requestedSchema ?? {}) as {
      properties?: Record<string, FieldSchema>;
      required?: string[];
    };
    const content: Params = {};
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      const value = await askField(ask, name, field, schema.required?.includes(name) === true);
      if (value !== undefined) content[name] = value;
    }
    return { action: "accept", content };
  } catch (error) {
    if (error instanceof Cancelled) return { action: "cancel" };
    throw error;
  }
}

async function askField(
  ask: (question: string) => Promise<string>,
  name: string,
  field: FieldSchema,
  required: boolean,
): Promise<unknown> {
  const choices = field.enum ?? field.oneOf?.map((option) => option.const);
  const hints = [
    field.type ?? "text",
    choices ? `one of ${choices.join(", ")}` : undefined,
    field.default !== undefined ? `default ${String(field.default)}` : undefined,
    required ? undefined : "optional",
  ].filter(Boolean);
  const label = `${field.title ?? name}${field.description ? ` (${field.description})` : ""} [${hints.join("; ")}]: `;
  for (;;) {
    const raw = (await ask(label)).trim();
    if (raw === "") {
      if (field.default !== undefined) return field.default;
      if (!required) return undefined;
      process.stderr.write(`${name} is required\n`);
      continue;
    }
    const value = parseAnswer(raw, field.type);
    if (value === undefined || (choices && !choices.includes(value))) {
      process.stderr.write(
        `${name} must be ${choices ? `one of ${choices.join(", ")}` : `a ${field.type}`}\n`,
      );
      continue;
    }
    return value;
  }
}

/** Says what a handler asked for, one line per request, for a user who could not be asked. */
export function describeInputRequests(requests: Record<string, InputRequest>): string {
  return Object.entries(requests)
    .map(([key, { method, params = {} }]) => {
      if (method !== "elicitation/create") return `  ${key}: ${method}`;
      if (params.mode === "url")
        return `  ${key}: ${String(params.message)} [open ${String(params.url)}]`;
      const schema = params.requestedSchema as
        | { properties?: Record<string, FieldSchema>; required?: string[] }
        | undefined;
      const fields = Object.entries(schema?.properties ?? {}).map(
        ([name, field]) =>
          `${name} (${field.type ?? "text"}${schema?.required?.includes(name) ? ", required" : ""})`,
      );
      return `  ${key}: ${String(params.message)}${fields.length > 0 ? ` [${fields.join(", ")}]` : ""}`;
    })
    .join("\n");
}

function parseAnswer(raw: string, type: string | undefined): unknown {
  switch (type) {
    case "number":
    case "integer": {
      const number = Number(raw);
      if (!Number.isFinite(number)) return undefined;
      return type === "integer" && !Number.isInteger(number) ? undefined : number;
    }
    case "boolean":
      if (/^(y|yes|true)$/i.test(raw)) return true;
      if (/^(n|no|false)$/i.test(raw)) return false;
      return undefined;
    default:
      return raw;
  }
}
