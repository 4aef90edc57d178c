export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function nameProblem(name: unknown, what: string): string | undefined {
  if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
    return `${what} name ${JSON.stringify(name)} is invalid: use 1 to 64 letters, digits, "_" or "-"`;
  }
  return undefined;
}
