import { ZCustomerIdQuery } from '../customers/customers.schema';
import { ZCustomerMedia, ZDeleteMediaRequest, ZMedia, ZMediaQuery } from '../media/media.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The customer files routes of the wire contract (contract/define.ts; spec §3, design §6): photo,
 * invoice, documents and signatures. Session required; scoped to the customers the user may see.
 */
export const mediaContract = defineRoutes({
  /** Upload the customer photo (customer_profile) or invoice attachment (multipart: customer_id, kind, file). */
  uploadImage: { method: 'POST', path: paths.customers.uploadImage, body: 'multipart', response: ZMedia },
  /** Upload a customer document (multipart: customer_id, document_type, file). */
  uploadDocument: { method: 'POST', path: paths.customers.documents, body: 'multipart', response: ZMedia },
  /** Upload the customer or witness signature (multipart: customer_id, kind, file; PNG). */
  uploadSignature: { method: 'POST', path: paths.customers.signature, body: 'multipart', response: ZMedia },
  /** A customer's photo, invoice, signatures and documents (customer_documents). */
  customerMedia: {
    method: 'GET',
    path: paths.customers.documents,
    query: ZCustomerIdQuery,
    response: ZCustomerMedia,
  },
  /** Delete one of a customer's files; answers the customer's files left. */
  deleteDocument: {
    method: 'POST',
    path: paths.customers.deleteDocument,
    body: ZDeleteMediaRequest,
    response: ZCustomerMedia,
  },
  /**
   * A stored file's bytes by image_name (a download, its sniffed content type). Without image_name
   * the same route answers the envelope of a TMediaPage (the files the user may see, metadata
   * only): one route answering two ways, so the contract names the download and the page schema
   * stays media.schema's ZMediaPage.
   */
  file: { method: 'GET', path: paths.media.file, query: ZMediaQuery, response: 'file' },
});
