import { defineEntity, p } from '@mikro-orm/core';
import { CHAINS } from '../assets/index.js';

/**
 * A block a chain's scan read (height and hash), kept for the last SCANNED_BLOCKS_KEPT blocks: when a reorg replaces
 * blocks, the scan walks back through these to the last block the node still has, where the chains forked.
 */
export const ScannedBlockSchema = defineEntity({
  name: 'ScannedBlock',
  tableName: 'scanned_blocks',
  properties: {
    chain: p.enum(CHAINS).primary(),
    height: p.integer().primary(),
    hash: p.string().length(128),
  },
});

export class ScannedBlock extends ScannedBlockSchema.class {}
ScannedBlockSchema.setClass(ScannedBlock);
