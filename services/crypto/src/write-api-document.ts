// `npm run openapi`: write schema/openapi/crypto.json from the route definitions.
import { writeFileSync } from 'node:fs';
import { serializeApiDocument } from '@tributary/kit';
import { openApiDocumentPath } from '@tributary/schema';
import { cryptoApiDocument } from './api-document.js';

writeFileSync(openApiDocumentPath('crypto'), serializeApiDocument(cryptoApiDocument()));
process.stdout.write(`wrote ${openApiDocumentPath('crypto')}\n`);
