import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expandWord, holds, jsonPathIn, parseExpectation, readExamples, splitWords } from "../helpers/docs-examples.js";

/** The reader test/e2e/docs-examples.test.ts runs the documents with, on the forms its conventions name. */
describe("reading the documents' shell examples", () => {
  it("reads each form of expected answer", () => {
    expect(parseExpectation("→ 422 order_store.credentials_invalid")).toMatchObject({
      status: 422,
      errorCode: "order_store.credentials_invalid",
    });
    expect(parseExpectation('{"status":"success"}   (201)')).toMatchObject({
      status: 201,
      fields: [["status", "success"]],
    });
    expect(
      parseExpectation('{"status":"error","error_code":"errors.insufficient_scope","error_message":"No."}'),
    ).toMatchObject({ status: undefined, errorBody: true, errorCode: "errors.insufficient_scope" });
    expect(parseExpectation('→ 201 {"shipment":{"id":5,…,"shipment_id":null}}').fields).toEqual([
      ["id", 5],
      ["shipment_id", null],
    ]);
  });

  it("splits a block into commands with their answers, and leaves skipped blocks out", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "docs-examples-"));
    fs.writeFileSync(
      path.join(dir, "doc.md"),
      [
        "```sh",
        "# prose",
        "curl -s $PORTER/a \\",
        '  -d \'{"x":',
        "  1}'",
        '# {"status":"pong"}',
        "",
        "curl -s $PORTER/b",
        "# prose for the next one",
        "```",
        "<!-- docs-examples: skip needs a real shop -->",
        "```sh",
        "curl -s $PORTER/c",
        "```",
      ].join("\n"),
    );
    const { examples, skipped } = readExamples(dir, "doc.md");
    expect(examples.map((example) => [example.line, example.expect?.fields])).toEqual([
      [3, [["status", "pong"]]],
      [8, undefined],
    ]);
    expect(skipped).toEqual([{ file: "doc.md", line: 12, reason: "needs a real shop" }]);
  });

  it("expands variables and quotes as the shell does", async () => {
    const words = splitWords(`curl "$PORTER/x" -d '{"a":"$NOT"}' -d "{\\"id\\":[$ID]}" > out.json`);
    const values: string[] = [];
    for (const word of words) {
      if (Array.isArray(word))
        values.push(
          await expandWord(
            word,
            (name) => `<${name}>`,
            async () => "",
          ),
        );
      else values.push(word);
    }
    expect(values).toEqual(["curl", "<PORTER>/x", "-d", '{"a":"$NOT"}', "-d", '{"id":[<ID>]}', ">", "out.json"]);
    expect(jsonPathIn('console.log(require("./s.json").shipment.parcels[0].id)')).toEqual({
      file: "s.json",
      path: ["shipment", "parcels", 0, "id"],
    });
    expect(holds({ a: [{ b: { c: 1 } }] }, "c", 1)).toBe(true);
    expect(holds({ a: [{ b: { c: 1 } }] }, "c", 2)).toBe(false);
  });
});
