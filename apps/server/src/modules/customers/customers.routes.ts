import { zEnvelope } from '@kisht/domain/common/envelope';
import {
  ZConsentText,
  ZConsentTextQuery,
  ZCustomerConsent,
  ZCustomerConsentAnswer,
  ZMyConsent,
  ZRecordConsentRequest,
} from '@kisht/domain/customers/consent.schema';
import {
  ZCreateCustomerRequest,
  ZCustomerDetails,
  ZCustomerIdQuery,
  ZCustomerListQuery,
  ZCustomerPage,
  ZEnrolmentQr,
  ZLoanDefaults,
  ZStatusChange,
  ZUpdateImeiRequest,
  ZUpdateStatusRequest,
} from '@kisht/domain/customers/customers.schema';
import { paths } from '@kisht/domain/paths';
import { ZDashboard, ZDashboardQuery } from '@kisht/domain/stats/stats.schema';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import { publicBaseUrl } from '../../lib/base-url';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { requireSession } from '../../plugins/auth';
import { issueEnrolmentQr } from '../devices/enrolment.service';
import { getConsentText, getCustomerConsent, listMyConsents, recordCustomerConsent } from './consent.service';
import {
  changeCustomerStatus,
  createCustomer,
  findCustomerForActor,
  getCustomerDetails,
  getDashboard,
  getLoanDefaults,
  getStatusHistory,
  listCustomers,
  updateCustomerImeis,
} from './customers.service';

export const customersRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    paths.customers.list,
    {
      schema: {
        tags: ['customers'],
        summary: 'Customers of the retailer (and their mini-retailers), newest first',
        querystring: ZCustomerListQuery,
        response: { 200: zEnvelope(ZCustomerPage) },
      },
    },
    async (request) => ok(await listCustomers(ctx.db, { actor: request.actor, query: request.query })),
  );

  r.post(
    paths.customers.create,
    {
      schema: {
        tags: ['customers'],
        summary: 'Add a customer, their phone and EMI schedule (status inactive)',
        body: ZCreateCustomerRequest,
        response: { 200: zEnvelope(ZCustomerDetails) },
      },
    },
    async (request) => {
      const id = await createCustomer(ctx.db, { actor: request.actor, request: request.body });
      return ok(await getCustomerDetails(ctx.db, request.actor, id), 'Customer added');
    },
  );

  r.get(
    paths.customers.details,
    {
      schema: {
        tags: ['customers'],
        summary: 'A customer with loan, EMI schedule and device state',
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZCustomerDetails) },
      },
    },
    async (request) => ok(await getCustomerDetails(ctx.db, request.actor, request.query.customer_id)),
  );

  /** A fresh enrolment QR for the actor's customer (404 for another's, ALREADY_ENROLLED once enrolled). */
  const issueQrFor = async (request: FastifyRequest & { query: { customer_id: number } }) => {
    const { customer, device } = await findCustomerForActor(ctx.db, request.actor, request.query.customer_id);
    const qr = await issueEnrolmentQr(ctx, {
      actor: request.actor,
      device,
      customer,
      baseUrl: publicBaseUrl(ctx.config, request),
    });
    return { customerId: customer.id, qr };
  };

  r.get(
    paths.customers.qrCode,
    {
      schema: {
        tags: ['customers'],
        summary:
          "Enrolment QR for an inactive customer, by device family (Android provisioning JSON, the link-based app's deep link, the Android Management API's QR, the Apple enrolment profile URL), with a one-time token",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZEnrolmentQr) },
      },
    },
    async (request) => ok((await issueQrFor(request)).qr),
  );

  r.get(
    paths.customers.qrCodePng,
    {
      schema: {
        tags: ['customers'],
        summary:
          'Enrolment QR as a PNG (512 px, error correction M) for an inactive customer: the provisioning JSON with a fresh one-time token',
        querystring: ZCustomerIdQuery,
      },
    },
    async (request, reply) => {
      const { customerId, qr } = await issueQrFor(request);
      const png = await QRCode.toBuffer(qr.payload, {
        type: 'png',
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 512,
      });
      return reply
        .type('image/png')
        .header('cache-control', 'no-store')
        .header('x-enrolment-expires-at', qr.expiresAt)
        .header('content-disposition', `inline; filename="kisht-enrolment-${customerId}.png"`)
        .send(png);
    },
  );

  r.post(
    paths.customers.updateStatus,
    {
      schema: {
        tags: ['customers'],
        summary: 'Deactivate or reactivate a customer, with a reason for the audit trail',
        body: ZUpdateStatusRequest,
        response: { 200: zEnvelope(ZCustomerDetails) },
      },
    },
    async (request) => {
      const { customer_id: customerId, status, reason } = request.body;
      await changeCustomerStatus(ctx.db, { actor: request.actor, customerId, status, reason });
      return ok(await getCustomerDetails(ctx.db, request.actor, customerId), 'Status changed');
    },
  );

  r.post(
    paths.customers.updateImei,
    {
      schema: {
        tags: ['customers'],
        summary: "Correct the phone's IMEIs and serial number (IMEI_EDIT)",
        body: ZUpdateImeiRequest,
        response: { 200: zEnvelope(ZCustomerDetails) },
      },
    },
    async (request) => {
      await updateCustomerImeis(ctx.db, { actor: request.actor, request: request.body });
      return ok(await getCustomerDetails(ctx.db, request.actor, request.body.customer_id), 'IMEI updated');
    },
  );

  r.get(
    paths.customers.statusHistory,
    {
      schema: {
        tags: ['customers'],
        summary: "A customer's status changes, newest first",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(z.array(ZStatusChange)) },
      },
    },
    async (request) => ok(await getStatusHistory(ctx.db, request.actor, request.query.customer_id)),
  );

  r.get(
    paths.customers.loanDefaults,
    {
      schema: {
        tags: ['customers'],
        summary: "The organisation's loan terms add_customer starts with (annual interest rate)",
        response: { 200: zEnvelope(ZLoanDefaults) },
      },
    },
    async (request) => ok(await getLoanDefaults(ctx.db, request.actor)),
  );

  r.get(
    paths.customers.consentText,
    {
      schema: {
        tags: ['customers'],
        summary:
          "The consent to remote locking in the customer's language, to show before they sign (with its version)",
        querystring: ZConsentTextQuery,
        response: { 200: zEnvelope(ZConsentText) },
      },
    },
    async (request) =>
      ok(
        await getConsentText(ctx.db, {
          actor: request.actor,
          customerId: request.query.customer_id,
          language: request.query.language,
        }),
      ),
  );

  r.get(
    paths.customers.consent,
    {
      schema: {
        tags: ['customers'],
        summary: "The customer's recorded consent to remote locking (null while none is recorded)",
        querystring: ZCustomerIdQuery,
        response: { 200: zEnvelope(ZCustomerConsentAnswer) },
      },
    },
    async (request) => ok(await getCustomerConsent(ctx.db, request.actor, request.query.customer_id)),
  );

  r.post(
    paths.customers.consent,
    {
      schema: {
        tags: ['customers'],
        summary:
          'Record the customer’s signed consent to remote locking (needed before the enrolment QR); recorded once, a repeat answers the consent that stands',
        body: ZRecordConsentRequest,
        response: { 200: zEnvelope(ZCustomerConsent) },
      },
    },
    async (request) => {
      const { consent, isNew } = await recordCustomerConsent(ctx.db, {
        actor: request.actor,
        request: request.body,
      });
      return ok(consent, isNew ? 'Consent recorded' : 'Consent was already recorded');
    },
  );

  r.get(
    paths.customers.myConsents,
    {
      schema: {
        tags: ['customers'],
        summary: "The logged-in customer's own consents to remote locking",
        response: { 200: zEnvelope(z.array(ZMyConsent)) },
      },
    },
    async (request) => ok(await listMyConsents(ctx.db, request.actor)),
  );

  r.get(
    paths.stats.dashboard,
    {
      schema: {
        tags: ['stats'],
        summary: 'Customer counts by status (all your retailers, or one with retailer_id)',
        querystring: ZDashboardQuery,
        response: { 200: zEnvelope(ZDashboard) },
      },
    },
    async (request) => ok(await getDashboard(ctx.db, request.actor, request.query.retailer_id)),
  );
};
