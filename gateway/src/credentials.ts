// Which client header reaches which subgraph, and as what. Each service keeps its own credentials: a subgraph
// receives only its own header, renamed; the client's own Authorization and other services' headers never leave.
import type { IncomingHttpHeaders } from 'node:http';
import type { ServiceName } from '@tributary/workflows';

/** client header (lower case) -> header sent to that subgraph. */
export const CREDENTIAL_HEADERS: Readonly<Record<ServiceName, Readonly<Record<string, string>>>> = {
  bnpl: { 'x-bnpl-authorization': 'authorization', 'x-merchant-public-key': 'x-merchant-public-key' },
  crypto: { 'x-crypto-authorization': 'authorization' },
  photos: { 'x-photos-authorization': 'authorization' },
};

/** Every header name a subgraph request may carry a credential in; cleared before the subgraph's own are set. */
export const SUBGRAPH_CREDENTIAL_HEADER_NAMES = ['authorization', 'x-merchant-public-key', 'cookie'] as const;

export type ClientCredentials = Partial<Record<ServiceName, Record<string, string>>>;

/** Picks, per subgraph, the headers it may receive from a client request. */
export function credentialsFromClient(headers: IncomingHttpHeaders): ClientCredentials {
  const out: ClientCredentials = {};
  for (const [subgraph, mapping] of Object.entries(CREDENTIAL_HEADERS) as Array<[ServiceName, Record<string, string>]>) {
    for (const [clientHeader, subgraphHeader] of Object.entries(mapping)) {
      const value = headers[clientHeader];
      if (typeof value === 'string' && value !== '') (out[subgraph] ??= {})[subgraphHeader] = value;
    }
  }
  return out;
}
