/** Sums two scale-4 amounts exactly (BigInt), as the tests add up what a decision should total. */
export const addAmount4 = (a: string, b: string): string => (BigInt(a) + BigInt(b)).toString();
