// The wallet URI the hosted page's QR code holds: BIP21 for bitcoin and litecoin, EIP-681 for ethereum and polygon,
// carrying the exact outstanding amount (none on a donation link or when nothing is outstanding).
import { Amount } from '../../money/index.js';
import type { Chain } from '../assets/index.js';
import type { ChainNetwork } from '../receive-addresses/index.js';

/**
 * EIP-155 chain ids per network, so a wallet refuses to pay from the wrong chain: on testnet Ethereum Sepolia and
 * Polygon Amoy (the spec: "The deployment described uses a test network"); on regtest the local nodes' ids (anvil's
 * default 31337 for ethereum, 31338 for the polygon node: ids no public chain uses, so no wallet connected to a real
 * chain can pay a local address); on mainnet 1 and 137.
 */
export const EVM_CHAIN_IDS: Record<ChainNetwork, { ethereum: number; polygon: number }> = {
  testnet: { ethereum: 11155111, polygon: 80002 },
  regtest: { ethereum: 31337, polygon: 31338 },
  mainnet: { ethereum: 1, polygon: 137 },
};

/** BIP21 schemes (litecoin follows BIP21 with its own scheme). */
const BIP21_SCHEMES = { bitcoin: 'bitcoin', litecoin: 'litecoin' } as const;

/** Decimals of the chain's native coin (wei has 18). */
const EVM_DECIMALS = 18;

export interface PaymentUriInput {
  /** The network the request was made on (its address is that network's). */
  network: ChainNetwork;
  chain: Chain;
  address: string;
  /** What remains to pay; null (donation) or zero/negative leaves the amount out. */
  amountOutstanding: Amount | string | null;
}

/**
 * `bitcoin:<addr>?amount=<coins>` / `litecoin:<addr>?amount=<coins>` (BIP21: decimal coins, plain notation), or
 * `ethereum:<addr>@<chainId>?value=<wei>` (EIP-681: the native coin's amount as an integer in wei, from the
 * money module's exact 10^-18 units — never through a float).
 */
export function paymentUri({ network, chain, address, amountOutstanding }: PaymentUriInput): string {
  const amount = typeof amountOutstanding === 'string' ? Amount.fromDecimalString(amountOutstanding) : amountOutstanding;
  const due = amount && amount.isPositive() ? amount : null;
  switch (chain) {
    case 'bitcoin':
    case 'litecoin':
      return `${BIP21_SCHEMES[chain]}:${address}${due ? `?amount=${due.toString()}` : ''}`;
    case 'ethereum':
    case 'polygon':
      return `ethereum:${address}@${EVM_CHAIN_IDS[network][chain]}${due ? `?value=${due.toBaseUnits(EVM_DECIMALS).toString()}` : ''}`;
    default: {
      const unknown: never = chain;
      throw new Error(`No payment URI scheme for chain ${String(unknown)}`);
    }
  }
}
