import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, EXIT_WITH_PARENT, REPO_ROOT } from './server';

/**
 * What apps/server/src/test/fake-mdm-main.ts prints: its URLs, the Kisht server's env for the MDM
 * fakes and, apart, for the messaging fakes (MSG91, WhatsApp Cloud API).
 */
export type TFakeMdmInfo = {
  controlUrl: string;
  nanomdmUrl: string;
  amapiUrl: string;
  env: Record<string, string>;
  messagingEnv: Record<string, string>;
};

/**
 * Starts the MDM fakes (fake NanoMDM with its simulated iPhones, fake Android Management API and
 * their control API, all on ephemeral ports) as a child process and reads the JSON line it prints.
 */
export const startFakeMdm = async (
  /** The log file's name in e2e/artifacts. */
  logName = 'fake-mdm.log',
): Promise<{ info: TFakeMdmInfo; process: ChildProcess }> => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const log = createWriteStream(join(ARTIFACTS, logName));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', EXIT_WITH_PARENT, 'src/test/fake-mdm-main.ts'],
    { cwd: join(REPO_ROOT, 'apps/server'), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  child.stderr?.pipe(log);
  const info = await new Promise<TFakeMdmInfo>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('the MDM fakes did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the MDM fakes exited with ${code}; see ${logName}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      log.write(chunk);
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line && output.includes('\n')) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as TFakeMdmInfo);
      }
    });
  });
  return { info, process: child };
};

/** The fakes' control API URL, as the worker's stack (support/stack.ts) left it for the tests. */
const controlUrl = () => {
  const url = process.env.KISHT_E2E_FAKE_MDM_URL;
  if (!url) throw new Error('KISHT_E2E_FAKE_MDM_URL is not set: the worker did not start the MDM fakes');
  return url;
};

/** Calls the fakes' control API (see fake-mdm-main.ts); throws with its `error` on a non-2xx answer. */
export const fakeMdm = async <T = Record<string, unknown>>(
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
): Promise<T> => {
  const response = await fetch(`${controlUrl()}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await response.json()) as T & { error?: string };
  if (!response.ok)
    throw new Error(`fake MDM ${method} ${path} answered ${response.status}: ${answer.error}`);
  return answer;
};

/** A simulated iPhone as the fake NanoMDM holds it (GET /control/iphone). */
export type TFakeIphoneState = {
  udid: string;
  serialNumber: string;
  lockScreen: { message: string; phone: string } | null;
  isLostMode: boolean;
  ran: { uuid: string; requestType: string; command: Record<string, unknown> }[];
  queue: { uuid: string; requestType: string }[];
  answers: { uuid: string; requestType: string; status: string; webhookStatus: number }[];
  refused: string[];
};

/** The simulated iPhone of serial number `serialNumber`. */
export const fakeIphone = (serialNumber: string) =>
  fakeMdm<TFakeIphoneState>('GET', `/control/iphone?serialNumber=${encodeURIComponent(serialNumber)}`);
