import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDemoAccount } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { jobHandlers } from "../../src/job-handlers.js";
import { Worker } from "../../src/jobs/worker.js";
import { buildTestApp, type TestApp } from "../helpers/app.js";
import {
  type Example,
  expandWord,
  follow,
  holds,
  jsonPathIn,
  readExamples,
  splitWords,
  type Word,
} from "../helpers/docs-examples.js";

/*
 * Every shell example in README.md and docs/*.md, run in that order against one Porter server on
 * a fresh database seeded as `npm start` seeds it (the demo account, its sandbox carriers and its
 * test meter), so the documents cannot drift from what the server does.
 *
 * How the text is read (write new examples this way):
 * - Only ```sh blocks run. One block whose preceding line is
 *   `<!-- docs-examples: skip REASON -->` is not run (it needs a real shop, real carrier
 *   credentials, …); the reason is required.
 * - Each `curl` line (with its `\` continuations and multi-line quotes) is one request. `$PORTER`,
 *   `$PORTER_KEY` and `$PORTER_TEST_KEY` are the server and the demo account's test key (their
 *   assignments in the text are ignored); every other `NAME=value` line sets a variable for the
 *   examples after it, in this file and the ones after. `$(...)` may be `date [-u] -d
 *   tomorrow|yesterday +%F` (from the server's clock), `node -e '…require("./f.json").a.b…'`
 *   (a file an earlier `> f.json` or `-o f.json` wrote) or `curl … | node -e '…JSON.parse(s).a.b…'`.
 *   `sleep N` moves the clock N seconds on and runs the jobs then due. Other commands (`node -e`
 *   receivers, `npx porter`, `npm`) are not run.
 * - The answer the text expects is the comment right under the command (no blank line between),
 *   when it starts with `{`, `[` or `→`:
 *     `# {"status":"pong"}`                     2xx (4xx if it shows `"status":"error"`), and
 *                                              every `"key":scalar` shown is somewhere in the answer;
 *     `# → 422 order_store.credentials_invalid` that status and error_code;
 *     `# → 201 {"shipment":{"id":5,…}}`          that status and those fields;
 *     `# {"status":"success"}   (201)`          a status in parentheses works too.
 *   `…` stands for what is left out. Continuation comment lines belong to the same answer.
 * - A command with no such comment must answer 2xx.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DOCUMENTS = [
  "README.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];
/** What `$PORTER` points at: the default `npm start` address; requests to it are served in process. */
const ORIGIN = "http://localhost:3000";
const GIVEN = new Set(["PORTER", "PORTER_KEY", "PORTER_TEST_KEY"]);
const NOT_RUN = new Set(["node", "npx", "npm", "porter", "echo"]);

const read = DOCUMENTS.map((file) => readExamples(ROOT, file));
const examples = read.flatMap(({ examples }) => examples);
const skipped = read.flatMap(({ skipped }) => skipped);

interface Answer {
  status: number;
  body: string;
  json: unknown;
}

describe("the examples in README.md and docs/*.md", () => {
  let t: TestApp;
  let worker: Worker;
  const variables = new Map<string, string>();
  const files = new Map<string, string>();

  beforeAll(async () => {
    // `npm start`'s settings (USPS's audit of accepted parcels included), with a receiver on this
    // machine allowed as README.md asks before its webhook example.
    const { sandboxAuditPercent } = loadConfig({});
    t = await buildTestApp({
      config: { outboundAllowPrivateTargets: true, publicBaseUrl: ORIGIN, sandboxAuditPercent },
    });
    const demo = await ensureDemoAccount(t.services);
    if (!demo) throw new Error("the fresh database already had an account");
    variables.set("PORTER", `${ORIGIN}/api/v2`);
    variables.set("PORTER_KEY", demo.keys.test);
    variables.set("PORTER_TEST_KEY", demo.keys.test);
    worker = new Worker(t.services.jobs, jobHandlers(t.services), { leaseMs: 30_000, pollMs: 10 });
    // A fresh schema and the demo account's ten carrier connections take a while on a busy PostgreSQL.
  }, 180_000);
  afterAll(() => t.close());

  const variable = (example: Example) => (name: string) => {
    const value = variables.get(name);
    if (value === undefined) {
      throw new Error(`${where(example)} uses $${name}, which no earlier example sets`);
    }
    return value;
  };
  const where = (example: Example) => `${example.file}:${example.line}`;

  async function words(example: Example, list: Word[]): Promise<string[]> {
    const out: string[] = [];
    for (const word of list) out.push(await expandWord(word, variable(example), (inner) => substitute(example, inner)));
    return out;
  }

  /** What `$(inner)` prints. */
  async function substitute(example: Example, inner: string): Promise<string> {
    const pipeline = splitWords(inner);
    const first = pipeline[0];
    if (!Array.isArray(first)) throw new Error(`${where(example)}: cannot run $(${inner})`);
    const [program] = await words(example, [first]);
    if (program === "date") return dateOf(await words(example, pipeline.filter(Array.isArray) as Word[]));
    if (program === "node") {
      const [, , script = ""] = await words(example, pipeline.filter(Array.isArray) as Word[]);
      const found = jsonPathIn(script);
      if (!found?.file) throw new Error(`${where(example)}: cannot evaluate node -e '${script}'`);
      const text = files.get(found.file);
      if (text === undefined)
        throw new Error(`${where(example)} reads ./${found.file}, which no earlier example wrote`);
      return follow(JSON.parse(text), found.path);
    }
    if (program === "curl") {
      const bar = pipeline.indexOf("|");
      const answer = await curl(
        example,
        await words(example, pipeline.slice(0, bar === -1 ? undefined : bar) as Word[]),
      );
      expectAnswer(example, answer, undefined);
      if (bar === -1) return answer.body;
      const [, , script = ""] = await words(example, pipeline.slice(bar + 1) as Word[]);
      const found = jsonPathIn(script);
      if (!found) throw new Error(`${where(example)}: cannot evaluate node -e '${script}'`);
      return follow(answer.json, found.path);
    }
    throw new Error(`${where(example)}: cannot run $(${inner}); see the conventions in docs-examples.test.ts`);
  }

  function dateOf(args: string[]): string {
    const day = new Date(t.clock.now());
    const when = args[args.indexOf("-d") + 1];
    if (args.includes("-d") && when === "tomorrow") day.setUTCDate(day.getUTCDate() + 1);
    else if (args.includes("-d") && when === "yesterday") day.setUTCDate(day.getUTCDate() - 1);
    else if (args.includes("-d")) throw new Error(`date -d ${when} is not understood here`);
    if (!args.includes("+%F")) throw new Error(`date ${args.join(" ")}: only +%F is understood here`);
    return day.toISOString().slice(0, 10);
  }

  /** One curl invocation served in process. */
  async function curl(example: Example, args: string[]): Promise<Answer & { output?: string }> {
    let method: string | undefined;
    const headers: Record<string, string> = {};
    const data: string[] = [];
    let url: string | undefined;
    let output: string | undefined;
    for (let i = 1; i < args.length; i += 1) {
      const arg = args[i] as string;
      if (/^-[sSiL]+$/.test(arg)) continue;
      if (arg === "-X") method = args[++i];
      else if (arg === "-H") {
        const [name, ...value] = (args[++i] ?? "").split(":");
        headers[(name ?? "").trim().toLowerCase()] = value.join(":").trim();
      } else if (arg === "-d" || arg === "--data" || arg === "--data-raw") data.push(args[++i] ?? "");
      else if (arg === "--data-urlencode") {
        const pair = args[++i] ?? "";
        const equals = pair.indexOf("=");
        data.push(`${pair.slice(0, equals)}=${encodeURIComponent(pair.slice(equals + 1))}`);
      } else if (arg === "-o") output = args[++i];
      else if (arg.startsWith("-")) throw new Error(`${where(example)}: curl option ${arg} is not understood here`);
      else url = arg;
    }
    if (!url?.startsWith(ORIGIN)) {
      throw new Error(`${where(example)}: curl to ${url}, not to $PORTER (${ORIGIN}); mark the block skipped`);
    }
    if (data.length > 0) headers["content-type"] ??= "application/x-www-form-urlencoded";
    const response = await t.app.inject({
      method: (method ?? (data.length > 0 ? "POST" : "GET")) as "GET",
      url: url.slice(ORIGIN.length),
      headers,
      ...(data.length > 0 && { payload: data.join("&") }),
    });
    let json: unknown;
    try {
      json = JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    if (output) files.set(output, response.body);
    return { status: response.statusCode, body: response.body, json, output };
  }

  function expectAnswer(example: Example, answer: Answer, expected: Example["expect"]): void {
    const shown = `${where(example)}\n  ${example.command.replaceAll("\n", "\n  ")}\nanswered ${answer.status} ${answer.body.slice(0, 600)}`;
    const fix = "fix the example, or write the answer it gets on the comment line under it (see docs-examples.test.ts)";
    if (!expected) {
      expect(answer.status, `${shown}\nThe text shows no answer, so 2xx is expected: ${fix}`).toBeLessThan(300);
      expect(answer.status, shown).toBeGreaterThanOrEqual(200);
      return;
    }
    const said = `${shown}\nThe text says: ${expected.text}\n${fix}`;
    if (expected.status !== undefined) expect(answer.status, said).toBe(expected.status);
    else if (expected.errorBody) expect(Math.floor(answer.status / 100), said).toBe(4);
    else expect(Math.floor(answer.status / 100), said).toBe(2);
    if (expected.errorCode) expect((answer.json as { error_code?: string })?.error_code, said).toBe(expected.errorCode);
    for (const [key, value] of expected.fields) {
      expect(holds(answer.json, key, value), `${said}\n"${key}": ${JSON.stringify(value)} is not in the answer`).toBe(
        true,
      );
    }
  }

  /** Runs one command line: `A && B`, `curl … > file`, `curl … | node -e …`, `NAME=value`. */
  async function run(example: Example): Promise<void> {
    const parts = splitWords(example.command);
    const segments: (typeof parts)[] = [[]];
    for (const part of parts) {
      if (part === "&&") segments.push([]);
      else segments.at(-1)?.push(part);
    }
    for (const segment of segments) {
      const first = segment[0];
      if (!Array.isArray(first)) throw new Error(`${where(example)}: cannot read this command`);
      const head = first.map((part) => part.text).join("");
      const assignment = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=/.exec(head);
      const word = head === "export" ? (segment[1] as Word) : first;
      const named = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word.map((part) => part.text).join(""));
      if (assignment || (head === "export" && named)) {
        const name = (named ?? assignment)?.[1] as string;
        // `export PORTER_KEY=pk_test_paste_the_key_here` is for the reader; a key from an answer is real.
        if (GIVEN.has(name) && !word.some((part) => part.text.includes("$("))) continue;
        const [value = ""] = await words(example, [word]);
        variables.set(name, value.slice(name.length + 1));
        continue;
      }
      const [program] = await words(example, [first]);
      if (program === "sleep") {
        const [, seconds = "0"] = await words(example, segment as Word[]);
        t.clock.advance(Number(seconds) * 1000);
        await worker.drain();
        continue;
      }
      if (program === undefined || NOT_RUN.has(program)) continue;
      if (program !== "curl") throw new Error(`${where(example)}: ${program} is not a command this test runs`);
      const bar = segment.indexOf("|");
      const arrow = segment.indexOf(">");
      const end = Math.min(...[bar, arrow, segment.length].filter((n) => n !== -1));
      const answer = await curl(example, await words(example, segment.slice(0, end) as Word[]));
      if (arrow !== -1) {
        const [file = ""] = await words(example, [segment[arrow + 1] as Word]);
        files.set(file, answer.body);
      }
      expectAnswer(example, answer, example.expect);
    }
  }

  it("finds the walk-through's examples, and every skipped block says why", () => {
    expect(examples.filter((example) => example.file === "README.md").length).toBeGreaterThan(40);
    for (const block of skipped) expect(block.reason, `${block.file}:${block.line}`).not.toBe("(no reason given)");
  });

  for (const example of examples) {
    const title = `${example.file}:${example.line} ${example.command.split("\n")[0]?.slice(0, 100)}`;
    it(title, () => run(example));
  }
});
