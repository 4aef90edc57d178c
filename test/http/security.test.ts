import { describe, expect, it } from "vitest";
import { resolveHttpOptions } from "../../src/settings/http-options.js";
import { AuthGate } from "../../src/transports/http/auth/gate.js";
import { defaultAllowedHosts } from "../../src/transports/http/binding.js";
import {
  accepts,
  charsetOf,
  checkHostAndOrigin,
  hostnameOf,
  mediaType,
} from "../../src/transports/http/security.js";

describe("Host and Origin checks", () => {
  const local = resolveHttpOptions();

  it("reads hostnames out of Host values", () => {
    expect(hostnameOf("localhost:3000")).toBe("localhost");
    expect(hostnameOf("LOCALHOST")).toBe("localhost");
    expect(hostnameOf("[::1]:8080")).toBe("[::1]");
    expect(hostnameOf("[::1]")).toBe("[::1]");
    expect(hostnameOf("127.0.0.1")).toBe("127.0.0.1");
  });

  it("accepts loopback hosts and origins on any port by default", () => {
    for (const host of ["localhost:1", "127.0.0.1:3000", "[::1]:3000"]) {
      expect(checkHostAndOrigin({ host }, local)).toBeUndefined();
      expect(checkHostAndOrigin({ host, origin: `http://${host}` }, local)).toBeUndefined();
    }
  });

  it("refuses a missing Host, a rebound name, and origins it cannot parse", () => {
    expect(checkHostAndOrigin({}, local)?.status).toBe(403);
    expect(checkHostAndOrigin({ host: "evil.example:3000" }, local)?.status).toBe(403);
    for (const origin of ["null", "not a url", "http://127.0.0.1.evil.example"]) {
      expect(checkHostAndOrigin({ host: "localhost:3000", origin }, local)?.status).toBe(403);
    }
  });

  it("with any Host allowed, an Origin equal to the Host is not enough (a rebound page sends that)", () => {
    const open = resolveHttpOptions({ allowedHosts: ["*"] });
    expect(checkHostAndOrigin({ host: "mcp.example.com" }, open)).toBeUndefined();
    expect(
      checkHostAndOrigin({ host: "mcp.example.com", origin: "https://mcp.example.com" }, open)
        ?.status,
    ).toBe(403);
    expect(
      checkHostAndOrigin({ host: "mcp.example.com", origin: "http://localhost:5173" }, open),
    ).toBeUndefined();
    const listed = resolveHttpOptions({
      allowedHosts: ["*"],
      allowedOrigins: ["https://mcp.example.com"],
    });
    expect(
      checkHostAndOrigin({ host: "mcp.example.com", origin: "https://mcp.example.com" }, listed),
    ).toBeUndefined();
  });
});

describe("bearer tokens", () => {
  it("accepts the token in any scheme case and nothing else", () => {
    const gate = new AuthGate(resolveHttpOptions({ authToken: "abc" }), {
      scopes: () => ({ declared: [], shared: [] }),
      warn: () => {},
    });
    const check = (authorization: string) =>
      gate.check({ headers: { host: "localhost", authorization } });
    expect(check("Bearer abc")).toEqual({ auth: undefined });
    expect(check("bearer  abc ")).toEqual({ auth: undefined });
    for (const authorization of ["Bearer abcd", "Bearer ab", "Basic abc", "abc", "Bearer "]) {
      expect(check(authorization)).toMatchObject({ status: 401 });
    }
  });
});

describe("media types", () => {
  it("compares media types without parameters or case", () => {
    expect(mediaType("Application/JSON; charset=utf-8")).toBe("application/json");
    expect(mediaType(undefined)).toBe("");
  });

  it("reads the charset parameter, unquoted, as sent", () => {
    expect(charsetOf("application/json; charset=UTF-16")).toBe("UTF-16");
    expect(charsetOf('application/json;foo=bar; Charset="utf-8"')).toBe("utf-8");
    expect(charsetOf("application/json; charset=")).toBe("");
    expect(charsetOf("application/json; foo=bar")).toBeUndefined();
  });

  it("honours wildcards in Accept", () => {
    expect(accepts("application/json, text/event-stream", "text/event-stream")).toBe(true);
    expect(accepts("text/*", "text/event-stream")).toBe(true);
    expect(accepts("*/*;q=0.8", "application/json")).toBe(true);
    expect(accepts("application/json", "text/event-stream")).toBe(false);
  });
});

describe("options", () => {
  it("explains values it cannot use", () => {
    expect(() => resolveHttpOptions({ path: "mcp" })).toThrow(
      'path must start with "/" and hold no query or fragment, got "mcp"',
    );
    // A setting 0 does not turn off says so for any value below 1, not only for 0.
    for (const maxBodyBytes of [0, -1, Number.NaN]) {
      expect(() => resolveHttpOptions({ maxBodyBytes })).toThrow(
        new TypeError(`maxBodyBytes must be greater than 0, got ${maxBodyBytes}`),
      );
    }
    expect(() => resolveHttpOptions({ replay: { maxBytes: -3 } })).toThrow(
      new TypeError("replay.maxBytes must be greater than 0, got -3"),
    );
    expect(() => resolveHttpOptions({ retryMs: -1 })).toThrow(
      "retryMs must be a whole number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest a timer waits), got -1",
    );
    // Past a timer's limit Node fires it after 1 ms: keep-alives would flood every stream.
    expect(() => resolveHttpOptions({ keepAliveMs: 3_000_000_000 })).toThrow(
      "keepAliveMs must be a whole number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest a timer waits), got 3000000000",
    );
    // SSE's retry field is digits only: a client ignores "retry: 1.5".
    expect(() => resolveHttpOptions({ retryMs: 1.5 })).toThrow(
      "retryMs must be a whole number of milliseconds from 0 to 2147483647 (about 24.8 days, the longest a timer waits), got 1.5",
    );
    expect(resolveHttpOptions({ keepAliveMs: 2 ** 31 - 1, retryMs: 0 })).toMatchObject({
      keepAliveMs: 2 ** 31 - 1,
      retryMs: 0,
    });
    // Origin is compared as browsers send it: an entry written otherwise would never match.
    const notAnOrigin = (got: string, instead: string) =>
      `allowedOrigins[1] must be an origin as browsers send it in the Origin header (scheme://host[:port], no path, not even "/"), such as "https://app.example.com", got "${got}"${instead}`;
    for (const [entry, instead] of [
      ["https://app.example.com/", '; write "https://app.example.com"'],
      ["HTTPS://App.Example.com:443", '; write "https://app.example.com"'],
      ["app.example.com", '; write "https://app.example.com"'],
      ["*", "; list each origin (pages of allowedHosts are accepted already)"],
    ] as const) {
      expect(() =>
        resolveHttpOptions({ allowedOrigins: ["https://ok.example.com", entry] }),
      ).toThrow(new TypeError(notAnOrigin(entry, instead)));
    }
    const origins = ["http://localhost:5173", "chrome-extension://abcdef", "null"];
    expect([...resolveHttpOptions({ allowedOrigins: origins }).allowedOrigins]).toEqual(origins);
    // A Host is compared by its name, lower-cased, its port dropped: an entry written otherwise
    // would never match ("" would match only a request whose Host header is empty).
    const notAHost = (got: string, instead: string) =>
      `allowedHosts[1] must be a host name as clients send it in the Host header, with no scheme, port or path (every port is accepted), such as "mcp.example.com", got ${JSON.stringify(got)}${instead}`;
    for (const [entry, instead] of [
      ["", "; leave it out: it would accept only requests whose Host header is empty"],
      [" ", "; leave it out: it would accept only requests whose Host header is empty"],
      ["https://mcp.example.com/mcp", '; write "mcp.example.com"'],
      ["mcp.example.com/mcp", '; write "mcp.example.com"'],
      ["mcp.example.com:8080", '; write "mcp.example.com"'],
      ["[::1]:3000", '; write "[::1]"'],
      ["::1", '; write "[::1]"'],
      ["mcp.example.com.", '; write "mcp.example.com"'],
      [" mcp.example.com", '; write "mcp.example.com"'],
      ["*.example.com", '; list each name ("*" alone accepts any Host)'],
    ] as const) {
      expect(() => resolveHttpOptions({ allowedHosts: ["localhost", entry] })).toThrow(
        new TypeError(notAHost(entry, instead)),
      );
    }
    expect(() => resolveHttpOptions({ allowedHosts: [] })).toThrow(
      new TypeError(
        "allowedHosts is empty, which would refuse every request (403), loopback included; list the names clients send in the Host header, or leave it out to accept the loopback names",
      ),
    );
    // What serve allows by default when bound to a name is no mistake of the user's: a
    // trailing dot (a fully qualified name) is left out, as clients leave it out of Host.
    const bound = defaultAllowedHosts("mcp.example.com.", () => {});
    expect(bound.at(-1)).toBe("mcp.example.com");
    expect(resolveHttpOptions({ allowedHosts: bound }).allowedHosts?.has("mcp.example.com")).toBe(
      true,
    );
    const hosts = ["MCP.example.com", "127.0.0.1", "[::1]", "my_host", "*"];
    expect(resolveHttpOptions({ allowedHosts: hosts }).allowedHosts).toBeUndefined();
    expect([
      ...(resolveHttpOptions({ allowedHosts: hosts.slice(0, 4) }).allowedHosts ?? []),
    ]).toEqual(["mcp.example.com", "127.0.0.1", "[::1]", "my_host"]);
    expect(() => resolveHttpOptions({ authToken: " " })).toThrow(
      "authToken must not be empty; leave it unset to turn auth off",
    );
  });
});
