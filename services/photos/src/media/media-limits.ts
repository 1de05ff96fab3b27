// How large a picture the worker decodes (README, Decisions: "Media pixel limits"). A file states its picture's size in
// a few header bytes, and decoding costs memory per pixel (sharp 3–4 bytes, ffmpeg's 4:2:0 frames 1.5), so a small
// upload can declare an enormous canvas: a decompression bomb. Media beyond these limits is unrenderable.
import sharp, { type Sharp } from 'sharp';

/**
 * Most pixels (width × height) sharp decodes from one image: above the 108 MP of the largest phone sensors' full
 * resolution mode (12 000 × 9 000), far below sharp's default of 268 MP.
 */
export const MAX_IMAGE_PIXELS = 120_000_000;

/** Most pixels of a video frame ffprobe and ffmpeg decode: DCI 8K (8 192 × 4 320), the largest frame phones record. */
export const MAX_VIDEO_FRAME_PIXELS = 8192 * 4320;

/** ffprobe/ffmpeg input options: the decoder refuses a frame larger than MAX_VIDEO_FRAME_PIXELS (the tool then fails). */
export const VIDEO_DECODER_LIMITS: readonly string[] = ['-max_pixels', String(MAX_VIDEO_FRAME_PIXELS)];

/**
 * sharp on `input` within the limits: more than MAX_IMAGE_PIXELS is refused from the header, before decoding, and so
 * is a truncated file (failOn 'error': not rendered half grey). Every sharp call of the service starts here.
 */
export function limitedImage(input: string | Buffer): Sharp {
  return sharp(input, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS });
}
