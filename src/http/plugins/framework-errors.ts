import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { type ErrorCode, errorBody, statusOf } from "../errors.js";

/**
 * Errors raised before a request reaches a route, answered with the API's error body instead of
 * Fastify's or Node's own: bad URLs and over-long path segments (Fastify's `frameworkErrors`), and
 * requests Node's HTTP parser cannot read at all (`clientError`, where only the socket is left).
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [code, message]: [ErrorCode, string] =
    error.code === "FST_ERR_BAD_URL"
      ? ["request.malformed_url", "The path cannot be decoded: it has a broken percent-escape or invalid UTF-8."]
      : error.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? ["request.url_too_long", "A path segment is longer than 100 characters."]
        : ["errors.internal", "Something went wrong on our side while routing the request."];
  reply.code(statusOf(code)).send(errorBody(code, message));
}

interface ClientError extends Error {
  code?: string;
  reason?: string;
}

function describeClientError(error: ClientError): [ErrorCode, string] {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return ["request.headers_too_large", "The request line and headers are larger than 16 KiB."];
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return ["request.timeout", "The request was not received in time."];
  }
  // llhttp's reasons are fixed texts ("Invalid method encountered"); the raw bytes are never echoed.
  const reason = error.reason ?? error.message.replace(/^Parse Error:\s*/, "");
  return ["request.malformed", `The HTTP request cannot be read: ${reason.replace(/\.$/, "")}.`];
}

/** Node's `clientError`: write a whole HTTP response with the error body, then close the socket. */
export function answerClientError(error: ClientError, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message] = describeClientError(error);
  const status = statusOf(code);
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
