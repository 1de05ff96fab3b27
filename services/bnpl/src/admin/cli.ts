#!/usr/bin/env node
// Entry point of the bnpl operator commands: `npm run --silent admin -- bnpl <command> [--json]` runs this file.
import { main } from './run.js';

process.exitCode = await main(process.argv.slice(2));
