// The dashboard login (spec "Authentication", dashboard token flow): password → a one-time code by e-mail → the code
// for a dashboard token (DT); and logout. Every refusal is the same AuthenticationError (401), whatever the reason:
// unknown e-mail, no password set, wrong password, no code, wrong, expired or exhausted code.
import { SERVICE_NAME } from '../../service-name.js';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthenticationError, parseInput, passwordMatches } from '@tributary/kit';
import type { Mailer } from '../../mail/index.js';
import { MerchantUser, type Merchant } from '../merchants/index.js';
import { DashboardToken } from './dashboard-token.entity.js';
import { dashboardTokenExpiry, generateDashboardToken, hashDashboardToken } from './dashboard-token-credentials.js';
import { loginInput, verifyLoginCodeInput } from './dashboard-login.validation.js';
import { LoginCode } from './login-code.entity.js';
import { LOGIN_CODE_MAX_ATTEMPTS, generateLoginCode, hashLoginCode, loginCodeExpiry, loginCodeMatches } from './login-code-credentials.js';
import { loginCodeMail } from './login-code-mail.js';
import type { BnplPrincipal } from './merchant-auth.service.js';
import type { VerifiedDashboardTokenCache } from './verified-dashboard-token-cache.js';

export interface LoginStarted {
  merchantUserId: string;
}

/** A signed-in user's new dashboard token: the only moment it is readable. */
export interface IssuedDashboardToken {
  token: string;
  expiresAt: Date;
  user: MerchantUser & { merchant: Merchant };
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Why a code was refused (the error's internal message; never shown to the client). */
type CodeRefusal = 'no code' | 'expired code' | 'wrong code' | 'wrong code, now exhausted';

export interface DashboardLoginOptions {
  mailer: Mailer;
  /** Injected in tests; the wall clock otherwise. */
  clock?: () => Date;
  /** The process's verified dashboard tokens (MerchantAuthService's), so a logout takes effect here at once. */
  verifiedDashboardTokens?: VerifiedDashboardTokenCache;
}

export class DashboardLoginService {
  private readonly mailer: Mailer;
  private readonly now: () => Date;
  private readonly verifiedDashboardTokens: VerifiedDashboardTokenCache | undefined;

  constructor(
    private readonly em: EntityManager,
    options: DashboardLoginOptions,
  ) {
    this.mailer = options.mailer;
    this.now = options.clock ?? (() => new Date());
    this.verifiedDashboardTokens = options.verifiedDashboardTokens;
  }

  /** Step 1: checks the password, then e-mails a new code (replacing any earlier one). */
  async login(body: unknown): Promise<LoginStarted> {
    const { email, password } = parseInput(loginInput, body);
    const user = await this.em.getRepository(MerchantUser).findByEmail(email);
    // One bcrypt comparison on every path (a dummy hash when there is no user or password), so timing tells nothing.
    const matches = await passwordMatches(password, user?.passwordHash, SERVICE_NAME);
    if (!user || !matches) throw new AuthenticationError(user ? 'wrong password' : 'unknown e-mail');
    const code = await this.replaceLoginCode(user);
    await this.mailer.send(loginCodeMail(user.email, code));
    return { merchantUserId: user.id };
  }

  /** Step 2: the code for a dashboard token. A wrong code costs one of its tries; the right one is used up. */
  async verify(body: unknown): Promise<IssuedDashboardToken> {
    const { email, code } = parseInput(verifyLoginCodeInput, body);
    const outcome = await this.em.transactional(async (tx) => {
      const user = await lockUser(tx, email);
      const refusal = await this.checkCode(tx, user, code);
      return refusal ? { refusal } : { issued: await this.issueToken(tx, user!) };
    });
    if ('refusal' in outcome) throw new AuthenticationError(`login code refused: ${outcome.refusal}`);
    return outcome.issued;
  }

  /**
   * Revokes the token the request was made with: from the next request on this process, within
   * VERIFIED_DASHBOARD_TOKEN_TTL_MS on any other.
   */
  async logout(principal: BnplPrincipal & { kind: 'dashboard' }): Promise<void> {
    await this.em.nativeUpdate(DashboardToken, { id: principal.tokenId, revokedAt: null }, { revokedAt: this.now() });
    this.verifiedDashboardTokens?.forget(principal.tokenId);
  }

  /** Stores a new code's salted hash in place of the user's earlier one (the user row lock orders concurrent logins). */
  private async replaceLoginCode(user: MerchantUser): Promise<string> {
    const code = generateLoginCode();
    const issuedAt = this.now();
    await this.em.transactional(async (tx) => {
      await tx.findOneOrFail(MerchantUser, { id: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      await tx.nativeDelete(LoginCode, { user: user.id });
      tx.create(LoginCode, { user: user.id, ...hashLoginCode(code), failedAttempts: 0, createdAt: issuedAt, expiresAt: loginCodeExpiry(issuedAt) });
      await tx.flush();
    });
    return code;
  }

  /**
   * Null when `code` is the user's current code (which is then deleted: single use); otherwise why not, after
   * counting a wrong try (the last allowed one deletes the code) or dropping an expired code.
   */
  private async checkCode(tx: EntityManager, user: MerchantUser | null, code: string): Promise<CodeRefusal | null> {
    // The same lookup and comparison with or without a user (the nil UUID matches no row), so the paths do the same work.
    const stored = await tx.findOne(LoginCode, { user: user?.id ?? NIL_UUID });
    const matches = loginCodeMatches(code, stored);
    if (!stored) return 'no code';
    if (stored.expiresAt <= this.now()) {
      tx.remove(stored);
      return 'expired code';
    }
    if (matches) {
      tx.remove(stored);
      return null;
    }
    stored.failedAttempts += 1;
    if (stored.failedAttempts < LOGIN_CODE_MAX_ATTEMPTS) return 'wrong code';
    tx.remove(stored);
    return 'wrong code, now exhausted';
  }

  private async issueToken(tx: EntityManager, user: MerchantUser): Promise<IssuedDashboardToken> {
    const token = generateDashboardToken();
    const issuedAt = this.now();
    const expiresAt = dashboardTokenExpiry(issuedAt);
    tx.create(DashboardToken, { user, tokenHash: hashDashboardToken(token), createdAt: issuedAt, expiresAt, revokedAt: null });
    await tx.populate(user, ['merchant']);
    return { token, expiresAt, user: user as MerchantUser & { merchant: Merchant } };
  }
}

/** The user of `email`, its row locked for the transaction (so concurrent verifications take turns), or null. */
function lockUser(tx: EntityManager, email: string): Promise<MerchantUser | null> {
  return tx.findOne(MerchantUser, { email }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}
