// Reads Prometheus' text exposition format (what /metrics answers) into samples, for assertions.
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function metricSamples(text: string): MetricSample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .flatMap((line) => {
      const match = SAMPLE_LINE.exec(line);
      if (!match) return [];
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL_PAIR)].map(([, key, value]) => [key!, value!]));
      return [{ name: match[1]!, labels, value: Number(match[3]) }];
    });
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(samples: readonly MetricSample[], name: string, labels: Record<string, string>): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
