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

**Cancel failures are written as eHub writes them.** When \`PUT /api/v2/shipments/{id}/cancel\`
fails once the request is read (no such shipment, already cancelled, past the carrier's void
window, manifested, the carrier refusing or unreachable), \`error_message\` is itself a JSON
document with the sentence inside, because eHub clients parse it as one:

\`\`\`json
{ "status": "error", "error_code": "shipment.already_cancelled", "error_message": "{\\"errors\\":[\\"Shipment 42 is already cancel_pending.\\"]}" }
\`\`\`

The status and \`error_code\` are the ones below. A request refused before it reaches the cancel
(a missing key, a malformed id) keeps the plain sentence.

This page is generated from \`src/http/errors.ts\` by \`npm run docs:errors\`, and a test fails
when the two disagree.

| error_code | HTTP status | When |
|---|---|---|
${rows.join("\n")}
`;
}
