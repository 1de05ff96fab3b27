// The one error that says "this media can never be rendered": a retry would read the same bytes and fail the same way,
// so the activity turns it into a non-retryable failure and the photo is recorded without renditions.

/** The bytes cannot be decoded (corrupt or truncated, or a codec the bundled decoders lack, e.g. HEVC-coded HEIC). */
export class UnrenderableMediaError extends Error {
  override name = 'UnrenderableMediaError';
}
