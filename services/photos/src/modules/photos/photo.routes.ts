import { ForbiddenError, NotFoundError, ValidationError, mountApiRoute, parseInput, serviceRouter } from '@tributary/kit';
import type { Response, Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { principalOf, requireScope, requireToken, type AuthService } from '../auth/index.js';
import { ByteRangeSlice, byteRange, type ByteRange } from './media-range.js';
import { RENDITIONS, type MediaUrlSigner, type Rendition } from './media-urls.js';
import { photoApi } from './photo.openapi.js';
import { presentPhoto, presentPhotoPage } from './photo.presenter.js';
import type { MediaObject, PhotoService } from './photo.service.js';
import { MAX_ID, editPhotoBody, inNamesSent, listPhotosQuery, photoChangesOf, photoListQueryOf, readOnlyFieldErrors } from './photo.validation.js';

export const INVALID_MEDIA_LINK_MESSAGE = 'This media link is invalid or has expired.';

/** /api/v1/photos (photos:read / photos:write; the capture app's endpoints also take `capture`) and the signed media route. */
export function photoRoutes(auth: AuthService, photos: PhotoService, urls: MediaUrlSigner): Router {
  const router = serviceRouter();
  const token = requireToken(auth);
  mountApiRoute(router, photoApi.upload, token, requireScope('photos:write', { capture: true }), async (req, res) => {
    const { photo, duplicate } = await photos.upload(principalOf(res), req);
    res.status(duplicate ? 200 : 201).json({ data: presentPhoto(photo, urls), duplicate });
  });
  mountApiRoute(router, photoApi.list, token, requireScope('photos:read', { capture: true }), async (req, res) => {
    const page = await photos.list(principalOf(res), photoListQueryOf(parseInput(listPhotosQuery, req.query)));
    res.json(presentPhotoPage(page, urls));
  });
  mountApiRoute(router, photoApi.show, token, requireScope('photos:read', { capture: true }), async (req, res) => {
    res.json({ data: presentPhoto(await photos.get(principalOf(res), String(req.params.photo)), urls) });
  });
  mountApiRoute(router, photoApi.edit, token, requireScope('photos:write'), async (req, res) => {
    // Read-only evidence named in the body is refused whole, before anything else, so nothing changes.
    const readOnly = readOnlyFieldErrors(req.body);
    if (readOnly) throw new ValidationError(readOnly);
    const body = parseInput(editPhotoBody, req.body, { rootField: 'body' });
    const photo = await photos.edit(principalOf(res), String(req.params.photo), photoChangesOf(body)).catch((error: unknown) => {
      throw inNamesSent(error, body);
    });
    res.json({ data: presentPhoto(photo, urls) });
  });
  mountApiRoute(router, photoApi.media, async (req, res) => {
    const { photoId, rendition } = mediaTarget(String(req.params.photo), String(req.params.rendition));
    const expires = typeof req.query.expires === 'string' && /^\d{1,12}$/.test(req.query.expires) ? Number(req.query.expires) : null;
    const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
    if (expires === null || urls.check(photoId, rendition, expires, signature) !== 'valid') throw new ForbiddenError(INVALID_MEDIA_LINK_MESSAGE);
    const media = await photos.openMedia(photoId, rendition);
    if (!media) throw new NotFoundError(`media ${photoId}/${rendition}`);
    await sendMedia(res, media, urls.secondsLeft(expires), byteRange(req.headers.range, media.sizeBytes));
  });
  return router;
}

/** The path's photo id and rendition; anything else is a 404, as for any unknown path. */
function mediaTarget(photo: string, rendition: string): { photoId: number; rendition: Rendition } {
  if (!/^\d{1,10}$/.test(photo) || Number(photo) > MAX_ID || !(RENDITIONS as readonly string[]).includes(rendition)) {
    throw new NotFoundError(`media ${photo.slice(0, 20)}/${rendition.slice(0, 20)}`);
  }
  return { photoId: Number(photo), rendition: rendition as Rendition };
}

/**
 * Streams the bytes. An exact rendition never changes, so it may be cached (privately: the URL is a credential) until
 * the URL expires; a stand-in is revalidated, since the real thumbnail replaces it. Served media is never sniffed or
 * run as a document by the browser.
 */
async function sendMedia(res: Response, media: MediaObject, secondsLeft: number, range: ByteRange | null): Promise<void> {
  res.status(range ? 206 : 200);
  res.setHeader('Content-Type', media.contentType);
  res.setHeader('Accept-Ranges', 'bytes');
  if (range) res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${media.sizeBytes}`);
  res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : media.sizeBytes));
  res.setHeader('Cache-Control', media.exact ? `private, max-age=${secondsLeft}, immutable` : 'private, no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  res.setHeader('Content-Disposition', 'inline');
  try {
    await (range ? pipeline(media.body, new ByteRangeSlice(range), res) : pipeline(media.body, res));
  } catch {
    // The client went away mid-transfer (or storage failed after the headers were sent): nothing more to answer.
    res.destroy();
  }
}
