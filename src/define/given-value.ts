/**
 * A value given where a number belongs, as a refusal shows it: text in
 * quotes, so that `"10"` written in a JSON config reads as the text it is
 * (shown bare it would look like the number the message asks for).
 */
export function givenValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
