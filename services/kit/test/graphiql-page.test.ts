// The GraphiQL page of a subgraph over real HTTP: what a browser gets on GET /graphql (headers, no inline code, the
// configuration block), the page's files, and every other request still reaching Apollo. Plus the rules for the demo
// credentials it may show (GRAPHIQL_DEMO_AUTHORIZATION, never in production).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'graphql';
import { z } from 'zod';
import {
  GRAPHIQL_ASSETS_PATH,
  createServiceApp,
  envelopeErrorFormat,
  graphiqlDemoAuthorization,
  graphiqlDemoAuthorizationEnv,
  graphqlLimitsEnv,
  loadConfig,
  mountSubgraph,
  startHttpServer,
  type GraphiqlExample,
  type RunningServer,
} from '../src/index.js';
import { capturingLogger } from './fixtures/capture-logs.js';

/** What Chromium sends when it navigates to a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const HOSTILE_TEXT = '</script><script>alert(1)</script><!--';
const examples: GraphiqlExample[] = [
  { query: 'query Hello {\n  hello\n}\n' },
  { query: `query Echo($text: String) {\n  echo(text: $text)\n}\n`, variables: { text: HOSTILE_TEXT } },
];
const headers = { Authorization: 'Bearer <token>' };

let server: RunningServer;
beforeAll(async () => {
  const logs = capturingLogger('silent');
  let stop: () => Promise<void> = async () => {};
  const app = await createServiceApp({
    service: 'kit-test',
    logger: logs.logger,
    errorFormat: envelopeErrorFormat,
    readiness: [],
    async configure(express) {
      stop = await mountSubgraph(express, {
        typeDefs: parse('type Query { hello: String! echo(text: String): String }'),
        resolvers: { Query: { hello: () => 'world', echo: (_: unknown, { text }: { text?: string }) => text ?? null } },
        context: async () => ({}),
        limits: loadConfig(graphqlLimitsEnv, {}),
        logger: logs.logger,
        graphiql: { title: 'Test <subgraph>', headers, examples },
      });
    },
  });
  server = await startHttpServer(app, { port: 0, host: '127.0.0.1', logger: logs.logger, onClose: [() => stop()] });
});

afterAll(async () => {
  await server?.close();
});

const getPage = () => fetch(`${server.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });

describe('GraphiQL page on GET /graphql', () => {
  it('answers a browser with the page under a self-only CSP whose style nonce is fresh per response', async () => {
    const [first, second] = [await getPage(), await getPage()];
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    expect(first.headers.get('cache-control')).toBe('no-store');
    const nonceOf = (csp: string | null) => /'nonce-([A-Za-z0-9+/]+=*)'/.exec(csp ?? '')?.[1];
    const csp = first.headers.get('content-security-policy');
    const nonce = nonceOf(csp);
    expect(csp).toBe(
      `default-src 'none'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(nonce).toHaveLength(24);
    expect(nonceOf(second.headers.get('content-security-policy'))).not.toBe(nonce);
    const html = await first.text();
    // The nonce rides only on the page's own script, which hands it to GraphiQL.
    expect(html.match(/nonce="[^"]*"/g)).toEqual([`nonce="${nonce}"`]);
    expect(html).toContain(`<script src="${GRAPHIQL_ASSETS_PATH}/graphiql-page.js" nonce="${nonce}"></script>`);
    await second.text();
  });

  it('has no inline script or style and loads nothing from another origin', async () => {
    const html = await (await getPage()).text();
    expect(html).toContain('<title>Test &lt;subgraph&gt;</title>');
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toHaveLength(5);
    for (const tag of scripts) expect(tag).toMatch(/^<script (src="\/graphiql\/assets\/[a-z.-]+"( nonce="[^"]+")?|type="application\/json" id="graphiql-config")>$/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=|https?:\/\//i);
  });

  it('carries its configuration as JSON that cannot close its script block', async () => {
    const html = await (await getPage()).text();
    expect(html).not.toContain(HOSTILE_TEXT);
    const block = /<script type="application\/json" id="graphiql-config">([^<]*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(block!)).toEqual({ endpoint: '/graphql', headers, examples });
  });

  it('serves every file the page names, with its content type, and nothing else under the assets path', async () => {
    const html = await (await getPage()).text();
    const files = [...html.matchAll(/(?:src|href)="(\/graphiql\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(files.sort()).toEqual(
      ['graphiql-page.css', 'graphiql-page.js', 'graphiql.min.css', 'graphiql.min.js', 'react-dom.production.min.js', 'react.production.min.js'].map(
        (name) => `${GRAPHIQL_ASSETS_PATH}/${name}`,
      ),
    );
    for (const file of files) {
      const res = await fetch(`${server.url}${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await res.text()).length).toBeGreaterThan(50);
    }
    for (const path of ['nope.js', 'package.json', '..%2Fpackage.json', 'graphiql.min.js.map']) {
      const res = await fetch(`${server.url}${GRAPHIQL_ASSETS_PATH}/${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it('leaves GET asking for JSON, and POST, to Apollo (whose own landing page is off)', async () => {
    const json = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ hello }')}`, {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-security-policy')).toBeNull();
    expect(await json.json()).toEqual({ data: { hello: 'world' } });

    // No Accept at all (curl's */*) is not a browser either: Apollo answers the GET without a query.
    const bare = await fetch(`${server.url}/graphql`, { headers: { accept: '*/*', 'apollo-require-preflight': 'true' } });
    expect(bare.status).toBe(400);
    expect(bare.headers.get('content-type')).not.toMatch(/html/);
    await bare.text();

    const post = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: BROWSER_ACCEPT }, body: JSON.stringify({ query: '{ hello }' }) });
    expect(await post.json()).toEqual({ data: { hello: 'world' } });
  });
});

describe('GRAPHIQL_DEMO_AUTHORIZATION', () => {
  const env = z.object({ GRAPHIQL_DEMO_AUTHORIZATION: graphiqlDemoAuthorizationEnv.optional() });
  const SECRET = 'Bearer ck_demo.secret-value';

  it('maps service names to Authorization values', () => {
    expect(loadConfig(env, { GRAPHIQL_DEMO_AUTHORIZATION: JSON.stringify({ crypto: SECRET, photos: 'Bearer ph_x' }) })).toEqual({
      GRAPHIQL_DEMO_AUTHORIZATION: { crypto: SECRET, photos: 'Bearer ph_x' },
    });
    expect(loadConfig(env, {})).toEqual({});
  });

  it.each([
    ['not JSON', `{crypto: ${SECRET}`],
    ['not an object', JSON.stringify([SECRET])],
    ['an unknown service', JSON.stringify({ shop: SECRET })],
    ['a line break', JSON.stringify({ crypto: `${SECRET}\r\nX-Evil: 1` })],
    ['a non-string value', JSON.stringify({ crypto: 42 })],
  ])('refuses %s with one message that never repeats the value', (_case, value) => {
    let message = '';
    try {
      loadConfig(env, { GRAPHIQL_DEMO_AUTHORIZATION: value });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'Invalid configuration: GRAPHIQL_DEMO_AUTHORIZATION must be a JSON object mapping bnpl, crypto or photos to an Authorization value (visible ASCII, no line breaks)',
    );
    expect(message).not.toContain('secret-value');
  });

  it('is shown outside production, ignored in production with a warning that names the variable only', () => {
    const demo = { crypto: SECRET };
    expect(graphiqlDemoAuthorization({ GRAPHIQL_DEMO_AUTHORIZATION: demo })).toEqual(demo);
    expect(graphiqlDemoAuthorization({ NODE_ENV: 'development', GRAPHIQL_DEMO_AUTHORIZATION: demo })).toEqual(demo);
    const logs = capturingLogger('info');
    expect(graphiqlDemoAuthorization({ NODE_ENV: 'production', GRAPHIQL_DEMO_AUTHORIZATION: demo }, logs.logger)).toEqual({});
    expect(logs.lines()).toEqual([expect.objectContaining({ level: 40, msg: expect.stringContaining('GRAPHIQL_DEMO_AUTHORIZATION is ignored') })]);
    expect(logs.text()).not.toContain('secret-value');
    expect(graphiqlDemoAuthorization({ NODE_ENV: 'production' }, logs.logger)).toEqual({});
    expect(logs.lines()).toHaveLength(1);
  });
});
