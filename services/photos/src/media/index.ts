// Media tooling of the photos service: thumbnails of photos, probe and poster of videos (sharp, ffprobe, ffmpeg), and
// the Temporal activities that render them after an upload commits. Independent of the upload's content sniffing.
export { assertMediaBinaries, mediaBinaryPath, MediaBinaryError, type MediaBinaryName } from './media-binaries.js';
export { UnrenderableMediaError } from './media-errors.js';
export { RENDITION_CONTENT_TYPE, THUMBNAIL_JPEG_QUALITY, THUMBNAIL_MAX_EDGE, renderPhotoThumbnail, type RenderedImage } from './thumbnail.js';
export { POSTER_FRAME_SECONDS, probeVideo, renderVideoPoster, type VideoProbe } from './video.js';
