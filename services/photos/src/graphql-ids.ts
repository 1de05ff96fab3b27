// GraphQL IDs are strings; the REST bodies and queries the services check take integers. An ID written as an integer
// (up to ten digits, a minus sign allowed) is that number, which the REST body's bounds then check with its own message
// (0 and -1 are "too small" in both); any other ID is passed on as it is, so the same schema refuses it with the same
// 422 field (BAD_USER_INPUT in GraphQL).
export function idInput(id: string): number | string {
  return /^-?\d{1,10}$/.test(id) ? Number(id) : id;
}

/** Drops the keys whose value is undefined (GraphQL's absent arguments), keeping explicit nulls. */
export function definedOnly<T extends Record<string, unknown>>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;
}
