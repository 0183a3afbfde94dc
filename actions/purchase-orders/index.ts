// Procedures of the purchaseOrders domain: what the studio buys from its suppliers, issued as frozen revisions and
// received delivery by delivery.
export * from './drafts.js';
export * from './lifecycle.js';
