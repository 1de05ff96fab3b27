// `npm run reset`: wipes .stack/ (databases, Temporal history, logs, test leftovers) but keeps
// .stack/tools, the downloaded Temporal binaries, so the next start does not download them again.
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { StackError } from './errors.js';
import { runningStartPid } from './lifecycle.js';
import { stackPaths } from './paths.js';

export async function reset(): Promise<number> {
  const paths = stackPaths();
  const running = runningStartPid(paths.lockFile);
  if (running) {
    throw new StackError(`\`npm start\` is running (pid ${running}); its data cannot be wiped under it`, 'stop it first (Ctrl-C), then run `npm run reset`');
  }
  if (!existsSync(paths.stack)) {
    console.log('[stack] nothing to reset (.stack/ does not exist)');
    return 0;
  }
  const keep = new Set([path.basename(paths.tools)]);
  const removed: string[] = [];
  for (const entry of readdirSync(paths.stack)) {
    if (keep.has(entry)) continue;
    await rm(path.join(paths.stack, entry), { recursive: true, force: true });
    removed.push(`.stack/${entry}`);
  }
  console.log(removed.length ? `[stack] removed ${removed.join(', ')} (kept .stack/tools)` : '[stack] nothing to reset (only .stack/tools)');
  return 0;
}
