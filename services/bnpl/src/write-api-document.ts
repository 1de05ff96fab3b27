// `npm run openapi`: write schema/openapi/bnpl.json from the route definitions.
import { writeFileSync } from 'node:fs';
import { serializeApiDocument } from '@tributary/kit';
import { openApiDocumentPath } from '@tributary/schema';
import { bnplApiDocument } from './api-document.js';
import { SERVICE_NAME } from './service-name.js';

writeFileSync(openApiDocumentPath(SERVICE_NAME), serializeApiDocument(bnplApiDocument()));
process.stdout.write(`wrote ${openApiDocumentPath(SERVICE_NAME)}\n`);
