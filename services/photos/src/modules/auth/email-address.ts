/** E-mail addresses are stored and looked up lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
