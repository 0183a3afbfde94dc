import { PASSWORD_MAX_LENGTH } from '../../domain/people/passwords.js';
import { type Html, html } from '../share-page/html.js';
import { problem } from './layout.js';

/** The one answer to a wrong password and an unknown address alike: it never says which. */
export const SIGN_IN_REFUSED = 'The email address or password is not right; check both and try again.';

/**
 * The sign-in form, the same on `/login` and on the consent page: email and password (a password manager's
 * `username`/`current-password`), the problem when there is one (each field names it as its description), and
 * whatever hidden fields the page's own checks need (`hidden`).
 */
export function signInForm(opts: {
  action: string;
  hidden: Html;
  email?: string | undefined;
  problem?: string | undefined;
}): Html {
  const described = opts.problem === undefined ? null : html` aria-describedby="sign-in-problem"`;
  return html`<form method="post" action="${opts.action}">
${opts.hidden}
${problem(opts.problem, 'sign-in-problem')}
<label>Email address
<input type="email" id="email" name="email" autocomplete="username" required maxlength="254" value="${opts.email ?? ''}"${described}>
</label>
<label>Password
<input type="password" id="password" name="password" autocomplete="current-password" required maxlength="${PASSWORD_MAX_LENGTH}"${described}>
</label>
<button type="submit">Sign in</button>
</form>`;
}
