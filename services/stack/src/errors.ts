/** A failure the runner explains to a human: what went wrong and how to fix it. */
export class StackError extends Error {
  constructor(
    message: string,
    readonly fix?: string,
    readonly logFile?: string,
  ) {
    super(message);
    this.name = 'StackError';
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
