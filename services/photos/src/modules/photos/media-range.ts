// Single byte ranges on the media route (`Range: bytes=a-b`), so a <video> element can seek (Safari plays only from a
// server that answers ranges). Pure parsing plus a stream slicer that works over any MediaStorage. A range this does not
// serve (several ranges, unsatisfiable, malformed) is ignored and the whole object sent, as RFC 9110 allows.
import { Transform, type TransformCallback } from 'node:stream';

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/** The one satisfiable range of `header` within an object of `size` bytes, or null (send everything). */
export function byteRange(header: string | undefined, size: number): ByteRange | null {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header?.trim() ?? '');
  if (!match || size === 0) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Math.min(Number(last), size);
    return length === 0 ? null : { start: size - length, end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start > end || start >= size ? null : { start, end };
}

/** Passes on only the bytes of `range` from the stream it is piped from. */
export class ByteRangeSlice extends Transform {
  private offset = 0;

  constructor(private readonly range: ByteRange) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const chunkStart = this.offset;
    this.offset += chunk.length;
    const from = Math.max(this.range.start - chunkStart, 0);
    const to = Math.min(this.range.end + 1 - chunkStart, chunk.length);
    if (to > from) this.push(chunk.subarray(from, to));
    callback();
  }
}
