// The pure @mention parser and resolver of comments (modules/comments/comment-mentions.ts).
import { describe, expect, it } from '@jest/globals';
import { MAX_MENTIONS_PER_COMMENT, comparableName, findMentionCandidates, resolveMentions, type Teammate } from '../src/modules/comments/comment-mentions.js';

const ana: Teammate = { id: 1, name: 'Ana Ruiz', email: 'ana@photos.tributary.test' };
const bob: Teammate = { id: 2, name: 'Bob Stone', email: 'bob@photos.tributary.test' };
const anaMaria: Teammate = { id: 3, name: 'Ana María Pérez', email: 'am@photos.tributary.test' };
const jose: Teammate = { id: 4, name: 'José Núñez', email: 'jose@photos.tributary.test' };
const team = [ana, bob, jose];

/** The mentioned text and who it resolved to, in order. */
function mentioned(body: string, teammates: readonly Teammate[] = team): Array<[string, number]> {
  return resolveMentions(body, teammates).map((m) => [body.slice(m.start, m.end), m.userId]);
}

describe('mention syntax', () => {
  it('resolves an e-mail, a quoted full name and a single word (first or whole name), case-insensitively', () => {
    expect(mentioned('@ANA@Photos.Tributary.Test please check')).toEqual([['@ANA@Photos.Tributary.Test', 1]]);
    expect(mentioned('ping @"bob   stone" and @“Ana Ruiz”')).toEqual([['@"bob   stone"', 2], ['@“Ana Ruiz”', 1]]);
    expect(mentioned('@bob look')).toEqual([['@bob', 2]]);
  });

  it('compares names without accents: @Jose finds José Núñez, @"jose nunez" too', () => {
    expect(mentioned('@Jose and @"jose nunez"')).toEqual([['@Jose', 4], ['@"jose nunez"', 4]]);
    expect(comparableName('  José\tNúñez ')).toBe('jose nunez');
  });

  it('ends a mention before punctuation that follows it', () => {
    expect(mentioned('Thanks @Ana, @bob. (@ana@photos.tributary.test) @Bob! @ana@photos.tributary.test.')).toEqual([
      ['@Ana', 1],
      ['@bob', 2],
      ['@ana@photos.tributary.test', 1],
      ['@Bob', 2],
      ['@ana@photos.tributary.test', 1],
    ]);
    expect(mentioned("@Ana's photo")).toEqual([['@Ana', 1]]);
  });

  it('does not take e-mail addresses or URLs in the text for mentions', () => {
    expect(mentioned('mail ana@photos.tributary.test or see https://example.test/@ana and https://x.test/?u=@bob')).toEqual([]);
    expect(mentioned('https://ana@photos.tributary.test/path')).toEqual([]);
    expect(findMentionCandidates('bob@photos.tributary.test')).toEqual([]);
  });

  it('lists each occurrence (a repeated mention twice) at its own offsets', () => {
    const body = '@Ana then @ana again';
    expect(resolveMentions(body, team)).toEqual([
      { userId: 1, start: 0, end: 4 },
      { userId: 1, start: 10, end: 14 },
    ]);
  });

  it('counts offsets in UTF-16 code units (JavaScript string indices)', () => {
    const body = '📷 @bob';
    expect(resolveMentions(body, team)).toEqual([{ userId: 2, start: 3, end: 7 }]);
  });
});

describe('unknown and ambiguous mentions stay plain text', () => {
  it('an unknown e-mail, name or word resolves to nobody', () => {
    expect(mentioned('@zoe @"Zoe Ball" @zoe@photos.tributary.test')).toEqual([]);
  });

  it('a word naming two teammates (two Anas) is ambiguous; the quoted full name or the e-mail still works', () => {
    const withTwoAnas = [...team, anaMaria];
    expect(mentioned('@Ana', withTwoAnas)).toEqual([]);
    expect(mentioned('@"Ana Ruiz" @"ana maria perez" @am@photos.tributary.test', withTwoAnas)).toEqual([
      ['@"Ana Ruiz"', 1],
      ['@"ana maria perez"', 3],
      ['@am@photos.tributary.test', 3],
    ]);
  });

  it('two teammates with the same full name make the quoted name ambiguous too', () => {
    const twin: Teammate = { id: 9, name: 'ana ruiz', email: 'other-ana@photos.tributary.test' };
    expect(mentioned('@"Ana Ruiz" @Ana', [ana, twin])).toEqual([]);
    expect(mentioned('@other-ana@photos.tributary.test', [ana, twin])).toEqual([['@other-ana@photos.tributary.test', 9]]);
  });

  it('an e-mail followed by more address characters is no mention, and neither is its local part', () => {
    expect(mentioned('@ana@photos.tributary.test_x @ana@photos.tributary.test@y')).toEqual([]);
  });

  it('an @ alone, a lone quote or an empty quoted name is not a mention', () => {
    expect(mentioned('@ @" @"" a @ b')).toEqual([]);
  });

  it(`resolves at most ${MAX_MENTIONS_PER_COMMENT} mentions in one comment`, () => {
    const body = Array.from({ length: MAX_MENTIONS_PER_COMMENT + 5 }, () => '@bob').join(' ');
    expect(resolveMentions(body, team)).toHaveLength(MAX_MENTIONS_PER_COMMENT);
  });
});
