#!/usr/bin/env node
// Entry point of the photos operator commands: `npm run --silent admin -- photos <command> [--json]` runs this file.
import { main } from './run.js';

process.exitCode = await main(process.argv.slice(2));
