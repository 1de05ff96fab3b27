import type { Request } from 'express';
import type { AccountService, CryptoPrincipal } from './modules/accounts/account.service.js';

export interface CryptoContext {
  accounts: AccountService;
  /** Authenticates on first use (memoized); rejects with the one authentication error. */
  principal: () => Promise<CryptoPrincipal>;
}

export function createContext(accounts: AccountService, req: Request): CryptoContext {
  let principal: Promise<CryptoPrincipal> | undefined;
  return {
    accounts,
    principal: () => (principal ??= accounts.authenticate(req.headers.authorization)),
  };
}
