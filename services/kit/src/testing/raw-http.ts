// Bytes no HTTP client library will send (a NUL in a header, a raw non-ASCII byte in the request line), written on a
// fresh TCP connection, and the server's answer read back as sent.
import net from 'node:net';

export interface RawHttpResponse {
  /** Everything the server sent, as latin1 text. */
  raw: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** `parts` joined: strings as latin1 (one byte per character), number arrays as the bytes themselves. */
export function rawHttpRequest(...parts: Array<string | readonly number[]>): Buffer {
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));
}

/** Writes `request` to the server at `url` (http://host:port) and resolves with its answer once it closes the connection. */
export function exchangeRawHttp(url: string, request: Buffer): Promise<RawHttpResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    let raw = '';
    socket.on('data', (chunk: Buffer) => (raw += chunk.toString('latin1')));
    socket.on('close', () => resolve({ raw, ...parseRawHttpResponse(raw) }));
    socket.on('error', reject);
    socket.write(request);
  });
}

function parseRawHttpResponse(raw: string): Omit<RawHttpResponse, 'raw'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: split === -1 ? '' : raw.slice(split + 4) };
}
