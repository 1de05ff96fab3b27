import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { injectTraceHeaders } from '@tributary/kit';
import type { ServiceName } from '@tributary/workflows';
import { SUBGRAPH_CREDENTIAL_HEADER_NAMES, type ClientCredentials } from './credentials.js';

export interface GatewayContext {
  credentials: ClientCredentials;
  requestId: string;
}

/** A subgraph data source that forwards only that subgraph's own credentials (as Authorization etc.) and the trace context. */
export class CredentialForwardingDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(private readonly subgraph: ServiceName, url: string) {
    super({ url });
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    const headers = options.request.http?.headers;
    if (!headers) return;
    // Whatever got there, no credential leaves unless it is this subgraph's own.
    for (const name of SUBGRAPH_CREDENTIAL_HEADER_NAMES) headers.delete(name);
    // W3C traceparent of the active span (Apollo's fetch span), so the subgraph's spans join the gateway's trace.
    injectTraceHeaders(headers);
    // The request-kind enum is not exported by @apollo/gateway; its value is part of the public type.
    if (options.kind !== 'incoming operation') return;
    const context = options.context as Partial<GatewayContext>;
    for (const [name, value] of Object.entries(context.credentials?.[this.subgraph] ?? {})) headers.set(name, value);
    if (context.requestId) headers.set('x-request-id', context.requestId);
  }
}
