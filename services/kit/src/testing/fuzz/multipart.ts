// multipart/form-data request bodies for the fuzz suite (an operation whose document shows a multipart body, e.g. a
// file upload): schema-valid parts, one hostile part among valid ones, and bodies cut short. A `format: binary`
// property becomes a file part whose bytes start like a common image (so they pass a content sniffer and reach the
// code behind it) or not at all.
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { conformingValue, hostileText } from './arbitraries.js';
import type { JsonSchema } from './operations.js';

export interface FuzzPart {
  name: string;
  value: string | Uint8Array;
  /** Present on a file part. */
  filename?: string;
}

export interface FuzzMultipart {
  parts: FuzzPart[];
  /** Leave off the closing boundary (a body cut short). */
  truncated: boolean;
}

const HOSTILE_TEXT_MAX = 2_000;
const FILE_BYTES_MAX = 6_000;
const JPEG_END = [0xff, 0xd9];
/** First bytes of JPEG, PNG, WebP and HEIC files, and none. */
const MAGIC: number[][] = [
  [0xff, 0xd8, 0xff, 0xe0],
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0x52, 0x49, 0x46, 0x46, 0x10, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
  [0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63, 0, 0, 0, 0, 0x6d, 0x69, 0x66, 0x31, 0x68, 0x65, 0x69, 0x63],
  [],
];

const fileBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  // Often a byte run shaped like a whole JPEG (start and end markers), so the upload gets past sniffing and checks.
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: FILE_BYTES_MAX }).map((rest) => Uint8Array.from([...MAGIC[0]!, ...rest, ...JPEG_END])) },
  fc.tuple(fc.constantFrom(...MAGIC), fc.uint8Array({ maxLength: FILE_BYTES_MAX })).map(([magic, rest]) => Uint8Array.from([...magic, ...rest])),
);

const isBinary = (schema: JsonSchema) => schema.format === 'binary';

/** The parts carrying `value` under `name`: an array is one part per item, a file one file part. */
function partsFor(name: string, schema: JsonSchema, value: unknown): FuzzPart[] {
  if (isBinary(schema)) return [{ name, value: value as Uint8Array, filename: 'upload.bin' }];
  if (Array.isArray(value)) return value.map((item) => ({ name, value: String(item) }));
  return [{ name, value: typeof value === 'string' ? value : JSON.stringify(value) }];
}

function valueOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  return isBinary(schema) ? fileBytes : conformingValue(schema);
}

/** Parts whose values satisfy `schema` (required ones always present). */
export function conformingParts(schema: JsonSchema): fc.Arbitrary<FuzzPart[]> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  return fc
    .tuple(...properties.map(([name, property]) => (required.has(name) ? valueOf(property).map((value) => [value] as const) : fc.option(valueOf(property).map((value) => [value] as const), { nil: undefined }))))
    .chain((values) => {
      const parts = properties.flatMap(([name, property], index) => (values[index] ? partsFor(name, property, values[index][0]) : []));
      // Parts may come in any order.
      return fc.shuffledSubarray(parts, { minLength: parts.length, maxLength: parts.length });
    });
}

/** Valid parts except `field`, which carries hostile text (or hostile bytes, or arrives as a text part when it is a file). */
export function partsWithHostileField(schema: JsonSchema, field: string): fc.Arbitrary<FuzzPart[]> {
  const hostile = fc.oneof(
    hostileText(HOSTILE_TEXT_MAX).map((text): FuzzPart[] => [{ name: field, value: text }]),
    fc.array(hostileText(200), { minLength: 2, maxLength: 3 }).map((texts): FuzzPart[] => texts.map((text) => ({ name: field, value: text }))),
    fc.uint8Array({ maxLength: 2_000 }).map((bytes): FuzzPart[] => [{ name: field, value: bytes, filename: 'x' }]),
  );
  // Anywhere among the others: a part read before the rest of the body (an id looked up early) is hostile too.
  return fc
    .tuple(conformingParts(schema), hostile)
    .chain(([valid, bad]) => {
      const parts = [...valid.filter((part) => part.name !== field), ...bad];
      return fc.shuffledSubarray(parts, { minLength: parts.length, maxLength: parts.length });
    });
}

/** Valid parts plus parts the document does not name. */
export function partsWithUnknownFields(schema: JsonSchema): fc.Arbitrary<FuzzPart[]> {
  return fc.tuple(conformingParts(schema), fc.array(fc.tuple(hostileText(40), hostileText(200)), { minLength: 1, maxLength: 3 })).map(([valid, extra]) => [
    ...valid,
    ...extra.map(([name, value]) => ({ name, value })),
  ]);
}

/** A part name or filename inside a quoted Content-Disposition parameter: quotes, CR and LF escaped as browsers do. */
function quoted(text: string): string {
  return text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** The body and its Content-Type. */
export function encodeMultipart(multipart: FuzzMultipart): { body: Buffer; contentType: string } {
  const boundary = `fuzz${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of multipart.parts) {
    const disposition = `form-data; name="${quoted(part.name)}"${part.filename === undefined ? '' : `; filename="${quoted(part.filename)}"`}`;
    const type = part.filename === undefined ? '' : '\r\nContent-Type: application/octet-stream';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, 'utf8'));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value, 'utf8') : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  if (!multipart.truncated) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** What the failure message shows of a multipart body. */
export function describeMultipart(multipart: FuzzMultipart): string {
  const parts = multipart.parts.map((part) => `${JSON.stringify(part.name)}=${typeof part.value === 'string' ? JSON.stringify(part.value.slice(0, 80)) : `<${part.value.length} bytes, first ${Buffer.from(part.value.slice(0, 12)).toString('hex')}>`}`);
  return `multipart [${parts.join(', ')}]${multipart.truncated ? ' (cut short)' : ''}`;
}
