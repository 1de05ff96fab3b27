// Thumbnails of photos (and of video posters): EXIF orientation applied, fitted inside a small square, JPEG.
import { UnrenderableMediaError } from './media-errors.js';
import { limitedImage } from './media-limits.js';

/** Longest edge of a thumbnail or poster, pixels; smaller images are not enlarged (README, Decisions). */
export const THUMBNAIL_MAX_EDGE = 320;
/** JPEG quality of thumbnails and posters (mozjpeg): small files that still read well on a phone. */
export const THUMBNAIL_JPEG_QUALITY = 80;
/** Content type of every rendition. */
export const RENDITION_CONTENT_TYPE = 'image/jpeg';

export interface RenderedImage {
  jpeg: Buffer;
  /** The thumbnail's own size. */
  width: number;
  height: number;
  /** The source's size as displayed (EXIF orientation applied: a portrait photo stored sideways reads as portrait). */
  sourceWidth: number;
  sourceHeight: number;
}

/**
 * Renders the thumbnail of an image file or buffer (JPEG, PNG, WebP, and HEIF whose codec the bundled libvips decodes:
 * AV1 yes, HEVC no). Throws UnrenderableMediaError when the bytes cannot be decoded or declare more pixels than
 * MAX_IMAGE_PIXELS; anything else is unexpected.
 */
export async function renderPhotoThumbnail(input: string | Buffer): Promise<RenderedImage> {
  try {
    const image = limitedImage(input);
    const { autoOrient } = await image.metadata();
    const { data, info } = await image
      .rotate()
      .resize(THUMBNAIL_MAX_EDGE, THUMBNAIL_MAX_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: THUMBNAIL_JPEG_QUALITY, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height, sourceWidth: autoOrient.width, sourceHeight: autoOrient.height };
  } catch (error) {
    // A missing input file is the caller's fault, not the media's.
    if (error instanceof Error && error.message.startsWith('Input file is missing')) throw error;
    throw new UnrenderableMediaError(`image cannot be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
}
