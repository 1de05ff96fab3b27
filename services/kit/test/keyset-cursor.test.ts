// The opaque keyset cursor: what it encodes comes back, a page knows whether another follows, and anything that is not
// one of ours is a 422 on the parameter that carried it.
import { describe, expect, it } from '@jest/globals';
import { INVALID_CURSOR_MESSAGE, ValidationError, decodeKeysetCursor, encodeKeysetCursor, keysetPage } from '../src/index.js';

const position = { createdAt: new Date('2026-11-25T10:00:00.123Z'), id: '6f1c2c4e-8b7a-4f5e-9d1a-2b3c4d5e6f70' };

describe('keyset cursor', () => {
  it('round-trips a position through an opaque URL-safe string', () => {
    const cursor = encodeKeysetCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeKeysetCursor(cursor, 'page')).toEqual(position);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    ['JSON but not an object', Buffer.from('42').toString('base64url')],
    ['a bad id', Buffer.from(JSON.stringify({ t: position.createdAt.toISOString(), id: 'x' })).toString('base64url')],
    ['a bad time', Buffer.from(JSON.stringify({ t: 'yesterday', id: position.id })).toString('base64url')],
    ['a time not in canonical form', Buffer.from(JSON.stringify({ t: '2026-11-25', id: position.id })).toString('base64url')],
    ['too long', 'A'.repeat(201)],
  ])('refuses %s as a 422 on the parameter', (_what, cursor) => {
    let error: unknown;
    try {
      decodeKeysetCursor(cursor, 'page');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual({ page: [INVALID_CURSOR_MESSAGE] });
  });

  it('a page of limit + 1 rows has the cursor of its last item; a shorter one is the last page', () => {
    const rows = [0, 1, 2].map((n) => ({ createdAt: new Date(Date.UTC(2026, 0, 3 - n)), id: position.id.replace(/0$/, String(n)) }));
    const page = keysetPage(rows, 2);
    expect(page.items).toEqual(rows.slice(0, 2));
    expect(decodeKeysetCursor(page.nextCursor!, 'page')).toEqual(rows[1]);
    expect(keysetPage(rows, 3)).toEqual({ items: rows, nextCursor: null });
  });
});
