import { describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import {
  CompositionError,
  DEFAULT_SUBGRAPH_URLS,
  composeSupergraph,
  readSubgraphSdl,
  readSupergraphSdl,
  subgraphSdlPath,
  supergraphPath,
} from '../src/index.js';
import { SERVICE_NAMES } from '@tributary/workflows';

describe('subgraph SDL files', () => {
  it.each(SERVICE_NAMES)('%s: the file the service loads exists and declares Federation 2 with @key', (name) => {
    expect(existsSync(subgraphSdlPath(name))).toBe(true);
    const sdl = readSubgraphSdl(name);
    expect(sdl).toMatch(/@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.\d+"/);
    expect(sdl).toMatch(/@key\(fields: "id"\)/);
  });

  it('refuses an unknown subgraph name', () => {
    expect(() => subgraphSdlPath('payments' as never)).toThrow(/Unknown subgraph/);
  });
});

describe('supergraph', () => {
  it('the checked-in schema/supergraph.graphql is what composing the subgraphs produces now (run `npm run compose` if this fails)', () => {
    expect(readSupergraphSdl(supergraphPath())).toBe(composeSupergraph());
  });

  it('composes every subgraph into the supergraph', () => {
    const sdl = composeSupergraph();
    for (const name of SERVICE_NAMES) {
      expect(sdl).toContain(`@join__graph(name: "${name}", url: "${DEFAULT_SUBGRAPH_URLS[name]}")`);
    }
    for (const field of ['bnplMerchant', 'cryptoAccount', 'photosProjects', 'photosTeam']) expect(sdl).toContain(field);
  });

  it('reports composition errors instead of writing a broken supergraph', () => {
    const collidingType = 'type Shared { value: String }\n';
    const sdls = {
      bnpl: `${readSubgraphSdl('bnpl')}\n${collidingType}extend type Query { bnplShared: Shared }\n`,
      crypto: `${readSubgraphSdl('crypto')}\n${collidingType}extend type Query { cryptoShared: Shared }\n`,
      photos: readSubgraphSdl('photos'),
    };
    let caught: unknown;
    try {
      composeSupergraph(DEFAULT_SUBGRAPH_URLS, sdls);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CompositionError);
    expect((caught as CompositionError).errors.join('\n')).toMatch(/Shared\.value/);
  });
});
