import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../src/bounded-map.js";

describe("bounded map", () => {
  it("forgets the least recently used entry when a new key would pass its limit", () => {
    const map = new BoundedMap<string, number>(3);
    map.set("a", 1).set("b", 2).set("c", 3);
    expect(map.get("a")).toBe(1);
    map.set("d", 4);
    expect(map.has("b")).toBe(false);
    expect([...map.keys()].sort()).toEqual(["a", "c", "d"]);
    expect(map.size).toBe(3);
  });

  it("updates a known key in place without forgetting another", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1).set("b", 2).set("a", 10);
    expect(map.get("a")).toBe(10);
    expect(map.get("b")).toBe(2);
    expect(map.size).toBe(2);
  });

  it("holds false as a remembered answer, told apart from a miss", () => {
    const map = new BoundedMap<number, object | false>(2);
    map.set(1, false);
    expect(map.get(1)).toBe(false);
    expect(map.get(2)).toBeUndefined();
  });
});
