// What the account area shows of a failed delivery: the guard's refusal detail stays with operators.
import { describe, expect, it } from 'vitest';
import { customerDetail, NOT_PUBLIC } from '../../src/web/format.js';

describe('customerDetail', () => {
  it('shows a refusal without the address a name resolved to or its range', () => {
    const shown = customerDetail('refused 10.1.2.3 (db.internal): a private address (10.0.0.0/8); see OUTBOUND_ALLOW_CIDRS');
    expect(shown).toBe(NOT_PUBLIC);
    expect(shown).not.toMatch(/10\.1\.2\.3|db\.internal|10\.0\.0\.0/);
  });

  it("keeps other failures as they are: they concern the customer's own public receiver", () => {
    expect(customerDetail('answered 500: "oops"')).toBe('answered 500: "oops"');
    expect(customerDetail('timed out after 15000 ms')).toBe('timed out after 15000 ms');
  });
});
