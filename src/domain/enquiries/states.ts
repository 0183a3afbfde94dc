import type { EnquiryState } from '../../../db/vocabulary.js';

/**
 * The enquiry's state machine, in one place: what each act may start from and where it leads. The domain functions
 * ask it before they write, and the property test walks it (test/enquiries/state-machine.test.ts).
 */
export type EnquiryAct =
  | { act: 'send' }
  /** Sending again only the emails the mail server refused. */
  | { act: 'resend'; failedMails: number }
  | { act: 'respond'; allSuppliersAnswered: boolean }
  | { act: 'apply' }
  | { act: 'close' };

const ANSWERABLE: readonly EnquiryState[] = ['sent', 'partly_responded', 'responded', 'applied'];
const APPLICABLE: readonly EnquiryState[] = ['partly_responded', 'responded', 'applied'];

/** The state an act leads to from `state`, or null when the act is not allowed there. */
export function nextState(state: EnquiryState, a: EnquiryAct): EnquiryState | null {
  switch (a.act) {
    case 'send':
      return state === 'draft' ? 'sent' : null;
    case 'resend':
      return state !== 'draft' && state !== 'closed' && a.failedMails > 0 ? state : null;
    case 'respond':
      if (!ANSWERABLE.includes(state)) return null;
      // A late answer after applying leaves the enquiry applied: what was written onto the lines stays the news.
      if (state === 'applied') return 'applied';
      return a.allSuppliersAnswered ? 'responded' : 'partly_responded';
    case 'apply':
      return APPLICABLE.includes(state) ? 'applied' : null;
    case 'close':
      return state === 'closed' ? null : 'closed';
  }
}

/** What each refused act says the caller can do instead, in their words. */
export function refusalFor(state: EnquiryState, act: EnquiryAct['act']): string {
  if (state === 'closed')
    return 'This enquiry is closed; nothing more is sent, recorded or applied. Start a new one with create_enquiry.';
  switch (act) {
    case 'send':
    case 'resend':
      return state === 'draft'
        ? 'This enquiry has not been sent yet; send it with send_enquiry.'
        : `This enquiry was already sent (${state}) and no email to a supplier failed; record their answers with record_enquiry_response.`;
    case 'respond':
      return 'This enquiry has not been sent yet; send it (send_enquiry) before recording answers.';
    case 'apply':
      return `This enquiry has no response to apply yet (${state}); record one with record_enquiry_response first.`;
    case 'close':
      return 'This enquiry is already closed.';
  }
}
