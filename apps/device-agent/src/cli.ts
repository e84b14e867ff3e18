import { parseArgs } from 'node:util';
import { DeviceAgent } from './agent';
import { DEFAULT_STATE_PATH, readStateFile, resolveStatePath } from './state';

/**
 * The `kisht-agent` command line (bin/kisht-agent.mjs). Prints one line per event on stdout, in a
 * stable form that scripts and tests can wait for; warnings and errors go to stderr.
 */

export const USAGE = `kisht-agent: a simulated Kisht-financed Android phone (reference device agent)

Usage:
  kisht-agent enrol --qr <payload|file.png> --imei1 <imei> --imei2 <imei> [--state <path>] [--force]
      Enrol with the enrolment QR (the provisioning JSON itself, or a PNG of the QR), save the
      credentials, then stay connected and apply commands until Ctrl-C.
  kisht-agent run [--state <path>]
      Start an enrolled device from its state file and stay connected until Ctrl-C.
  kisht-agent status [--state <path>]
      Print the saved state and exit.
  kisht-agent --help

Options:
  --qr <value>     enrolment QR: JSON text, or a path to a .png (or .json) file
  --imei1 <imei>   15 digits with a valid check digit
  --imei2 <imei>   15 digits with a valid check digit
  --state <path>   state file (default: ${DEFAULT_STATE_PATH} under the current directory)
  --force          enrol even if the state file exists (forgets the old enrolment)
  -h, --help       show this help

Output (stdout, one line per event):
  enrolled: device <id> (IMEI <imei1>)
  state: LOCKED | state: UNLOCKED
  connected to <mqttUrl>
  command <name> <id> applied | already applied | failed: <reason>
  disconnected
  reconnecting
  stopped
`;

/** Where the CLI writes; tests may pass their own. */
export type TCliOutput = { out: (line: string) => void; err: (line: string) => void };

const CONSOLE_OUTPUT: TCliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

const stateLine = (isLocked: boolean) => `state: ${isLocked ? 'LOCKED' : 'UNLOCKED'}`;

/** Resolves on the first SIGINT or SIGTERM. */
const untilSignal = (): Promise<NodeJS.Signals> =>
  new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

/**
 * Prints the agent's events, connects, and keeps running until SIGINT/SIGTERM (exit code 0) or
 * until the broker refuses the device's credentials (exit code 1).
 */
const runAgent = async (agent: DeviceAgent, output: TCliOutput): Promise<number> => {
  let lastWarning = '';
  agent.on('connected', ({ mqttUrl }) => {
    lastWarning = '';
    output.out(`connected to ${mqttUrl}`);
  });
  agent.on('disconnected', () => output.out('disconnected'));
  agent.on('reconnecting', ({ attempt }) => {
    if (attempt === 1) output.out('reconnecting');
  });
  agent.on('command', ({ id, name, result, error }) => {
    if (result === 'done') output.out(`command ${name} ${id} applied`);
    else if (result === 'duplicate') output.out(`command ${name} ${id} already applied`);
    else output.out(`command ${name} ${id} failed: ${error}`);
  });
  agent.on('state', ({ isLocked }) => output.out(stateLine(isLocked)));
  agent.on('invalidMessage', ({ reason }) => output.err(`ignored invalid command message: ${reason}`));
  agent.on('warning', (error) => {
    // Transport errors repeat on every reconnect attempt; say each one once per outage.
    if (error.message === lastWarning) return;
    lastWarning = error.message;
    output.err(`warning: ${error.message}`);
  });

  output.out(stateLine(agent.isLocked));
  const refused = new Promise<Error>((resolve) => agent.once('refused', resolve));
  agent.start().catch(() => {
    // Failures are reported through the 'refused' event or end with stop().
  });
  const outcome = await Promise.race([untilSignal(), refused]);
  await agent.stop();
  if (outcome instanceof Error) {
    output.err(`error: ${outcome.message}`);
    return 1;
  }
  output.out('stopped');
  return 0;
};

const printStatus = async (statePath: string, output: TCliOutput): Promise<number> => {
  const state = await readStateFile(statePath);
  const { credentials } = state;
  output.out(`device: ${credentials.deviceId}`);
  output.out(`IMEI: ${credentials.imei1}, ${credentials.imei2}`);
  output.out(`server: ${credentials.serverUrl}`);
  output.out(`broker: ${credentials.mqttUrl}`);
  output.out(`enrolled at: ${credentials.enrolledAt}`);
  output.out(`applied commands: ${state.appliedCommandIds.length}`);
  output.out(stateLine(state.isLocked));
  return 0;
};

/**
 * Runs the CLI with `argv` (without node and script). Returns the exit code: 0 success, 1 failure
 * (message on stderr), 2 bad usage. `enrol` and `run` return only after SIGINT/SIGTERM.
 */
export const main = async (argv: string[], output: TCliOutput = CONSOLE_OUTPUT): Promise<number> => {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv);
  } catch (error) {
    output.err(`error: ${(error as Error).message}`);
    output.err('run "kisht-agent --help" for usage');
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if (values.help || command === 'help') {
    output.out(USAGE.trimEnd());
    return 0;
  }
  if (!command || extra.length > 0 || !['enrol', 'run', 'status'].includes(command)) {
    output.err(command ? `error: unknown command "${positionals.join(' ')}"` : 'error: no command given');
    output.err('run "kisht-agent --help" for usage');
    return 2;
  }

  const statePath = resolveStatePath(values.state);
  try {
    if (command === 'status') return await printStatus(statePath, output);
    if (command === 'run') return await runAgent(await DeviceAgent.load({ statePath }), output);

    const missing = (['qr', 'imei1', 'imei2'] as const).filter((name) => !values[name]);
    if (missing.length > 0) {
      output.err(`error: enrol needs ${missing.map((name) => `--${name}`).join(', ')}`);
      return 2;
    }
    const agent = await DeviceAgent.enrol({
      qr: values.qr!,
      imei1: values.imei1!,
      imei2: values.imei2!,
      statePath,
      canOverwrite: values.force,
    });
    output.out(`enrolled: device ${agent.deviceId} (IMEI ${agent.state.credentials.imei1})`);
    return await runAgent(agent, output);
  } catch (error) {
    output.err(`error: ${(error as Error).message}`);
    return 1;
  }
};

const parseCliArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      qr: { type: 'string' },
      imei1: { type: 'string' },
      imei2: { type: 'string' },
      state: { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
