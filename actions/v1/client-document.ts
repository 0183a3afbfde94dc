import { bindResource } from '../../src/core/define-action.js';
import { getProjectClientDocument } from '../client-document/document.js';

/**
 * The `/v1` client document: its procedure twin bound to the seed's path. Tagged by content (it has no version of its
 * own), leaving out the read time, so If-None-Match answers 304 while nothing it shows has changed.
 */
export const getClientDocument = bindResource(getProjectClientDocument, {
  name: 'get_client_document',
  http: {
    method: 'GET',
    path: '/projects/{projectId}/client-document',
    etag: 'content',
    etagIgnores: ['piecesAsOf'],
  },
  example: { projectId: '0000000000000000000000000a' },
});
