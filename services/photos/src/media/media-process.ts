// Runs ffmpeg/ffprobe with a time limit and tells a decoder's refusal (the media is bad: never retried) from trouble
// of the machine (killed, timed out, binary missing: worth a retry).
import { execFile } from 'node:child_process';
import { mediaBinaryPath, type MediaBinaryName } from './media-binaries.js';
import { UnrenderableMediaError } from './media-errors.js';

/** A probe or a one-frame decode of a phone video takes well under a second; this only stops a hung process. */
export const MEDIA_PROCESS_TIMEOUT_MS = 120_000;
/** Largest output kept (one decoded frame as PNG, or ffprobe's JSON). */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export async function runMediaBinary(name: MediaBinaryName, args: string[]): Promise<Buffer> {
  const binary = mediaBinaryPath(name);
  return new Promise((resolve, reject) => {
    execFile(binary, args, { encoding: 'buffer', timeout: MEDIA_PROCESS_TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      // A numeric exit code means the tool ran and refused the input; a signal (timeout, OOM kill) or a spawn error does not.
      const refused = typeof error.code === 'number' && !error.killed && error.signal == null;
      const detail = lastLine(stderr) || error.message;
      reject(refused ? new UnrenderableMediaError(`${name}: ${detail}`) : new Error(`${name} failed: ${detail}`, { cause: error }));
    });
  });
}

function lastLine(output: Buffer): string {
  return output.toString('utf8').trim().split('\n').at(-1)?.trim() ?? '';
}
