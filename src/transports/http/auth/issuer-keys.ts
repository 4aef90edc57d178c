type Jose = typeof import("jose");
type RemoteKeySet = ReturnType<Jose["createRemoteJWKSet"]>;
type LocalKeySet = ReturnType<Jose["createLocalJWKSet"]>;
/** What `jwtVerify` asks for a token's key. */
export type GetKey = Parameters<Jose["jwtVerify"]>[1];

/** No fetch of the key set within this time of the end of the last one, failed or not. */
const COOLDOWN_MS = 30_000;
/** Keys are fetched again when a token needs them and they are older than this. */
const MAX_AGE_MS = 10 * 60_000;
const TIMEOUT_MS = 5000;

/**
 * The issuer's signing keys, as verifications use them. jose's remote key set
 * fetches them and checks the answer; when to fetch is decided here alone
 * (its own function, which refetches by a cooldown counted from the last
 * fetch that brought keys only, is never called): again when a token names a
 * key id they lack, or when they are past their age, but never within
 * COOLDOWN_MS of the end of the last fetch, whether it brought keys or failed.
 * So neither an outage nor a stream of made-up key ids makes the server fetch
 * more than once per cooldown. Meanwhile the keys known answer: a key among
 * them verifies (old keys without waiting for their refetch), a key not among
 * them gets what the last fetch said (none such: a 401; it failed: its error,
 * a 503).
 */
export class IssuerKeys {
  private readonly remote: RemoteKeySet;
  /** Built from the keys fetched last; undefined until a fetch brings some, and after each. */
  private local: LocalKeySet | undefined;
  private fetching: Promise<void> | undefined;
  /** When the last fetch ended (epoch ms), and why it failed if it did. */
  private lastFetch: { readonly at: number; readonly error: unknown } = {
    at: Number.NEGATIVE_INFINITY,
    error: undefined,
  };

  constructor(
    private readonly jose: Jose,
    url: URL,
  ) {
    this.remote = jose.createRemoteJWKSet(url, {
      cacheMaxAge: MAX_AGE_MS,
      timeoutDuration: TIMEOUT_MS,
    });
  }

  /** Fetches the keys now, whatever the cooldown (at start); rejects with why it failed. */
  fetchNow(): Promise<void> {
    this.fetching ??= this.remote
      .reload()
      .then(
        () => {
          this.local = undefined;
          this.lastFetch = { at: Date.now(), error: undefined };
        },
        (error: unknown) => {
          this.lastFetch = { at: Date.now(), error };
          throw error;
        },
      )
      .finally(() => {
        this.fetching = undefined;
      });
    return this.fetching;
  }

  readonly getKey: GetKey = async (header, token) => {
    let known = this.known();
    if (known === undefined) {
      await this.refetch();
      known = this.known() as LocalKeySet;
    } else if (!this.remote.fresh) {
      this.refetch().catch(() => {});
    }
    try {
      return await known(header, token);
    } catch (error) {
      if ((error as { code?: string }).code !== "ERR_JWKS_NO_MATCHING_KEY") throw error;
    }
    // A key id they lack: the issuer may have rotated its keys since.
    await this.refetch();
    return (this.known() as LocalKeySet)(header, token);
  };

  /** A fetch when the cooldown allows one (or the one under way); else what the last one said. */
  private refetch(): Promise<void> {
    if (this.fetching !== undefined) return this.fetching;
    const { at, error } = this.lastFetch;
    if (Date.now() - at >= COOLDOWN_MS) return this.fetchNow();
    return error === undefined ? Promise.resolve() : Promise.reject(error);
  }

  private known(): LocalKeySet | undefined {
    if (this.local === undefined) {
      const jwks = this.remote.jwks();
      if (jwks !== undefined) this.local = this.jose.createLocalJWKSet(jwks);
    }
    return this.local;
  }
}
