// `npm run openapi`: write schema/openapi/photos.json from the route definitions.
import { writeFileSync } from 'node:fs';
import { serializeApiDocument } from '@tributary/kit';
import { openApiDocumentPath } from '@tributary/schema';
import { photosApiDocument } from './api-document.js';

writeFileSync(openApiDocumentPath('photos'), serializeApiDocument(photosApiDocument()));
process.stdout.write(`wrote ${openApiDocumentPath('photos')}\n`);
