import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build, type PlistValue, parse } from 'plist';

/**
 * A local stand-in for NanoMDM (github.com/micromdm/nanomdm, docs/openapi.yaml) on an ephemeral
 * port, with simulated iPhones behind it, for tests. It speaks NanoMDM's HTTP:
 * - `PUT /v1/enqueue/{id}`: Basic auth (user `nanomdm`, the API key), body an XML plist command.
 *   Checked like NanoMDM (CommandUUID and Command.RequestType present) and, stricter, against
 *   Apple's command schema (github.com/apple/device-management mdm/commands): every key of Command
 *   must be one Apple defines for that RequestType, with Apple's type, and required keys present.
 *   Anything else answers 500 with `command_error`, as NanoMDM does for a command it refuses.
 * - `GET /v1/push/{id}`: the phone checks in and fetches its queue.
 * The phones answer through NanoMDM's webhook (service/webhook: JSON, `topic`, `checkin_event` or
 * `acknowledge_event` with a base64 plist `raw_payload`), signed with X-Hmac-Signature when an
 * HMAC key is set.
 */

type TKeyType = 'string' | 'integer' | 'real' | 'boolean' | 'array' | 'dict' | 'data';

/** Apple's keys per RequestType (mdm/commands/*.yaml), `!` marks required ones. */
const APPLE_COMMAND_SCHEMA: Record<string, Record<string, TKeyType>> = {
  DeviceLock: {
    Message: 'string',
    PhoneNumber: 'string',
    PIN: 'string',
    RequestRequiresNetworkTether: 'boolean',
  },
  EnableLostMode: { Message: 'string', PhoneNumber: 'string', Footnote: 'string' },
  DisableLostMode: {},
  DeviceLocation: {},
  PlayLostModeSound: {},
  RestartDevice: { RebuildKernelCache: 'boolean', KextPaths: 'array', NotifyUser: 'boolean' },
  DeviceInformation: { '!Queries': 'array', DeviceAttestationNonce: 'data' },
  InstallApplication: {
    iTunesStoreID: 'integer',
    Identifier: 'string',
    Options: 'dict',
    ManifestURL: 'string',
    ManagementFlags: 'integer',
    Configuration: 'dict',
    Attributes: 'dict',
    ChangeManagementState: 'string',
    InstallAsManaged: 'boolean',
  },
  ActivationLockBypassCode: {},
  ClearActivationLockBypassCode: {},
  RemoveProfile: { '!Identifier': 'string' },
  InstallProfile: { '!Payload': 'data' },
};

/** Keys of a Restrictions payload (mdm/profiles/com.apple.applicationaccess.yaml) the fake knows, with Apple's types. */
const RESTRICTIONS_PAYLOAD_SCHEMA: Record<string, TKeyType> = {
  PayloadType: 'string',
  PayloadVersion: 'integer',
  PayloadIdentifier: 'string',
  PayloadUUID: 'string',
  PayloadDisplayName: 'string',
  PayloadDescription: 'string',
  PayloadOrganization: 'string',
  allowCamera: 'boolean',
  allowHostPairing: 'boolean',
  allowUSBRestrictedMode: 'boolean',
  blockedAppBundleIDs: 'array',
  blacklistedAppBundleIDs: 'array',
};

/**
 * Why an InstallProfile Payload is not a configuration profile holding a Restrictions payload, or
 * null: the data must parse as a plist dict with PayloadType Configuration, PayloadVersion 1,
 * PayloadIdentifier and PayloadUUID strings and PayloadContent an array whose payloads are all
 * com.apple.applicationaccess with only known keys of Apple's types (bundle id arrays of strings).
 */
export const profileProblem = (payload: PlistValue): string | null => {
  if (!(payload instanceof Uint8Array)) return 'InstallProfile.Payload must be data';
  let profile: Record<string, PlistValue>;
  try {
    profile = parse(Buffer.from(payload).toString('utf8')) as Record<string, PlistValue>;
  } catch (error) {
    return `InstallProfile.Payload is not a plist: ${String(error)}`;
  }
  if (typeOf(profile) !== 'dict') return 'InstallProfile.Payload is not a dict';
  if (profile.PayloadType !== 'Configuration') return 'profile PayloadType must be Configuration';
  if (profile.PayloadVersion !== 1) return 'profile PayloadVersion must be 1';
  if (typeof profile.PayloadIdentifier !== 'string' || !profile.PayloadIdentifier)
    return 'profile PayloadIdentifier missing';
  if (typeof profile.PayloadUUID !== 'string' || !profile.PayloadUUID) return 'profile PayloadUUID missing';
  const content = profile.PayloadContent;
  if (!Array.isArray(content) || content.length === 0)
    return 'profile PayloadContent must be a non-empty array';
  for (const item of content) {
    const p = (item ?? {}) as Record<string, PlistValue>;
    if (p.PayloadType !== 'com.apple.applicationaccess') return `unexpected payload ${String(p.PayloadType)}`;
    for (const [key, value] of Object.entries(p)) {
      const expected = RESTRICTIONS_PAYLOAD_SCHEMA[key];
      if (!expected) return `com.apple.applicationaccess has no key ${key}`;
      if (typeOf(value) !== expected) return `com.apple.applicationaccess.${key} must be ${expected}`;
      if (expected === 'array' && !(value as PlistValue[]).every((v) => typeof v === 'string'))
        return `com.apple.applicationaccess.${key} must hold strings`;
    }
  }
  return null;
};

const typeOf = (value: PlistValue): TKeyType | 'other' => {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'real';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Uint8Array) return 'data';
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return 'dict';
  return 'other';
};

/** Why Apple's schema refuses this command dict, or null when it is well-formed. */
export const appleSchemaProblem = (command: Record<string, PlistValue>): string | null => {
  const requestType = command.RequestType;
  if (typeof requestType !== 'string' || !requestType) return 'Command.RequestType missing';
  const schema = APPLE_COMMAND_SCHEMA[requestType];
  if (!schema) return `unknown RequestType ${requestType}`;
  const keys = new Map(Object.entries(schema).map(([k, t]) => [k.replace(/^!/, ''), t]));
  for (const [key, value] of Object.entries(command)) {
    if (key === 'RequestType') continue;
    const expected = keys.get(key);
    if (!expected) return `${requestType} has no key ${key}`;
    const actual = typeOf(value);
    if (actual !== expected && !(expected === 'real' && actual === 'integer'))
      return `${requestType}.${key} must be ${expected}, not ${actual}`;
  }
  for (const key of Object.keys(schema).filter((k) => k.startsWith('!'))) {
    if (!(key.slice(1) in command)) return `${requestType}.${key.slice(1)} is required`;
  }
  if (requestType === 'EnableLostMode' && !command.Message && !command.PhoneNumber)
    return 'EnableLostMode needs Message or PhoneNumber';
  if (requestType === 'InstallProfile') return profileProblem(command.Payload!);
  return null;
};

/** A command the fake accepted, as the phone will get it. */
export type TQueuedCommand = {
  uuid: string;
  requestType: string;
  command: Record<string, PlistValue>;
  xml: string;
};

/** A simulated iPhone enrolled (or enrolling) through the fake NanoMDM. */
export class FakeIphone {
  /** Commands waiting for the phone, in order. */
  readonly queue: TQueuedCommand[] = [];
  /** Every command the phone ran, in order. */
  readonly ran: TQueuedCommand[] = [];
  /** What the phone answered each command through the webhook, in order, and the webhook's HTTP status. */
  readonly answers: { uuid: string; requestType: string; status: string; webhookStatus: number }[] = [];
  /** What the lock screen shows, or null while it is not locked by DeviceLock. */
  lockScreen: { message: string; phone: string } | null = null;
  isLostMode = false;
  /** Answer the next command NotNow once (a busy phone; NanoMDM keeps it queued). */
  notNowOnce = false;
  /** Answer the next command with an Apple Error carrying this text, once. */
  failNext: string | null = null;
  /** An offline phone fetches nothing until it comes back (`comeOnline`). */
  isOnline = true;
  urlParams: Record<string, string> = {};
  profileIdentifier: string | null = null;
  /** Configuration profiles installed with InstallProfile, by PayloadIdentifier (the parsed profile). */
  readonly profiles = new Map<string, Record<string, PlistValue>>();
  private busy: Promise<void> = Promise.resolve();

  constructor(
    private readonly nano: FakeNanoMdm,
    readonly udid: string,
    readonly info: { serialNumber: string; imei: string; iccid: string; supervised: boolean },
  ) {}

  /**
   * Installs an enrolment profile (the .mobileconfig text): reads its MDM payload, then checks in
   * as iOS does: Authenticate, then TokenUpdate, each with the ServerURL's query as url_params.
   * Returns the webhook answers.
   */
  async installProfile(mobileconfig: string): Promise<unknown[]> {
    const profile = parse(mobileconfig) as Record<string, PlistValue>;
    const payloads = profile.PayloadContent as Record<string, PlistValue>[];
    const mdm = payloads.find((p) => p.PayloadType === 'com.apple.mdm')!;
    const scep = payloads.find((p) => p.PayloadType === 'com.apple.security.scep')!;
    if (mdm.IdentityCertificateUUID !== scep.PayloadUUID)
      throw new Error('identity certificate is not the SCEP payload');
    if (mdm.CheckOutWhenRemoved !== true) throw new Error('CheckOutWhenRemoved must be true');
    // NanoMDM as docs/apple.md starts it (no -cert-header) finds the phone's identity only in the
    // Mdm-Signature header, which iOS sends only with SignMessage: else it answers 400.
    if (mdm.SignMessage !== true)
      throw new Error('NanoMDM answered 400: no device certificate (SignMessage is not true)');
    this.profileIdentifier = String(profile.PayloadIdentifier);
    this.urlParams = Object.fromEntries(new URL(String(mdm.ServerURL)).searchParams);
    const base = { UDID: this.udid, Topic: String(mdm.Topic) };
    // NanoMDM empties the enrolment's command queue on Authenticate (service/nanomdm/service.go).
    this.queue.splice(0);
    return [
      await this.checkin('mdm.Authenticate', {
        ...base,
        MessageType: 'Authenticate',
        SerialNumber: this.info.serialNumber,
        IMEI: this.info.imei,
        ProductName: 'iPhone15,2',
        OSVersion: '17.5',
      }),
      await this.checkin(
        'mdm.TokenUpdate',
        {
          ...base,
          MessageType: 'TokenUpdate',
          Token: Buffer.from('apns-token'),
          PushMagic: 'push-magic',
        },
        { token_update_tally: 1 },
      ),
    ];
  }

  /** The user removed the MDM profile: CheckOut (CheckOutWhenRemoved). */
  async removeProfile(): Promise<unknown> {
    return this.checkin('mdm.CheckOut', { MessageType: 'CheckOut', UDID: this.udid, Topic: 'topic' });
  }

  /**
   * The restrictions in force from installed profiles, as iOS applies them: camera off when any
   * payload says allowCamera false; host pairing and blocked apps only on a supervised phone.
   */
  restrictions(): { isCameraAllowed: boolean; isHostPairingAllowed: boolean; blockedApps: string[] } {
    const payloads = [...this.profiles.values()].flatMap(
      (p) => (p.PayloadContent as Record<string, PlistValue>[]) ?? [],
    );
    const supervised = this.info.supervised;
    return {
      isCameraAllowed: !payloads.some((p) => p.allowCamera === false),
      isHostPairingAllowed: !supervised || !payloads.some((p) => p.allowHostPairing === false),
      blockedApps: supervised
        ? [...new Set(payloads.flatMap((p) => (p.blockedAppBundleIDs as string[] | undefined) ?? []))]
        : [],
    };
  }

  /** Comes back online and fetches what waits. */
  async comeOnline(): Promise<void> {
    this.isOnline = true;
    await this.fetchCommands();
  }

  /** Pushed (or online again): runs every queued command in order, answering each through the webhook. */
  fetchCommands(): Promise<void> {
    this.busy = this.busy.then(async () => {
      while (this.isOnline && this.queue.length > 0) {
        const next = this.queue[0]!;
        if (this.notNowOnce) {
          this.notNowOnce = false;
          await this.report(next, 'NotNow', {});
          return;
        }
        this.queue.shift();
        this.ran.push(next);
        const answer = this.run(next);
        if (answer === 'checked_out') {
          await this.removeProfile();
          return;
        }
        await this.report(next, answer.status, answer.payload);
      }
    });
    return this.busy;
  }

  private run(
    queued: TQueuedCommand,
  ): { status: string; payload: Record<string, PlistValue> } | 'checked_out' {
    const c = queued.command;
    const ok = (payload: Record<string, PlistValue> = {}) => ({ status: 'Acknowledged', payload });
    const error = (text: string) => ({
      status: 'Error',
      payload: {
        ErrorChain: [
          {
            ErrorCode: 12_078,
            ErrorDomain: 'MCMDMErrorDomain',
            LocalizedDescription: text,
            USEnglishDescription: text,
          },
        ],
      },
    });
    if (this.failNext) {
      const text = this.failNext;
      this.failNext = null;
      return error(text);
    }
    switch (queued.requestType) {
      case 'DeviceLock':
        this.lockScreen = { message: String(c.Message ?? ''), phone: String(c.PhoneNumber ?? '') };
        return ok({ MessageResult: 'Success' });
      case 'EnableLostMode':
        if (!this.info.supervised) return error('The device is not supervised.');
        this.isLostMode = true;
        return ok();
      case 'DisableLostMode':
        this.isLostMode = false;
        return ok();
      case 'DeviceLocation':
        if (!this.isLostMode) return error('The device is not in lost mode.');
        return ok({
          Latitude: 12.9716,
          Longitude: 77.5946,
          HorizontalAccuracy: 12.5,
          VerticalAccuracy: 3.5,
          Altitude: 920.5,
          Speed: 0.5,
          Course: 0.5,
          Timestamp: new Date().toISOString(),
        });
      case 'RestartDevice':
        this.lockScreen = null;
        return ok();
      case 'DeviceInformation': {
        const all: Record<string, PlistValue> = {
          UDID: this.udid,
          SerialNumber: this.info.serialNumber,
          DeviceName: "Meera's iPhone",
          ModelName: 'iPhone',
          ProductName: 'iPhone15,2',
          OSVersion: '17.5',
          BuildVersion: '21F79',
          IMEI: this.info.imei,
          ServiceSubscriptions: [
            { IMEI: this.info.imei, ICCID: this.info.iccid, CurrentCarrierNetwork: 'Jio', Label: 'Primary' },
          ],
          IsSupervised: this.info.supervised,
          IsMDMLostModeEnabled: this.isLostMode,
          IsActivationLockEnabled: false,
          IsDeviceLocatorServiceEnabled: true,
          BatteryLevel: 0.85,
        };
        const queries = (c.Queries as string[]) ?? [];
        return ok({
          QueryResponses: Object.fromEntries(queries.filter((q) => q in all).map((q) => [q, all[q]!])),
        });
      }
      case 'InstallApplication':
        return ok({ Identifier: 'in.kisht.onemode', State: 'Queued' });
      case 'ActivationLockBypassCode':
        if (!this.info.supervised) return error('The device is not supervised.');
        return ok({ ActivationLockBypassCode: 'FAKE-BYPASS-CODE-0123' });
      case 'RemoveProfile':
        if (c.Identifier === this.profileIdentifier) return 'checked_out';
        if (this.profiles.delete(String(c.Identifier))) return ok();
        return error('Profile not found');
      case 'InstallProfile': {
        // Same PayloadIdentifier: the new profile replaces the installed one, as on iOS.
        const profile = parse(Buffer.from(c.Payload as Uint8Array).toString('utf8')) as Record<
          string,
          PlistValue
        >;
        this.profiles.set(String(profile.PayloadIdentifier), profile);
        return ok();
      }
      default:
        return ok();
    }
  }

  private checkin(topic: string, payload: Record<string, PlistValue>, extra: Record<string, unknown> = {}) {
    return this.nano.sendWebhook({
      topic,
      event_id: `evt-${Math.random().toString(16).slice(2)}`,
      created_at: new Date().toISOString(),
      checkin_event: {
        udid: this.udid,
        raw_payload: Buffer.from(build(payload)).toString('base64'),
        url_params: this.urlParams,
        ids: { id: this.udid, type: 'Device' },
        ...extra,
      },
    });
  }

  private async report(queued: TQueuedCommand, status: string, payload: Record<string, PlistValue>) {
    const answer = (await this.nano.sendWebhook({
      topic: 'mdm.Connect',
      event_id: `evt-${Math.random().toString(16).slice(2)}`,
      created_at: new Date().toISOString(),
      acknowledge_event: {
        udid: this.udid,
        command_uuid: queued.uuid,
        status,
        raw_payload: Buffer.from(
          build({ ...payload, CommandUUID: queued.uuid, Status: status, UDID: this.udid }),
        ).toString('base64'),
        url_params: this.urlParams,
        ids: { id: this.udid, type: 'Device' },
      },
    })) as { status: number };
    this.answers.push({
      uuid: queued.uuid,
      requestType: queued.requestType,
      status,
      webhookStatus: answer.status,
    });
    return answer;
  }
}

/** The fake NanoMDM server (see the file comment). */
export class FakeNanoMdm {
  readonly phones = new Map<string, FakeIphone>();
  /** Enqueue requests refused, with NanoMDM's command_error. */
  readonly refused: { body: string; error: string }[] = [];
  /** Pushes asked for, by enrolment id. */
  readonly pushes: string[] = [];
  /** Webhook answers, in order: status and body. */
  readonly webhookAnswers: { status: number; body: unknown }[] = [];
  /** Where the webhook goes (the server's paths.apple.webhook); set once the server listens. */
  webhookUrl = '';
  /**
   * Webhook events to lose (NanoMDM posts each once and never again; a network blip loses it):
   * an event for which this answers true is not posted, and is kept in `lostWebhooks`.
   */
  loseWebhook: (event: Record<string, unknown>) => boolean = () => false;
  readonly lostWebhooks: Record<string, unknown>[] = [];
  url = '';
  private readonly server: Server;

  constructor(
    readonly apiKey: string,
    readonly hmacKey: string | null = null,
  ) {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
    });
  }

  /** Starts on `port` of 127.0.0.1 (default an ephemeral one: tests never bind a fixed port). */
  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** A simulated iPhone with this UDID and serial number (supervised unless told otherwise). */
  phone(udid: string, info: Partial<FakeIphone['info']> & { serialNumber: string }): FakeIphone {
    const phone = new FakeIphone(this, udid, {
      imei: '356938035643809',
      iccid: '8991000900000000017',
      supervised: true,
      ...info,
    });
    this.phones.set(udid, phone);
    return phone;
  }

  /** Posts one webhook event as NanoMDM does (JSON; X-Hmac-Signature when keyed). */
  async sendWebhook(event: Record<string, unknown>): Promise<unknown> {
    if (this.loseWebhook(event)) {
      this.lostWebhooks.push(event);
      return { status: 0, body: null };
    }
    const body = JSON.stringify(event);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (this.hmacKey)
      headers['x-hmac-signature'] = createHmac('sha256', this.hmacKey).update(body).digest('base64');
    const response = await fetch(this.webhookUrl, { method: 'POST', headers, body });
    const answer = { status: response.status, body: await response.json().catch(() => null) };
    this.webhookAnswers.push(answer);
    return answer;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const json = (status: number, body: unknown) => {
      response.statusCode = status;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(body, null, '\t'));
    };
    const expected = `Basic ${Buffer.from(`nanomdm:${this.apiKey}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      response.statusCode = 401;
      response.setHeader('www-authenticate', 'Basic realm="nanomdm"');
      response.end('Unauthorized');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const enqueue = /^\/v1\/enqueue\/(.+)$/.exec(url.pathname);
    const push = /^\/v1\/push\/(.+)$/.exec(url.pathname);
    if (enqueue) {
      const ids = decodeURIComponent(enqueue[1]!).split(',');
      let command: Record<string, PlistValue>;
      try {
        command = parse(body) as Record<string, PlistValue>;
      } catch (error) {
        this.refused.push({ body, error: 'decoding command' });
        json(500, { command_error: `decoding command: ${String(error)}` });
        return;
      }
      const uuid = command.CommandUUID;
      const inner = command.Command as Record<string, PlistValue> | undefined;
      const problem =
        typeof uuid !== 'string' || !uuid || !inner ? 'invalid command' : appleSchemaProblem(inner);
      if (problem) {
        this.refused.push({ body, error: problem });
        json(500, { command_error: problem });
        return;
      }
      const queued: TQueuedCommand = {
        uuid: uuid as string,
        requestType: String(inner!.RequestType),
        command: inner!,
        xml: body,
      };
      const status: Record<string, Record<string, string>> = {};
      for (const id of ids) {
        const phone = this.phones.get(id);
        if (!phone) {
          status[id] = { command_error: 'enrollment not found' };
          continue;
        }
        phone.queue.push(queued);
        status[id] = { push_result: `push-${uuid}` };
        if (!url.searchParams.get('nopush') && phone.isOnline) void phone.fetchCommands();
      }
      const failed = Object.values(status).filter((s) => s.command_error).length;
      json(failed === 0 ? 200 : failed < ids.length ? 207 : 500, {
        status,
        command_uuid: uuid,
        request_type: queued.requestType,
      });
      return;
    }
    if (push) {
      const ids = decodeURIComponent(push[1]!).split(',');
      const status: Record<string, Record<string, string>> = {};
      for (const id of ids) {
        this.pushes.push(id);
        const phone = this.phones.get(id);
        status[id] = phone ? { push_result: `push-${Date.now()}` } : { push_error: 'no push token' };
        if (phone?.isOnline) void phone.fetchCommands();
      }
      json(200, { status });
      return;
    }
    json(404, { error: 'not found' });
  }
}

/**
 * Starts a fake NanoMDM with this API key (and HMAC key for its webhook, when given), on `port`
 * (default ephemeral).
 */
export const startFakeNanoMdm = (
  apiKey: string,
  hmacKey: string | null = null,
  port = 0,
): Promise<FakeNanoMdm> => new FakeNanoMdm(apiKey, hmacKey).start(port);
