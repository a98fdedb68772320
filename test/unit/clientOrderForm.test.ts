// The new-order page's rules (src/web/client/pure/orderForm.ts): money and sizes as the page writes
// them, an upload's progress, the same file picked again, the idempotency key after an answer, and
// the totals of the files' quotes.
import { describe, expect, it } from 'vitest';
import { hexKey, megabytes, refusalEndsKey, sameFile, totalsOf, uploadProgress, usd } from '../../src/web/client/pure/orderForm.js';

describe('the new-order page', () => {
  it('writes cents as dollars, a debt with its sign first', () => {
    expect(usd(1234)).toBe('$12.34');
    expect(usd(5)).toBe('$0.05');
    expect(usd(-50)).toBe('-$0.50');
    expect(usd(0)).toBe('$0.00');
  });

  it('writes sizes in decimal megabytes, and an upload’s progress in whole percent', () => {
    expect(megabytes(12_345_678)).toBe('12.3 MB');
    expect(uploadProgress(0, 20_000_000)).toEqual({ percent: 0, text: '0% of 20.0 MB' });
    expect(uploadProgress(4_999_999, 20_000_000)).toEqual({ percent: 24, text: '24% of 20.0 MB' });
    expect(uploadProgress(20_000_000, 20_000_000)).toEqual({ percent: 100, text: 'Uploaded, 20.0 MB' });
    // An empty file is whole at once.
    expect(uploadProgress(0, 0)).toEqual({ percent: 100, text: 'Uploaded, 0.0 MB' });
  });

  it('makes a key of two hex digits a byte', () => {
    expect(hexKey(new Uint8Array([0, 15, 16, 255]))).toBe('000f10ff');
    expect(hexKey(new Uint8Array(16))).toHaveLength(32);
  });

  it('takes a file picked again for the same when its name, size and time of change are', () => {
    const file = { name: 'a.mp3', size: 10, lastModified: 1 };
    expect(sameFile(file, { ...file })).toBe(true);
    expect(sameFile(file, { ...file, lastModified: 2 })).toBe(false);
    expect(sameFile(file, { ...file, size: 11 })).toBe(false);
    expect(sameFile(file, { ...file, name: 'b.mp3' })).toBe(false);
  });

  it('makes a new key after a refusal, and keeps it after a lost answer, a fault or a request still running', () => {
    expect([400, 402, 422, 429].map(refusalEndsKey)).toEqual([true, true, true, true]);
    expect([0, 409, 500, 503].map(refusalEndsKey)).toEqual([false, false, false, false]);
  });

  it('totals the quotes against the newest balance', () => {
    expect(
      totalsOf([
        { price_cents: 150, balance_cents: 1000 },
        { price_cents: 275, balance_cents: 900 },
      ]),
    ).toEqual({ total: 425, balance: 900, after: 475 });
    expect(totalsOf([])).toBeUndefined();
  });
});
