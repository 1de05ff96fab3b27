// ffmpeg and ffprobe come from npm (@ffmpeg-installer/ffmpeg, @ffprobe-installer/ffprobe), which pick the binary of
// this platform from an optional per-platform package. npm 11 runs those packages' postinstall (`chmod u+x`) only
// because the root package.json's allowScripts lists them; an install without it leaves binaries without run bits.
// So the worker checks both binaries once at startup and fails with the fix named, instead of failing every video.
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export type MediaBinaryName = 'ffmpeg' | 'ffprobe';

const INSTALLER_PACKAGES: Record<MediaBinaryName, string> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};

/** A binary the media tooling needs is missing or not executable; the message names the path and the fix. */
export class MediaBinaryError extends Error {
  override name = 'MediaBinaryError';
}

const resolved = new Map<MediaBinaryName, string>();

/**
 * Absolute path of the executable `name` from its installer package, checked to be executable. Throws a
 * MediaBinaryError naming the fix otherwise. (The installer packages throw bare strings for an unsupported platform.)
 */
export function mediaBinaryPath(name: MediaBinaryName): string {
  const known = resolved.get(name);
  if (known) return known;
  const pkg = INSTALLER_PACKAGES[name];
  let path: string;
  try {
    path = (require(pkg) as { path: string }).path;
  } catch (error) {
    throw new MediaBinaryError(`${name}: ${pkg} has no binary for ${process.platform}-${process.arch} (${String(error instanceof Error ? error.message : error)})`);
  }
  assertExecutable(name, path);
  resolved.set(name, path);
  return path;
}

/** Throws a MediaBinaryError naming the fix when `path` cannot be executed by this process. */
export function assertExecutable(name: MediaBinaryName, path: string): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    const platformPackage = `${INSTALLER_PACKAGES[name].replace(/\/[^/]+$/, '')}/${process.platform}-${process.arch}`;
    throw new MediaBinaryError(
      `${name} at ${path} is not executable: its package's postinstall did not run (npm allowScripts in the root package.json). ` +
        `Run \`npm rebuild ${platformPackage}\` or \`chmod u+x ${path}\`.`,
    );
  }
}

/** Both binaries' paths; throws a MediaBinaryError at once when either is unusable (called when the worker starts). */
export function assertMediaBinaries(): Record<MediaBinaryName, string> {
  return { ffmpeg: mediaBinaryPath('ffmpeg'), ffprobe: mediaBinaryPath('ffprobe') };
}
