import type { Request } from 'express';
import { subgraphContext, type SubgraphContext } from '@tributary/kit';
import type { AccountService, CryptoPrincipal } from './modules/accounts/account.service.js';

export interface CryptoServices {
  accounts: AccountService;
}

/** The context of crypto's resolvers (codegen's contextType, see schema/codegen.ts). */
export type CryptoContext = SubgraphContext<CryptoServices, CryptoPrincipal>;

export function createContext(accounts: AccountService, req: Request): CryptoContext {
  return subgraphContext({ accounts }, () => accounts.authenticate(req.headers.authorization));
}
