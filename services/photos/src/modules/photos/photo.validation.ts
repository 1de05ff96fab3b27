// The photo inputs as zod schemas: the upload's text parts, the edit (PATCH) body and the list's query. Routes parse
// with these and the OpenAPI document shows them, so what is documented is what is accepted.
import { ValidationError, integerQueryParam, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { ASSIGNMENT_SOURCES, type AssignmentSource } from './photo.entity.js';

/** Page size of photo lists (not shown in the spec; decided here, as for projects). */
export const PHOTOS_PER_PAGE = 25;
export const PHOTOS_PAGE_MAX = 10_000;
export const LOCAL_CAPTURE_ID_MAX = 191;
export const DESCRIPTION_MAX = 5_000;
export const TAG_MAX = 50;
export const TAGS_MAX = 30;
export const ACCURACY_M_MAX = 1_000_000;
/** The largest id (PostgreSQL integer). */
export const MAX_ID = 2 ** 31 - 1;

/** The multipart parts of POST /api/v1/photos, in order of the document; `file` carries the media. */
export const UPLOAD_FILE_PART = 'file';
/** Text parts that may be sent more than once (each one adds a value). */
export const REPEATABLE_UPLOAD_PARTS = ['tags'] as const;

/** A plain decimal number as text (sign, digits, fraction, exponent), as any client's number formatting writes it. */
const NUMBER_TEXT = /^-?\d{1,20}(\.\d{1,20})?([eE][-+]?\d{1,3})?$/;
const DIGITS = /^\d{1,10}$/;

/**
 * A number sent as a text part, within [min, max]. Documented as the number a client sends (multipart parts are text on
 * the wire), not as the pattern it is parsed with.
 */
function numberPart(min: number, max: number, description: string, integer = false) {
  const error = integer ? `Must be an integer between ${min} and ${max}.` : `Must be a number between ${min} and ${max}.`;
  const number = z.number().min(min, { error }).max(max, { error });
  return z
    .string()
    .trim()
    .regex(integer ? DIGITS : NUMBER_TEXT, { error })
    .transform(Number)
    .pipe(integer ? number.int({ error }) : number)
    .meta({
      description,
      override: ({ jsonSchema }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, { type: integer ? 'integer' : 'number', minimum: min, maximum: max, description });
      },
    });
}

const tag = wellFormedText(z.string().trim().min(1).max(TAG_MAX));
/** Tags as given, trimmed, without repeats (first occurrence kept). */
const tagList = z
  .array(tag)
  .max(TAGS_MAX)
  .transform((tags) => [...new Set(tags)]);

const description = wellFormedText(z.string().max(DESCRIPTION_MAX));
/** Capture times the service stores: from the Unix epoch (a phone whose clock was reset) to the end of year 9999. */
const CAPTURED_AT_MIN = Date.UTC(1970, 0, 1);
const CAPTURED_AT_MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const isoTimestamp = z.iso
  .datetime({ offset: true, error: 'Must be an ISO 8601 date-time, e.g. 2026-09-04T10:15:00Z.' })
  .transform((value) => new Date(value))
  .refine((date) => date.getTime() >= CAPTURED_AT_MIN && date.getTime() <= CAPTURED_AT_MAX, { error: 'Must lie between 1970-01-01 and 9999-12-31.' });

/**
 * The text parts of an upload, once collected (each single part a string, `tags` a list). lat and lng come together;
 * accuracy_m only with them.
 */
export const uploadFields = z
  .strictObject({
    local_capture_id: wellFormedText(z.string().trim().min(1).max(LOCAL_CAPTURE_ID_MAX)).meta({ description: 'The capture app\'s own id of the capture; the upload is idempotent on it (per team).' }),
    captured_at: isoTimestamp.optional().meta({ description: 'When the capture was taken (ISO 8601 with offset). Optional; stored as read-only evidence.' }),
    lat: numberPart(-90, 90, 'Latitude of the GPS fix (WGS 84).').optional(),
    lng: numberPart(-180, 180, 'Longitude of the GPS fix (WGS 84).').optional(),
    accuracy_m: numberPart(0, ACCURACY_M_MAX, 'Horizontal accuracy of the fix, metres.').optional(),
    project_id: numberPart(1, MAX_ID, 'A manual choice of project (must be an active project of the team): assignment source `manual`.', true).optional(),
    description: description.optional(),
    tags: tagList.optional().meta({ description: `Repeat the part for several tags (at most ${TAGS_MAX}, each 1–${TAG_MAX} characters).` }),
  })
  .superRefine((fields, ctx) => {
    if ((fields.lat === undefined) !== (fields.lng === undefined)) {
      const missing = fields.lat === undefined ? 'lat' : 'lng';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'lat and lng come together: send both or neither.' });
    }
    if (fields.accuracy_m !== undefined && fields.lat === undefined && fields.lng === undefined) {
      ctx.addIssue({ code: 'custom', path: ['accuracy_m'], message: 'accuracy_m belongs to a fix: send it with lat and lng.' });
    }
  });
export type UploadFields = z.infer<typeof uploadFields>;

/** The fields a PATCH may change, by the spec's names ("PATCH /photos/{photo}: caption, tags, project"). */
export const EDITABLE_PHOTO_FIELDS = ['caption', 'tags', 'project'] as const;
/**
 * Older names of two editable fields, still accepted: `description` is the resource's own name of the caption, and
 * `project_id` the upload's name of the project. A body naming a field and its alias is refused (422 on both).
 */
export const PHOTO_EDIT_ALIASES = { caption: 'description', project: 'project_id' } as const;
type AliasedField = keyof typeof PHOTO_EDIT_ALIASES;

export function aliasConflictMessage(field: AliasedField): string {
  return `Send ${field} or its alias ${PHOTO_EDIT_ALIASES[field]}, not both.`;
}

const projectIdField = z.number().int().min(1).max(MAX_ID);

export const editPhotoBody = z
  .strictObject({
    caption: description.optional().meta({ description: 'The caption: the photo\'s `description`.' }),
    tags: tagList.optional(),
    project: projectIdField.optional().meta({ description: 'Id of an active project of the team to move the photo to (assignment source `corrected`).' }),
    description: description.optional().meta({ description: 'Alias of `caption` (never both).' }),
    project_id: projectIdField.optional().meta({ description: 'Alias of `project` (never both).' }),
  })
  .superRefine((body, ctx) => {
    for (const [field, alias] of Object.entries(PHOTO_EDIT_ALIASES) as Array<[AliasedField, string]>) {
      if (body[field] === undefined || body[alias as keyof typeof body] === undefined) continue;
      for (const path of [field, alias]) ctx.addIssue({ code: 'custom', path: [path], message: aliasConflictMessage(field) });
    }
  })
  .meta({
    id: 'PhotosPhotoEdit',
    description: 'Only caption, tags and project may change (`description` and `project_id` are accepted as their aliases); any other field (captured_at, location, local_capture_id, …) answers 422 naming it, and nothing changes.',
  });
export type EditPhotoBody = z.infer<typeof editPhotoBody>;

/**
 * An edit in the domain's terms: what PhotoService.edit takes, from REST and GraphQL once parsed (editPhotoBody); the
 * service checks it again with the same field rules.
 */
export const photoChanges = z.strictObject({
  description: description.optional(),
  tags: tagList.optional(),
  projectId: projectIdField.optional(),
});
export type PhotoChanges = z.infer<typeof photoChanges>;

/** The parsed PATCH body as changes (a field or its alias: never both, editPhotoBody refuses that). */
export function photoChangesOf(body: EditPhotoBody): PhotoChanges {
  const caption = body.caption ?? body.description;
  const projectId = body.project ?? body.project_id;
  return {
    ...(caption !== undefined ? { description: caption } : {}),
    ...(body.tags !== undefined ? { tags: body.tags } : {}),
    ...(projectId !== undefined ? { projectId } : {}),
  };
}

/** `error` with the spec's field names replaced by the aliases the body used, so a client reads the names it sent. */
export function inNamesSent(error: unknown, body: EditPhotoBody): unknown {
  if (!(error instanceof ValidationError)) return error;
  const named = Object.entries(error.fields).map(([field, messages]) => {
    const alias = (PHOTO_EDIT_ALIASES as Record<string, keyof EditPhotoBody>)[field];
    return [alias !== undefined && body[alias] !== undefined ? alias : field, messages] as const;
  });
  return new ValidationError(Object.fromEntries(named));
}

/** Fields of the photo resource that a PATCH may not change: read-only evidence, or made by the service. */
export const READ_ONLY_PHOTO_FIELDS = [
  'id', 'local_capture_id', 'captured_at', 'uploaded_at', 'media_type', 'mime_type', 'location', 'lat', 'lng', 'accuracy_m',
  'assignment', 'urls', 'size_bytes', 'duration_seconds', 'file',
] as const;

/** 422 fields for a PATCH body naming read-only fields (checked before anything else, so nothing changes). */
export function readOnlyFieldErrors(body: unknown): Record<string, string[]> | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const named = (READ_ONLY_PHOTO_FIELDS as readonly string[]).filter((field) => Object.hasOwn(body, field));
  if (named.length === 0) return null;
  const message = `Read-only: only ${EDITABLE_PHOTO_FIELDS.join(', ')} may be edited (capture time, GPS and media are evidence).`;
  return Object.fromEntries(named.map((field) => [field, [message]]));
}

const capturedBound = (edge: 'from' | 'to') =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'Must be a date (2026-09-04) or an ISO 8601 date-time.' })
    .optional()
    .meta({
      description:
        edge === 'from'
          ? 'Captured at or after this instant (a date means its start, 00:00 UTC).'
          : 'Captured at or before this instant (a date means the whole day, UTC, inclusive).',
    });

export const listPhotosQuery = z.object({
  project: numberPart(1, MAX_ID, 'Only photos of this project.', true).optional(),
  tag: wellFormedText(z.string().min(1).max(TAG_MAX)).optional().meta({ description: 'Only photos carrying this tag (exact match).' }),
  captured_from: capturedBound('from'),
  captured_to: capturedBound('to'),
  source: z.enum(ASSIGNMENT_SOURCES).optional().meta({ description: 'Only photos with this assignment source.' }),
  page: integerQueryParam({ min: 1, max: PHOTOS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${PHOTOS_PER_PAGE} photos per page.` }),
});

/** A list query in the domain's terms (from REST once parsed, from GraphQL as it is). */
export interface PhotoListQuery {
  projectId?: number | undefined;
  tag?: string | undefined;
  capturedFrom?: Date | undefined;
  capturedTo?: Date | undefined;
  source?: AssignmentSource | undefined;
  page?: number | undefined;
}

const DAY_MS = 86_400_000;

/** The parsed REST query in the domain's terms: a bare date `to` covers its whole day. */
export function photoListQueryOf(query: z.infer<typeof listPhotosQuery>): PhotoListQuery {
  const bound = (value: string | undefined, edge: 'from' | 'to'): Date | undefined => {
    if (value === undefined) return undefined;
    const isDate = /^\d{4}-\d{2}-\d{2}$/.test(value);
    const instant = new Date(isDate ? `${value}T00:00:00Z` : value).getTime();
    // Clamped to what a stored capture time can be (a bound beyond it selects the same photos, and PostgreSQL has no year 0).
    return new Date(Math.min(Math.max(isDate && edge === 'to' ? instant + DAY_MS - 1 : instant, CAPTURED_AT_MIN), CAPTURED_AT_MAX));
  };
  return {
    projectId: query.project,
    tag: query.tag,
    capturedFrom: bound(query.captured_from, 'from'),
    capturedTo: bound(query.captured_to, 'to'),
    source: query.source,
    page: query.page,
  };
}
