// photos' credentials (spec "Authentication") as OpenAPI security schemes.
import type { ServiceApiDocumentOptions } from '@tributary/kit';

export const photosSecuritySchemes: ServiceApiDocumentOptions['securitySchemes'] = {
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'ph_<48 characters>',
    description:
      'Bearer token scoped to one team: `Authorization: Bearer <token>`. Office sessions (login without device_id) act with the role\'s permissions; device tokens (login with device_id) hold the single ability `capture`; integration tokens carry explicit abilities (403 `missing_scope` when one is lacking).',
  },
};

export const ACCESS_TOKEN_SECURITY = [{ accessToken: [] }];
