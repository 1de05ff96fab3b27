// The one table `npm start` prints when everything is ready.
export interface TableRow {
  cells: string[];
}

export function renderTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Flattens a seed's credentials object into "key: value" strings (nested keys joined with '.'). */
export function credentialLines(credentials: unknown, prefix = ''): string[] {
  if (credentials === null || credentials === undefined) return [];
  if (typeof credentials !== 'object') return [`${prefix || 'value'}: ${String(credentials)}`];
  const lines: string[] = [];
  for (const [key, value] of Object.entries(credentials as Record<string, unknown>)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) lines.push(...credentialLines(value, name));
    else lines.push(`${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
  }
  return lines;
}

/** The seed prints one JSON line {"credentials": {...}}; other output (logs) is ignored. */
export function parseSeedCredentials(stdout: string): Record<string, unknown> | undefined {
  const lines = stdout.split('\n').reverse();
  for (const line of lines) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    try {
      const parsed = JSON.parse(trimmed) as { credentials?: unknown };
      if (parsed && typeof parsed === 'object' && parsed.credentials && typeof parsed.credentials === 'object') {
        return parsed.credentials as Record<string, unknown>;
      }
    } catch {
      // not our line
    }
  }
  return undefined;
}
