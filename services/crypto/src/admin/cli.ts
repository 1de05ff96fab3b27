#!/usr/bin/env node
// Entry point of the crypto operator commands: `npm run --silent admin -- crypto <command> [--json]` runs this file.
import { main } from './run.js';

process.exitCode = await main(process.argv.slice(2));
