import fs from "node:fs";
import path from "node:path";

/**
 * Reads the shell examples out of README.md and docs/*.md, and turns one curl command line into a
 * request. The conventions are described in test/e2e/docs-examples.test.ts.
 */

export interface Expectation {
  /** An exact status, or undefined: 2xx (4xx when the body shown is an error body). */
  status?: number;
  errorCode?: string;
  /** `"key": scalar` pairs the answer must hold somewhere (at any depth). */
  fields: [string, unknown][];
  errorBody: boolean;
  text: string;
}

export interface Example {
  file: string;
  line: number;
  /** The command as written, continuation lines joined. */
  command: string;
  expect?: Expectation;
}

export interface SkippedBlock {
  file: string;
  line: number;
  reason: string;
}

const SHELL_FENCE = /^```(sh|bash|shell)\s*$/;
const SKIP = /^<!--\s*docs-examples:\s*skip\b\s*(.*?)\s*-->\s*$/;

/** True while `text` ends inside a quote or with a line-continuing backslash. */
function unfinished(text: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (c === "\\") {
      i += 1;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === "#" && (i === 0 || /\s/.test(text[i - 1] ?? ""))) {
      // A comment runs to the end of its line.
      const end = text.indexOf("\n", i);
      if (end === -1) break;
      i = end;
    }
  }
  return quote !== undefined || /\\\s*$/.test(text);
}

/** `# → 422 order_store.credentials_invalid {"status":"error",…}` and its continuation lines. */
export function parseExpectation(text: string): Expectation {
  const head = text.replace(/^→\s*/, "");
  const status = /^(\d{3})\b/.exec(head)?.[1] ?? /\((\d{3})\)/.exec(head)?.[1];
  const errorCode = /^(?:\d{3}\s+)?([a-z_]+\.[a-z_.]+)\b/.exec(head)?.[1];
  const json = head.includes("{") ? head.slice(head.indexOf("{")) : "";
  const fields: [string, unknown][] = [];
  for (const match of json.matchAll(/"([A-Za-z0-9_]+)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)/g)) {
    fields.push([match[1] as string, JSON.parse(match[2] as string)]);
  }
  const errorBody = fields.some(([key, value]) => key === "status" && value === "error");
  const code = errorCode ?? (fields.find(([key]) => key === "error_code")?.[1] as string | undefined);
  return { status: status === undefined ? undefined : Number(status), errorCode: code, fields, errorBody, text };
}

/** Every command of every shell block of `file`, with the answer the text shows after it. */
export function readExamples(root: string, file: string): { examples: Example[]; skipped: SkippedBlock[] } {
  const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
  const examples: Example[] = [];
  const skipped: SkippedBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!SHELL_FENCE.test(lines[i] ?? "")) continue;
    const skip = SKIP.exec(lines[i - 1] ?? "");
    const start = i;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end] ?? "")) end += 1;
    if (skip) {
      skipped.push({ file, line: start + 1, reason: skip[1] || "(no reason given)" });
      i = end;
      continue;
    }
    let current: Example | undefined;
    let answer: string[] | undefined;
    const closeAnswer = () => {
      if (current && answer) current.expect = parseExpectation(answer.join(" "));
      answer = undefined;
    };
    for (let n = start + 1; n < end; n += 1) {
      const line = lines[n] ?? "";
      const comment = /^\s*#\s?(.*)$/.exec(line);
      if (line.trim() === "") {
        closeAnswer();
        current = undefined;
        continue;
      }
      if (comment) {
        const text = (comment[1] ?? "").trim();
        if (answer) answer.push(text);
        else if (current && !current.expect && /^(→|\{|\[)/.test(text)) answer = [text];
        else current = undefined;
        continue;
      }
      closeAnswer();
      let command = line;
      const first = n;
      while (unfinished(command) && n + 1 < end) {
        n += 1;
        command += `\n${lines[n]}`;
      }
      current = { file, line: first + 1, command };
      examples.push(current);
    }
    closeAnswer();
    i = end;
  }
  return { examples, skipped };
}

/** A word of a command line before expansion: its parts, each quoted or not. */
type Part = { text: string; quote: "'" | '"' | "" };
export type Word = Part[];

/** One command line split into words and the operators between them (`|`, `&&`, `>`). */
export function splitWords(command: string): (Word | "|" | "&&" | ">")[] {
  const out: (Word | "|" | "&&" | ">")[] = [];
  let word: Word | undefined;
  const push = (part: Part) => {
    word ??= [];
    const last = word.at(-1);
    if (last && last.quote === "" && part.quote === "") last.text += part.text;
    else word.push(part);
  };
  const endWord = () => {
    if (word) out.push(word);
    word = undefined;
  };
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] as string;
    if (c === "\\" && command[i + 1] === "\n") {
      i += 1;
      continue;
    }
    if (/\s/.test(c)) {
      endWord();
      continue;
    }
    if (c === "#" && !word) {
      const end = command.indexOf("\n", i);
      if (end === -1) break;
      i = end;
      continue;
    }
    if (c === "|" || c === ">") {
      endWord();
      out.push(c);
      continue;
    }
    if (c === "&" && command[i + 1] === "&") {
      endWord();
      out.push("&&");
      i += 1;
      continue;
    }
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      push({ text: command.slice(i + 1, end), quote: "'" });
      i = end;
      continue;
    }
    if (c === '"') {
      let text = "";
      let j = i + 1;
      while (j < command.length && command[j] !== '"') {
        if (command[j] === "\\" && /["\\$`]/.test(command[j + 1] ?? "")) {
          text += `\\${command[j + 1]}`;
          j += 2;
        } else if (command[j] === "$" && command[j + 1] === "(") {
          const close = matchingParen(command, j + 1);
          text += command.slice(j, close + 1);
          j = close + 1;
        } else {
          text += command[j];
          j += 1;
        }
      }
      push({ text, quote: '"' });
      i = j;
      continue;
    }
    if (c === "$" && command[i + 1] === "(") {
      const close = matchingParen(command, i + 1);
      push({ text: command.slice(i, close + 1), quote: "" });
      i = close;
      continue;
    }
    if (c === "\\") {
      push({ text: `\\${command[i + 1] ?? ""}`, quote: "" });
      i += 1;
      continue;
    }
    push({ text: c, quote: "" });
  }
  endWord();
  return out;
}

/** The index of the `)` closing the `(` at `open`, quotes inside respected. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i += 1) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"') i += 1;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "(") depth += 1;
    else if (c === ")") {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new Error(`unbalanced $( in ${text}`);
}

/**
 * A word's value: `$NAME`, `${NAME}` and `$(...)` expanded outside single quotes, backslash
 * escapes removed.
 */
export async function expandWord(
  word: Word,
  variable: (name: string) => string,
  substitute: (command: string) => Promise<string>,
): Promise<string> {
  let value = "";
  for (const part of word) {
    if (part.quote === "'") {
      value += part.text;
      continue;
    }
    const text = part.text;
    for (let i = 0; i < text.length; i += 1) {
      const c = text[i];
      if (c === "\\") {
        value += text[i + 1] ?? "";
        i += 1;
      } else if (c === "$" && text[i + 1] === "(") {
        const close = matchingParen(text, i + 1);
        value += (await substitute(text.slice(i + 2, close))).replace(/\n+$/, "");
        i = close;
      } else if (c === "$" && text[i + 1] === "{") {
        const close = text.indexOf("}", i);
        value += variable(text.slice(i + 2, close));
        i = close;
      } else if (c === "$" && /[A-Za-z_]/.test(text[i + 1] ?? "")) {
        const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0] as string;
        value += variable(name);
        i += name.length;
      } else {
        value += c;
      }
    }
  }
  return value;
}

/** `require("./shipment.json").shipment.parcels[0].id` or `JSON.parse(s).shipment.id` → the path after it. */
export function jsonPathIn(script: string): { file?: string; path: (string | number)[] } | undefined {
  const match = /(?:require\("\.\/([\w.-]+)"\)|JSON\.parse\(\w+\))((?:\.\w+|\[\d+\])*)/.exec(script);
  if (!match) return undefined;
  const steps = [...(match[2] ?? "").matchAll(/\.(\w+)|\[(\d+)\]/g)].map((step) =>
    step[1] !== undefined ? step[1] : Number(step[2]),
  );
  return { file: match[1], path: steps };
}

/** Follows `path` into a parsed document; node's console.log prints objects, strings as they are. */
export function follow(document: unknown, steps: (string | number)[]): string {
  let value: unknown = document;
  for (const step of steps) value = (value as Record<string | number, unknown> | undefined)?.[step];
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Whether `value` holds `key: expected` at any depth. */
export function holds(value: unknown, key: string, expected: unknown): boolean {
  if (Array.isArray(value)) return value.some((item) => holds(item, key, expected));
  if (value === null || typeof value !== "object") return false;
  const record = value as Record<string, unknown>;
  if (key in record && record[key] === expected) return true;
  return Object.values(record).some((child) => holds(child, key, expected));
}
