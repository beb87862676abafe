import { describe, expect, it } from 'vitest';
import { cursorPage, numberedPage, offsetPage } from './paginate.js';

describe('paging helpers', () => {
  it("cursor: the vendor's cursor goes out as it came; none, null or empty ends the pull", () => {
    expect(cursorPage(null).cursor).toBeUndefined();
    expect(cursorPage('CAESB').cursor).toBe('CAESB');
    expect(cursorPage(null).next('CAESC')).toBe('CAESC');
    for (const end of [undefined, null, '']) expect(cursorPage('CAESB').next(end)).toBeNull();
  });

  it('page number: from the first page until the page count says there is no next one', () => {
    expect(numberedPage(null)).toMatchObject({ page: 1 });
    expect(numberedPage('junk')).toMatchObject({ page: 1 });
    expect(numberedPage(null, 0)).toMatchObject({ page: 0 });
    expect(numberedPage(null).next(2)).toBe('2');
    expect(numberedPage('2').next(2)).toBeNull();
    expect(numberedPage('1').next(Number('not a number'))).toBeNull();
  });

  it('offset: a full page moves the offset by what it held; a short page is the last', () => {
    expect(offsetPage(null, 100)).toMatchObject({ offset: 0, limit: 100 });
    expect(offsetPage('-5', 100).offset).toBe(0);
    expect(offsetPage('200', 100).next(100)).toBe('300');
    expect(offsetPage('200', 100).next(99)).toBeNull();
    expect(offsetPage(null, 100).next(0)).toBeNull();
  });
});
