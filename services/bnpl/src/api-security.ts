// bnpl's credentials (spec "Authentication") as OpenAPI security schemes, shared by the modules' route definitions.
import type { ServiceApiDocumentOptions } from '@tributary/kit';

export const bnplSecuritySchemes: ServiceApiDocumentOptions['securitySchemes'] = {
  dashboardToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'dt_<48 characters>',
    description: 'Dashboard token (DT): `Authorization: Bearer <DASHBOARD_TOKEN>` on every /api/v1/merchant/* call except the login steps.',
  },
  secretKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_<environment>_<48 characters>',
    description: 'API key pair (KEYS), server to server: `Authorization: Bearer <SECRET_KEY>` together with `X-Merchant-Public-Key`.',
  },
  merchantPublicKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Merchant-Public-Key',
    description: 'The public key (`pk_<environment>_…`): with the secret key for KEYS routes, alone for PK routes.',
  },
};

/** DT routes. */
export const DASHBOARD_TOKEN_SECURITY = [{ dashboardToken: [] }];
/** KEYS routes: both headers together. */
export const API_KEY_PAIR_SECURITY = [{ secretKey: [], merchantPublicKey: [] }];
/** PK routes: the public key alone (reading and cancelling a widget session). */
export const PUBLIC_KEY_SECURITY = [{ merchantPublicKey: [] }];
