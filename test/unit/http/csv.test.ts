import { describe, expect, it } from "vitest";
import { csvLine } from "../../../src/http/routes/reports/csv.js";

describe("CSV cells", () => {
  it.each([
    ["=SUM(A1:A2)", `"'=SUM(A1:A2)"`],
    ["+1", `"'+1"`],
    ["-1", `"'-1"`],
    ["@cmd", `"'@cmd"`],
    ["\t=1", `"'\t=1"`],
    ["\r=1", `"'\r=1"`],
    ["\n=1", `"'\n=1"`],
    [" =1", `"' =1"`],
    [";=1", `"';=1"`],
    ["|cmd", `"'|cmd"`],
    ["＝1+1", `"'＝1+1"`],
    ["＋1", `"'＋1"`],
    ["－1", `"'－1"`],
    ["＠cmd", `"'＠cmd"`],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
  ])("neutralises a text cell starting %j with an apostrophe, quoted", (text, written) => {
    expect(csvLine([text])).toBe(`${written}\r\n`);
  });

  it("leaves numbers (a negative amount too), plain text and empty values as they are", () => {
    expect(csvLine([-12.5, "Acme", "a=b", null, undefined, "Acme, Inc"])).toBe('-12.5,Acme,a=b,,,"Acme, Inc"\r\n');
  });
});
