// The checklists of bootstrap as a port: the checklists module registers itself in service.ts, so bootstrap never
// imports its service. None registered: `checklists` is [].

export interface ChecklistSource {
  /** The team's open checklists as their REST resource, in a constant number of queries. */
  openChecklists(teamId: number): Promise<object[]>;
}
