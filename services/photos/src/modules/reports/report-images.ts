// A photo at print size for the report: EXIF orientation applied, fitted inside PRINT_MAX_EDGE (about 250 dpi across
// an A4 page's printable width), JPEG. Smaller photos are not enlarged.
import { UnrenderableMediaError, limitedImage } from '../../media/index.js';

export const PRINT_MAX_EDGE = 2000;
export const PRINT_JPEG_QUALITY = 85;

export interface PrintImage {
  jpeg: Buffer;
  width: number;
  height: number;
}

/**
 * Throws UnrenderableMediaError when the bytes cannot be decoded (e.g. HEVC-coded HEIC, which libvips lacks) or declare
 * more pixels than MAX_IMAGE_PIXELS.
 */
export async function printImage(input: string | Buffer): Promise<PrintImage> {
  try {
    const { data, info } = await limitedImage(input)
      .rotate()
      .resize(PRINT_MAX_EDGE, PRINT_MAX_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: PRINT_JPEG_QUALITY, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('Input file is missing')) throw error;
    throw new UnrenderableMediaError(`image cannot be decoded: ${error instanceof Error ? error.message : String(error)}`);
  }
}
