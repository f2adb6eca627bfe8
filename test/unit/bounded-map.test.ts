import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../src/bounded-map.js";

describe("bounded map", () => {
  it("starts over when a new key would pass its limit, and updates known keys in place", () => {
    const map = new BoundedMap<string, number>(3);
    map.set("a", 1).set("b", 2).set("c", 3);
    map.set("b", 20);
    expect([...map.entries()]).toEqual([
      ["a", 1],
      ["b", 20],
      ["c", 3],
    ]);
    map.set("d", 4);
    expect([...map.entries()]).toEqual([["d", 4]]);
  });
});
