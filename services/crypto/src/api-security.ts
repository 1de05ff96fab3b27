// crypto's credentials (spec "Authentication") as OpenAPI security schemes.
import type { ServiceApiDocumentOptions } from '@tributary/kit';

export const cryptoSecuritySchemes: ServiceApiDocumentOptions['securitySchemes'] = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: '<KEY_ID>.<SECRET>',
    description:
      'Merchant API key: `Authorization: Bearer <KEY_ID>.<SECRET>` (key id: fixed prefix + 24 characters; secret: 48 characters). A missing, malformed or revoked key, or a suspended account, all answer 401 `{"message":"Invalid API credentials."}`.',
  },
};

export const API_KEY_SECURITY = [{ apiKey: [] }];
