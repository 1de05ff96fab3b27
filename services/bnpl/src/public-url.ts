// Absolute URLs the service hands out (checkout_url, public_url): PUBLIC_BASE_URL when set (behind a proxy or a
// domain), else the service's own loopback address, which is what a developer running it alone can open.
export function publicBaseUrl(config: { PUBLIC_BASE_URL?: string | undefined; PORT: number }): string {
  return config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`;
}
