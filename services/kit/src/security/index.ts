// What the services issue and check as credentials. The rule for every credential:
// - A credential has a public part (a public key, a key id) or is itself high-entropy random text (tokens, secrets of
//   48 characters): it is looked up first by that public part, or by its SHA-256 digest, in one indexed read; nothing
//   expensive runs for a credential that is missing, malformed or unknown (refused at the cost of that read or none).
// - Random secrets are stored as SHA-256 digests (tokens.ts) and compared in constant time (hexDigestsEqual).
// - Passwords, which people choose, are stored with bcrypt (passwords.ts) and compared only on the login routes, which
//   are rate limited per e-mail and per client IP. A secret a spec requires as a bcrypt hash (bnpl's secret keys) is
//   compared only for a known public part. Every bcrypt comparison is counted (slowHashComparisons).
// - Failed authentications spend a per-client budget (authenticationFailureLimit) before anything is looked up.
export * from './tokens.js';
export * from './token-format.js';
export * from './secret-box.js';
export * from './passwords.js';
