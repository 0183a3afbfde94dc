// The enquiries domain: requests to suppliers for prices and lead times, their emails, responses and applying them.
// Its job (sending the emails) is imported with its actions, so every process that runs workers can run it.
import '../../src/domain/enquiries/jobs.js';
export * from './enquiries.js';
export * from './responses.js';
