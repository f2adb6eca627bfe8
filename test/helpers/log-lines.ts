import pino, { type Logger } from "pino";

/** A real pino logger whose lines are kept, parsed, for a test to read. */
export function loggedLines(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}
