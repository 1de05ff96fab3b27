#!/usr/bin/env node
// Entry points the stack runner (and operators) use: migrate | seed | serve | worker (the kit's runServiceCli).
import { runServiceCli } from '@tributary/kit/runtime';
import { bnplService } from './service.js';

runServiceCli(bnplService);
