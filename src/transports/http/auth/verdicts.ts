/**
 * Why a token is not accepted: a 401 whose message says what the token
 * carried and what to do, with `invalid_token` in the challenge.
 */
export class TokenRefused extends Error {
  /** `logLine`: what the operator should see too (a misconfigured audience), logged once. */
  constructor(
    reason: string,
    readonly logLine?: string,
  ) {
    super(reason);
    this.name = "TokenRefused";
  }
}

/**
 * The token cannot be checked now (the issuer or its keys are out of reach,
 * a verifyToken threw): a 503 for the client, a line in the log for the operator.
 */
export class VerifierUnavailable extends Error {
  constructor(
    message: string,
    readonly logLine: string,
  ) {
    super(message);
    this.name = "VerifierUnavailable";
  }
}

/** A date in seconds since the epoch, as a person reads it. */
export function isoTime(seconds: unknown): string {
  return typeof seconds === "number" ? new Date(seconds * 1000).toISOString() : String(seconds);
}

/** An error's message and, when a network error hides its reason there, its cause. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.message} (${detail})` : error.message;
}
