import type { Config } from '../../config.js';
import { ServiceError } from '../../core/errors.js';

/** Email is configured when the server has both a mail server (STUDIO_SMTP_URL) and a from address (STUDIO_MAIL_FROM). */
export const deliveryConfigured = (config: Pick<Config, 'smtpUrl' | 'mailFrom'>) =>
  Boolean(config.smtpUrl && config.mailFrom);

/** 503 DELIVERY_NOT_CONFIGURED unless email is configured: nothing is queued that could never be sent. */
export function assertDeliveryConfigured(config: Pick<Config, 'smtpUrl' | 'mailFrom'>) {
  if (!deliveryConfigured(config)) {
    throw new ServiceError(
      'DELIVERY_NOT_CONFIGURED',
      config.smtpUrl
        ? 'This server has a mail server but no from address: set STUDIO_MAIL_FROM (e.g. "Studio <studio@example.com>") and restart it. Meanwhile download_document gives a link to send yourself.'
        : 'This server sends no email: set STUDIO_SMTP_URL (e.g. smtps://user:password@mail.example.com) and STUDIO_MAIL_FROM, and restart it. Meanwhile download_document gives a link to send yourself.',
    );
  }
}
