// Benchmark `gateway-query` (npm run bench -- gateway-query): the gateway's CryptoPaymentRequests dashboard query (a
// page of 10 payment requests with their payments and webhook deliveries, the GraphiQL tab) through the gateway
// (`node gateway/dist/main.js` over the checked-in supergraph, in its own process) against the same query sent
// straight at crypto's subgraph, side by side at the same concurrency. Both answer from the same `crypto serve` on
// one seeded database. Target (issue 13 §1): the gateway's p50 at most 1.25× the subgraph's.
import { fileURLToPath } from 'node:url';
import {
  benchLog,
  benchmarkResult,
  benchSettings,
  httpLoadRunner,
  measureSideBySide,
  runBenchmark,
  seededServiceDatabase,
  startBenchServer,
  startServiceServe,
  type Target,
} from '@tributary/kit/bench';
import { SUBGRAPH_PATH } from '@tributary/kit';
import { GATEWAY_GRAPHIQL_EXAMPLES } from '../graphiql.js';

const NAME = 'gateway-query';
const TARGET: Target = { maxP50Ratio: 1.25 };
const OPERATION = 'CryptoPaymentRequests';
/** Payment requests on the page the query reads (it asks for 10 per page). */
const PAYMENT_REQUESTS = 25;
/** The merchant API's own path for creating them (crypto's REST API). */
const PAYMENT_REQUESTS_PATH = '/api/merchant/v1/payment-requests';
/** Nothing listens here: the query touches crypto only, and the other subgraphs must not be reached. */
const CLOSED_SUBGRAPH = 'http://127.0.0.1:9/graphql';

const gatewayScript = fileURLToPath(new URL('../main.js', import.meta.url));

function dashboardQuery(): { query: string; variables: Record<string, unknown>; operationName: string } {
  const example = GATEWAY_GRAPHIQL_EXAMPLES.find(({ query }) => query.includes(`query ${OPERATION}`));
  if (!example) throw new Error(`the gateway's GraphiQL examples have no ${OPERATION} query`);
  return { query: example.query, variables: example.variables ?? {}, operationName: OPERATION };
}

async function createPaymentRequests(cryptoUrl: string, apiKey: string): Promise<void> {
  for (let i = 0; i < PAYMENT_REQUESTS; i += 1) {
    const response = await fetch(`${cryptoUrl}${PAYMENT_REQUESTS_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ asset_id: 1, title: `Order ${i}`, amount: '0.015', reference: `bench-${i}` }),
    });
    if (response.status !== 201) throw new Error(`creating a payment request answered ${response.status}: ${await response.text()}`);
  }
}

runBenchmark(async () => {
  const settings = benchSettings();
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const { db, credentials } = await seededServiceDatabase('crypto');
    cleanup.unshift(() => db.drop());
    const apiKey = String(credentials.api_key);
    // The merchant budget (120 a minute by the spec) would refuse the load; this measures the query, not the limiter.
    const crypto = await startServiceServe('crypto', db.url, {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      CRYPTO_MERCHANT_RATE_LIMIT: '1000000',
      CRYPTO_RATE_LIMIT_WINDOW_SECONDS: '1',
    });
    cleanup.unshift(() => crypto.stop());
    await createPaymentRequests(crypto.url, apiKey);
    const gateway = await startBenchServer({
      name: 'gateway',
      script: gatewayScript,
      readyPath: '/healthz',
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        CRYPTO_SUBGRAPH_URL: `${crypto.url}${SUBGRAPH_PATH}`,
        BNPL_SUBGRAPH_URL: CLOSED_SUBGRAPH,
        PHOTOS_SUBGRAPH_URL: CLOSED_SUBGRAPH,
      },
    });
    cleanup.unshift(() => gateway.stop());
    benchLog(`gateway ${gateway.url} (log ${gateway.logFile}) over crypto ${crypto.url} (log ${crypto.logFile})`);

    const body = dashboardQuery();
    const measured = await measureSideBySide(
      {
        ours: httpLoadRunner('gateway', { url: `${gateway.url}/graphql`, headers: { 'x-crypto-authorization': `Bearer ${apiKey}` }, body }, [gateway, crypto]),
        baseline: httpLoadRunner('crypto subgraph', { url: `${crypto.url}${SUBGRAPH_PATH}`, headers: { authorization: `Bearer ${apiKey}` }, body }, [crypto]),
      },
      settings,
      benchLog,
    );
    return benchmarkResult({
      name: NAME,
      description: `the ${OPERATION} dashboard query (10 of ${PAYMENT_REQUESTS} payment requests with payments and deliveries) through the gateway vs straight at crypto's subgraph`,
      settings,
      measured,
      target: TARGET,
      notes: [
        'ours: `node gateway/dist/main.js` (NODE_ENV=production, info logs to a file) over the checked-in supergraph, forwarding X-Crypto-Authorization; the query plan is cached after the first request.',
        'baseline: the same query, variables and credential sent to `crypto serve` /graphql directly (the same process the gateway forwards to).',
        'cpu ms/op counts the gateway and crypto together for ours, crypto alone for the baseline.',
        'crypto\'s merchant rate limit is raised for the run (1,000,000 a second).',
      ],
    });
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
