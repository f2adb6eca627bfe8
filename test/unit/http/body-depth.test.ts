import { describe, expect, it } from "vitest";
import { jsonNestsDeeperThan } from "../../../src/http/plugins/body-depth.js";

describe("jsonNestsDeeperThan", () => {
  it.each([
    ["a flat object", '{"a":1}', 1, false],
    ["two levels against a limit of one", '{"a":[1]}', 1, true],
    ["siblings, which do not add up", '[{"a":1},{"b":[2]},{"c":3}]', 3, false],
    ["brackets inside strings", '{"a":"[[[[{{{{"}', 1, false],
    ["an escaped quote that does not end the string", '{"a":"\\"[[[["}', 1, false],
    ["an escaped backslash that does end the string", '{"a":"\\\\","b":[[1]]}', 2, true],
    ["text that is not JSON at all", "[".repeat(100_000), 32, true],
  ])("%s", (_name, text, limit, deeper) => {
    expect(jsonNestsDeeperThan(text, limit)).toBe(deeper);
  });
});
