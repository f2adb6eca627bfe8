import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { renderErrorDocs } from "../../../scripts/error-docs.js";
import { ERROR_CATALOGUE } from "../../../src/http/errors.js";

describe("docs/errors.md", () => {
  it("lists exactly the codes the server answers with (run `npm run docs:errors` after changing them)", () => {
    const onDisk = fs.readFileSync(new URL("../../../docs/errors.md", import.meta.url), "utf8");
    expect(onDisk).toBe(renderErrorDocs());
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(onDisk).toContain(`\`${code}\``);
  });

  it("gives the spec's own codes the spec's statuses", () => {
    expect(ERROR_CATALOGUE["errors.insufficient_scope"].status).toBe(401);
  });
});
