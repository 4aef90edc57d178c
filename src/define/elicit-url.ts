const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** C0 and C1 controls and DEL: a line break would split what the client shows. */
const CONTROL = /\p{Cc}/u;
/** Bidirectional formatting characters (U+202E and its kin): they reorder what the user reads. */
const BIDI = /\p{Bidi_Control}/u;
/** A scheme, two slashes (the parser takes backslashes for them) and a host: "https:///x" names none. */
const NAMES_HOST = /^ *[a-z][a-z\d+.-]*:[/\\]{2}[^/\\?#]/i;

function codePoint(text: string, index: number): string {
  return `U+${(text.codePointAt(index) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The URL a handler sends the user to, as the client must get it: checked
 * (absolute `https:`, `http:` only on this machine for development, no
 * credentials, no hidden characters, a host) and normalised, the parsed URL's
 * href, so what was checked is what is sent. Else what is wrong with it.
 */
export function checkElicitUrl(url: unknown): { href: string } | { problem: string } {
  if (typeof url !== "string") return { problem: `the url must be a string, got ${typeof url}` };
  const hidden = [
    [CONTROL, "control characters", "they hide what the user would open"],
    [
      BIDI,
      "bidirectional formatting characters",
      "they make it read differently from where it leads",
    ],
  ] as const;
  for (const [pattern, what, why] of hidden) {
    const index = url.search(pattern);
    if (index >= 0) {
      return {
        problem: `the url must not contain ${what} (${codePoint(url, index)} at index ${index}): ${why}`,
      };
    }
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: `the url must be an absolute URL, got ${JSON.stringify(url)}` };
  }
  if (!NAMES_HOST.test(url)) {
    return {
      problem: `the url must name its host after "${parsed.protocol}//", got ${JSON.stringify(url)}`,
    };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return {
      problem:
        "the url must not carry a user name or password: the client and the user see the whole URL",
    };
  }
  const allowed =
    parsed.protocol === "https:" || (parsed.protocol === "http:" && isLoopback(parsed.hostname));
  return allowed
    ? { href: parsed.href }
    : { problem: `the url must use https: (http: only for localhost), got ${JSON.stringify(url)}` };
}
