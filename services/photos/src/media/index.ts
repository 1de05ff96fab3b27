// Media tooling of the photos service: thumbnails of photos, probe and poster of videos (sharp, ffprobe, ffmpeg), and
// the Temporal activities that render them after an upload commits. Independent of the upload's content sniffing.
export { assertExecutable, assertMediaBinaries, mediaBinaryPath, MediaBinaryError, type MediaBinaryName } from './media-binaries.js';
export { UnrenderableMediaError } from './media-errors.js';
export { MAX_IMAGE_PIXELS, MAX_VIDEO_FRAME_PIXELS, VIDEO_DECODER_LIMITS, limitedImage } from './media-limits.js';
export { RENDITION_CONTENT_TYPE, THUMBNAIL_JPEG_QUALITY, THUMBNAIL_MAX_EDGE, renderPhotoThumbnail, type RenderedImage } from './thumbnail.js';
export { POSTER_FRAME_SECONDS, probeVideo, renderVideoPoster, type VideoProbe } from './video.js';
export { photoMediaActivities, UNRENDERABLE_MEDIA_FAILURE, type PhotoMediaActivityDeps } from './media-activities.js';
export { NO_RENDITIONS, type PhotoRenditions, type PhotoRenditionStore, type PhotoToRender } from './photo-rendition-store.js';
export { RENDITION_NAMES, renditionKey, type RenditionName } from './rendition-keys.js';
