import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TFailure } from '@kisht/domain/common/envelope';
import { AppErrorCode } from '@kisht/domain/common/errors';
import {
  type TEnrolDeviceRequest,
  type TEnrolDeviceResponse,
  ZEnrolDeviceRequest,
} from '@kisht/domain/devices/devices.schema';
import { ANDROID_PROVISIONING_KEYS, PROVISIONING_EXTRAS } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { type TConformanceCredentials, urlHost } from './harness';

/**
 * The API server's enrol call for the conformance CLI (docs/device-protocol.md §1): one enrolment
 * token, printed in an enrolment QR, which POST paths.devices.enrol exchanges for the credentials of
 * the suite's one device. A device under test enrols here exactly as it does with the API server.
 */

/** The DPC the QR names, as the API server's defaults (config DPC_*). */
const DPC_COMPONENT_NAME = 'in.kisht.dpc/.KishtDeviceAdminReceiver';
const DPC_SIGNATURE_CHECKSUM = 'o6R0Y3ZkN9O2bW8xq8LQ1QxhJ3m5aJ6u0oX2y0T9wqI';

/** Largest enrol body read, bytes. */
const MAX_BODY_BYTES = 16_384;

export type TEnrolEndpoint = {
  /** http://host:port, the QR's server URL. */
  serverUrl: string;
  /** The one enrolment token this endpoint accepts. */
  token: string;
  /** The Android provisioning JSON of the enrolment QR (as the API server issues it). */
  qrPayload: Record<string, unknown>;
  /** What an accepted enrol call answers (the envelope's data): the device's credentials. */
  answer: TEnrolDeviceResponse;
  /** Bodies of the accepted enrol calls. */
  enrolments: TEnrolDeviceRequest[];
  close: () => Promise<void>;
};

const failure = (message: string, code: string, fields?: TFailure['fields']): TFailure => ({
  response: 'failure',
  message,
  code,
  ...(fields ? { fields } : {}),
  data: null,
});

const send = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

const readBody = async (request: IncomingMessage): Promise<string | undefined> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * Serves POST paths.devices.enrol on `host:port` (default 127.0.0.1, a free port): a body that is
 * a valid TEnrolDeviceRequest with this endpoint's token gets `credentials` (again on every call:
 * a device that lost the answer may enrol again); a wrong token ENROLMENT_TOKEN_INVALID (400), an
 * invalid body VALIDATION_FAILED (400) with the fields, anything else NOT_FOUND (404). The QR names
 * `http://{publicHost ?? host}:{port}` as the server.
 */
export const startEnrolEndpoint = async (
  credentials: TConformanceCredentials,
  options: { host?: string; port?: number; publicHost?: string } = {},
): Promise<TEnrolEndpoint> => {
  const token = randomBytes(24).toString('base64url');
  const enrolments: TEnrolDeviceRequest[] = [];
  const answer: TEnrolDeviceResponse = {
    deviceId: credentials.deviceId,
    deviceSecret: credentials.deviceSecret,
    mqttUrl: credentials.mqttUrl,
    cmdTopic: credentials.cmdTopic,
    evtTopic: credentials.evtTopic,
    offlineLockAfterMs: null,
    serverKey: credentials.serverKey,
  };

  const server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== paths.devices.enrol) {
      send(response, 404, failure(`Not found: ${request.method} ${request.url}`, AppErrorCode.NOT_FOUND));
      return;
    }
    const text = await readBody(request);
    let json: unknown;
    try {
      json = text === undefined ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = ZEnrolDeviceRequest.safeParse(json);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((issue) => ({
        field: issue.path.join('.') || '(body)',
        message: issue.message,
      }));
      send(response, 400, failure('Invalid enrol request', AppErrorCode.VALIDATION_FAILED, fields));
      return;
    }
    if (parsed.data.token !== token) {
      send(
        response,
        400,
        failure('This enrolment QR is no longer valid', AppErrorCode.ENROLMENT_TOKEN_INVALID),
      );
      return;
    }
    enrolments.push(parsed.data);
    send(response, 200, { response: 'success', message: 'Device enrolled', data: answer });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const serverUrl = `http://${urlHost(options.publicHost ?? host, port)}`;
  const qrPayload = {
    [ANDROID_PROVISIONING_KEYS.adminComponent]: DPC_COMPONENT_NAME,
    [ANDROID_PROVISIONING_KEYS.packageDownloadLocation]: `${serverUrl}/downloads/kisht-dpc.apk`,
    [ANDROID_PROVISIONING_KEYS.signatureChecksum]: DPC_SIGNATURE_CHECKSUM,
    [ANDROID_PROVISIONING_KEYS.leaveSystemAppsEnabled]: true,
    [ANDROID_PROVISIONING_KEYS.adminExtrasBundle]: {
      [PROVISIONING_EXTRAS.enrolmentToken]: token,
      [PROVISIONING_EXTRAS.serverUrl]: serverUrl,
    },
  };
  return {
    serverUrl,
    token,
    qrPayload,
    answer,
    enrolments,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
