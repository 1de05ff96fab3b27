import { defineEntity, p } from '@mikro-orm/core';
import { CHAINS } from '../assets/index.js';
import { CHAIN_NETWORKS } from '../receive-addresses/index.js';

/**
 * Where a chain's block scan stands: the last block scanned (height and hash, so the next block's parent can be
 * checked), the node's tip when last asked, and the last error. One row per chain.
 */
export const ChainCursorSchema = defineEntity({
  name: 'ChainCursor',
  tableName: 'chain_cursors',
  properties: {
    chain: p.enum(CHAINS).primary(),
    network: p.enum(CHAIN_NETWORKS),
    height: p.integer(),
    blockHash: p.string().length(128),
    tipHeight: p.integer(),
    lastError: p.text().nullable(),
    updatedAt: p.datetime(),
  },
});

export class ChainCursor extends ChainCursorSchema.class {}
ChainCursorSchema.setClass(ChainCursor);
