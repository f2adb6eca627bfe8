import { ERROR_CATALOGUE, type ErrorKind } from "../src/http/errors.js";

/** The text of docs/errors.md, made from the one catalogue the server answers from. */
export function renderErrorDocs(): string {
  const rows = Object.entries(ERROR_CATALOGUE as Record<string, ErrorKind>)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, kind]) => `| \`${code}\` | ${kind.status} | ${kind.description} |`);
  return `# Error codes

Every failure is answered with the same body, as the eHub specification says, and an HTTP status
that matches it:

\`\`\`json
{ "status": "error", "error_code": "customer.not_found", "error_message": "No customer with id 42 belongs to this account." }
\`\`\`

\`error_code\` is stable and safe to branch on; \`error_message\` is for people and may change.
Every response also carries an \`X-Request-Id\` header; quote it when reporting a 500.

This page is generated from \`src/http/errors.ts\` by \`npm run docs:errors\`, and a test fails
when the two disagree.

| error_code | HTTP status | When |
|---|---|---|
${rows.join("\n")}
`;
}
