import { SECRET_VARIABLES } from "../bundle/settings.js";

/** Shorter values match an environment variable by chance ("true", "3000", a name). */
const SHORTEST = 8;

/** A place in the config whose value is an environment variable's on the building machine. */
export interface EmbeddedVariable {
  /** Where, as the config writes it: `http.auth.introspection.clientSecret`. */
  readonly option: string;
  readonly variable: string;
}

/**
 * The places of `config` (the values a bundle embeds) that hold the value of a
 * variable of `environment`: a config that reads `process.env.KC_SECRET` is
 * run when the bundle is built, so the bundle carries that machine's value in
 * its text and never reads the variable where it runs.
 */
export function embeddedVariables(
  config: unknown,
  environment: NodeJS.ProcessEnv = process.env,
): EmbeddedVariable[] {
  const byValue = new Map<string, string>();
  for (const [variable, value] of Object.entries(environment)) {
    if (value !== undefined && value.length >= SHORTEST && !byValue.has(value)) {
      byValue.set(value, variable);
    }
  }
  const found: EmbeddedVariable[] = [];
  const visit = (value: unknown, option: string) => {
    if (typeof value === "string") {
      const variable = byValue.get(value);
      if (variable !== undefined) found.push({ option, variable });
    } else if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(item, `${option}[${index}]`);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value))
        visit(item, option ? `${option}.${key}` : key);
    }
  };
  visit(config, "");
  return found;
}

/** The build's warning for one embedded variable. */
export function embeddedVariableWarning(
  configFile: string,
  { option, variable }: EmbeddedVariable,
): string {
  return `${configFile}: ${option} holds the value ${variable} has on this machine: a bundle embeds the config as it was built, so server.mjs carries that value as text and does not read ${variable} where it runs; keep secrets out of a bundle's config (it reads ${inWords(SECRET_VARIABLES)} where it runs)`;
}

/** "a, b and c". */
function inWords(names: readonly string[]): string {
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
