// Tracing is off unless the standard OTEL_* variables ask for it.
import { describe, expect, it } from '@jest/globals';
import { tracesExporterFromEnv } from '../../src/observability/index.js';

describe('tracesExporterFromEnv', () => {
  it('is off by default, and with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true', () => {
    expect(tracesExporterFromEnv({})).toBeUndefined();
    expect(tracesExporterFromEnv({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBeUndefined();
    expect(tracesExporterFromEnv({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBeUndefined();
  });

  it('turns on with an OTLP endpoint or a named exporter, and names a bad exporter', () => {
    expect(tracesExporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe('otlp');
    expect(tracesExporterFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe('otlp');
    expect(tracesExporterFromEnv({ OTEL_TRACES_EXPORTER: 'Console' })).toBe('console');
    expect(() => tracesExporterFromEnv({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
  });
});
