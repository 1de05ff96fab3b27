// The token abilities (scopes) named by the spec's endpoint table.
export const ABILITIES = [
  'projects:read', 'projects:write', 'photos:read', 'photos:write', 'checklists:read', 'checklists:write',
  'tasks:read', 'tasks:write', 'pages:read', 'pages:write', 'customers:read', 'customers:write',
  'comments:read', 'comments:write', 'reports:read',
] as const;
export type Ability = (typeof ABILITIES)[number];
