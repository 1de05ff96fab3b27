// The tags of bootstrap as a port: the module that stores tags (photos) registers a source in service.ts, so bootstrap
// never imports it. None registered: `tags` is [].

export interface TagSource {
  /** Every tag used in the team (on any of its photos), in one query, never one per record. */
  tagsInUse(teamId: number): Promise<string[]>;
}

/** The union of every source's tags, sorted and without repeats; one source after the other (they share the request's EntityManager). */
export async function tagsInUse(sources: readonly TagSource[], teamId: number): Promise<string[]> {
  const tags = new Set<string>();
  for (const source of sources) for (const tag of await source.tagsInUse(teamId)) tags.add(tag);
  return [...tags].sort((a, b) => a.localeCompare(b));
}
