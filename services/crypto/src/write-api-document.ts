// `npm run openapi`: write schema/openapi/crypto.json from the route definitions.
import { writeFileSync } from 'node:fs';
import { serializeApiDocument } from '@tributary/kit';
import { openApiDocumentPath } from '@tributary/schema';
import { cryptoApiDocument } from './api-document.js';
import { SERVICE_NAME } from './service-name.js';

writeFileSync(openApiDocumentPath(SERVICE_NAME), serializeApiDocument(cryptoApiDocument()));
process.stdout.write(`wrote ${openApiDocumentPath(SERVICE_NAME)}\n`);
