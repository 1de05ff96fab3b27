import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

// Only ids that are safe to echo in a header and a log line are accepted from the caller
// (a gateway or load balancer); anything else is replaced so it cannot forge or break log lines.
const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when sane, else a fresh UUID; echoed on the response. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && acceptableRequestId.test(incoming) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
