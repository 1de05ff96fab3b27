// Every request gets an answer: one that has had none REQUEST_DEADLINE_MS after it arrived (a database or another
// dependency that stopped answering, whatever the step that waits) is answered 503 in the service's format, through the
// same path as every other error. The clock waits while a request body is still arriving (a large upload on a slow
// link is the client's time, not ours; Node's own requestTimeout bounds it), and a response whose headers are sent
// (a streamed download) is the route's own business: it has its own idle timeout.
import type { RequestHandler, Response } from 'express';
import { ServiceUnavailableError } from '../errors/index.js';

/** How long a request may go unanswered once it has arrived whole (REQUEST_DEADLINE_MS). */
export const REQUEST_DEADLINE_MS = 15_000;

/** What a request that passed its deadline is answered with (the app's error path). */
export type DeadlineAnswer = (error: ServiceUnavailableError, res: Response) => void;

const answeredAtDeadline = new WeakSet<Response>();

/** True once the deadline answered `res`: whatever the route does later goes nowhere. */
export function answeredByDeadline(res: Response): boolean {
  return answeredAtDeadline.has(res);
}

export class RequestDeadlineExceeded extends Error {
  constructor(deadlineMs: number) {
    super(`no answer within the request deadline of ${deadlineMs} ms`);
    this.name = 'RequestDeadlineExceeded';
  }
}

/**
 * The route's own answer, when it comes after the deadline's, writes nothing: without this a late `res.json` would
 * throw (headers already sent), and a late write from a callback would take the process down.
 */
function silenceLateWrites(res: Response): void {
  const ignore = function (this: Response) {
    return this;
  };
  for (const method of ['setHeader', 'appendHeader', 'removeHeader', 'writeHead', 'flushHeaders', 'write', 'end'] as const) {
    Object.defineProperty(res, method, { configurable: true, value: ignore });
  }
}

/** The middleware: mount it before everything that may wait. */
export function requestDeadline(deadlineMs: number, answer: DeadlineAnswer): RequestHandler {
  return (req, res, next) => {
    let bytesSeen = req.socket.bytesRead;
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      if (!req.complete && req.socket.bytesRead > bytesSeen) {
        // The body is still arriving: the clock starts again from now.
        bytesSeen = req.socket.bytesRead;
        timer.refresh();
        return;
      }
      answeredAtDeadline.add(res);
      answer(new ServiceUnavailableError(new RequestDeadlineExceeded(deadlineMs)), res);
      silenceLateWrites(res);
    }, deadlineMs);
    // A body read to its end starts the clock afresh: the deadline counts from the whole request.
    if (!req.complete) req.once('end', () => timer.refresh());
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
