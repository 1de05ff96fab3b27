// HTTP load with autocannon: a fixed number of keep-alive connections, each sending its next request as soon as the
// previous response arrives (closed loop), for a fixed time. Latencies are recorded per response, so percentiles are
// exact and runs combine (autocannon's own histogram has no p95 and cannot be merged across runs).
import autocannon from 'autocannon';
import { combineRuns, type Measurement, type RawRun } from './stats.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The request a load sends, again and again. */
export interface HttpLoad {
  /** Full URL, path included. */
  url: string;
  method?: HttpMethod;
  headers?: Record<string, string>;
  /** One body for every request: a string as is, anything else as JSON. */
  body?: unknown;
  /** A fresh body per request (e.g. a unique order reference); `sequence` counts from 0 across the load's runs. */
  bodyFor?: (sequence: number) => unknown;
}

export interface MeasureHttpOptions extends HttpLoad {
  /** Concurrent keep-alive connections. */
  connections: number;
  durationSeconds: number;
  /** Load sent first and discarded (JIT, pools and caches warm up). */
  warmupSeconds?: number;
  /** Name in results and messages. Default: the URL. */
  label?: string;
}

/** Thrown when the load's request is refused before any load is sent (a broken benchmark, not a slow service). */
export class BenchRequestRefused extends Error {
  constructor(label: string, status: number, body: string) {
    super(`${label}: the benchmark's request was answered ${status}, not 2xx: ${body.slice(0, 500)}`);
    this.name = 'BenchRequestRefused';
  }
}

const encode = (body: unknown): string | undefined => (body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));

interface PreparedLoad {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  nextBody: () => string | undefined;
}

function prepare(load: HttpLoad): PreparedLoad {
  const method = load.method ?? (load.body !== undefined || load.bodyFor ? 'POST' : 'GET');
  const jsonBody = (load.body !== undefined && typeof load.body !== 'string') || load.bodyFor !== undefined;
  const headers = { ...(jsonBody ? { 'content-type': 'application/json' } : {}), ...load.headers };
  let sequence = 0;
  const { bodyFor } = load;
  const staticBody = encode(load.body);
  const nextBody = bodyFor ? () => encode(bodyFor(sequence++)) : () => staticBody;
  return { url: load.url, method, headers, nextBody };
}

/** Sends one request of the load and throws BenchRequestRefused unless it is answered 2xx. */
async function probe(label: string, load: PreparedLoad): Promise<void> {
  const body = load.nextBody();
  const response = await fetch(load.url, { method: load.method, headers: load.headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  if (response.status < 200 || response.status > 299) throw new BenchRequestRefused(label, response.status, text);
}

/** One closed-loop autocannon run of `seconds`. */
function runLoad(load: PreparedLoad, connections: number, seconds: number): Promise<RawRun> {
  const latenciesMs: number[] = [];
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  const target = new URL(load.url);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.origin,
        connections,
        duration: seconds,
        requests: [
          {
            method: load.method,
            path: `${target.pathname}${target.search}`,
            headers: load.headers,
            setupRequest: (request) => {
              const body = load.nextBody();
              return body === undefined ? request : { ...request, body };
            },
          },
        ],
      },
      (error, result) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve({ ok, seconds: result.duration, latenciesMs, statusCodes, errors: result.errors, timeouts: result.timeouts });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latenciesMs.push(responseTime);
      if (statusCode >= 200 && statusCode <= 299) ok += 1;
      else statusCodes[String(statusCode)] = (statusCodes[String(statusCode)] ?? 0) + 1;
    });
  });
}

/** A load ready to run repeatedly (its body sequence continues across runs). */
export interface HttpLoadRunner {
  label: string;
  pids: number[];
  /** One probe request: throws BenchRequestRefused unless it gets a 2xx. */
  check(): Promise<void>;
  run(connections: number, seconds: number): Promise<RawRun>;
}

/** `servers`: the processes serving the load, whose CPU time each run counts (startBenchServer's servers). */
export function httpLoadRunner(label: string, load: HttpLoad, servers: ReadonlyArray<{ pid: number }> = []): HttpLoadRunner {
  const prepared = prepare(load);
  return {
    label,
    pids: servers.map((server) => server.pid),
    check: () => probe(label, prepared),
    run: (connections, seconds) => runLoad(prepared, connections, seconds),
  };
}

/**
 * Measures one HTTP endpoint: a probe request (refused → BenchRequestRefused at once), the warmup (discarded), then
 * `durationSeconds` of closed-loop load. Throughput counts 2xx responses only; any other response is in `failures`,
 * and such a measurement is invalid (see invalidReasons).
 */
export async function measureHttp(options: MeasureHttpOptions): Promise<Measurement> {
  const label = options.label ?? options.url;
  const runner = httpLoadRunner(label, options);
  await runner.check();
  if (options.warmupSeconds) await runner.run(options.connections, options.warmupSeconds);
  return combineRuns(label, [await runner.run(options.connections, options.durationSeconds)]);
}
