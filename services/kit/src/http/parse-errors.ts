// Requests Node's HTTP parser refuses never reach Express. Node answers them with a bare 400 and no body; a service app
// answers llhttp's parse errors (`HPE_*`: a NUL or CR in a header value, a space in a header name, a raw non-ASCII byte
// in the request line) with a 400 in the service's error format and a request id that is also logged. Everything else
// keeps Node's own answer: an oversized header block (431) or chunk extension (413), a request timeout (408), a reset
// connection (nothing).
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { MalformedRequestError, type ErrorFormat } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { ClientErrorListener } from './http-server.js';
import { MALFORMED_HTTP_MESSAGE, MALFORMED_URL_MESSAGE } from './malformed-request.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** Node's own statuses for the client errors that are not malformed requests. */
const NODE_ANSWERS: Record<string, number> = { HPE_HEADER_OVERFLOW: 431, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413, ERR_HTTP_REQUEST_TIMEOUT: 408 };

function bareResponse(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\n\r\n`;
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string>): string {
  const json = JSON.stringify(body);
  const all = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(json)), ...headers, Connection: 'close' };
  const head = Object.entries(all).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}\r\n${json}`;
}

/** Like Node: answer only while nothing of a response has been written on this socket. */
function canAnswer(socket: Socket): boolean {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return socket.writable && !inFlight?.headersSent;
}

/** The server's 'clientError' listener of a service app (createServiceApp attaches it; startHttpServer installs it). */
export function answerParseErrors(format: ErrorFormat, logger: Logger): ClientErrorListener {
  return (error, socket) => {
    const code = error.code ?? '';
    if (!code.startsWith('HPE_') || code in NODE_ANSWERS) {
      if (code !== 'ECONNRESET' && canAnswer(socket)) socket.write(bareResponse(NODE_ANSWERS[code] ?? 400));
      socket.destroy(error);
      return;
    }
    const requestId = randomUUID();
    logger.warn({ requestId, err: { code, message: error.message } }, 'refused a request the HTTP parser cannot read');
    if (!canAnswer(socket)) {
      socket.destroy(error);
      return;
    }
    const publicMessage = code === 'HPE_INVALID_URL' ? MALFORMED_URL_MESSAGE : MALFORMED_HTTP_MESSAGE;
    const rendered = format.render(new MalformedRequestError(`HTTP parse error ${code}`, publicMessage));
    const response = jsonResponse(rendered.status, rendered.body, { [REQUEST_ID_HEADER]: requestId, ...rendered.headers });
    socket.end(response, () => socket.destroy());
  };
}
