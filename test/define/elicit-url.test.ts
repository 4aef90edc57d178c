import { describe, expect, it } from "vitest";
import { checkElicitUrl } from "../../src/define/elicit-url.js";

describe("checkElicitUrl", () => {
  it.each([
    ["https://ok.example/x?q=1#top", "https://ok.example/x?q=1#top"],
    ["  https://ok.example", "https://ok.example/"],
    ["http://localhost:3000/cb", "http://localhost:3000/cb"],
    ["http://127.0.0.1/cb", "http://127.0.0.1/cb"],
    ["http://[::1]/cb", "http://[::1]/cb"],
    ["https://bücher.example/", "https://xn--bcher-kva.example/"],
  ])("sends %j as %j", (url, href) => {
    expect(checkElicitUrl(url)).toEqual({ href });
  });

  it.each([
    [42, "the url must be a string, got number"],
    ["/relative/path", 'the url must be an absolute URL, got "/relative/path"'],
    [
      "https://ok\u202Eexample/",
      "the url must not contain bidirectional formatting characters (U+202E at index 10): they make it read differently from where it leads",
    ],
    [
      "https://ok.example/\u2066x",
      "the url must not contain bidirectional formatting characters (U+2066 at index 19): they make it read differently from where it leads",
    ],
    [
      "https://ok.example/\tx",
      "the url must not contain control characters (U+0009 at index 19): they hide what the user would open",
    ],
    [
      "https://ok.example/\u0085x",
      "the url must not contain control characters (U+0085 at index 19): they hide what the user would open",
    ],
    ["https:///nohost", 'the url must name its host after "https://", got "https:///nohost"'],
    [
      "https:\\\\\\nohost",
      'the url must name its host after "https://", got "https:\\\\\\\\\\\\nohost"',
    ],
    [
      "https://user:pw@ok.example/",
      "the url must not carry a user name or password: the client and the user see the whole URL",
    ],
    [
      "http://ok.example/",
      'the url must use https: (http: only for localhost), got "http://ok.example/"',
    ],
    [
      "javascript://ok.example/%0aalert(1)",
      'the url must use https: (http: only for localhost), got "javascript://ok.example/%0aalert(1)"',
    ],
  ])("refuses %j", (url, problem) => {
    expect(checkElicitUrl(url)).toEqual({ problem });
  });
});
