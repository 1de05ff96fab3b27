// The operator commands of the photos service (`npm run admin -- photos <command>`): argument parsing and output only;
// every rule lives in IntegrationTokenService. Each command returns one JSON document (--json) and a human text; a bad
// argument throws UsageError (exit 2), an unknown user, team or token the kit's NotFoundError (exit 1).
import type { EntityManager } from '@mikro-orm/postgresql';
import { UsageError, adminUsage, optionalOption, positionalArgs, requiredOption, runAdminCommandOf, type AdminCommand, type CommandResult } from '@tributary/kit/admin';
import { IntegrationTokenService, type AccessToken, type Ability } from '../modules/auth/index.js';

export interface AdminDeps {
  em: EntityManager;
}

type Command = AdminCommand<AdminDeps>;

export { UsageError, type CommandResult };

/** The name an operator-created token gets unless --name says otherwise. */
export const DEFAULT_OPERATOR_TOKEN_NAME = 'operator token';

function teamId(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new UsageError(`--team must be a team id (got "${value}")`);
  return Number(value);
}

/** `30d`: a whole number of days (the range is the domain's rule). */
function days(value: string): number {
  const match = /^(\d{1,4})d$/.exec(value);
  if (!match) throw new UsageError(`--expires-in must be a number of days such as 30d (got "${value}")`);
  return Number(match[1]);
}

/** `a,b`: the scope names as typed (IntegrationTokenService refuses unknown ones). */
function abilityList(value: string): Ability[] {
  return value.split(',').map((ability) => ability.trim()).filter((ability) => ability !== '') as Ability[];
}

function tokenJson(token: AccessToken) {
  return {
    id: token.id,
    name: token.name,
    abilities: token.abilities ?? [],
    team_id: token.team.id,
    user: { id: token.user.id, email: token.user.email },
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt?.toISOString() ?? null,
  };
}

const tokenLine = (token: AccessToken) =>
  `${token.id}  ${token.name}  ${(token.abilities ?? []).join(',')}  ${token.user.email}  expires ${token.expiresAt?.toISOString() ?? 'never'}`;

const tokenCreate: Command = {
  usage: 'token create --user E --team ID --abilities a,b --expires-in 30d [--name N]',
  summary: 'create an integration token for a member of a team (shown once; only its hash is stored)',
  options: ['user', 'team', 'abilities', 'expires-in', 'name'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const { token, record } = await new IntegrationTokenService(deps.em).grant({
      email: requiredOption(args, 'user'),
      teamId: teamId(requiredOption(args, 'team')),
      abilities: abilityList(requiredOption(args, 'abilities')),
      expiresInDays: days(requiredOption(args, 'expires-in')),
      name: optionalOption(args, 'name') ?? DEFAULT_OPERATOR_TOKEN_NAME,
    });
    return {
      json: { ...tokenJson(record), token },
      text: [
        `Created integration token ${record.id} "${record.name}" for ${record.user.email} in team ${record.team.id} (${(record.abilities ?? []).join(', ')}), expires ${record.expiresAt!.toISOString()}.`,
        `Token (shown once): ${token}`,
      ].join('\n'),
    };
  },
};

const tokenList: Command = {
  usage: 'token list --team ID',
  summary: "a team's live integration tokens, newest first (without secrets)",
  options: ['team'],
  async run(args, deps) {
    positionalArgs(args, 0, this.usage);
    const { items } = await new IntegrationTokenService(deps.em).list(teamId(requiredOption(args, 'team')));
    return { json: { tokens: items.map(tokenJson) }, text: items.length === 0 ? 'No live integration tokens.' : items.map(tokenLine).join('\n') };
  },
};

const tokenRevoke: Command = {
  usage: 'token revoke ID',
  summary: 'revoke a live integration token (it answers 401 from the next request on)',
  options: [],
  async run(args, deps) {
    const [id] = positionalArgs(args, 1, this.usage) as [string];
    const token = await new IntegrationTokenService(deps.em).revokeById(id);
    return { json: { id: token.id, revoked: true }, text: `Revoked integration token ${token.id} "${token.name}".` };
  },
};

/** Every command by its words. */
const COMMANDS: Readonly<Record<string, Command>> = {
  'token create': tokenCreate,
  'token list': tokenList,
  'token revoke': tokenRevoke,
};

export const USAGE = adminUsage('photos', COMMANDS);

/** Runs `argv` (without --json): the command named by its first one or two words. */
export function runAdminCommand(argv: readonly string[], deps: AdminDeps): Promise<CommandResult> {
  return runAdminCommandOf(COMMANDS, argv, deps);
}
