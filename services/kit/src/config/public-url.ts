// Absolute URLs the service hands out (a session's checkout_url, a payment link's public_url): PUBLIC_BASE_URL when set
// (always in a deployment, and under `npm start`), else the address the service itself listens on, which is what a
// developer running it alone can open (a wildcard bind is reached as localhost).
export function publicBaseUrl(config: { PUBLIC_BASE_URL?: string | undefined; HOST: string; PORT: number }): string {
  if (config.PUBLIC_BASE_URL) return config.PUBLIC_BASE_URL;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${config.PORT}`;
}
