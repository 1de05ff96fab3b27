// @mentions in a comment body, found and resolved against the comment's teammates: pure code (no I/O), unit-tested in
// test/comment-mentions.test.ts. Syntax (README Decisions "Comment mentions"):
//   @ana@photos.tributary.test   an e-mail address: the teammate with that address (case-insensitive)
//   @"Ana Ruiz"  or  @“Ana Ruiz”  a full name in quotes: the one teammate with that name
//   @Ana                          one word: the one teammate whose first name or whole name it is
// Names compare case- and accent-insensitively with runs of white space as one space. A mention that names nobody, or
// more than one teammate, stays plain text. An `@` counts only at the start of the body or after white space or an
// opening bracket or quote, so e-mail addresses and URLs in the text (`bob@example.com`, `https://x.test/@ana`) are not
// mentions.

/** Someone a comment may mention: a member of the comment's team. */
export interface Teammate {
  id: number;
  name: string;
  email: string;
}

/** A resolved mention: who, and where in the body (UTF-16 code unit offsets, `end` exclusive; the `@` included). */
export interface ResolvedMention {
  userId: number;
  start: number;
  end: number;
}

type CandidateKind = 'email' | 'quoted' | 'word';

/** Something written as a mention, before it is resolved. */
export interface MentionCandidate {
  kind: CandidateKind;
  /** The e-mail address, the quoted name or the word, as written (without `@` and quotes). */
  key: string;
  start: number;
  end: number;
}

/** At most this many mentions are resolved per comment; later ones stay plain text (bounds the stored rows). */
export const MAX_MENTIONS_PER_COMMENT = 50;
const MAX_QUOTED_NAME = 100;

// Characters after which an `@` may start a mention: start of text is handled apart.
const MENTION_BOUNDARY = /[\s([{<"'“‘]/u;
// `ana@photos.test` after the `@`; not followed by anything that would continue an address or a word.
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+(?![\w@-])/y;
const QUOTED = new RegExp(`"([^"\\r\\n]{1,${MAX_QUOTED_NAME}})"|“([^”\\r\\n]{1,${MAX_QUOTED_NAME}})”`, 'uy');
// A word of letters, marks, digits and `_`, with inner `.` or `-` (`@jean-luc`); an apostrophe ends it (`@Ana's`).
const WORD = /[\p{L}\p{M}\p{N}_]+(?:[.-][\p{L}\p{M}\p{N}_]+)*(?![\p{L}\p{M}\p{N}_@])/uy;

/** Every mention-shaped span of `body`, in order (an `@` inside one, as in an e-mail mention, starts none). */
export function findMentionCandidates(body: string): MentionCandidate[] {
  const found: MentionCandidate[] = [];
  let at = body.indexOf('@');
  while (at !== -1) {
    const candidate = at === 0 || MENTION_BOUNDARY.test(body[at - 1]!) ? candidateAt(body, at) : null;
    if (candidate) found.push(candidate);
    at = body.indexOf('@', candidate ? candidate.end : at + 1);
  }
  return found;
}

function candidateAt(body: string, at: number): MentionCandidate | null {
  const from = at + 1;
  for (const [kind, pattern] of [['email', EMAIL], ['quoted', QUOTED], ['word', WORD]] as const) {
    pattern.lastIndex = from;
    const match = pattern.exec(body);
    if (match) return { kind, key: match[1] ?? match[2] ?? match[0], start: at, end: from + match[0].length };
  }
  return null;
}

/** The resolved mentions of `body` among `teammates` (each occurrence; unknown and ambiguous ones left out). */
export function resolveMentions(body: string, teammates: readonly Teammate[]): ResolvedMention[] {
  const resolved: ResolvedMention[] = [];
  for (const candidate of findMentionCandidates(body)) {
    if (resolved.length >= MAX_MENTIONS_PER_COMMENT) break;
    const matches = teammates.filter((teammate) => candidateNames(candidate, teammate));
    const ids = new Set(matches.map((teammate) => teammate.id));
    if (ids.size === 1) resolved.push({ userId: matches[0]!.id, start: candidate.start, end: candidate.end });
  }
  return resolved;
}

function candidateNames(candidate: MentionCandidate, teammate: Teammate): boolean {
  if (candidate.kind === 'email') return candidate.key.toLowerCase() === teammate.email.toLowerCase();
  const name = comparableName(teammate.name);
  if (candidate.kind === 'quoted') return comparableName(candidate.key) === name;
  const word = comparableName(candidate.key);
  return word === name || word === name.split(' ')[0];
}

/** A name as mentions compare it: accents dropped, lower case, white space runs as one space, trimmed. */
export function comparableName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Whether the body holds anything that could be a mention (saves loading the teammates when not). */
export function mayMention(body: string): boolean {
  return findMentionCandidates(body).length > 0;
}
