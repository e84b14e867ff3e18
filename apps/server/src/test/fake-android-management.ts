import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Google's Android Management API v1 (REST, JSON; the discovery document
 * androidmanagement.v1), on an ephemeral port, for tests. It speaks the paths and shapes Kisht
 * uses and checks what it receives as Google would: the bearer token, the EnrollmentToken fields,
 * the Command type enum and the startLostModeParams shapes (UserFacingMessage objects, a plain
 * lostEmailAddress), google-duration strings, unknown fields refused. Enterprises' policies,
 * enrolment tokens, devices and operations live in memory. Test hooks enrol a simulated phone with
 * an enrolment token and delete a device; an operation is done from its `pollsUntilDone`-th get on.
 */
export type FakeAndroidManagement = {
  /** Base URL (http://127.0.0.1:port), AMAPI_API_URL. */
  url: string;
  /** The enterprise it serves, AMAPI_ENTERPRISE_NAME. */
  enterpriseName: string;
  /** The bearer token it accepts, AMAPI_ACCESS_TOKEN. */
  token: string;
  policies: Map<string, Record<string, unknown>>;
  enrollmentTokens: Map<string, Record<string, unknown>>;
  devices: Map<string, Record<string, unknown>>;
  operations: Map<string, { operation: Record<string, unknown>; polls: number; device: string }>;
  /** Every request, oldest first: method, path (after /v1/), query, body and the status answered. */
  requests: { method: string; path: string; query: URLSearchParams; body: unknown; status: number }[];
  /** From which operations.get an operation reads done (default 1: the first get). */
  pollsUntilDone: number;
  /** When set, the next issued command's operation ends with this error (google.rpc.Status message). */
  failNextCommand: string | null;
  /**
   * A simulated phone scans the QR of enrolment token `tokenValue` (EnrollmentToken.value): a Device
   * appears, ACTIVE, with the token's policy and additionalData as enrollmentTokenData. Throws for
   * an unknown, expired or used one-time token.
   */
  enrolPhone: (options: {
    tokenValue: string;
    imei?: string;
    serialNumber?: string;
  }) => Record<string, unknown>;
  /** The device is deleted (wiped or removed by an admin): get answers 404, list leaves it out. */
  deleteDevice: (name: string) => void;
  close: () => Promise<void>;
};

const COMMAND_TYPES = [
  'COMMAND_TYPE_UNSPECIFIED',
  'LOCK',
  'RESET_PASSWORD',
  'REBOOT',
  'RELINQUISH_OWNERSHIP',
  'CLEAR_APP_DATA',
  'START_LOST_MODE',
  'STOP_LOST_MODE',
  'ADD_ESIM',
  'REMOVE_ESIM',
  'REQUEST_DEVICE_INFO',
  'WIPE',
];
const PERSONAL_USAGE = [
  'ALLOW_PERSONAL_USAGE_UNSPECIFIED',
  'PERSONAL_USAGE_ALLOWED',
  'PERSONAL_USAGE_DISALLOWED',
  'PERSONAL_USAGE_DISALLOWED_USERLESS',
];
const ENROLLMENT_TOKEN_FIELDS = [
  'name',
  'value',
  'duration',
  'expirationTimestamp',
  'policyName',
  'additionalData',
  'qrCode',
  'oneTimeOnly',
  'user',
  'allowPersonalUsage',
  'googleAuthenticationOptions',
];
const COMMAND_FIELDS = [
  'type',
  'createTime',
  'duration',
  'userName',
  'errorCode',
  'newPassword',
  'resetPasswordFlags',
  'clearAppsDataParams',
  'startLostModeParams',
  'stopLostModeParams',
  'addEsimParams',
  'removeEsimParams',
  'requestDeviceInfoParams',
  'wipeParams',
];
/** Policy fields this fake knows (a subset of AMAPI's Policy); another is refused as Google does. */
const POLICY_FIELDS: Record<string, 'boolean' | 'string' | 'array' | 'object'> = {
  name: 'string',
  version: 'string',
  cameraDisabled: 'boolean',
  cameraAccess: 'string',
  debuggingFeaturesAllowed: 'boolean',
  factoryResetDisabled: 'boolean',
  screenCaptureDisabled: 'boolean',
  installAppsDisabled: 'boolean',
  uninstallAppsDisabled: 'boolean',
  safeBootDisabled: 'boolean',
  applications: 'array',
  statusReportingSettings: 'object',
  advancedSecurityOverrides: 'object',
  frpAdminEmails: 'array',
  deviceOwnerLockScreenInfo: 'object',
};
/** AdvancedSecurityOverrides.developerSettings (unspecified means disabled). */
const DEVELOPER_SETTINGS = [
  'DEVELOPER_SETTINGS_UNSPECIFIED',
  'DEVELOPER_SETTINGS_DISABLED',
  'DEVELOPER_SETTINGS_ALLOWED',
];
const CAMERA_ACCESS = [
  'CAMERA_ACCESS_UNSPECIFIED',
  'CAMERA_ACCESS_USER_CHOICE',
  'CAMERA_ACCESS_DISABLED',
  'CAMERA_ACCESS_ENFORCED',
];
const INSTALL_TYPES = [
  'INSTALL_TYPE_UNSPECIFIED',
  'PREINSTALLED',
  'FORCE_INSTALLED',
  'BLOCKED',
  'AVAILABLE',
  'REQUIRED_FOR_SETUP',
  'KIOSK',
  'CUSTOM',
];
const LOST_MODE_MESSAGES = ['lostMessage', 'lostPhoneNumber', 'lostStreetAddress', 'lostOrganization'];

/** google-duration: seconds with up to 9 fractional digits and a trailing "s". */
const DURATION = /^\d+(\.\d{1,9})?s$/;

class HttpError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
const badRequest = (message: string) => new HttpError(400, message);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const refuseUnknown = (body: Record<string, unknown>, known: string[], what: string) => {
  for (const key of Object.keys(body))
    if (!known.includes(key))
      throw badRequest(`Invalid JSON payload received. Unknown name "${key}" at '${what}'`);
};

const checkDuration = (value: unknown, field: string) => {
  if (value === undefined) return;
  if (typeof value !== 'string' || !DURATION.test(value))
    throw badRequest(
      `Invalid value at '${field}' (type.googleapis.com/google.protobuf.Duration), ${JSON.stringify(value)}`,
    );
};

/** A UserFacingMessage: {defaultMessage?: string, localizedMessages?: {locale: string}}. */
const checkUserFacingMessage = (value: unknown, field: string) => {
  if (value === undefined) return;
  if (!isObject(value))
    throw badRequest(
      `Invalid value at '${field}' (type.googleapis.com/google.android.devicemanagement.v1.UserFacingMessage), ${JSON.stringify(value)}`,
    );
  refuseUnknown(value, ['defaultMessage', 'localizedMessages'], field);
  if (value.defaultMessage !== undefined && typeof value.defaultMessage !== 'string')
    throw badRequest(`Invalid value at '${field}.default_message'`);
  if (value.localizedMessages !== undefined) {
    if (
      !isObject(value.localizedMessages) ||
      Object.values(value.localizedMessages).some((m) => typeof m !== 'string')
    )
      throw badRequest(`Invalid value at '${field}.localized_messages'`);
  }
};

const checkCommand = (body: Record<string, unknown>): string => {
  refuseUnknown(body, COMMAND_FIELDS, 'command');
  const params = body.startLostModeParams;
  const stop = body.stopLostModeParams;
  let type = body.type;
  if (type === undefined && params !== undefined) type = 'START_LOST_MODE';
  if (type === undefined && stop !== undefined) type = 'STOP_LOST_MODE';
  if (typeof type !== 'string' || !COMMAND_TYPES.includes(type))
    throw badRequest(
      `Invalid value at 'command.type' (type.googleapis.com/google.android.devicemanagement.v1.Command.CommandType), ${JSON.stringify(body.type)}`,
    );
  if (type === 'COMMAND_TYPE_UNSPECIFIED') throw badRequest('Command type must be specified');
  checkDuration(body.duration, 'command.duration');
  if (type === 'START_LOST_MODE') {
    if (!isObject(params)) throw badRequest('startLostModeParams is required for START_LOST_MODE');
    refuseUnknown(params, [...LOST_MODE_MESSAGES, 'lostEmailAddress'], 'command.start_lost_mode_params');
    for (const field of LOST_MODE_MESSAGES)
      checkUserFacingMessage(params[field], `command.start_lost_mode_params.${field}`);
    if (params.lostEmailAddress !== undefined && typeof params.lostEmailAddress !== 'string')
      throw badRequest("Invalid value at 'command.start_lost_mode_params.lost_email_address' (TYPE_STRING)");
    const hasContent = ['lostMessage', 'lostPhoneNumber', 'lostStreetAddress'].some(
      (field) => isObject(params[field]) && Object.keys(params[field] as object).length > 0,
    );
    if (!hasContent && !params.lostEmailAddress)
      throw badRequest('At least one of the start lost mode params other than the organization must be set');
  } else if (params !== undefined) throw badRequest('startLostModeParams is only for START_LOST_MODE');
  if (type === 'STOP_LOST_MODE' && stop !== undefined && (!isObject(stop) || Object.keys(stop).length > 0))
    throw badRequest("Invalid value at 'command.stop_lost_mode_params'");
  return type;
};

const checkPolicy = (body: Record<string, unknown>) => {
  for (const [key, value] of Object.entries(body)) {
    const kind = POLICY_FIELDS[key];
    if (!kind) throw badRequest(`Invalid JSON payload received. Unknown name "${key}" at 'policy'`);
    const ok =
      kind === 'array' ? Array.isArray(value) : kind === 'object' ? isObject(value) : typeof value === kind;
    if (!ok) throw badRequest(`Invalid value at 'policy.${key}'`);
  }
  const lockScreenInfo = body.deviceOwnerLockScreenInfo;
  // A UserFacingMessage: defaultMessage text (required with translations), at most 4096 characters.
  if (
    isObject(lockScreenInfo) &&
    (typeof lockScreenInfo.defaultMessage !== 'string' ||
      lockScreenInfo.defaultMessage.length > 4096 ||
      Object.keys(lockScreenInfo).some((key) => key !== 'defaultMessage' && key !== 'localizedMessages'))
  )
    throw badRequest("Invalid value at 'policy.device_owner_lock_screen_info'");
  const overrides = body.advancedSecurityOverrides;
  if (
    isObject(overrides) &&
    overrides.developerSettings !== undefined &&
    !DEVELOPER_SETTINGS.includes(overrides.developerSettings as string)
  )
    throw badRequest(
      `Invalid value at 'policy.advanced_security_overrides.developer_settings', ${JSON.stringify(overrides.developerSettings)}`,
    );
  if (body.cameraAccess !== undefined && !CAMERA_ACCESS.includes(body.cameraAccess as string))
    throw badRequest(`Invalid value at 'policy.camera_access', ${JSON.stringify(body.cameraAccess)}`);
  for (const app of (body.applications as unknown[] | undefined) ?? []) {
    if (!isObject(app) || typeof app.packageName !== 'string' || !app.packageName)
      throw badRequest('Every application needs a packageName');
    if (app.installType !== undefined && !INSTALL_TYPES.includes(app.installType as string))
      throw badRequest(
        `Invalid value at 'policy.applications.install_type', ${JSON.stringify(app.installType)}`,
      );
  }
};

/** Starts the fake Android Management API on 127.0.0.1 and `options.port` (default an ephemeral one). */
export const startFakeAndroidManagement = async (
  options: { enterpriseId?: string; token?: string; port?: number } = {},
): Promise<FakeAndroidManagement> => {
  const enterpriseName = `enterprises/${options.enterpriseId ?? 'LC00kisht'}`;
  const token = options.token ?? `ya29.fake-${randomUUID()}`;
  let sequence = 0;
  const next = () => {
    sequence += 1;
    return `${Date.now().toString(36)}${sequence}`;
  };

  const fake: FakeAndroidManagement = {
    url: '',
    enterpriseName,
    token,
    policies: new Map(),
    enrollmentTokens: new Map(),
    devices: new Map(),
    operations: new Map(),
    requests: [],
    pollsUntilDone: 1,
    failNextCommand: null,
    enrolPhone: ({ tokenValue, imei, serialNumber }) => {
      const found = [...fake.enrollmentTokens.values()].find((t) => t.value === tokenValue);
      if (!found) throw new Error('unknown enrolment token');
      if (Date.parse(found.expirationTimestamp as string) < Date.now())
        throw new Error('enrolment token expired');
      if (found.oneTimeOnly && found.used) throw new Error('one-time enrolment token already used');
      found.used = true;
      const name = `${enterpriseName}/devices/${next()}`;
      const now = new Date().toISOString();
      const device: Record<string, unknown> = {
        name,
        managementMode: 'DEVICE_OWNER',
        ownership: 'COMPANY_OWNED',
        state: 'ACTIVE',
        appliedState: 'ACTIVE',
        policyName: found.policyName,
        appliedPolicyName: found.policyName,
        appliedPolicyVersion: (fake.policies.get(found.policyName as string)?.version as string) ?? '1',
        policyCompliant: true,
        enrollmentTime: now,
        lastStatusReportTime: now,
        enrollmentTokenName: found.name,
        ...(found.additionalData === undefined ? {} : { enrollmentTokenData: found.additionalData }),
        apiLevel: 34,
        hardwareInfo: {
          brand: 'google',
          hardware: 'husky',
          manufacturer: 'Google',
          model: 'Pixel 8 Pro',
          serialNumber: serialNumber ?? `SN${next().toUpperCase()}`,
          enterpriseSpecificId: `ESID${next().toUpperCase()}`,
        },
        networkInfo: {
          ...(imei ? { imei } : {}),
          networkOperatorName: 'Jio',
          telephonyInfos: [{ carrierName: 'Jio', phoneNumber: '', iccId: '8991000900000000017' }],
        },
      };
      fake.devices.set(name, device);
      return device;
    },
    deleteDevice: (name) => {
      fake.devices.delete(name);
    },
    close: async () => {},
  };

  const devicePattern = new RegExp(`^${enterpriseName}/devices/([^/:]+)$`);
  const handle = (method: string, path: string, query: URLSearchParams, body: unknown): unknown => {
    if (method === 'POST' && path === `${enterpriseName}/enrollmentTokens`) {
      if (!isObject(body)) throw badRequest('EnrollmentToken body expected');
      refuseUnknown(body, ENROLLMENT_TOKEN_FIELDS, 'enrollment_token');
      checkDuration(body.duration, 'enrollment_token.duration');
      const seconds = body.duration === undefined ? 3600 : Number.parseFloat(body.duration as string);
      if (seconds < 60) throw badRequest('The enrollment token duration must be at least 1 minute');
      if (
        body.additionalData !== undefined &&
        (typeof body.additionalData !== 'string' || body.additionalData.length > 1024)
      )
        throw badRequest('additionalData must be a string of at most 1024 characters');
      if (body.oneTimeOnly !== undefined && typeof body.oneTimeOnly !== 'boolean')
        throw badRequest("Invalid value at 'enrollment_token.one_time_only' (TYPE_BOOL)");
      if (
        body.allowPersonalUsage !== undefined &&
        !PERSONAL_USAGE.includes(body.allowPersonalUsage as string)
      )
        throw badRequest(
          `Invalid value at 'enrollment_token.allow_personal_usage', ${JSON.stringify(body.allowPersonalUsage)}`,
        );
      const policyId = (body.policyName as string | undefined) ?? 'default';
      const policyName = policyId.startsWith('enterprises/')
        ? policyId
        : `${enterpriseName}/policies/${policyId}`;
      if (!fake.policies.has(policyName)) throw new HttpError(404, `Policy ${policyName} not found`);
      const value = next().toUpperCase().padEnd(20, 'X');
      const created = {
        ...body,
        name: `${enterpriseName}/enrollmentTokens/${next()}`,
        value,
        policyName,
        expirationTimestamp: new Date(Date.now() + seconds * 1000).toISOString(),
        qrCode: JSON.stringify({
          'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME':
            'com.google.android.apps.work.clouddpc/.receivers.CloudDeviceAdminReceiver',
          'android.app.extra.PROVISIONING_DEVICE_ADMIN_SIGNATURE_CHECKSUM':
            'I5YvS0O5hXY46mb01BlRjq4oJJGs2kuUcHvVkAPEXlg',
          'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_DOWNLOAD_LOCATION':
            'https://play.google.com/managed/downloadManagingApp?identifier=setup',
          'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE': {
            'com.google.android.apps.work.clouddpc.EXTRA_ENROLLMENT_TOKEN': value,
          },
        }),
      };
      fake.enrollmentTokens.set(created.name, created);
      const { used: _used, ...shown } = created as Record<string, unknown>;
      return shown;
    }
    if (method === 'PATCH' && path.startsWith(`${enterpriseName}/policies/`)) {
      if (!isObject(body)) throw badRequest('Policy body expected');
      checkPolicy(body);
      const before = fake.policies.get(path);
      const version = String(Number((before?.version as string | undefined) ?? '0') + 1);
      const policy = { ...body, name: path, version };
      fake.policies.set(path, policy);
      return policy;
    }
    if (method === 'GET' && path === `${enterpriseName}/devices`) {
      const pageSize = Math.min(Number(query.get('pageSize') ?? '10') || 10, 100);
      const start = Number(query.get('pageToken') ?? '0');
      const all = [...fake.devices.values()];
      const page = all.slice(start, start + pageSize);
      return {
        devices: page,
        ...(start + pageSize < all.length ? { nextPageToken: String(start + pageSize) } : {}),
      };
    }
    const operationMatch = new RegExp(`^(${enterpriseName}/devices/[^/]+)/operations/[^/]+$`).exec(path);
    if (method === 'GET' && operationMatch) {
      const entry = fake.operations.get(path);
      if (!entry) throw new HttpError(404, `Operation ${path} not found`);
      entry.polls += 1;
      if (entry.polls >= fake.pollsUntilDone && !entry.operation.done) {
        entry.operation.done = true;
        const metadata = entry.operation.metadata as Record<string, unknown>;
        if (!entry.operation.error) {
          const device = fake.devices.get(entry.device);
          if (metadata.type === 'START_LOST_MODE') {
            metadata.startLostModeStatus = { status: 'SUCCESS' };
            if (device) device.state = 'LOST';
          }
          if (metadata.type === 'STOP_LOST_MODE') {
            metadata.stopLostModeStatus = { status: 'SUCCESS' };
            if (device) device.state = 'ACTIVE';
          }
          entry.operation.response = {};
        }
      }
      return entry.operation;
    }
    if (method === 'POST' && path.endsWith(':issueCommand')) {
      const deviceName = path.slice(0, -':issueCommand'.length);
      if (!devicePattern.test(deviceName) || !fake.devices.has(deviceName))
        throw new HttpError(404, `Device ${deviceName} not found`);
      if (!isObject(body)) throw badRequest('Command body expected');
      const type = checkCommand(body);
      const name = `${deviceName}/operations/${next()}`;
      const error = fake.failNextCommand;
      fake.failNextCommand = null;
      const operation: Record<string, unknown> = {
        name,
        done: false,
        metadata: {
          '@type': 'type.googleapis.com/google.android.devicemanagement.v1.Command',
          ...body,
          type,
          createTime: new Date().toISOString(),
        },
        ...(error ? { error: { code: 9, message: error } } : {}),
      };
      fake.operations.set(name, { operation, polls: 0, device: deviceName });
      return { ...operation, metadata: { ...(operation.metadata as object) } };
    }
    const deviceMatch = devicePattern.exec(path);
    if (deviceMatch && method === 'GET') {
      const device = fake.devices.get(path);
      if (!device) throw new HttpError(404, `Device ${path} not found`);
      return device;
    }
    if (deviceMatch && method === 'PATCH') {
      const device = fake.devices.get(path);
      if (!device) throw new HttpError(404, `Device ${path} not found`);
      if (!isObject(body)) throw badRequest('Device body expected');
      const mask = (query.get('updateMask') ?? '').split(',').filter(Boolean);
      if (mask.length === 0) throw badRequest('updateMask is required');
      for (const field of mask) {
        if (!['policyName', 'state', 'disabledReason'].includes(field))
          throw badRequest(`Cannot update ${field}`);
        if (field === 'policyName') {
          const policyName = body.policyName as string;
          const full = policyName?.startsWith('enterprises/')
            ? policyName
            : `${enterpriseName}/policies/${policyName}`;
          if (!fake.policies.has(full)) throw new HttpError(404, `Policy ${full} not found`);
          device.policyName = full;
          device.appliedPolicyName = full;
          device.appliedPolicyVersion = fake.policies.get(full)!.version;
        } else device[field] = body[field];
      }
      return device;
    }
    throw new HttpError(404, `No method ${method} ${path}`);
  };

  const STATUS_OF: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    404: 'NOT_FOUND',
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const path = decodeURIComponent(url.pathname.replace(/^\/v1\//, ''));
      const method = request.method ?? 'GET';
      const text = Buffer.concat(chunks).toString('utf8');
      let status = 200;
      let answer: unknown;
      let body: unknown;
      try {
        if (request.headers.authorization !== `Bearer ${token}`)
          throw new HttpError(401, 'Request had invalid authentication credentials.');
        if (!url.pathname.startsWith('/v1/')) throw new HttpError(404, 'Not found');
        if (text) {
          if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
            throw badRequest('Content-Type must be application/json');
          try {
            body = JSON.parse(text);
          } catch {
            throw badRequest('Invalid JSON payload received.');
          }
        }
        answer = handle(method, path, url.searchParams, body);
      } catch (error) {
        status = error instanceof HttpError ? error.code : 500;
        answer = {
          error: { code: status, message: (error as Error).message, status: STATUS_OF[status] ?? 'INTERNAL' },
        };
      }
      fake.requests.push({ method, path, query: url.searchParams, body, status });
      response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
};
