/** Sums two scale-4 amounts exactly (BigInt), as the tests add up what a decision should total. */
export const addAmount4 = (a: string, b: string): string => (BigInt(a) + BigInt(b)).toString();

/** An amount in pounds as the API answers it: a scale-4 integer string and its currency. */
export const gbp = (amount4: string) => ({ amount4, currency: 'GBP' });
