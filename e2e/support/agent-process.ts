import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, REPO_ROOT } from './server';

/**
 * Runs the reference agent CLI (`kisht-agent`) as a child process, as a person would, and lets a
 * test wait for the lines it prints.
 */
export class AgentProcess {
  private output = '';
  private child: ChildProcess | null = null;

  constructor(private readonly logName: string) {}

  /** Starts `kisht-agent <args>`; output is also kept in e2e/artifacts/<logName>.log. */
  start(args: string[]): void {
    this.output = '';
    const log = createWriteStream(join(ARTIFACTS, `${this.logName}.log`), { flags: 'a' });
    this.child = spawn(
      process.execPath,
      [join(REPO_ROOT, 'apps/device-agent/bin/kisht-agent.mjs'), ...args],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    for (const stream of [this.child.stdout, this.child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        this.output += chunk.toString();
        log.write(chunk);
      });
    }
  }

  /** Resolves once the output since start() matches; rejects after timeoutMs with the output. */
  async waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (pattern.test(this.output)) return;
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(`agent exited (${this.child.exitCode}) before printing ${pattern}:\n${this.output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`agent did not print ${pattern} within ${timeoutMs} ms:\n${this.output}`);
  }

  /** The last `state: …` line the agent printed. */
  lastState(): string | undefined {
    return [...this.output.matchAll(/state: (LOCKED|UNLOCKED)/g)].at(-1)?.[1];
  }

  /** Stops the agent with SIGTERM and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    });
  }
}
