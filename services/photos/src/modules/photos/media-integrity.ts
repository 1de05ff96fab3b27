// Whether an uploaded file arrived whole: a cheap structural check of the container, fed the bytes as they stream to
// storage (nothing is decoded or buffered beyond a small tail). A file cut short (a dropped connection that still closed
// the multipart body, a client bug) is refused instead of being kept as evidence that cannot be opened.
//   JPEG     the end-of-image marker FF D9 within the last TAIL_WINDOW bytes (cameras may append a trailer after it)
//   PNG      the IEND chunk within the last TAIL_WINDOW bytes
//   WebP     at least as many bytes as the RIFF header announces
//   HEIC/HEIF, MP4, QuickTime (ISO base media): the top-level boxes, walked by their sizes, end exactly at the end of the
//            file (or the last one runs to the end, size 0)

export type ContainerFormat = 'jpeg' | 'png' | 'webp' | 'isobmff';

/** How far from the end a JPEG's end marker or a PNG's IEND chunk may sit. */
export const TAIL_WINDOW = 64 * 1024;
const JPEG_END = Buffer.from([0xff, 0xd9]);
const PNG_END = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
const RIFF_HEADER = 12;

export class ContainerCheck {
  private total = 0;
  private tail = Buffer.alloc(0);
  private head = Buffer.alloc(0);
  // ISO base media: where the next top-level box starts, the header bytes read of it so far.
  private boxStart = 0;
  private boxHeader = Buffer.alloc(0);
  private runsToEnd = false;
  private broken = false;

  constructor(private readonly format: ContainerFormat) {}

  update(chunk: Buffer): void {
    if (this.format === 'isobmff') this.walkBoxes(chunk, this.total);
    if (this.head.length < RIFF_HEADER) this.head = Buffer.concat([this.head, chunk.subarray(0, RIFF_HEADER - this.head.length)]);
    if (this.format === 'jpeg' || this.format === 'png') this.tail = Buffer.concat([this.tail, chunk]).subarray(-TAIL_WINDOW);
    this.total += chunk.length;
  }

  /** True when the bytes seen so far make a whole file of the format. */
  complete(): boolean {
    switch (this.format) {
      case 'jpeg':
        return this.tail.includes(JPEG_END);
      case 'png':
        return this.tail.includes(PNG_END);
      case 'webp':
        return this.head.length === RIFF_HEADER && this.total >= this.head.readUInt32LE(4) + 8;
      case 'isobmff':
        return !this.broken && this.boxHeader.length === 0 && (this.runsToEnd || (this.boxStart === this.total && this.total > 0));
    }
  }

  private walkBoxes(chunk: Buffer, chunkStart: number): void {
    const chunkEnd = chunkStart + chunk.length;
    while (!this.broken && !this.runsToEnd) {
      const next = this.boxStart + this.boxHeader.length;
      if (next >= chunkEnd) return;
      const wanted = this.boxHeader.length < 8 ? 8 : 16;
      const from = next - chunkStart;
      this.boxHeader = Buffer.concat([this.boxHeader, chunk.subarray(from, from + wanted - this.boxHeader.length)]);
      if (this.boxHeader.length < 8) continue;
      const size32 = this.boxHeader.readUInt32BE(0);
      if (size32 === 0) {
        this.runsToEnd = true;
        this.boxHeader = Buffer.alloc(0);
        return;
      }
      if (size32 === 1 && this.boxHeader.length < 16) continue;
      const size = size32 === 1 ? Number(this.boxHeader.readBigUInt64BE(8)) : size32;
      if (size < this.boxHeader.length) this.broken = true;
      this.boxStart += size;
      this.boxHeader = Buffer.alloc(0);
    }
  }
}
