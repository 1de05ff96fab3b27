// The spec's asset table. The integer ids are the create body's `asset_id` and never change (the migration
// inserts exactly these rows); confirmations here are the spec defaults and the floor an operator may not go below.

export const ASSET_CODES = ['BTC', 'ETH', 'LTC', 'MATIC'] as const;
export type AssetCode = (typeof ASSET_CODES)[number];

export const CHAINS = ['bitcoin', 'ethereum', 'litecoin', 'polygon'] as const;
export type Chain = (typeof CHAINS)[number];

export interface AssetDefinition {
  id: number;
  code: AssetCode;
  chain: Chain;
  decimals: number;
  defaultConfirmations: number;
}

export const ASSET_TABLE: readonly AssetDefinition[] = Object.freeze([
  { id: 1, code: 'BTC', chain: 'bitcoin', decimals: 8, defaultConfirmations: 2 },
  { id: 2, code: 'ETH', chain: 'ethereum', decimals: 18, defaultConfirmations: 12 },
  { id: 3, code: 'LTC', chain: 'litecoin', decimals: 8, defaultConfirmations: 6 },
  { id: 4, code: 'MATIC', chain: 'polygon', decimals: 18, defaultConfirmations: 30 },
] as const satisfies readonly AssetDefinition[]);

/** Highest confirmation threshold an operator may set (a typo guard: 1000 blocks is days on every chain). */
export const MAX_CONFIRMATIONS = 1000;

export function isAssetCode(value: string): value is AssetCode {
  return (ASSET_CODES as readonly string[]).includes(value);
}

export function assetDefinition(code: AssetCode): AssetDefinition {
  const definition = ASSET_TABLE.find((asset) => asset.code === code);
  if (!definition) throw new Error(`No asset definition for ${code}`);
  return definition;
}
