// The Node flags every `serve` and `worker` process runs with (npm start, the benchmarks; README "Production" tells
// operators to pass them too).
//
// --max-semi-space-size=16: V8 sizes the young generation by the machine's memory, up to 64 MiB a semi-space
// (128 MiB of new space) on a 24 GiB machine, and grows it under a steady allocation rate without giving it back: the
// soak benchmark saw `bnpl serve` go from 84 to 207 MiB of heap over ten minutes while the live heap stayed at 72–90
// MiB and the old space at 58–59 MiB. 16 MiB (Node's default on smaller machines) keeps a process's memory flat after
// its first minute; a scavenge of a request-shaped heap costs well under a millisecond either way.
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
