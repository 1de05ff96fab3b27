// The pure rules of the office resources: a checklist item's tick and evidence (checklist-item-rules.ts) and a task's
// status, overdue and close/reopen (task-status.ts).
import { describe, expect, it } from '@jest/globals';
import {
  ATTACHED_AND_DETACHED, EVIDENCE_PHOTOS_MAX, LAST_PHOTO_REQUIRED, PHOTO_REQUIRED, TOO_MANY_PHOTOS, decideItemChange, type ItemState,
} from '../src/modules/checklists/checklist-item-rules.js';
import { completionChange, isOverdue, matchesStatusFilter, taskStatus, type TaskState } from '../src/modules/tasks/task-status.js';
import { defaultTaskTitle } from '../src/modules/tasks/task.service.js';

const item = (fields: Partial<ItemState> = {}): ItemState => ({ requiresPhoto: false, ticked: false, photoIds: [], ...fields });

describe('decideItemChange (spec: the two checklist transition rows)', () => {
  it('ticks an item that is not flagged requires_photo', () => {
    expect(decideItemChange(item(), { ticked: true, attach: [], detach: [] })).toEqual({ ok: true, tick: 'tick', photoIds: [], attached: [], detached: [] });
  });

  it('refuses to tick a requires_photo item without a photo (photo_required on ticked)', () => {
    expect(decideItemChange(item({ requiresPhoto: true }), { ticked: true, attach: [], detach: [] })).toEqual({ ok: false, photoRequired: true, fields: { ticked: [PHOTO_REQUIRED] } });
  });

  it('ticks a requires_photo item with a photo already attached, or attached in the same change', () => {
    expect(decideItemChange(item({ requiresPhoto: true, photoIds: [4] }), { ticked: true, attach: [], detach: [] })).toMatchObject({ ok: true, tick: 'tick', photoIds: [4] });
    expect(decideItemChange(item({ requiresPhoto: true }), { ticked: true, attach: [7, 7], detach: [] })).toEqual({ ok: true, tick: 'tick', photoIds: [7], attached: [7], detached: [] });
  });

  it('refuses to tick when the change removes the only photo, and refuses removing the last photo of a ticked item', () => {
    expect(decideItemChange(item({ requiresPhoto: true, photoIds: [4] }), { ticked: true, attach: [], detach: [4] })).toMatchObject({ ok: false, photoRequired: true, fields: { ticked: [PHOTO_REQUIRED] } });
    expect(decideItemChange(item({ requiresPhoto: true, ticked: true, photoIds: [4] }), { attach: [], detach: [4] })).toEqual({ ok: false, photoRequired: true, fields: { detach_photo_ids: [LAST_PHOTO_REQUIRED] } });
    expect(decideItemChange(item({ requiresPhoto: true, ticked: true, photoIds: [4] }), { ticked: false, attach: [], detach: [4] })).toMatchObject({ ok: true, tick: 'untick', photoIds: [] });
  });

  it('ticking a ticked item or unticking an unticked one changes nothing; repeats of attach/detach are no-ops', () => {
    expect(decideItemChange(item({ ticked: true }), { ticked: true, attach: [], detach: [] })).toMatchObject({ ok: true, tick: null });
    expect(decideItemChange(item(), { ticked: false, attach: [], detach: [] })).toMatchObject({ ok: true, tick: null });
    expect(decideItemChange(item({ photoIds: [1] }), { attach: [1], detach: [9] })).toEqual({ ok: true, tick: null, photoIds: [1], attached: [], detached: [] });
  });

  it('refuses a photo both attached and detached, and more than the evidence limit', () => {
    expect(decideItemChange(item(), { attach: [1], detach: [1] })).toEqual({ ok: false, photoRequired: false, fields: { detach_photo_ids: [ATTACHED_AND_DETACHED] } });
    const full = item({ photoIds: Array.from({ length: EVIDENCE_PHOTOS_MAX }, (_, i) => i + 1) });
    expect(decideItemChange(full, { attach: [999], detach: [] })).toEqual({ ok: false, photoRequired: false, fields: { attach_photo_ids: [TOO_MANY_PHOTOS] } });
    expect(decideItemChange(full, { attach: [999], detach: [1] })).toMatchObject({ ok: true });
  });
});

describe('task status', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const task = (fields: Partial<TaskState> = {}): TaskState => ({ closedAt: null, withdrawnAt: null, dueAt: null, ...fields });
  const past = new Date('2026-11-25T11:59:59Z');
  const future = new Date('2026-11-25T12:00:01Z');

  it('derives open, done and withdrawn; overdue is open with due_at strictly before now', () => {
    expect(taskStatus(task())).toBe('open');
    expect(taskStatus(task({ closedAt: past }))).toBe('done');
    expect(taskStatus(task({ closedAt: past, withdrawnAt: past }))).toBe('withdrawn');
    expect(isOverdue(task({ dueAt: past }), now)).toBe(true);
    expect(isOverdue(task({ dueAt: now }), now)).toBe(false);
    expect(isOverdue(task({ dueAt: future }), now)).toBe(false);
    expect(isOverdue(task({ dueAt: past, closedAt: past }), now)).toBe(false);
    expect(isOverdue(task(), now)).toBe(false);
  });

  it('filters: open includes overdue, done, overdue, all; withdrawn never', () => {
    const overdue = task({ dueAt: past });
    const done = task({ closedAt: past, dueAt: past });
    const withdrawn = task({ withdrawnAt: past });
    const shown = (filter: 'open' | 'done' | 'overdue' | 'all') => [task(), overdue, done, withdrawn].map((t) => matchesStatusFilter(t, filter, now));
    expect(shown('open')).toEqual([true, true, false, false]);
    expect(shown('done')).toEqual([false, false, true, false]);
    expect(shown('overdue')).toEqual([false, true, false, false]);
    expect(shown('all')).toEqual([true, true, true, false]);
  });

  it('completed true closes an open task, false reopens a done one; the other cases change nothing', () => {
    expect(completionChange(task(), true)).toBe('close');
    expect(completionChange(task({ closedAt: past }), false)).toBe('reopen');
    expect(completionChange(task({ closedAt: past }), true)).toBeNull();
    expect(completionChange(task(), false)).toBeNull();
    expect(completionChange(task(), undefined)).toBeNull();
    expect(completionChange(task({ withdrawnAt: past }), true)).toBeNull();
  });

  it('a task made from a photo alone is titled by the photo\'s first description line, else "Follow up on photo N"', () => {
    expect(defaultTaskTitle({ id: 3, description: '  Crack in slab \nnear column C4' })).toBe('Crack in slab');
    expect(defaultTaskTitle({ id: 3, description: '  ' })).toBe('Follow up on photo 3');
    expect(defaultTaskTitle({ id: 3, description: 'x'.repeat(300) })).toHaveLength(191);
  });
});
