import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { GoogleAuth } from 'google-auth-library';

/**
 * The shapes of Google's Android Management API v1 that Kisht uses (REST, JSON; the discovery
 * document androidmanagement.v1, revision 20260729). Fields Kisht does not read are left out;
 * AMAPI sends more.
 */

/** A user-facing text with translations (AMAPI UserFacingMessage). */
export type TUserFacingMessage = { defaultMessage?: string; localizedMessages?: Record<string, string> };

/** AMAPI EnrollmentToken (input fields and the outputs Kisht reads). */
export type TEnrollmentToken = {
  name?: string;
  value?: string;
  /** JSON text of the provisioning extras to encode in the enrolment QR (output). */
  qrCode?: string;
  expirationTimestamp?: string;
  /** enterprises/{e}/policies/{p} or the policy id. */
  policyName?: string;
  /** google-duration, e.g. "3600s". */
  duration?: string;
  oneTimeOnly?: boolean;
  /** Up to 1024 characters; copied to Device.enrollmentTokenData. */
  additionalData?: string;
  allowPersonalUsage?: string;
};

/** AMAPI Policy: the fields Kisht sets (see amapiPolicyOf). */
export type TAmapiPolicy = {
  name?: string;
  /** int64 as a string, read-only: grows with each update. */
  version?: string;
  cameraDisabled?: boolean;
  cameraAccess?: string;
  /** Developer options and USB debugging (`developerSettings`): AMAPI's unspecified value means disabled. */
  advancedSecurityOverrides?: {
    developerSettings?:
      | 'DEVELOPER_SETTINGS_UNSPECIFIED'
      | 'DEVELOPER_SETTINGS_DISABLED'
      | 'DEVELOPER_SETTINGS_ALLOWED';
  };
  applications?: { packageName: string; installType: string }[];
  statusReportingSettings?: Record<string, boolean>;
  /** Text the lock screen shows (device-owner information; Kisht's EMI alert), at most 4096 characters. */
  deviceOwnerLockScreenInfo?: TUserFacingMessage;
  [field: string]: unknown;
};

/** AMAPI Device: the fields Kisht reads. */
export type TAmapiDevice = {
  name: string;
  state?: string;
  appliedState?: string;
  policyName?: string;
  appliedPolicyName?: string;
  appliedPolicyVersion?: string;
  policyCompliant?: boolean;
  enrollmentTime?: string;
  enrollmentTokenName?: string;
  enrollmentTokenData?: string;
  lastStatusReportTime?: string;
  managementMode?: string;
  ownership?: string;
  apiLevel?: number;
  hardwareInfo?: Record<string, unknown>;
  networkInfo?: {
    imei?: string;
    meid?: string;
    wifiMacAddress?: string;
    networkOperatorName?: string;
    /** One entry per SIM the phone reports (networkInfoEnabled); their order is not documented as the slot. */
    telephonyInfos?: { carrierName?: string; phoneNumber?: string; iccId?: string }[];
  };
  softwareInfo?: Record<string, unknown>;
};

/** AMAPI Command (the body of devices.issueCommand). */
export type TAmapiCommand = {
  type: 'LOCK' | 'REBOOT' | 'START_LOST_MODE' | 'STOP_LOST_MODE';
  /** google-duration; the command expires when the phone has not run it by then (AMAPI default 10 min). */
  duration?: string;
  startLostModeParams?: {
    lostMessage?: TUserFacingMessage;
    lostPhoneNumber?: TUserFacingMessage;
    /** A plain string, unlike the others. */
    lostEmailAddress?: string;
    lostStreetAddress?: TUserFacingMessage;
    lostOrganization?: TUserFacingMessage;
  };
  stopLostModeParams?: Record<string, never>;
};

/** AMAPI long-running Operation (issueCommand's answer). */
export type TAmapiOperation = {
  name: string;
  done?: boolean;
  error?: { code?: number; message?: string; details?: unknown[] };
  metadata?: Record<string, unknown>;
  response?: Record<string, unknown>;
};

/**
 * The Android Management API calls Kisht makes (issue 15). Every method throws AmapiError
 * (AppError MDM_UNAVAILABLE, 503) when the API cannot be reached, times out or answers an error;
 * `status` carries the HTTP status when there was one (404: no such device or operation).
 */
export type TAmapiClient = {
  /** enterprises.enrollmentTokens.create: POST v1/{enterprise}/enrollmentTokens. */
  createEnrollmentToken: (token: TEnrollmentToken) => Promise<TEnrollmentToken>;
  /** enterprises.policies.patch: PATCH v1/{policyName}; creates the policy when it does not exist. */
  patchPolicy: (policyName: string, policy: TAmapiPolicy) => Promise<TAmapiPolicy>;
  /** enterprises.devices.get: GET v1/{deviceName}. */
  getDevice: (deviceName: string) => Promise<TAmapiDevice>;
  /** enterprises.devices.list, every page (100 a page). */
  listDevices: () => Promise<TAmapiDevice[]>;
  /** enterprises.devices.patch with updateMask=policyName: the policy the device follows. */
  setDevicePolicy: (deviceName: string, policyName: string) => Promise<TAmapiDevice>;
  /** enterprises.devices.issueCommand: POST v1/{deviceName}:issueCommand → Operation. */
  issueCommand: (deviceName: string, command: TAmapiCommand) => Promise<TAmapiOperation>;
  /** enterprises.devices.operations.get: GET v1/{operationName}. */
  getOperation: (operationName: string) => Promise<TAmapiOperation>;
};

/** An OAuth 2.0 access token for the androidmanagement scope, fresh enough to use now. */
export type TAccessTokenProvider = { getAccessToken: () => Promise<string> };

/** The OAuth scope of every Android Management API method. */
export const AMAPI_SCOPE = 'https://www.googleapis.com/auth/androidmanagement';

/** A failed Android Management API call: AppError MDM_UNAVAILABLE (503), with the HTTP status when there was one. */
export class AmapiError extends AppError {
  readonly status: number | undefined;

  constructor(message: string, status?: number) {
    super(AppErrorCode.MDM_UNAVAILABLE, message);
    this.status = status;
  }
}

/** A fixed bearer token (tests and local fakes; config AMAPI_ACCESS_TOKEN). */
export const staticTokenProvider = (token: string): TAccessTokenProvider => ({
  getAccessToken: async () => token,
});

/**
 * Access tokens of a Google Cloud service account (its JSON key at `keyFile`) for the
 * androidmanagement scope, through google-auth-library (which caches and refreshes them).
 * Throws AmapiError when no token can be had (bad key, Google unreachable).
 */
export const serviceAccountTokenProvider = (keyFile: string): TAccessTokenProvider => {
  const auth = new GoogleAuth({ keyFile, scopes: [AMAPI_SCOPE] });
  return {
    getAccessToken: async () => {
      try {
        const token = await auth.getAccessToken();
        if (!token) throw new Error('no access token');
        return token;
      } catch (error) {
        throw new AmapiError(
          `Android Management API: could not get an access token from the service account (${(error as Error).message})`,
        );
      }
    },
  };
};

/**
 * The Android Management API over fetch (REST v1) at `baseUrl` (https://androidmanagement.googleapis.com
 * or a fake), each request with a bearer token from `tokens` and aborted after `timeoutMs`.
 */
export const createAmapiClient = (options: {
  baseUrl: string;
  enterpriseName: string;
  tokens: TAccessTokenProvider;
  timeoutMs: number;
}): TAmapiClient => {
  const base = options.baseUrl.replace(/\/+$/, '');
  const call = async <T>(
    method: string,
    path: string,
    body?: unknown,
    query: Record<string, string> = {},
  ): Promise<T> => {
    const token = await options.tokens.getAccessToken();
    const search = new URLSearchParams(query).toString();
    const url = `${base}/v1/${path}${search ? `?${search}` : ''}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new AmapiError(
        `Android Management API could not be reached (${method} ${path}: ${(error as Error).message})`,
      );
    }
    const text = await response.text();
    if (!response.ok) {
      let detail = text.slice(0, 300);
      try {
        detail = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? detail;
      } catch {
        // Not JSON: keep the text.
      }
      throw new AmapiError(
        `Android Management API answered ${response.status} to ${method} ${path}: ${detail}`,
        response.status,
      );
    }
    try {
      return (text ? JSON.parse(text) : {}) as T;
    } catch {
      throw new AmapiError(`Android Management API sent a body that is not JSON (${method} ${path})`);
    }
  };
  return {
    createEnrollmentToken: (token) => call('POST', `${options.enterpriseName}/enrollmentTokens`, token),
    patchPolicy: (policyName, policy) => call('PATCH', policyName, policy),
    getDevice: (deviceName) => call('GET', deviceName),
    listDevices: async () => {
      const devices: TAmapiDevice[] = [];
      let pageToken: string | undefined;
      do {
        const page = await call<{ devices?: TAmapiDevice[]; nextPageToken?: string }>(
          'GET',
          `${options.enterpriseName}/devices`,
          undefined,
          { pageSize: '100', ...(pageToken ? { pageToken } : {}) },
        );
        devices.push(...(page.devices ?? []));
        pageToken = page.nextPageToken || undefined;
      } while (pageToken);
      return devices;
    },
    setDevicePolicy: (deviceName, policyName) =>
      call('PATCH', deviceName, { policyName }, { updateMask: 'policyName' }),
    issueCommand: (deviceName, command) => call('POST', `${deviceName}:issueCommand`, command),
    getOperation: (operationName) => call('GET', operationName),
  };
};
