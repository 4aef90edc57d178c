import type { AuthInfo } from "../../../define/auth.js";

/** A request the gate let through, and who it names (undefined: the static token, or no auth). */
export interface Admission {
  readonly auth: AuthInfo | undefined;
  readonly status?: undefined;
}

interface Entry {
  readonly admission: Admission;
  readonly audience: string;
  /** Epoch ms from which the token is verified again (and refused): when the gate stops accepting it. */
  readonly until: number;
}

/**
 * Tokens already verified, until they are no longer accepted: a client sends the same token
 * on every request, so only the first costs a signature check or an
 * introspection. Bounded: past `max` entries the oldest goes.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly max = 10_000) {}

  get(token: string, audience: string): Admission | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    if (entry.audience === audience && Date.now() < entry.until) return entry.admission;
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, audience: string, admission: Admission, until: number): void {
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { admission, audience, until });
  }
}
