// The stream an uploaded file passes through on its way to storage: it sniffs the media type from the first bytes
// (file-type; the client's filename and Content-Type are never trusted), counts bytes against the limit of that media
// type, and checks at the end that the container arrived whole (media-integrity.ts). Nothing is buffered beyond the
// sniffed head.
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '@tributary/kit';
import { fileTypeFromBuffer } from 'file-type';
import { Transform, type TransformCallback } from 'node:stream';
import { ContainerCheck, type ContainerFormat } from './media-integrity.js';
import type { UploadLimits } from '../../media-config.js';
import type { MediaType } from './photo.entity.js';


/** Bytes file-type needs to tell the accepted formats apart. */
export const SNIFF_BYTES = 4100;

/** The accepted media, by sniffed MIME type. */
export const ACCEPTED_MEDIA: Readonly<Record<string, { mediaType: MediaType; container: ContainerFormat }>> = {
  'image/jpeg': { mediaType: 'photo', container: 'jpeg' },
  'image/png': { mediaType: 'photo', container: 'png' },
  'image/webp': { mediaType: 'photo', container: 'webp' },
  'image/heic': { mediaType: 'photo', container: 'isobmff' },
  'image/heif': { mediaType: 'photo', container: 'isobmff' },
  'video/mp4': { mediaType: 'video', container: 'isobmff' },
  'video/quicktime': { mediaType: 'video', container: 'isobmff' },
};

export const UNSUPPORTED_MEDIA_MESSAGE = 'The file must be a JPEG, PNG, HEIC/HEIF or WebP photo, or an MP4 or QuickTime video (judged by its bytes).';
export const INCOMPLETE_FILE_MESSAGE = 'The file is incomplete or malformed (it ends before its own structure does).';
export const EMPTY_FILE_MESSAGE = 'The file is empty.';

export interface SniffedMedia {
  mimeType: string;
  mediaType: MediaType;
}

export function fileTooLarge(mediaType: MediaType, maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`${maxBytes} bytes`, { publicMessage: `The ${mediaType} is larger than the limit of ${maxBytes} bytes.` });
}

export class MediaGate extends Transform {
  /** Settles once the head is sniffed: the accepted media, or the refusal. */
  readonly sniffed: Promise<SniffedMedia>;
  private resolveSniffed!: (media: SniffedMedia) => void;
  private rejectSniffed!: (error: unknown) => void;
  private head: Buffer[] = [];
  private headBytes = 0;
  private media: SniffedMedia | null = null;
  private check: ContainerCheck | null = null;
  private maxBytes = 0;
  private sizeBytes = 0;

  constructor(private readonly limits: UploadLimits) {
    super();
    this.sniffed = new Promise((resolve, reject) => {
      this.resolveSniffed = resolve;
      this.rejectSniffed = reject;
    });
    // A rejection nobody awaits (the stream failed before anyone asked) must not crash the process.
    this.sniffed.catch(() => undefined);
    this.on('error', (error) => this.rejectSniffed(error));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.media) return callback(this.pass(chunk));
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return callback();
    this.detect().then(() => callback(), callback);
  }

  override _flush(callback: TransformCallback): void {
    const finish = (): void => {
      if (this.sizeBytes === 0) return callback(new ValidationError({ file: [EMPTY_FILE_MESSAGE] }));
      if (!this.check?.complete()) return callback(new ValidationError({ file: [INCOMPLETE_FILE_MESSAGE] }));
      callback();
    };
    if (this.media) return finish();
    this.detect().then(finish, callback);
  }

  private async detect(): Promise<void> {
    const head = Buffer.concat(this.head);
    this.head = [];
    if (head.length === 0) throw new ValidationError({ file: [EMPTY_FILE_MESSAGE] });
    const type = await fileTypeFromBuffer(head);
    const accepted = type ? ACCEPTED_MEDIA[type.mime] : undefined;
    if (!type || !accepted) throw new UnsupportedMediaTypeError(type?.mime, UNSUPPORTED_MEDIA_MESSAGE);
    this.media = { mimeType: type.mime, mediaType: accepted.mediaType };
    this.check = new ContainerCheck(accepted.container);
    this.maxBytes = accepted.mediaType === 'video' ? this.limits.videoMaxBytes : this.limits.photoMaxBytes;
    this.resolveSniffed(this.media);
    const error = this.pass(head);
    if (error) throw error;
  }

  private pass(chunk: Buffer): Error | null {
    this.sizeBytes += chunk.length;
    if (this.sizeBytes > this.maxBytes) return fileTooLarge(this.media!.mediaType, this.maxBytes);
    this.check!.update(chunk);
    this.push(chunk);
    return null;
  }
}
