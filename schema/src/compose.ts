// `npm run compose`: regenerate schema/supergraph.graphql from the subgraph SDL files.
import { writeFileSync } from 'node:fs';
import { CompositionError, composeSupergraph, supergraphPath } from './index.js';

try {
  writeFileSync(supergraphPath(), composeSupergraph());
  process.stdout.write(`wrote ${supergraphPath()}\n`);
} catch (error) {
  console.error(error instanceof CompositionError ? error.message : error);
  process.exitCode = 1;
}
