/** Every check, in the order reports list them. */
import type { Check } from '../model.js';
import { contentTypeConformance } from './content-type-conformance.js';
import { ignoredAuth } from './ignored-auth.js';
import { listPagesAdvance } from './list-pages-advance.js';
import { negativeDataRejection } from './negative-data-rejection.js';
import { notAServerError } from './not-a-server-error.js';
import { positiveDataAcceptance } from './positive-data-acceptance.js';
import { responseEchoesRequest } from './response-echoes-request.js';
import { ensureResourceAvailability, listHonoursParameters, missingResourceNotFound, resourceConsistency, useAfterFree } from './sequence-checks.js';
import { responseHeadersConformance } from './response-headers-conformance.js';
import { responseSchemaConformance } from './response-schema-conformance.js';
import { statusCodeConformance } from './status-code-conformance.js';

export const CHECKS: readonly Check[] = [
  notAServerError,
  statusCodeConformance,
  contentTypeConformance,
  responseHeadersConformance,
  responseSchemaConformance,
  positiveDataAcceptance,
  responseEchoesRequest,
  negativeDataRejection,
  ignoredAuth,
  ensureResourceAvailability,
  resourceConsistency,
  listHonoursParameters,
  useAfterFree,
  missingResourceNotFound,
  listPagesAdvance,
];
