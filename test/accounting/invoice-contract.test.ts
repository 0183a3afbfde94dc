/**
 * The invoice check the push tests rely on can fail: bodies Prism lets through to `PUT /Invoices` (measured with
 * Prism 5.16 and 5.14) are refused by it, and an invoice as the server builds it passes.
 */
import { describe, expect, it } from 'vitest';
import { invoiceViolations } from './invoice-contract.js';

const invoice = {
  Type: 'ACCREC',
  Status: 'DRAFT',
  Contact: { ContactID: '00000000-0000-0000-0000-000000000000' },
  Date: '2026-11-27',
  LineAmountTypes: 'Exclusive',
  LineItems: [{ Description: 'Design fee', Quantity: 1, UnitAmount: 1200, AccountCode: '200', TaxType: 'OUTPUT2' }],
};

describe("Xero's Invoices schema", () => {
  it('refuses an Invoices that is not a list, and a Type outside its enumeration', () => {
    expect(invoiceViolations({ Invoices: 'nope' })).toEqual(['/Invoices must be array']);
    expect(invoiceViolations({ Invoices: [{ ...invoice, Type: 'INVOICE' }] })).toEqual([
      '/Invoices/0/Type must be equal to one of the allowed values',
    ]);
    expect(invoiceViolations({ Invoices: [{ ...invoice, LineItems: 'one' }] })).toEqual([
      '/Invoices/0/LineItems must be array',
    ]);
  });

  it('passes an invoice shaped as the server sends one', () => {
    expect(invoiceViolations({ Invoices: [invoice] })).toEqual([]);
  });
});
