import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { revisionLines } from '../../src/domain/accounting/invoice.js';
import type { RevisionContent } from '../../src/domain/estimates/client-revision.js';

const mapped = () => ({ accountCode: '200', taxType: 'OUTPUT2' });

/** A revision of accepted pieces with these grosses (scale 4, whole pence) at these tax rates. */
function contentOf(pieces: Array<{ gross4: bigint; ratio4: string }>): RevisionContent {
  return {
    estimateNumber: 1,
    revisionNumber: 1,
    title: 'Salon',
    currency: 'GBP',
    pieces: pieces.map((p, i) => ({
      pieceId: `p${i}`,
      reference: null,
      wording: `Piece ${i}`,
      quantity: { amount4: '10000', unit: null },
      unitPrice: { amount4: String(p.gross4), currency: 'GBP' },
      taxRate: { ratio4: p.ratio4 },
      net: { amount4: String(p.gross4), currency: 'GBP' },
      tax: { amount4: '0', currency: 'GBP' },
      gross: { amount4: String(p.gross4), currency: 'GBP' },
      excludedFromTotal: false,
    })),
  } as unknown as RevisionContent;
}

describe("revisionLines: a deposit split by tax rate adds up to the decision's deposit exactly", () => {
  it('one rate: one line, net and tax of the deposit (120.00 at 20 %: 100.00 + 20.00)', () => {
    const content = contentOf([{ gross4: 3_600_000n, ratio4: '2000' }]);
    const [line, ...rest] = revisionLines(content, new Set(['p0']), 'deposit', 1_200_000n, mapped);
    expect(rest).toEqual([]);
    expect([line!.net4, line!.tax4, line!.accountCode, line!.taxType]).toEqual(['1000000', '200000', '200', 'OUTPUT2']);
  });

  it('any rates and amounts: parts on whole pence, each with tax ≥ 0, summing to the deposit', () => {
    const piece = fc.record({
      gross4: fc.bigInt({ min: 1n, max: 10_000_000n }).map((n) => n * 100n),
      ratio4: fc.constantFrom('0', '500', '2000', '1500'),
    });
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 10_000 }),
        (pieces, pct) => {
          const gross = pieces.reduce((t, p) => t + p.gross4, 0n);
          const deposit = ((gross * BigInt(pct)) / 10_000n / 100n) * 100n;
          fc.pre(deposit > 0n);
          const accepted = new Set(pieces.map((_, i) => `p${i}`));
          const lines = revisionLines(contentOf(pieces), accepted, 'deposit', deposit, mapped);
          let sum = 0n;
          for (const l of lines) {
            expect(BigInt(l.net4) % 100n).toBe(0n);
            expect(BigInt(l.tax4) % 100n).toBe(0n);
            expect(BigInt(l.tax4) >= 0n).toBe(true);
            expect(l.unitAmount4).toBe(l.net4);
            sum += BigInt(l.net4) + BigInt(l.tax4);
          }
          expect(sum).toBe(deposit);
        },
      ),
    );
  });

  it('accepted pieces are billed as issued, declined ones left out', () => {
    const content = contentOf([
      { gross4: 1_000_000n, ratio4: '2000' },
      { gross4: 2_000_000n, ratio4: '2000' },
    ]);
    const lines = revisionLines(content, new Set(['p1']), 'accepted_pieces', 0n, mapped);
    expect(lines.map((l) => [l.description, l.net4])).toEqual([['Piece 1', '2000000']]);
  });
});
