/**
 * Build step (`npm run build`): writes dist/workflow-bundle.js so workers start without webpack at run time.
 * Runs from dist/build/bundle-workflows.js, after tsc has emitted dist/workflows/.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundleWorkflows, PREBUILT_WORKFLOW_BUNDLE_FILE } from '../worker.js';

const { code } = await bundleWorkflows();
const target = fileURLToPath(new URL(`../${PREBUILT_WORKFLOW_BUNDLE_FILE}`, import.meta.url));
await writeFile(target, code);
console.error(`workflow bundle written: ${target} (${Math.round(code.length / 1024)} KiB)`);
