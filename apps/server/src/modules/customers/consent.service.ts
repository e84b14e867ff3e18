import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type {
  TConsentText,
  TCustomerConsent,
  TMyConsent,
  ZRecordConsentRequest,
} from '@kisht/domain/customers/consent.schema';
import {
  CONSENT_TEXT_VERSION,
  formatMobileForText,
  renderConsentText,
  type TConsentLanguage,
} from '@kisht/domain/customers/consent-texts';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import { findUser } from '../auth/auth.service';
import { findProduct } from '../catalogue/catalogue.service';
import { getOrgAppConfig } from '../orgs/orgs.service';
import { findCustomerForActor } from './../scope/scope.service';
import * as repo from './consent.repository';

type TCustomerRow = Awaited<ReturnType<typeof findCustomerForActor>>['customer'];
type TProductRow = Awaited<ReturnType<typeof findCustomerForActor>>['product'];

/**
 * The consent text of CONSENT_TEXT_VERSION for this customer in `language`: their name and phone,
 * the retailer who sold it (name and mobile, whom to pay and ask), and the lender (the
 * organisation's company name).
 */
const consentTextFor = async (
  db: DbOrTx,
  customer: Pick<TCustomerRow, 'orgId' | 'retailerId' | 'firstName' | 'lastName'>,
  product: Pick<TProductRow, 'brand' | 'name'>,
  language: TConsentLanguage,
): Promise<string> => {
  const [retailer, org] = await Promise.all([
    repo.findUserContact(db, customer.retailerId),
    getOrgAppConfig(db, customer.orgId),
  ]);
  return renderConsentText(language, {
    customerName: `${customer.firstName} ${customer.lastName}`,
    productName: `${product.brand} ${product.name}`,
    retailerName: retailer?.name ?? org.orgName,
    retailerPhone: retailer ? formatMobileForText(retailer.mobile) : '',
    orgName: org.companyName,
  });
};

/**
 * The consent text a customer not yet created will be shown (the partner API, issue 30): the same
 * text consentTextFor renders once the loan exists, with the actor as the selling shop. Throws
 * NOT_FOUND (field product_id) for a product outside the actor's organisation.
 */
export const getConsentTextForNewLoan = async (
  db: DbOrTx,
  actor: TActor,
  query: { language: TConsentLanguage; productId: number; firstName: string; lastName: string },
): Promise<TConsentText> => {
  const product = await findProduct(db, actor, query.productId);
  if (!product) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Product not found', [
      { field: 'product_id', message: 'Choose a product from the catalogue' },
    ]);
  }
  const text = await consentTextFor(
    db,
    { orgId: actor.orgId, retailerId: actor.userId, firstName: query.firstName, lastName: query.lastName },
    product,
    query.language,
  );
  return { language: query.language, textVersion: CONSENT_TEXT_VERSION, text };
};

const toConsent = (row: NonNullable<Awaited<ReturnType<typeof repo.findConsent>>>): TCustomerConsent => ({
  customerId: row.customerId,
  language: row.language as TConsentLanguage,
  textVersion: row.textVersion,
  text: row.text,
  recordedByName: row.recordedByName,
  consentedAt: row.consentedAt.toISOString(),
  signature:
    row.signatureMediaId !== null && row.signaturePath !== null
      ? { mediaId: row.signatureMediaId, imageName: row.signaturePath }
      : null,
});

/**
 * consent_text: what the customer is asked to agree to before their phone is enrolled, in
 * `language`, with its version (send it back when recording). Throws CUSTOMER_NOT_FOUND outside
 * the actor's scope (other organisations and sibling mini-retailers too), FORBIDDEN for customers.
 */
export const getConsentText = async (
  db: DbOrTx,
  options: { actor: TActor; customerId: number; language: TConsentLanguage },
): Promise<TConsentText> => {
  const { customer, product } = await findCustomerForActor(db, options.actor, options.customerId);
  return {
    language: options.language,
    textVersion: CONSENT_TEXT_VERSION,
    text: await consentTextFor(db, customer, product, options.language),
  };
};

/**
 * The customer's recorded consent to remote locking, or null while none is recorded. Throws
 * CUSTOMER_NOT_FOUND outside the actor's scope, FORBIDDEN for customers (they read listMyConsents).
 */
export const getCustomerConsent = async (
  db: DbOrTx,
  actor: TActor,
  customerId: number,
): Promise<TCustomerConsent | null> => {
  const { customer } = await findCustomerForActor(db, actor, customerId);
  const row = await repo.findConsent(db, customer.orgId, customer.id);
  return row ? toConsent(row) : null;
};

/**
 * Writes the customer's consent (the current text version) and its audit entry in one
 * transaction, once: a consent already recorded is kept and nothing is written. Answers whether
 * this call recorded it. Either the app's signature or the lender's evidence reference.
 */
const insertConsentOnce = (
  db: Db,
  actor: TActor,
  customer: { orgId: number; id: number },
  consent: {
    language: TConsentLanguage;
    text: string;
    signatureMediaId: number | null;
    evidenceReference: string | null;
  },
): Promise<boolean> =>
  db.transaction(async (tx) => {
    const inserted = await repo.insertConsent(tx, {
      orgId: customer.orgId,
      customerId: customer.id,
      language: consent.language,
      textVersion: CONSENT_TEXT_VERSION,
      text: consent.text,
      signatureMediaId: consent.signatureMediaId,
      evidenceReference: consent.evidenceReference,
      recordedBy: actor.userId,
    });
    if (!inserted) return false;
    await insertAudit(tx, {
      orgId: customer.orgId,
      actorUserId: actor.userId,
      action: 'customer.consent',
      entity: 'customer',
      entityId: String(customer.id),
      details: {
        language: consent.language,
        textVersion: CONSENT_TEXT_VERSION,
        ...(consent.signatureMediaId === null ? {} : { signatureMediaId: consent.signatureMediaId }),
        ...(consent.evidenceReference === null ? {} : { evidenceReference: consent.evidenceReference }),
      },
    });
    return true;
  });

/**
 * Records a customer's consent to remote locking, which the enrolment QR needs (design §5): the
 * text of `textVersion` in `language`, rendered again here (never taken from the client), who
 * recorded it (the actor), when (now), and the signature (a live customer_signature of this
 * customer), with an audit entry, in one transaction.
 *
 * A consent is recorded once and never changed: a repeat (a retry after a lost answer, a second
 * tap) writes nothing and answers the consent that stands, with `isNew` false, so a flaky network
 * never leaves the retailer stuck and a signed record is never replaced.
 *
 * Throws CUSTOMER_NOT_FOUND outside the actor's scope, VALIDATION_FAILED naming textVersion for a
 * text version other than CONSENT_TEXT_VERSION (the text shown was not the current one), NOT_FOUND
 * naming signature_media_id when no such live file of this customer exists, and VALIDATION_FAILED
 * naming it when that file is not a customer signature.
 */
export const recordCustomerConsent = async (
  db: Db,
  options: { actor: TActor; request: z.output<typeof ZRecordConsentRequest> },
): Promise<{ consent: TCustomerConsent; isNew: boolean }> => {
  const { actor, request } = options;
  const { customer, product } = await findCustomerForActor(db, actor, request.customer_id);
  requireCurrentConsentText(request.textVersion);
  const signature = await repo.findLiveMediaOfCustomer(
    db,
    customer.orgId,
    customer.id,
    request.signature_media_id,
  );
  if (!signature) {
    throw new AppError(AppErrorCode.NOT_FOUND, 'Signature not found', [
      { field: 'signature_media_id', message: 'No such signature for this customer' },
    ]);
  }
  if (signature.kind !== 'customer_signature') {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'This file is not the customer’s signature', [
      { field: 'signature_media_id', message: 'Choose the customer’s signature' },
    ]);
  }
  const text = await consentTextFor(db, customer, product, request.language);
  const isNew = await insertConsentOnce(db, actor, customer, {
    language: request.language,
    text,
    signatureMediaId: signature.id,
    evidenceReference: null,
  });
  const stored = await repo.findConsent(db, customer.orgId, customer.id);
  return { consent: toConsent(stored!), isNew };
};

/** Throws VALIDATION_FAILED naming `field` unless `textVersion` is the current consent text's. */
export const requireCurrentConsentText = (textVersion: string, field = 'textVersion'): void => {
  if (textVersion !== CONSENT_TEXT_VERSION) {
    throw new AppError(AppErrorCode.VALIDATION_FAILED, 'The consent text has changed', [
      { field, message: `Show the customer the current text (${CONSENT_TEXT_VERSION})` },
    ]);
  }
};

/**
 * Records the consent a lender took itself (its e-sign or signed form) for a customer created
 * through the partner API (issue 30): the text rendered from the version shown, and the lender's
 * `reference` to the signed record instead of a signature taken in the app; audited. Recorded
 * once, like recordCustomerConsent. Throws CUSTOMER_NOT_FOUND outside the actor's scope and
 * VALIDATION_FAILED (field consent.textVersion) for a text version other than the current one.
 */
export const recordLenderConsent = async (
  db: Db,
  options: {
    actor: TActor;
    customerId: number;
    consent: { language: TConsentLanguage; textVersion: string; reference: string };
  },
): Promise<void> => {
  const { actor, consent } = options;
  requireCurrentConsentText(consent.textVersion, 'consent.textVersion');
  const { customer, product } = await findCustomerForActor(db, actor, options.customerId);
  const text = await consentTextFor(db, customer, product, consent.language);
  await insertConsentOnce(db, actor, customer, {
    language: consent.language,
    text,
    signatureMediaId: null,
    evidenceReference: consent.reference,
  });
};

/** Whether the customer's consent to remote locking is recorded (the enrolment QR needs it). */
export const hasRecordedConsent = (db: DbOrTx, orgId: number, customerId: number): Promise<boolean> =>
  repo.hasConsent(db, orgId, customerId);

/**
 * The logged-in customer's own consents (their loans in the organisation, found by their mobile),
 * each with the phone it is about and the signature as a data URL. Throws FORBIDDEN for anyone but
 * a customer user.
 */
export const listMyConsents = async (db: DbOrTx, actor: TActor): Promise<TMyConsent[]> => {
  if (actor.userType !== 'customer') {
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only customers have their own consents here');
  }
  const user = await findUser(db, actor.userId);
  if (!user) throw new AppError(AppErrorCode.SESSION_INVALID, 'Your session has ended. Please log in again');
  const rows = await repo.findConsentsOfMobile(db, actor.orgId, user.mobile);
  return rows.map((row) => {
    const { signature: _signature, ...consent } = toConsent(row);
    return {
      ...consent,
      productName: `${row.productBrand} ${row.productName}`,
      signatureDataUrl:
        row.signatureContent && row.signatureMimeType
          ? `data:${row.signatureMimeType};base64,${Buffer.from(row.signatureContent).toString('base64')}`
          : null,
    };
  });
};
