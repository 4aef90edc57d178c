import { describe, expect, it } from "vitest";
import {
  atLeast,
  DEFAULT_HTTP_VERSION,
  FEATURE_SINCE,
  type Feature,
  isStatefulVersion,
  LATEST_STATEFUL_VERSION,
  negotiateVersion,
  STATEFUL_VERSIONS,
  STATELESS_VERSION,
  supports,
} from "../../src/protocol/index.js";

describe("revisions", () => {
  it("lists the stateful revisions oldest first, and the stateless one", () => {
    expect(STATEFUL_VERSIONS).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]);
    expect(LATEST_STATEFUL_VERSION).toBe("2025-11-25");
    expect(STATELESS_VERSION).toBe("2026-07-28");
    expect(DEFAULT_HTTP_VERSION).toBe("2025-03-26");
  });

  it("recognises stateful revisions only", () => {
    for (const version of STATEFUL_VERSIONS) expect(isStatefulVersion(version)).toBe(true);
    for (const other of ["2026-07-28", "2024-10-07", "", undefined, null, 20241105]) {
      expect(isStatefulVersion(other)).toBe(false);
    }
  });
});

describe("negotiateVersion", () => {
  it.each(STATEFUL_VERSIONS)("echoes %s", (version) => {
    expect(negotiateVersion(version)).toBe(version);
  });

  it.each([
    ["an unknown date", "2024-10-07"],
    ["a future revision", "2027-01-01"],
    ["the stateless revision, which has no initialize", "2026-07-28"],
    ["a number", 2025],
    ["nothing", undefined],
  ])("offers the newest stateful revision for %s", (_, requested) => {
    expect(negotiateVersion(requested)).toBe("2025-11-25");
  });
});

describe("atLeast", () => {
  it("compares revision dates", () => {
    expect(atLeast("2025-06-18", "2025-06-18")).toBe(true);
    expect(atLeast("2025-11-25", "2025-06-18")).toBe(true);
    expect(atLeast("2026-07-28", "2025-11-25")).toBe(true);
    expect(atLeast("2025-03-26", "2025-06-18")).toBe(false);
  });
});

describe("supports", () => {
  const versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
  const table: Record<Feature, boolean[]> = {
    toolAnnotations: [false, true, true, true, true],
    audioContent: [false, true, true, true, true],
    completionsCapability: [false, true, true, true, true],
    progressMessage: [false, true, true, true, true],
    batching: [false, true, false, false, false],
    title: [false, false, true, true, true],
    outputSchema: [false, false, true, true, true],
    resourceLink: [false, false, true, true, true],
    elicitation: [false, false, true, true, true],
    completionContext: [false, false, true, true, true],
    icons: [false, false, false, true, true],
    urlElicitation: [false, false, false, true, true],
    legacyTasks: [false, false, false, true, false],
    tasksExtension: [false, false, false, false, true],
  };

  it("covers every feature", () => {
    expect(Object.keys(table).sort()).toEqual(Object.keys(FEATURE_SINCE).sort());
  });

  it.each(Object.entries(table))("%s by revision", (feature, expected) => {
    expect(versions.map((v) => supports(v, feature as Feature))).toEqual(expected);
  });
});
