// Renditions live next to their original: `teams/7/photos/<uuid>/original` → `teams/7/photos/<uuid>/thumb.jpg`. Fixed
// names make rendering idempotent (a retry overwrites the same keys) and deleting a photo's folder deletes them all.

export const RENDITION_NAMES = {
  /** The photo's thumbnail. */
  thumb: 'thumb.jpg',
  /** The video's poster frame (same size and format as a thumbnail). */
  poster: 'poster.jpg',
} as const;

export type RenditionName = keyof typeof RENDITION_NAMES;

/** Key of the named rendition next to `originalKey` (a server-made key with a folder; anything else is a bug). */
export function renditionKey(originalKey: string, rendition: RenditionName): string {
  const slash = originalKey.lastIndexOf('/');
  if (slash <= 0 || slash === originalKey.length - 1) throw new Error(`renditionKey: ${JSON.stringify(originalKey)} is not a key inside a folder`);
  return `${originalKey.slice(0, slash + 1)}${RENDITION_NAMES[rendition]}`;
}
