/**
 * Object-level authorisation (BOLA, OWASP API Security Top 10 2023 API1) as a matrix generated from
 * the app's own OpenAPI document (issue 12): every operation behind a session that takes an id
 * (query, body, multipart field, alone or in a list) is called with another tenant's real objects
 * by four actors:
 *
 *   - another organisation's retailer,
 *   - a sibling mini-retailer (same retailer, other subtree),
 *   - another customer of the same organisation,
 *   - a distributor of another branch of the same organisation's network (issue 30),
 *
 * and must answer 404 (or 403 where the route is not for that kind of user), write nothing (a
 * trigger log of every row written) and show none of the victim's data. Routes taking several ids
 * also get each id the victim's with the others the actor's own (an emi_id of another customer
 * under the actor's own customer_id). Controls prove each generated request is well-formed: the
 * owner, and each actor with its own ids, get past the id checks (2xx, or 409/422 for the state of
 * the object). A route that takes an id this file cannot fill fails the coverage test by name, so
 * a new route is covered without anyone remembering to.
 */
import { AppType } from '@kisht/domain/common/enums';
import { ID_MAX } from '@kisht/domain/common/identifiers';
import { CONSENT_TEXT_VERSION } from '@kisht/domain/customers/consent-texts';
import { COMMAND_CATALOGUE } from '@kisht/domain/devices/command-catalogue';
import { DEFAULT_LOCK_ACCESS, DEFAULT_USER_ACCESS } from '@kisht/domain/devices/devices.schema';
import { deviceControlPath, paths } from '@kisht/domain/paths';
import { and, asc, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emis,
  financers,
  keyRequests,
  notifications,
  partnerApiKeys,
  plans,
  products,
  signupRequests,
  users,
  webhookEndpoints,
  webhookMessages,
} from '../db/schema';
import { createCustomerWithLoan, createUser } from '../db/seed/factories';
import {
  DEMO_ADMIN_MOBILE,
  DEMO_ORG_ID,
  DEMO_RETAILER_MOBILE,
  DEMO_SUPER_DISTRIBUTOR_MOBILE,
  SECOND_ORG_ID,
  SECOND_RETAILER_MOBILE,
} from '../db/seed/seed';
import { describeWrites, type TWriteWatch, watchWrites } from '../test/db-writes';
import { customerBody, distinctAddresses, freshImei, PNG_1X1 } from '../test/fixtures';
import { bearer, createTestApp } from '../test/harness';
import type { TJsonSchema } from './json-schema';
import {
  checkUploadRoutes,
  idParameters,
  listOperations,
  type TIdParameter,
  type TOperation,
} from './openapi-operations';

const t = await createTestApp({
  // Fixed answers: no load shedding on a busy CI machine.
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  LOAD_SHED_MAX_EVENT_LOOP_UTILIZATION: '0',
  // Each actor gets a fresh OTP of its own for every OTP-taking case (~10 a number), past the daily cap.
  OTP_DAILY_LIMIT_PER_MOBILE: '1000',
});
await t.app.ready();
afterAll(() => t.close());
const db = t.app.ctx.db;

/** Each request from its own address, so per-IP rate limits never answer for the route. */
const nextAddress = distinctAddresses();

type TRequest = {
  method: TOperation['method'];
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
};

const send = (request: TRequest, token?: string) =>
  t.app.inject({
    method: request.method,
    url: request.url,
    remoteAddress: nextAddress(),
    headers: { ...(request.headers ?? {}), ...(token ? bearer(token) : {}) },
    ...(request.payload === undefined ? {} : { payload: request.payload as string }),
  });

// ---------------------------------------------------------------------------------------------
// The operations, and which of them this matrix drives.

const operations = listOperations(t.app);

/** Operations that answer 511 without a session: every object behind them belongs to someone. */
const sessionOperations: TOperation[] = [];
const publicOperations: TOperation[] = [];
for (const operation of operations) {
  const response = await send({ method: operation.method, url: operation.path });
  (response.statusCode === 511 ? sessionOperations : publicOperations).push(operation);
}

/**
 * Who an object belongs to, which decides who may not reach it: `subtree` objects (a customer and
 * everything of theirs) belong to one retailer's subtree; `user` objects (a session) to one
 * user; `organisation` objects (catalogue) are shared by everyone in the organisation, so only
 * another organisation's retailer, and a customer, must not use them.
 */
type TScope = 'subtree' | 'user' | 'organisation';
type TIdKind =
  | 'customer'
  | 'emi'
  | 'media'
  | 'mediaFile'
  | 'signature'
  | 'command'
  | 'session'
  | 'batch'
  | 'product'
  | 'financer'
  | 'miniRetailer'
  | 'paymentOrder'
  | 'gatewayOrder'
  | 'retailer'
  | 'signupRequest'
  | 'plan'
  | 'activation'
  | 'notification'
  | 'advertisement'
  | 'adSend'
  | 'webhookEndpoint'
  | 'webhookMessage'
  | 'partnerKey'
  | 'keyRequest';

/**
 * The id parameters this matrix knows how to fill, by name, with the kind of object each names.
 * A new id parameter needs an entry here and, for a new kind, a factory in `objectsOf`.
 */
const ID_KINDS: Record<string, TIdKind> = {
  customer_id: 'customer',
  customer_ids: 'customer',
  emi_id: 'emi',
  emi_ids: 'emi',
  media_id: 'media',
  image_name: 'mediaFile',
  signature_media_id: 'signature',
  command_id: 'command',
  session_id: 'session',
  batch_id: 'batch',
  productId: 'product',
  financerId: 'financer',
  // A shop user: the actor itself, or a retailer's mini-retailer (retailers, ledger, customer filters).
  user_id: 'miniRetailer',
  retailer_id: 'miniRetailer',
  customerId: 'customer',
  order_id: 'paymentOrder',
  razorpay_order_id: 'gatewayOrder',
  // Keys (issue 13): the mini-retailer of a transfer, the retailer an admin credits.
  userId: 'miniRetailer',
  retailerId: 'retailer',
  // Joining (issue 13): the join request the organisation admin decides (paths.admin.decideSignup).
  id: 'signupRequest',
  // Protection plans (issue 14): a plan of the catalogue, the products it covers, a plan sold.
  plan_id: 'plan',
  product_id: 'product',
  productIds: 'product',
  activation_id: 'activation',
  // In-app notifications (issue 16): the ones the actor marks read (paths.notifications.read).
  ids: 'notification',
  // Advertisements (issue 16): an ad of the actor, one of its sends (paths.advertisements).
  advertisement_id: 'advertisement',
  send_id: 'adSend',
  // Outbound webhooks (issue 30): the organisation admin's endpoints and their messages.
  endpoint_id: 'webhookEndpoint',
  message_id: 'webhookMessage',
  // Partner API keys (issue 30): the organisation admin's keys.
  key_id: 'partnerKey',
  // Key requests up the chain (issue 30): a shop's request to its parent.
  request_id: 'keyRequest',
  // The distribution network (issue 30): the node whose children a parent looks at.
  parent_id: 'retailer',
};
const SCOPES: Record<TIdKind, TScope> = {
  customer: 'subtree',
  emi: 'subtree',
  media: 'subtree',
  mediaFile: 'subtree',
  signature: 'subtree',
  command: 'subtree',
  batch: 'subtree',
  session: 'user',
  product: 'organisation',
  financer: 'organisation',
  miniRetailer: 'subtree',
  paymentOrder: 'user',
  gatewayOrder: 'user',
  retailer: 'subtree',
  signupRequest: 'subtree',
  plan: 'organisation',
  activation: 'subtree',
  notification: 'user',
  advertisement: 'subtree',
  adSend: 'subtree',
  webhookEndpoint: 'organisation',
  webhookMessage: 'organisation',
  partnerKey: 'organisation',
  keyRequest: 'subtree',
};

/**
 * Routes only a mini-retailer's parent retailer may call (updateUsers): the control's owner is the
 * demo retailer, the parent of the victim mini-retailer.
 */
const PARENT_ONLY_ROUTES = new Set([
  `POST ${paths.retailers.update}`,
  `POST ${paths.ledger.transfer}`,
  `POST ${paths.keyRequests.decide}`,
]);
/** Routes only the organisation admin may call (credit keys): the control's owner is the demo admin. */
const ADMIN_ONLY_ROUTES = new Set([
  `POST ${paths.admin.creditKeys}`,
  `POST ${paths.admin.decideSignup}`,
  `PUT ${paths.plans.list}`,
  `DELETE ${paths.webhooks.endpoints}`,
  `POST ${paths.webhooks.rotate}`,
  `POST ${paths.webhooks.enable}`,
  `GET ${paths.webhooks.deliveries}`,
  `POST ${paths.webhooks.resend}`,
  `POST ${paths.partnerKeys.keys}`,
  `DELETE ${paths.partnerKeys.keys}`,
  // The network view: the organisation admin (or a distributor above the node) looks below a node.
  `GET ${paths.network.list}`,
]);

/**
 * Routes only a customer user may call (their own loan): the control's owner is the victim
 * customer's own login, and every other actor is refused.
 */
const CUSTOMER_ONLY_ROUTES = new Set([`POST ${paths.payments.instalment}`]);

/**
 * The paid checkout of each user's latest key order (what the gateway's checkout hands back), by
 * user id: the checkout callback's payment id and signature come from it.
 */
const checkoutsByUser = new Map<number, Record<string, string>>();

/**
 * Id parameters of the public operations (no session, so no actor to test): the organisation
 * a login or a public config is for is chosen by the caller by design (spec §2, §9).
 */
const PUBLIC_TENANT_SELECTORS = new Set(['orgId', 'org_id']);

// ---------------------------------------------------------------------------------------------
// Actors.

type TActor = {
  label: string;
  userId: number;
  orgId: number;
  mobile: string;
  token: string;
};

/** Every spec §6 access flag allowed, so a refusal can only come from scoping, not from access flags. */
const FULL_ACCESS = {
  userAccess: Object.fromEntries(Object.keys(DEFAULT_USER_ACCESS).map((k) => [k, '1' as const])),
  lockAccess: Object.fromEntries(Object.keys(DEFAULT_LOCK_ACCESS).map((k) => [k, '1' as const])),
};

const userByMobile = async (orgId: number, mobile: string) => {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.mobile, mobile)))
    .orderBy(sql`${users.userType} = 'customer'`);
  return row!;
};

const loginAs = async (label: string, orgId: number, mobile: string): Promise<TActor> => {
  const user = await userByMobile(orgId, mobile);
  return { label, userId: user.id, orgId, mobile, token: await t.tokenFor(orgId, mobile) };
};

/**
 * One login per user for the owners of parent-only and admin-only routes: a login per route would
 * pass the OTP routes' per-address limit (10 a minute) as more such routes are added.
 */
const ownerLogins = new Map<string, Promise<TActor>>();
const loginOnce = (label: string, orgId: number, mobile: string): Promise<TActor> => {
  const key = `${orgId}:${mobile}`;
  let login = ownerLogins.get(key);
  if (!login) {
    login = loginAs(label, orgId, mobile);
    ownerLogins.set(key, login);
  }
  return login;
};

const firstProduct = async (orgId: number) =>
  (await db.select().from(products).where(eq(products.orgId, orgId)).orderBy(asc(products.id)).limit(1))[0]!;

let owner: TActor;
let otherOrgRetailer: TActor;
let siblingMini: TActor;
let otherCustomer: TActor;
let otherBranchDistributor: TActor;
let attackers: TActor[];
let writes: TWriteWatch;

/** Waits until nothing has been written for 150 ms (background work a setup request started). */
const untilNothingWritten = async () => {
  const deadline = Date.now() + 10_000;
  let last = await writes.mark();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const now = await writes.mark();
    if (now === last) return;
    last = now;
  }
  throw new Error('background writes did not settle in 10 s');
};

beforeAll(async () => {
  const ravi = await userByMobile(DEMO_ORG_ID, DEMO_RETAILER_MOBILE);
  // Two mini-retailers under the demo retailer: the victim objects are the first one's.
  await createUser(db, {
    orgId: DEMO_ORG_ID,
    mobile: '+919876500001',
    name: 'Ravi Mobiles – Bandra',
    userType: 'miniretailer',
    parentId: ravi.id,
    access: FULL_ACCESS,
  });
  await createUser(db, {
    orgId: DEMO_ORG_ID,
    mobile: '+919876500002',
    name: 'Ravi Mobiles – Dadar',
    userType: 'miniretailer',
    parentId: ravi.id,
    access: FULL_ACCESS,
  });
  await db.update(users).set({ access: FULL_ACCESS }).where(eq(users.mobile, SECOND_RETAILER_MOBILE));
  // A customer of the demo retailer, who logs in to see their own loan.
  await createCustomerWithLoan(db, {
    orgId: DEMO_ORG_ID,
    retailerId: ravi.id,
    product: await firstProduct(DEMO_ORG_ID),
    firstName: 'Anita',
    lastName: 'Rao',
    mobile: '+919811100077',
    status: 1,
    isEnrolled: true,
  });
  owner = await loginAs('owner (mini-retailer)', DEMO_ORG_ID, '+919876500001');
  otherOrgRetailer = await loginAs("another organisation's retailer", SECOND_ORG_ID, SECOND_RETAILER_MOBILE);
  siblingMini = await loginAs('a sibling mini-retailer', DEMO_ORG_ID, '+919876500002');
  otherCustomer = await loginAs('another customer of the organisation', DEMO_ORG_ID, '+919811100077');
  // The seeded super-distributor: the victim's retailer is the organisation's own, not in its subtree.
  otherBranchDistributor = await loginAs(
    'a distributor of another branch',
    DEMO_ORG_ID,
    DEMO_SUPER_DISTRIBUTOR_MOBILE,
  );
  attackers = [otherOrgRetailer, siblingMini, otherCustomer, otherBranchDistributor];
  writes = await watchWrites(db, { ignoreColumns: { sessions: ['last_seen_at'] } });
});

// ---------------------------------------------------------------------------------------------
// Objects: a fresh set per route, built lazily for the kinds the route takes.

type TObjects = {
  owner: TActor;
  /** Strings that only this set's objects contain (name, mobile, IMEIs): none may reach another actor. */
  markers: string[];
  get: (kind: TIdKind) => Promise<string | number>;
};

let objectSerial = 0;
const DAY_MS = 86_400_000;

/** Checks a setup call answered 200 and returns its data. */
const setupData = async (what: string, request: TRequest, token: string) => {
  const response = await send(request, token);
  if (response.statusCode !== 200)
    throw new Error(`setup: ${what} answered ${response.statusCode}: ${response.body}`);
  return response.json().data;
};

const multipart = (fields: Record<string, string | number>, file?: Uint8Array) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  if (file)
    form.append('file', new Blob([file as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'upload.png');
  return form;
};

const objectsOf = (actor: TActor): TObjects => {
  objectSerial += 1;
  const serial = objectSerial;
  const firstName = `Bolavictim${String.fromCharCode(97 + (serial % 26))}${serial}`;
  const mobile = `+9190000${String(serial).padStart(5, '0')}`;
  const imei1 = freshImei();
  const cache = new Map<TIdKind, Promise<string | number>>();
  let customer: Promise<number> | undefined;
  const customerId = () => {
    customer ??= (async () => {
      const made = await createCustomerWithLoan(db, {
        orgId: actor.orgId,
        retailerId: actor.userId,
        product: await firstProduct(actor.orgId),
        firstName,
        lastName: 'Tenant',
        mobile,
        imei1,
        status: 1,
        isEnrolled: true,
        // 50 days old: the first instalment is overdue, so locks, penalties and alerts apply.
        createdAt: new Date(Date.now() - 50 * DAY_MS),
      });
      return made.customer.id;
    })();
    return customer;
  };
  let order: Promise<{ orderId: string; gatewayOrderId: string }> | undefined;
  /** A key order of the actor's, paid at the (in-process fake) gateway as its checkout does. */
  const keyOrder = () => {
    order ??= (async () => {
      const checkout = await setupData(
        'key order',
        { method: 'POST', url: paths.payments.create, payload: { appType: 0, quantity: 1 } },
        actor.token,
      );
      const paid = await fetch(new URL('/v1/checkout/pay', checkout.checkoutScriptUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: checkout.keyId, order_id: checkout.gatewayOrderId, outcome: 'pay' }),
      });
      checkoutsByUser.set(actor.userId, (await paid.json()) as Record<string, string>);
      return { orderId: checkout.orderId as string, gatewayOrderId: checkout.gatewayOrderId as string };
    })();
    return order;
  };
  let upload: Promise<{ id: number; imageName: string }> | undefined;
  const media = () => {
    upload ??= (async () =>
      setupData(
        'document upload',
        {
          method: 'POST',
          url: paths.customers.documents,
          payload: multipart({ customer_id: await customerId(), document_type: 'other' }, PNG_1X1),
        },
        actor.token,
      ))();
    return upload;
  };
  const build = async (kind: TIdKind): Promise<string | number> => {
    switch (kind) {
      case 'customer':
        return customerId();
      case 'emi': {
        const [row] = await db
          .select({ id: emis.id })
          .from(emis)
          .where(eq(emis.customerId, await customerId()))
          .orderBy(asc(emis.instalmentNo))
          .limit(1);
        return row!.id;
      }
      case 'media':
        return (await media()).id;
      case 'mediaFile':
        return (await media()).imageName;
      case 'signature': {
        const signature = await setupData(
          'signature upload',
          {
            method: 'POST',
            url: paths.customers.signature,
            payload: multipart({ customer_id: await customerId(), kind: 'customer_signature' }, PNG_1X1),
          },
          actor.token,
        );
        return signature.id as number;
      }
      case 'command': {
        // Scheduled a day ahead, so it stays pending (cancellable) whatever else happens.
        const command = await setupData(
          'scheduled reboot',
          {
            method: 'POST',
            url: deviceControlPath('reboot'),
            payload: { customer_id: await customerId(), run_at: new Date(Date.now() + DAY_MS).toISOString() },
          },
          actor.token,
        );
        return command.id as string;
      }
      case 'batch': {
        const progress = await setupData(
          'bulk unlock',
          {
            method: 'POST',
            url: paths.devices.bulkLockUnlock,
            payload: { action: 'unlock', customer_ids: [await customerId()] },
          },
          actor.token,
        );
        return progress.batchId as string;
      }
      case 'session': {
        // Another session of the same user (logging out the acting one would end the test's login).
        const token = await t.tokenFor(actor.orgId, actor.mobile);
        return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string;
      }
      case 'miniRetailer': {
        // The actor's own shop user (the owner is a mini-retailer of the demo retailer), with a
        // profile image, so the image route has bytes to answer.
        await setupData(
          'profile image upload',
          { method: 'POST', url: paths.users.profileImage, payload: multipart({}, PNG_1X1) },
          actor.token,
        );
        return actor.userId;
      }
      case 'product':
        return (await firstProduct(actor.orgId)).id;
      case 'financer': {
        const [row] = await db.select().from(financers).where(eq(financers.orgId, actor.orgId)).limit(1);
        return row!.id;
      }
      case 'paymentOrder':
        return (await keyOrder()).orderId;
      case 'gatewayOrder':
        return (await keyOrder()).gatewayOrderId;
      case 'signupRequest': {
        // A pending join request to the actor's organisation (only its admin may decide it).
        const [row] = await db
          .insert(signupRequests)
          .values({
            orgId: actor.orgId,
            name: firstName,
            shopName: `${firstName} Mobiles`,
            mobile,
            city: 'Pune',
          })
          .returning({ id: signupRequests.id });
        return row!.id;
      }
      case 'plan': {
        // An extended-warranty plan of the actor's organisation (every route taking a plan accepts it).
        const [row] = await db
          .select({ id: plans.id })
          .from(plans)
          .where(and(eq(plans.orgId, actor.orgId), eq(plans.appType, AppType.EXTENDED_WARRANTY)))
          .orderBy(asc(plans.id))
          .limit(1);
        return row!.id;
      }
      case 'activation': {
        // An extended warranty the actor sold on its own customer's phone.
        const sold = await setupData(
          'extended warranty sale',
          {
            method: 'POST',
            url: paths.plans.sell,
            payload: {
              firstName,
              mobile: mobile.slice(3),
              plan_id: await build('plan'),
              customer_id: await customerId(),
            },
          },
          actor.token,
        );
        return sold[0].activation.id as number;
      }
      case 'notification': {
        // One of the actor's own notifications, about the actor's customer.
        const [row] = await db
          .insert(notifications)
          .values({
            orgId: actor.orgId,
            userId: actor.userId,
            kind: 'sim_changed',
            params: { customerName: `${firstName} Tenant`, operator: 'Airtel' },
            customerId: await customerId(),
          })
          .returning({ id: notifications.id });
        return row!.id;
      }
      case 'advertisement': {
        // An ad of the actor with an image, so the image route has bytes to answer.
        const ad = await setupData(
          'advertisement upload',
          {
            method: 'POST',
            url: paths.advertisements.upload,
            payload: multipart({ title: `${firstName} offer` }, PNG_1X1),
          },
          actor.token,
        );
        return ad.id as number;
      }
      case 'adSend': {
        const progress = await setupData(
          'advertisement send',
          {
            method: 'POST',
            url: paths.advertisements.send,
            payload: { advertisement_id: await build('advertisement'), customer_ids: [await customerId()] },
          },
          actor.token,
        );
        // The send's commands go out after its answer; done before a probe, so what they write
        // is not taken for the probe's (on PostgreSQL they may still be under way).
        await untilNothingWritten();
        return progress.id as string;
      }
      case 'webhookEndpoint': {
        // A receiver of the actor's organisation (only its admin manages it).
        const [row] = await db
          .insert(webhookEndpoints)
          .values({
            orgId: actor.orgId,
            url: `https://${firstName.toLowerCase()}.example/hook`,
            description: `${firstName} lender`,
            events: ['device.locked'],
            secret: 'whsec_QkVPTEFCT0xBQk9MQUJPTEFCT0xBQk9MQQ==',
          })
          .returning({ id: webhookEndpoints.id });
        return row!.id;
      }
      case 'webhookMessage': {
        // A message to that receiver, already delivered (a resend queues it again).
        const id = `msg_${String(serial).padStart(26, '0')}`;
        await db.insert(webhookMessages).values({
          id,
          orgId: actor.orgId,
          endpointId: Number(await build('webhookEndpoint')),
          eventType: 'device.locked',
          orderingKey: `customer:${firstName}`,
          body: JSON.stringify({ type: 'device.locked', data: { name: firstName } }),
          status: 'delivered',
          attempts: 1,
        });
        return id;
      }
      case 'partnerKey': {
        // A partner API key of the actor's organisation (only its admin manages it).
        const [row] = await db
          .insert(partnerApiKeys)
          .values({
            orgId: actor.orgId,
            retailerId: actor.userId,
            name: `${firstName} lender`,
            publicId: `bola${String(serial).padStart(8, '0')}`,
            secretHash: '0'.repeat(64),
            scopes: ['read'],
          })
          .returning({ id: partnerApiKeys.id });
        return row!.id;
      }
      case 'keyRequest': {
        // A pending request of the actor (a mini-retailer) to its parent retailer for one key.
        const [row] = await db.select().from(users).where(eq(users.id, actor.userId));
        const [request] = await db
          .insert(keyRequests)
          .values({
            orgId: actor.orgId,
            requesterId: actor.userId,
            parentId: row!.parentId,
            appType: 0,
            quantity: 1,
          })
          .returning({ id: keyRequests.id });
        return request!.id;
      }
      case 'retailer': {
        // The actor's retailer: its parent when it is a mini-retailer, else the actor itself.
        const [row] = await db.select().from(users).where(eq(users.id, actor.userId));
        return row!.parentId ?? row!.id;
      }
    }
  };
  return {
    owner: actor,
    markers: [firstName, mobile, mobile.slice(3), imei1],
    get: (kind) => {
      let value = cache.get(kind);
      if (!value) {
        value = build(kind);
        cache.set(kind, value);
      }
      return value;
    },
  };
};

/** A well-formed UUID (v4 layout) that names no row. */
const GHOST_UUID = '00000000-0000-4000-8000-000000000000';

/**
 * Ids of the same kinds and shapes as `victim`'s that name nothing (ID_MAX, a UUID no row has, a
 * media name with that UUID): another tenant's object must answer exactly as a missing one does,
 * or the answer tells an attacker which ids exist.
 */
const ghostOf = (victim: TObjects): TObjects => ({
  owner: victim.owner,
  markers: [],
  get: async (kind) => {
    switch (kind) {
      case 'command':
      case 'session':
      case 'batch':
      case 'adSend':
      case 'paymentOrder':
        return GHOST_UUID;
      case 'gatewayOrder':
        return 'order_Ghost000000000';
      case 'webhookMessage':
        return 'msg_ghost0000000000000000000';
      case 'mediaFile':
        return String(await victim.get('mediaFile')).replace(/[0-9a-f-]{36}/, GHOST_UUID);
      default:
        return ID_MAX;
    }
  },
});

// ---------------------------------------------------------------------------------------------
// Requests: ids from the object sets, every other required field a value the route accepts.

/** Values for non-id fields the schema alone cannot make valid (a Luhn IMEI, a PIN, a real OTP). */
const CUSTOMER_DEFAULTS: Record<string, unknown> = customerBody(0);
const FIELD_VALUES: Record<string, (operation: TOperation, actor: TActor) => unknown> = {
  ...Object.fromEntries(Object.entries(CUSTOMER_DEFAULTS).map(([key, value]) => [key, () => value])),
  imei1: () => freshImei(),
  imei2: () => freshImei(),
  otp: (operation, actor) => otpFor(operation, actor),
  challenge: () => '482915',
  pin: () => '4826',
  // A free-text reason, except where the schema takes one of a list (a re-enrolment's).
  reason: (operation) =>
    operation.path === paths.devices.reEnrol
      ? 'factory_reset'
      : 'Checked by the object-level authorisation matrix',
  // Turning a toggle off needs no arguments, whatever the feature; actions take no `enable`.
  enable: (operation) => (isToggleRoute(operation) ? false : undefined),
  amountPaise: () => 100,
  textVersion: () => CONSENT_TEXT_VERSION,
  razorpay_payment_id: (_operation, actor) =>
    checkoutsByUser.get(actor.userId)?.razorpay_payment_id ?? 'pay_None00000000',
  razorpay_signature: (_operation, actor) =>
    checkoutsByUser.get(actor.userId)?.razorpay_signature ?? '0'.repeat(64),
  action: () => 'unlock',
};

/** Optional fields sent anyway (when FIELD_VALUES gives a value), so the request means one thing for every feature. */
const ALWAYS_SENT = new Set(['enable']);

/** Whether the operation is the command route of a toggle feature (`/api/device/{feature}`). */
const isToggleRoute = (operation: TOperation) =>
  COMMAND_CATALOGUE.some(
    (spec) => spec.kind === 'toggle' && deviceControlPath(spec.feature) === operation.path,
  );

/**
 * A fresh OTP of the actor's own (send-otp-to-user; purpose UNINSTALL for the uninstall route,
 * else BYPASS_CODE), so a refusal can only come from the object; '000000' when the actor may
 * not have one (a customer).
 */
const otpFor = async (operation: TOperation, actor: TActor): Promise<string> => {
  const purpose = operation.path.includes('uninstall') ? 'UNINSTALL' : 'BYPASS_CODE';
  const before = t.sms.length;
  const response = await send(
    { method: 'POST', url: paths.auth.sendOtpToUser, payload: { purpose } },
    actor.token,
  );
  const message = t.sms.slice(before).find((m) => m.to === actor.mobile);
  if (response.statusCode !== 200 || !message) return '000000';
  return /(\d{6})/.exec(message.text)![1]!;
};

/** A value the schema accepts, for fields with no entry in FIELD_VALUES. */
const schemaValue = (schema: TJsonSchema): unknown => {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant) return schemaValue(variant);
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 1;
      return schema.exclusiveMinimum === true ? min + 1 : min;
    }
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 1 }, () => schemaValue(schema.items ?? {}));
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, schemaValue(schema.properties?.[key] ?? {})]),
      );
    default:
      if (schema.format === 'uuid') return '0190c6d0-0000-7000-8000-000000000000';
      if (schema.pattern)
        return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed: 1, numRuns: 1 })[0];
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
  }
};

const isIdName = (operation: TOperation, name: string) =>
  idParameters(operation).some((p) => p.name === name);

const fieldValue = async (operation: TOperation, actor: TActor, name: string, schema: TJsonSchema) =>
  FIELD_VALUES[name] ? await FIELD_VALUES[name](operation, actor) : schemaValue(schema);

/** Fills an object schema: ids from `ids`, required fields (and FIELD_VALUES' optional ones) by value. */
const fillObject = async (
  operation: TOperation,
  actor: TActor,
  schema: TJsonSchema,
  ids: Map<string, unknown>,
): Promise<Record<string, unknown>> => {
  const out: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (ids.has(name)) out[name] = ids.get(name);
    else if (isIdName(operation, name))
      continue; // an optional id this case leaves out
    else if (property.type === 'object' && required.has(name)) {
      out[name] = await fillObject(operation, actor, property, ids);
    } else if (required.has(name) || ALWAYS_SENT.has(name)) {
      const value = await fieldValue(operation, actor, name, property);
      if (value !== undefined) out[name] = value;
    }
  }
  return out;
};

/** The request for `operation` by `actor`, each id parameter given its value in `ids` (by name). */
const buildRequest = async (
  operation: TOperation,
  actor: TActor,
  ids: Map<string, unknown>,
): Promise<TRequest> => {
  const query = new URLSearchParams();
  for (const parameter of operation.query) {
    if (ids.has(parameter.name)) query.set(parameter.name, String(ids.get(parameter.name)));
    else if (parameter.required)
      query.set(parameter.name, String(await fieldValue(operation, actor, parameter.name, parameter.schema)));
  }
  const url = query.size > 0 ? `${operation.path}?${query}` : operation.path;
  if (!operation.body) return { method: operation.method, url };
  const fields = await fillObject(operation, actor, operation.body.schema, ids);
  if (operation.body.kind === 'multipart') {
    return {
      method: operation.method,
      url,
      payload: multipart(fields as Record<string, string | number>, PNG_1X1),
    };
  }
  return { method: operation.method, url, payload: fields };
};

/** The ids of `parameters` from the object sets: `victim` for `victimParams`, `own` for the rest. */
const idValues = async (
  parameters: TIdParameter[],
  victimParams: Set<string>,
  victim: TObjects,
  own: TObjects,
): Promise<Map<string, unknown>> => {
  const ids = new Map<string, unknown>();
  for (const parameter of parameters) {
    const objects = victimParams.has(parameter.name) ? victim : own;
    const value = await objects.get(ID_KINDS[parameter.name]!);
    ids.set(parameter.name, parameter.isList ? [value] : value);
  }
  return ids;
};

// ---------------------------------------------------------------------------------------------
// The matrix.

const idOperations = sessionOperations.filter((operation) => idParameters(operation).length > 0);
const counts = { cases: 0, requests: 0 };

describe('BOLA matrix: coverage', () => {
  it('knows how to fill every id parameter of every operation behind a session', () => {
    const unknown = idOperations.flatMap((operation) =>
      idParameters(operation)
        .filter((p) => !ID_KINDS[p.name])
        .map(
          (p) =>
            `${operation.key} takes the id parameter "${p.path.join('.')}" (${p.in}) that the BOLA matrix ` +
            'cannot fill: add it to ID_KINDS (and its object to objectsOf) in security/bola-matrix.test.ts',
        ),
    );
    expect(unknown).toEqual([]);
  });

  it('only public operations take an organisation id, which selects the tenant by design', () => {
    const publicIds = publicOperations.flatMap((operation) =>
      idParameters(operation).map((p) => ({ key: operation.key, name: p.name })),
    );
    expect(publicIds.filter((p) => !PUBLIC_TENANT_SELECTORS.has(p.name))).toEqual([]);
  });

  it('knows the fields of every upload route (multipart bodies are not in the OpenAPI document)', async () => {
    expect(await checkUploadRoutes(t.app, operations, bearer(owner.token))).toEqual([]);
  });

  it('covers the operations that take ids', () => {
    // A floor, so an OpenAPI or generator change that silently drops routes fails here.
    expect(idOperations.length).toBeGreaterThanOrEqual(50);
  });
});

const describeRequest = (request: TRequest) =>
  `${request.method} ${request.url} ${request.payload instanceof FormData ? JSON.stringify(Object.fromEntries([...request.payload].map(([k, v]) => [k, typeof v === 'string' ? v : '(file)']))) : JSON.stringify(request.payload ?? null)}`;

const ACTOR_NAMES = [
  'other organisation',
  'sibling mini-retailer',
  'other customer',
  'distributor of another branch',
];

/**
 * Known findings, each a case that fails today, reported to the route's owner: the case runs as
 * `it.fails`, so the suite stays green while it fails and turns red once it is fixed (then delete
 * the entry, and the case guards the fix).
 */
const KNOWN_FINDINGS: { operation: string; test: RegExp; finding: string }[] = [];

const caseFor = (operation: TOperation, name: string) =>
  KNOWN_FINDINGS.some((k) => k.operation === operation.key && k.test.test(name)) ? it.fails : it;

/** Answers an actor may get for another tenant's object. */
const REFUSED = [403, 404];
/** Answers that show a request got past the id checks: done, or refused for the object's state. */
const ACCEPTED = (status: number) => (status >= 200 && status < 300) || status === 409 || status === 422;

/** The status and error code of an answer, and the fields it names: what an attacker can compare. */
const outcome = (response: { statusCode: number; body: string }) => {
  let code: unknown = null;
  let fields: unknown = null;
  try {
    const body = JSON.parse(response.body) as { code?: unknown; fields?: { field: string }[] };
    code = body.code ?? null;
    fields = body.fields?.map((f) => f.field) ?? null;
  } catch {
    // Not JSON (a CSV, a PNG): the status says it all.
  }
  return { status: response.statusCode, code, fields };
};

/**
 * Sends `request` (another tenant's ids) and `ghost` (the same with ids that name nothing) as
 * `actor`: the first must be refused with 403/404, neither may write or show the victim's data,
 * and both must answer alike.
 */
const expectRefused = async (
  operation: TOperation,
  actor: TActor,
  request: TRequest,
  ghost: TRequest,
  victim: TObjects,
) => {
  const answer = async (r: TRequest) => {
    const mark = await writes.mark();
    const response = await send(r, actor.token);
    counts.requests += 1;
    return { response, written: describeWrites(await writes.since(mark)) };
  };
  const real = await answer(request);
  const missing = await answer(ghost);
  const leaked = victim.markers.filter((marker) => real.response.body.includes(marker));
  const status = REFUSED.includes(real.response.statusCode) ? '403/404' : real.response.statusCode;
  expect
    .soft(
      {
        status,
        written: [...real.written, ...missing.written],
        leaked,
        sameAsMissing: JSON.stringify(outcome(real.response)) === JSON.stringify(outcome(missing.response)),
      },
      `${operation.key} as ${actor.label}: ${describeRequest(request)} answered ${real.response.body.slice(0, 300)}; ` +
        `with ids that name nothing it answered ${missing.response.statusCode} ${missing.response.body.slice(0, 200)}`,
    )
    .toEqual({ status: '403/404', written: [], leaked: [], sameAsMissing: true });
};

const expectAccepted = async (operation: TOperation, actor: TActor, request: TRequest, why: string) => {
  const response = await send(request, actor.token);
  counts.requests += 1;
  expect(
    ACCEPTED(response.statusCode),
    `control for ${operation.key} (${why}) as ${actor.label}: ${describeRequest(request)} answered ${response.statusCode} ${response.body.slice(0, 400)}; the matrix cannot build a valid request for this route: give the field a value in FIELD_VALUES`,
  ).toBe(true);
};

for (const operation of idOperations) {
  const parameters = idParameters(operation);
  if (parameters.some((p) => !ID_KINDS[p.name])) continue; // reported by the coverage test
  const names = parameters.map((p) => p.name);
  /** Whether `actor` must be kept from the victim's objects named `params`. */
  const mustRefuse = (actor: TActor, params: string[]) =>
    (actor !== siblingMini && actor !== otherBranchDistributor) ||
    params.some((n) => SCOPES[ID_KINDS[n]!] !== 'organisation');

  describe(`BOLA ${operation.key} [${names.join(', ')}]`, () => {
    let victim: TObjects;
    const own = new Map<TActor, TObjects>();
    beforeAll(() => {
      victim = objectsOf(owner);
      for (const actor of [otherOrgRetailer, siblingMini]) own.set(actor, objectsOf(actor));
    });

    for (const actorIndex of [0, 1, 2, 3]) {
      const name = `actor ${actorIndex + 1} (${ACTOR_NAMES[actorIndex]}): every id the victim's → 403/404, nothing written, nothing shown, answered as a missing id`;
      caseFor(operation, name)(name, async ({ skip }) => {
        const actor = attackers[actorIndex]!;
        if (!mustRefuse(actor, names)) skip('organisation-wide objects: the same organisation may use them');
        counts.cases += 1;
        const all = new Set(names);
        const ids = await idValues(parameters, all, victim, victim);
        const ghostIds = await idValues(parameters, all, ghostOf(victim), victim);
        await expectRefused(
          operation,
          actor,
          await buildRequest(operation, actor, ids),
          await buildRequest(operation, actor, ghostIds),
          victim,
        );
      });
    }

    if (parameters.length > 1) {
      for (const parameter of parameters) {
        for (const actorIndex of [0, 1]) {
          const name = `actor ${actorIndex + 1} (${ACTOR_NAMES[actorIndex]}): ${parameter.name} the victim's, the other ids its own → 403/404, nothing written, answered as a missing id`;
          caseFor(operation, name)(name, async ({ skip }) => {
            const actor = attackers[actorIndex]!;
            if (!mustRefuse(actor, [parameter.name]))
              skip('organisation-wide object: the sibling may use it');
            counts.cases += 1;
            const one = new Set([parameter.name]);
            const ids = await idValues(parameters, one, victim, own.get(actor)!);
            const ghostIds = await idValues(parameters, one, ghostOf(victim), own.get(actor)!);
            await expectRefused(
              operation,
              actor,
              await buildRequest(operation, actor, ids),
              await buildRequest(operation, actor, ghostIds),
              victim,
            );
          });
        }
      }
    }

    it('control: the owner gets past the id checks with the same objects', async () => {
      const ids = await idValues(parameters, new Set(names), victim, victim);
      // A customer-only route's owner is the victim customer's own login (its mobile is a marker).
      const actor = CUSTOMER_ONLY_ROUTES.has(operation.key)
        ? await loginAs('owner (the customer)', owner.orgId, victim.markers[1]!)
        : PARENT_ONLY_ROUTES.has(operation.key)
          ? await loginOnce('owner (the parent retailer)', owner.orgId, DEMO_RETAILER_MOBILE)
          : ADMIN_ONLY_ROUTES.has(operation.key)
            ? await loginOnce('owner (the organisation admin)', owner.orgId, DEMO_ADMIN_MOBILE)
            : owner;
      await expectAccepted(operation, actor, await buildRequest(operation, actor, ids), 'owner');
    });

    // An admin-only route has no attacker that could be its own admin: the owner's control covers it.
    if (parameters.length > 1 && !ADMIN_ONLY_ROUTES.has(operation.key)) {
      it('control: each actor gets past the id checks with its own objects', async () => {
        for (const actor of [otherOrgRetailer, siblingMini]) {
          const objects = own.get(actor)!;
          const ids = await idValues(parameters, new Set(), objects, objects);
          await expectAccepted(operation, actor, await buildRequest(operation, actor, ids), 'own objects');
        }
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Lists: operations without ids must not show another tenant's objects either.

describe('BOLA lists: operations without ids show none of the victim objects', () => {
  const listOperationsWithoutIds = sessionOperations.filter(
    (operation) => operation.method === 'GET' && idParameters(operation).length === 0,
  );
  let victim: TObjects;
  beforeAll(async () => {
    victim = objectsOf(owner);
    for (const kind of ['customer', 'media', 'command', 'batch'] as const) await victim.get(kind);
  });

  it.each(listOperationsWithoutIds.map((operation) => [operation.key, operation] as const))(
    '%s',
    async (_key, operation) => {
      for (const actor of attackers) {
        const request = await buildRequest(operation, actor, new Map());
        const response = await send(request, actor.token);
        counts.requests += 1;
        const leaked = victim.markers.filter((marker) => response.body.includes(marker));
        expect
          .soft({ status: response.statusCode, leaked }, `${operation.key} as ${actor.label}`)
          .toEqual({ status: expect.toSatisfy((s: number) => s < 500), leaked: [] });
      }
    },
  );

  it('the owner does see the victim customer in its own list (the markers can show)', async () => {
    const response = await send(
      { method: 'GET', url: `${paths.customers.list}?search=${victim.markers[0]}` },
      owner.token,
    );
    expect(response.body).toContain(victim.markers[0]);
  });
});

afterAll(() => {
  console.log(
    `BOLA matrix: ${idOperations.length} operations with ids (of ${sessionOperations.length} behind a session, ` +
      `${publicOperations.length} public), ${counts.cases} refusal cases, ${counts.requests} requests`,
  );
});
