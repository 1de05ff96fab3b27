// Videos: duration and displayed size (ffprobe), and a poster frame rendered like a photo's thumbnail (ffmpeg + sharp).
import { runMediaBinary } from './media-process.js';
import { UnrenderableMediaError } from './media-errors.js';
import { VIDEO_DECODER_LIMITS } from './media-limits.js';
import { renderPhotoThumbnail, type RenderedImage } from './thumbnail.js';

/** The poster is the frame at this time, or the first frame of a video shorter than twice this (README, Decisions). */
export const POSTER_FRAME_SECONDS = 1;

export interface VideoProbe {
  /** Null when the container states no duration. */
  durationSeconds: number | null;
  /** Displayed size (a rotation tag of ±90° swaps the stored size); null without a video stream. */
  width: number | null;
  height: number | null;
}

interface FfprobeOutput {
  format?: { duration?: string };
  streams?: Array<{
    codec_type?: string;
    width?: number;
    height?: number;
    duration?: string;
    tags?: { rotate?: string };
    side_data_list?: Array<{ rotation?: number }>;
  }>;
}

/**
 * Duration and size of the video at `path`; throws UnrenderableMediaError when ffprobe cannot read it, or when its
 * frames are larger than MAX_VIDEO_FRAME_PIXELS.
 */
export async function probeVideo(path: string): Promise<VideoProbe> {
  // ffprobe decodes a frame or two to describe the stream: limited like ffmpeg's decode.
  const output = await runMediaBinary('ffprobe', ['-v', 'error', ...VIDEO_DECODER_LIMITS, '-print_format', 'json', '-show_format', '-show_streams', '-i', path]);
  let parsed: FfprobeOutput;
  try {
    parsed = JSON.parse(output.toString('utf8')) as FfprobeOutput;
  } catch {
    throw new UnrenderableMediaError('ffprobe: unreadable output');
  }
  const video = parsed.streams?.find((s) => s.codec_type === 'video');
  if (!parsed.format && !video) throw new UnrenderableMediaError('ffprobe: no media streams');
  const durationSeconds = positiveNumber(parsed.format?.duration) ?? positiveNumber(video?.duration);
  if (!video?.width || !video.height) return { durationSeconds, width: null, height: null };
  const quarterTurn = Math.abs(rotationDegrees(video)) % 180 === 90;
  return { durationSeconds, width: quarterTurn ? video.height : video.width, height: quarterTurn ? video.width : video.height };
}

/**
 * The poster of the video at `path`: one frame (at POSTER_FRAME_SECONDS, or the first frame of a short video) decoded
 * by ffmpeg, which applies the rotation tag, then rendered by renderPhotoThumbnail (same size and format).
 */
export async function renderVideoPoster(path: string, durationSeconds: number | null): Promise<RenderedImage> {
  const at = durationSeconds !== null && durationSeconds >= 2 * POSTER_FRAME_SECONDS ? POSTER_FRAME_SECONDS : 0;
  let frame = await decodeFrame(path, at);
  // A stated duration can be longer than the stream that has frames; fall back to the first frame.
  if (frame.length === 0 && at > 0) frame = await decodeFrame(path, 0);
  if (frame.length === 0) throw new UnrenderableMediaError('ffmpeg: the video has no decodable frame');
  return renderPhotoThumbnail(frame);
}

/** One frame as PNG (lossless: the only lossy step is the thumbnail's JPEG), or an empty buffer when there is none. */
function decodeFrame(path: string, atSeconds: number): Promise<Buffer> {
  return runMediaBinary('ffmpeg', ['-v', 'error', '-nostdin', ...VIDEO_DECODER_LIMITS, '-ss', String(atSeconds), '-i', path, '-an', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1']);
}

function rotationDegrees(stream: NonNullable<FfprobeOutput['streams']>[number]): number {
  const fromSideData = stream.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  if (fromSideData !== undefined) return fromSideData;
  const fromTag = Number(stream.tags?.rotate);
  return Number.isFinite(fromTag) ? fromTag : 0;
}

function positiveNumber(value: string | undefined): number | null {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : null;
}
