// The photo routes as OpenAPI operations, the multipart upload included; photo.routes.ts mounts its handlers on these.
import { defineApiRoute, envelopeErrorBody } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { UNASSIGNED_REASONS } from '../projects/index.js';
import { SNIFF_BYTES } from './media-gate.js';
import { MEDIA_ROUTE_PATH, MEDIA_URL_TTL_SECONDS, RENDITIONS } from './media-urls.js';
import { ASSIGNMENT_SOURCES, MEDIA_TYPES } from './photo.entity.js';
import { UPLOAD_PART_LIMITS } from './photo-upload.js';
import { PHOTOS_PER_PAGE, editPhotoBody, listPhotosQuery, uploadFields } from './photo.validation.js';

const signedUrl = (what: string) => z.string().meta({ description: `${what}: a signed URL valid for at least ${MEDIA_URL_TTL_SECONDS / 3600} hours, fetchable without a token.` });

export const photoResource = z
  .object({
    id: z.number().int(),
    local_capture_id: z.string(),
    project: z.object({ id: z.number().int(), name: z.string() }).nullable().meta({ description: 'null while unassigned.' }),
    captured_at: z.iso.datetime().nullable().meta({ description: 'Read-only evidence; null when the capture app did not send it.' }),
    uploaded_at: z.iso.datetime(),
    media_type: z.enum(MEDIA_TYPES),
    mime_type: z.string().meta({ description: 'Sniffed from the bytes.' }),
    description: z.string(),
    tags: z.array(z.string()),
    location: z
      .object({ lat: z.number(), lng: z.number(), accuracy_m: z.number().nullable() })
      .nullable()
      .meta({ description: 'Read-only evidence: the GPS fix sent with the upload; null without one.' }),
    assignment: z.object({
      source: z.enum(ASSIGNMENT_SOURCES),
      distance_m: z.number().nullable().meta({ description: 'Distance from the fix to the project\'s centre, metres; null when unassigned or either position is unknown.' }),
      reason: z.enum(UNASSIGNED_REASONS).nullable().meta({ description: 'Why the capture is unassigned; null otherwise.' }),
    }),
    urls: z.object({
      full: signedUrl('The original media'),
      thumb: signedUrl('A small image; until the thumbnail exists it serves the original photo (video: a placeholder image)'),
      annotated: z.string().nullable().meta({ description: 'Always null (annotations are not offered).' }),
      poster: z.string().nullable().meta({ description: 'Video only: a signed URL of the poster frame once made; null for photos and until then.' }),
    }),
    size_bytes: z.number().int(),
    duration_seconds: z.number().nullable().meta({ description: 'Video only, once measured; null otherwise.' }),
  })
  .meta({ id: 'PhotosPhoto' });

export const pageMeta = z
  .object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() })
  .meta({ id: 'PhotosPhotoPageMeta' });

export const photoResponse = z.object({ data: photoResource });
export const photoUploadResponse = z.object({
  data: photoResource,
  duplicate: z.boolean().meta({ description: 'true when a photo with this local_capture_id was already stored (answered 200; nothing new stored).' }),
});
export const photoListResponse = z.object({ data: z.array(photoResource), meta: pageMeta });

const photoPath = z.object({ photo: z.string().meta({ description: 'Photo id.' }) });

/** The multipart body as documented: the file plus the text parts (uploadFields), each a form field. */
const uploadBody = z.object({
  file: z.string().meta({ format: 'binary', description: `The photo or video. Its type is judged by its first ${SNIFF_BYTES} bytes: JPEG, PNG, HEIC/HEIF, WebP, MP4, QuickTime; anything else is 415; larger than PHOTO_MAX_BYTES / VIDEO_MAX_BYTES is 413; a file cut short is 422.` }),
  ...uploadFields.shape,
});

const mediaContent = { 'image/*': { schema: z.string().meta({ format: 'binary' }) }, 'video/*': { schema: z.string().meta({ format: 'binary' }) } };

function uploadError(description: string) {
  return { description, content: { 'application/json': { schema: envelopeErrorBody } } };
}

export const photoApi = {
  upload: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/photos`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'uploadPhoto',
      summary: 'Upload a photo or video (idempotent on local_capture_id)',
      description: [
        'multipart/form-data, streamed to storage. Parts: `file` (required; exactly one), `local_capture_id` (required), `captured_at`, `lat`, `lng`, `accuracy_m`, `project_id`, `description`, and `tags` (repeat the part for several tags). Text parts may come before or after the file; sending `local_capture_id` first lets a repeat skip storing the file.',
        'First upload: 201 `{"data": photo, "duplicate": false}`. A `local_capture_id` the team already stored: 200 `{"data": <the stored photo>, "duplicate": true}`, nothing new stored (also when two copies race).',
        'Assignment: `project_id` (an active project of the team, else 422) gives source `manual`; otherwise GPS matching gives `gps` or `unassigned` with its reason.',
        `At most ${UPLOAD_PART_LIMITS.parts} parts, each text part at most ${UPLOAD_PART_LIMITS.fieldSize} bytes. A malformed or cut-short body is 400. Needs \`photos:write\` (or a device token's \`capture\`).`,
      ].join('\n\n'),
      tags: ['Photos'],
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'multipart/form-data': { schema: uploadBody } } },
      responses: {
        '200': { description: 'Already stored: the stored photo, `duplicate: true`.', content: { 'application/json': { schema: photoUploadResponse } } },
        '201': { description: 'Stored: the new photo, `duplicate: false`.', content: { 'application/json': { schema: photoUploadResponse } } },
        '400': uploadError('The multipart body is malformed or was cut short, or the URL or a header is malformed.'),
        '413': uploadError('The file is larger than the limit of its media type (PHOTO_MAX_BYTES, VIDEO_MAX_BYTES), or the body has too many parts.'),
        '415': uploadError('The body is not multipart/form-data, or the file is not an accepted photo or video (judged by its bytes).'),
      },
    },
  }),
  list: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/photos`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listPhotos',
      summary: "List the team's photos",
      description: `Newest capture first (captures without a time last), ${PHOTOS_PER_PAGE} per page. Filters: project, tag, captured_from/captured_to, source. Needs \`photos:read\` (or \`capture\`).`,
      tags: ['Photos'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: listPhotosQuery },
      responses: { '200': { description: 'One page of photos.', content: { 'application/json': { schema: photoListResponse } } } },
    },
  }),
  show: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/photos/:photo`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'getPhoto',
      summary: 'One photo with URLs, tags, GPS and assignment reasoning',
      description: 'Another team\'s photo, an unknown id or one that is not digits: 404. Needs `photos:read` (or `capture`).',
      tags: ['Photos'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: photoPath },
      responses: { '200': { description: 'The photo.', content: { 'application/json': { schema: photoResponse } } } },
    },
  }),
  edit: defineApiRoute({
    method: 'patch',
    path: `${REST_BASE}/photos/:photo`,
    errors: [401, 403, 404, 422],
    operation: {
      operationId: 'editPhoto',
      summary: 'Edit caption, tags or project',
      description: 'The spec\'s body names: `caption` (answered as the photo\'s `description`), `tags`, `project` (a project id). `description` and `project_id` are accepted as aliases of `caption` and `project`; a field and its alias together are 422 on both. Capture time, GPS and media are read-only evidence: naming them (or any other field) is 422 naming the field, nothing changed. A new project makes the assignment `corrected`. Needs `photos:write` (not `capture`).',
      tags: ['Photos'],
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: photoPath },
      requestBody: { content: { 'application/json': { schema: editPhotoBody } } },
      responses: { '200': { description: 'The edited photo.', content: { 'application/json': { schema: photoResponse } } } },
    },
  }),
  media: defineApiRoute({
    method: 'get',
    path: MEDIA_ROUTE_PATH,
    errors: [403, 404],
    operation: {
      operationId: 'getPhotoMedia',
      summary: 'The bytes of a photo rendition (signed URL)',
      description: 'Only through the signed URLs of a photo\'s `urls` (no token needed): a missing, altered or expired signature is 403; an unknown photo or a rendition that does not exist (a photo\'s poster, a video\'s poster before it is made) is 404. `thumb` serves the original photo until the thumbnail exists (video: a placeholder image), with `Cache-Control: no-cache`; exact renditions are `private`, cacheable until the URL expires.',
      tags: ['Photos'],
      security: [],
      requestParams: {
        path: z.object({ photo: z.string().meta({ description: 'Photo id.' }), rendition: z.enum(RENDITIONS) }),
        query: z.object({ expires: z.string().meta({ description: 'Unix seconds, as signed.' }), signature: z.string().meta({ description: 'base64url HMAC-SHA256, as signed.' }) }),
      },
      responses: {
        '200': { description: 'The media bytes, with their Content-Type and Content-Length.', content: mediaContent },
        '206': { description: 'One byte range (`Range: bytes=a-b`), with Content-Range; other ranges are ignored (200).', content: mediaContent },
      },
    },
  }),
};
