// Reads a multipart/form-data upload (POST /api/v1/photos) as it streams: text parts are collected (bounded), the one
// `file` part goes through the MediaGate straight into storage, never held whole in memory. Parts may come in any
// order; a client that sends local_capture_id before the file lets the service skip storing a repeat upload.
// Anything wrong (malformed or cut-short body, unknown or repeated part, refused media) leaves nothing stored.
import {
  MalformedRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
  isDomainError,
  type DomainError,
} from '@tributary/kit';
import Busboy from 'busboy';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { MediaStorage } from '../../storage/index.js';
import type { UploadLimits } from '../../media-config.js';
import { MediaGate, type SniffedMedia } from './media-gate.js';
import { REPEATABLE_UPLOAD_PARTS, UPLOAD_FILE_PART } from './photo.validation.js';

/** Bounds of the text parts: every one is short; a body of thousands of parts is an attack, not an upload. */
export const UPLOAD_PART_LIMITS = { fieldNameSize: 100, fieldSize: 64 * 1024, fields: 100, files: 1, parts: 101 } as const;
/** How long a refused upload's remaining bytes are read (so the client sees the answer) before the connection closes. */
const DRAIN_TIMEOUT_MS = 10_000;

export const NOT_MULTIPART_MESSAGE = 'The request body must be multipart/form-data with the media in the `file` part.';
export const MALFORMED_MULTIPART_MESSAGE = 'The multipart body is malformed or was cut short.';

export interface StoredMedia extends SniffedMedia {
  key: string;
  sizeBytes: number;
}

export interface ReceivedUpload {
  /** Text parts by name, in arrival order (`tags` may hold several). */
  parts: Record<string, string[]>;
  /** The stored file; null when the body had none, or when `skipFile` said the capture is already stored. */
  media: StoredMedia | null;
  skippedFile: boolean;
}

export interface ReceiveUploadOptions {
  storage: MediaStorage;
  limits: UploadLimits;
  /** The storage key of the new object (server-made). */
  keyFor(id: string): string;
  /** Asked when the file part starts, with the text parts seen so far: true = drain it unstored (a known repeat). */
  skipFile?(parts: Readonly<Record<string, string[]>>): Promise<boolean>;
}

/** Room for the text parts and the multipart framing beside the largest file a body may carry. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

/** Reads the whole upload; throws a DomainError (4xx) after removing whatever it stored. */
export async function receiveUpload(req: IncomingMessage, options: ReceiveUploadOptions): Promise<ReceivedUpload> {
  // A body announced larger than any accepted file is refused before a byte of it is read.
  const largest = Math.max(options.limits.photoMaxBytes, options.limits.videoMaxBytes) + MULTIPART_OVERHEAD_BYTES;
  if (Number(req.headers['content-length'] ?? 0) > largest) {
    throw new PayloadTooLargeError(`${largest} bytes`, { publicMessage: `The upload is larger than the limit of ${largest} bytes (the largest file plus its form).` });
  }
  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({ headers: req.headers, limits: { ...UPLOAD_PART_LIMITS, fileSize: Number.MAX_SAFE_INTEGER } });
  } catch {
    throw new UnsupportedMediaTypeError(req.headers['content-type'], NOT_MULTIPART_MESSAGE);
  }
  return new UploadReading(req, busboy, options).result();
}

class UploadReading {
  private readonly parts: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  /** A DomainError (4xx) for anything the client sent; anything else is the service's own failure (storage). */
  private failure: unknown = null;
  private file: Promise<StoredMedia | null> | null = null;
  private fileStream: Readable | null = null;
  private skippedFile = false;
  private storedKey: string | null = null;
  private stopReading: () => void = () => undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly busboy: Busboy.Busboy,
    private readonly options: ReceiveUploadOptions,
  ) {}

  async result(): Promise<ReceivedUpload> {
    // Settles when busboy has read the whole body, or at the first failure (which stops reading it).
    const parsed = new Promise<void>((resolve) => {
      this.stopReading = resolve;
      this.busboy.on('field', (name, value, info) => this.onField(name, value, info));
      this.busboy.on('file', (name, stream) => this.onFile(name, stream));
      this.busboy.on('partsLimit', () => this.fail(new PayloadTooLargeError('parts', { publicMessage: `At most ${UPLOAD_PART_LIMITS.parts} parts.` })));
      this.busboy.on('fieldsLimit', () => this.fail(new PayloadTooLargeError('fields', { publicMessage: `At most ${UPLOAD_PART_LIMITS.fields} text parts.` })));
      this.busboy.on('filesLimit', () => this.fail(oneFileOnly()));
      this.busboy.on('error', (error) => this.fail(malformed(error)));
      this.busboy.on('close', () => resolve());
      // A client that goes away mid-body: busboy never hears the end.
      this.req.on('close', () => {
        if (!this.req.complete) this.fail(malformed(new Error('upload aborted by the client')));
      });
      this.req.pipe(this.busboy);
    });
    await parsed;
    const media = this.file ? await this.file : null;
    if (this.failure) {
      await this.discard();
      await drained(this.req);
      throw this.failure;
    }
    return { parts: this.parts, media, skippedFile: this.skippedFile };
  }

  /** Removes what this upload stored (a refused upload, or one the service finds to be a repeat). */
  async discard(): Promise<void> {
    if (this.storedKey) await this.options.storage.delete(this.storedKey);
    this.storedKey = null;
  }

  private onField(name: string, value: string, info: Busboy.FieldInfo): void {
    if (this.failure) return;
    if (info.nameTruncated) return this.fail(new ValidationError({ body: ['A part name is too long.'] }));
    if (info.valueTruncated) return this.fail(new ValidationError({ [name]: [`At most ${UPLOAD_PART_LIMITS.fieldSize} bytes.`] }));
    const values = this.parts[name] ?? (this.parts[name] = []);
    if (values.length > 0 && !(REPEATABLE_UPLOAD_PARTS as readonly string[]).includes(name)) return this.fail(new ValidationError({ [name]: ['Send this part once.'] }));
    values.push(value);
  }

  private onFile(name: string, stream: Readable): void {
    if (this.failure || name !== UPLOAD_FILE_PART || this.file) {
      stream.resume();
      if (name !== UPLOAD_FILE_PART) return this.fail(new ValidationError({ [name]: [`Only the \`${UPLOAD_FILE_PART}\` part may carry a file.`] }));
      if (this.file) return this.fail(oneFileOnly());
      return;
    }
    this.fileStream = stream;
    // Busboy reports a cut-short body on the file stream too; fail() destroys it. Either way the listener must exist.
    stream.on('error', () => undefined);
    this.file = this.storeFile(stream).catch((error: unknown) => {
      this.fail(error);
      return null;
    });
  }

  private async storeFile(stream: Readable): Promise<StoredMedia | null> {
    if (this.options.skipFile && (await this.options.skipFile(this.parts))) {
      this.skippedFile = true;
      stream.resume();
      return null;
    }
    if (this.failure) return null;
    const gate = new MediaGate(this.options.limits);
    stream.pipe(gate);
    stream.on('error', (error) => gate.destroy(isDomainError(error) ? error : malformed(error)));
    const media = await gate.sniffed;
    const key = this.options.keyFor(randomUUID());
    this.storedKey = key;
    const stored = await this.options.storage.put(key, gate, media.mimeType);
    return { ...media, key, sizeBytes: stored.sizeBytes };
  }

  /** The first failure wins; the rest of the body is read and dropped so the client gets the answer. */
  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = error;
    this.req.unpipe(this.busboy);
    this.req.resume();
    this.fileStream?.destroy(isDomainError(error) ? error : malformed(error));
    this.stopReading();
  }
}

function malformed(cause: unknown): DomainError {
  return new MalformedRequestError(`multipart: ${String(cause)}`, MALFORMED_MULTIPART_MESSAGE, { cause });
}

function oneFileOnly(): ValidationError {
  return new ValidationError({ [UPLOAD_FILE_PART]: ['Send exactly one file.'] });
}

function drained(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    req.once('end', done);
    req.once('close', done);
  });
}
