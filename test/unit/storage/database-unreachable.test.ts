import { describe, expect, it } from "vitest";
import { asPartUnavailable } from "../../../src/domain/errors.js";
import { isDatabaseUnreachable } from "../../../src/storage/db.js";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("a database that cannot be reached", () => {
  it("is told from the errors node-postgres gives while PostgreSQL restarts", () => {
    expect(isDatabaseUnreachable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnreachable(withCode("read ECONNRESET", "ECONNRESET"))).toBe(true);
    expect(isDatabaseUnreachable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnreachable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnreachable(withCode("terminating connection due to administrator command", "57P01"))).toBe(true);
    expect(isDatabaseUnreachable(withCode("the database system is starting up", "57P03"))).toBe(true);
    expect(isDatabaseUnreachable(new Error("query failed", { cause: withCode("x", "ECONNREFUSED") }))).toBe(true);
    expect(isDatabaseUnreachable(new AggregateError([withCode("x", "ECONNREFUSED")]))).toBe(true);
  });

  it("is not any other database error, nor a bug", () => {
    expect(isDatabaseUnreachable(withCode("duplicate key value violates unique constraint", "23505"))).toBe(false);
    expect(isDatabaseUnreachable(withCode("could not serialize access", "40001"))).toBe(false);
    expect(isDatabaseUnreachable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnreachable("ECONNREFUSED")).toBe(false);
  });

  it("is answered as 503 errors.unavailable with a Retry-After", () => {
    const answer = asPartUnavailable(new Error("Connection terminated unexpectedly"));
    expect(answer).toMatchObject({ code: "errors.unavailable", retryAfterSeconds: 5 });
    expect(asPartUnavailable(new Error("a bug"))).toBeUndefined();
  });
});
