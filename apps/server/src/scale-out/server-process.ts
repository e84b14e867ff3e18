import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: the server runs from there, as `npm start` runs it. */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const EXIT_WITH_PARENT = fileURLToPath(new URL('./exit-with-parent.ts', import.meta.url));

/** One line of a server's output: the parsed pino JSON, or `{ msg }` for anything else. */
export type TLogLine = { msg?: string; level?: number; [key: string]: unknown };

export type ServerProcess = {
  name: string;
  /** The port the server bound (it is started with PORT=0). */
  port: number;
  baseUrl: string;
  /** Every line the process wrote to stdout and stderr so far, in order. */
  logs: TLogLine[];
  /** The last `count` lines as text, for failure reports. */
  tail: (count?: number) => string;
  /** Sends the signal and resolves once the process has exited. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
  hasExited: () => boolean;
};

const parseLine = (line: string): TLogLine => {
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed && typeof parsed === 'object') return parsed as TLogLine;
  } catch {
    // Not pino's JSON (a stack trace, a warning from Node): kept as text.
  }
  return { msg: line };
};

/**
 * Starts `node --import tsx apps/server/src/main.ts` (as `npm start` does, plus a preload that
 * ends it with the test process) with exactly `env` (PATH and HOME added) and resolves once it
 * logs the port it is serving on. Rejects, with the process's output, when it exits first or is
 * not serving within `timeoutMs`.
 */
export const startServerProcess = (options: {
  name: string;
  env: Record<string, string>;
  timeoutMs?: number;
}): Promise<ServerProcess> => {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', EXIT_WITH_PARENT, MAIN],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  const logs: TLogLine[] = [];
  let exitCode: number | string | null = null;
  let hasExited = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      hasExited = true;
      exitCode = code ?? signal;
      resolve();
    }),
  );
  const readLines = (stream: NodeJS.ReadableStream) => {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) logs.push(parseLine(line));
    });
  };
  readLines(child.stdout!);
  readLines(child.stderr!);
  const tail = (count = 60) =>
    logs
      .slice(-count)
      .map((line) => `[${options.name}] ${JSON.stringify(line)}`)
      .join('\n');

  const timeoutMs = options.timeoutMs ?? 45_000;
  return new Promise<ServerProcess>((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = setInterval(() => {
      const serving = logs.find(
        (line) => typeof line.port === 'number' && line.msg?.startsWith('Kisht is serving'),
      );
      if (serving) {
        clearInterval(poll);
        const port = serving.port as number;
        resolve({
          name: options.name,
          port,
          baseUrl: `http://127.0.0.1:${port}`,
          logs,
          tail,
          hasExited: () => hasExited,
          kill: async (signal) => {
            if (!hasExited) child.kill(signal);
            await exited;
          },
        });
        return;
      }
      if (hasExited || Date.now() > deadline) {
        clearInterval(poll);
        if (!hasExited) child.kill('SIGKILL');
        const why = hasExited ? `exited (${String(exitCode)})` : `was not serving after ${timeoutMs} ms`;
        reject(new Error(`server ${options.name} ${why} before it was ready:\n${tail()}`));
      }
    }, 50);
  });
};
