import { discoverIssuer, type IssuerMetadata } from "./issuer-metadata.js";
import { VerifierUnavailable } from "./verdicts.js";

/** After a failed discovery, requests within this time get the same answer without a fetch. */
const RETRY_AFTER_MS = 5000;

/**
 * The authorization server, as the verifiers reach it: its metadata read
 * once (at start, or at the first request that needs it) and kept; a failure
 * is retried, at most once every few seconds.
 */
export class Issuer {
  private metadata: Promise<IssuerMetadata> | undefined;

  constructor(readonly url: string) {}

  /** The metadata; rejects with the reason, naming the URL, when it cannot be read. */
  read(): Promise<IssuerMetadata> {
    if (this.metadata === undefined) {
      const reading = discoverIssuer(this.url);
      this.metadata = reading;
      reading.catch(() => {
        setTimeout(() => {
          if (this.metadata === reading) this.metadata = undefined;
        }, RETRY_AFTER_MS).unref?.();
      });
    }
    return this.metadata;
  }

  /** `read` for a request: a failure becomes a 503 and a log line. */
  async forRequest(): Promise<IssuerMetadata> {
    try {
      return await this.read();
    } catch (error) {
      throw new VerifierUnavailable(
        "Service Unavailable: the authorization server cannot be reached to check the access token; try again later",
        (error as Error).message,
      );
    }
  }
}
