import type { Entity } from '../../src/core/entities.js';
import { refTo } from '../../src/core/schema-marks.js';
import { API_TOKEN } from '../../src/domain/account/entity.js';
import { AUDIT_EVENT } from '../../src/domain/audit/entity.js';
import { CLIENT } from '../../src/domain/clients/entity.js';
import { CODE_SCHEME } from '../../src/domain/codes/entity.js';
import { LIBRARY, LIBRARY_PRODUCT } from '../../src/domain/libraries/entity.js';
import { MEMBER } from '../../src/domain/members/entity.js';
import { INVITATION } from '../../src/domain/invitations/entity.js';
import { PHOTOGRAPH } from '../../src/domain/photographs/entity.js';
import { OPERATION } from '../../src/jobs/entity.js';
import { PROJECT } from '../../src/domain/projects/entity.js';
import { CUSTOM_PROPERTY, PROPERTY_OPTION } from '../../src/domain/properties/entity.js';
import { LINE } from '../../src/domain/schedule/entity.js';
import { SECTION } from '../../src/domain/sections/entity.js';
import { SHARE } from '../../src/domain/shares/entity.js';
import { DOCUMENT, DOCUMENT_DELIVERY } from '../../src/domain/documents/entity.js';
import { SUPPLIER } from '../../src/domain/suppliers/entity.js';
import { TEMPLATE } from '../../src/domain/templates/entity.js';
import { UNIT } from '../../src/domain/units/entity.js';
import { IMPORT, IMPORT_MAPPING } from '../../src/domain/imports/entity.js';
import { SAVED_VIEW } from '../../src/domain/interface/entity.js';
import { SPECIFICATION } from '../../src/domain/specifications/entity.js';
import { ESTIMATE, ESTIMATE_LINE, ESTIMATE_REVISION } from '../../src/domain/estimates/entity.js';
import { PURCHASE_ORDER, PURCHASE_ORDER_LINE } from '../../src/domain/purchase-orders/entity.js';
import { Id } from '../../src/core/values.js';
import { PROJECT_CHARGE } from '../../src/domain/charges/entity.js';
import { ENQUIRY, ENQUIRY_RESPONSE } from '../../src/domain/enquiries/entity.js';

/**
 * Input fields that name a record. `invoke` proves each belongs where the request says (its project, the caller's
 * studio, the caller) before anything runs, and answers 404 otherwise; a field that names a record is declared so
 * here, never recognised by its name.
 */
export const Ref = (entity: Entity, opts: { within?: string; reads?: true } = {}) => refTo(Id, entity, opts);

export const ProjectId = Ref(PROJECT);
/**
 * A project a write only reads (a member's own layout of its schedule changes nothing in it): a view grant is enough,
 * and an archived project is no obstacle.
 */
export const ReadProjectId = Ref(PROJECT, { reads: true });
export const SectionId = Ref(SECTION);
export const LineId = Ref(LINE);
export const SupplierId = Ref(SUPPLIER);
export const UnitId = Ref(UNIT);
export const ClientId = Ref(CLIENT);
export const MemberId = Ref(MEMBER);
export const InvitationId = Ref(INVITATION);
export const AuditEventId = Ref(AUDIT_EVENT);
export const ApiTokenId = Ref(API_TOKEN);
export const CodeId = Ref(CODE_SCHEME);
export const LibraryId = Ref(LIBRARY);
export const LibraryProductId = Ref(LIBRARY_PRODUCT);
export const TemplateId = Ref(TEMPLATE);
export const CustomPropertyId = Ref(CUSTOM_PROPERTY);
export const PropertyOptionId = Ref(PROPERTY_OPTION);
export const PhotographId = Ref(PHOTOGRAPH);
export const OperationId = Ref(OPERATION);
export const ShareId = Ref(SHARE);
export const ImportId = Ref(IMPORT);
export const ImportMappingId = Ref(IMPORT_MAPPING);
/** A section of the project named by `targetProjectId` (copies between projects). */
export const TargetSectionId = Ref(SECTION, { within: 'targetProjectId' });
export const DocumentId = Ref(DOCUMENT);
export const DeliveryId = Ref(DOCUMENT_DELIVERY);
export const SavedViewId = Ref(SAVED_VIEW);
export const ProjectChargeId = Ref(PROJECT_CHARGE);
export const EnquiryId = Ref(ENQUIRY);
export const EnquiryResponseId = Ref(ENQUIRY_RESPONSE);
export const SpecificationId = Ref(SPECIFICATION);
export const EstimateId = Ref(ESTIMATE);
export const EstimateLineId = Ref(ESTIMATE_LINE);
export const EstimateRevisionId = Ref(ESTIMATE_REVISION);
export const PurchaseOrderId = Ref(PURCHASE_ORDER);
export const PurchaseOrderLineId = Ref(PURCHASE_ORDER_LINE);
