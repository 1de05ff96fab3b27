// @tributary/kit/bench: what a benchmark of `npm run bench` is made of. A benchmark file (`src/bench/<name>.bench.ts`
// in a workspace, compiled to dist/bench/<name>.bench.js) starts the server under test and a bare baseline in their
// own processes (startBenchServer), measures both side by side (httpLoadRunner + measureSideBySide with the run's
// benchSettings) and hands a BenchmarkResult to the runner (runBenchmark); a server's memory growth under the load
// (watchPeakRss, memoryGrowth) may go beside it.
export * from './cpu-profile.js';
export * from './measure-http.js';
export * from './memory.js';
export * from './operation-load.js';
export * from './result.js';
export * from './server-process.js';
export * from './service-cli.js';
export * from './settings.js';
export * from './side-by-side.js';
export * from './stats.js';
