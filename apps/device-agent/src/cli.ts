import { unwatchFile, watchFile } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatIstDateTime } from '@kisht/domain/common/time';
import { OFFLINE_CODE_ACTIONS, OFFLINE_CODE_MAX_WRONG_TRIES } from '@kisht/domain/devices/offline-code';
import { paidThroughCountdown } from '@kisht/domain/devices/paid-through';
import type { TSimSlot } from '@kisht/domain/devices/protocol.schema';
import { paths } from '@kisht/domain/paths';
import { DeviceAgent, type TAgentOptions, type TEnrolOptions, type TPositionInput } from './agent';
import { paidThroughLockAtOf } from './agent-offline';
import { inboxOf } from './commands';
import { lockScreenOf } from './lock-screen';
import { DEFAULT_STATE_PATH, readStateFile, resolveStatePath, type TAgentStateFile } from './state';
import { claimStateFileForRun } from './state-sharing';

/**
 * The `kisht-agent` command line (bin/kisht-agent.mjs). Prints one line per event on stdout, in a
 * stable form that scripts and tests can wait for; warnings and errors go to stderr.
 */

export const USAGE = `kisht-agent: a simulated Kisht-financed Android phone (reference device agent)

Usage:
  kisht-agent enrol --qr <payload|file.png> --imei1 <imei> --imei2 <imei> [--state <path>] [--force]
                    [--lat <deg> --lon <deg>] [--tracking-interval <seconds>]
                    [--offline-lock-after <minutes>]
      Enrol with the enrolment QR (the provisioning JSON itself, or a PNG of the QR), save the
      credentials, then stay connected and apply commands until Ctrl-C.
  kisht-agent enrol --link <deep link> --imei1 <imei> --imei2 <imei> [--state <path>] [--force] [...]
  kisht-agent enrol --code <code> --server <url> --org <id> --imei1 <imei> --imei2 <imei> [...]
      Link mode (the link-based app, device type 2): enrol from the deep link the shop gave
      (https://…/emm/l?org=…&token=… or kisht://enrol?…), or from the 8-character enrolment code
      typed in (exchanged at the server's /emm/generate_code); then as above.
  kisht-agent uninstall-app [--state <path>] [--lat <deg> --lon <deg>] [--no-fix]
      The link-based app is removed: connect, report the removal with the phone's position (both
      coordinates "Bypassed" with --no-fix) and stop for good. Exit code 1 when it cannot connect.
  kisht-agent run [--state <path>] [--lat <deg> --lon <deg>] [--tracking-interval <seconds>]
                  [--offline-lock-after <minutes>]
      Start an enrolled device from its state file and stay connected until Ctrl-C (or until an
      uninstall command removes it).
  kisht-agent status [--state <path>]
      Print the saved state and exit.
  kisht-agent sim --slot <n> (--iccid <digits> [--operator <name>] | --empty) [--state <path>]
      Put a SIM card in slot n (or empty it). A running agent on the same state file reports the
      change within a second; otherwise it is reported after the next connect.
  kisht-agent position --lat <deg> --lon <deg> [--accuracy <m>] [--state <path>]
      Move the phone. A running agent on the same state file uses it within a second.
  kisht-agent challenge [--state <path>]
      Print the offline challenge the phone shows (give it to the retailer for an offline code).
  kisht-agent offline-code --code <8 digits> [--action unlock|lock] [--state <path>]
      Enter an offline code, with no network: accepted, it unlocks (or locks) the phone, burns the
      challenge and is reported (kind offline_lock) when connected; exit code 1 when refused. A
      running agent on the same state file takes it within a second.
  kisht-agent redeem --server <url> --org <id> --code <code> [--imei <imei>] [--serial <text>]
                     [--model <text>]
      Redeem a protection plan's activation code (anti-hacking, family care, anti-theft,
      extended warranty) as the plan's app on this phone does: prints the answer as one line of
      JSON (plan name, app type, term, when redeemed) and exits 0; exit code 1 with the server's
      message when the code is unknown or was used on another phone. Needs no enrolment.
  kisht-agent --help

Options:
  --qr <value>     enrolment QR: JSON text, or a path to a .png (or .json) file
  --link <url>     the link-based app's deep link (enrol, link mode)
  --no-fix         uninstall-app: the phone has no location fix (reported as Bypassed)
  --imei1 <imei>   15 digits with a valid check digit
  --imei2 <imei>   15 digits with a valid check digit
  --state <path>   state file (default: ${DEFAULT_STATE_PATH} under the current directory)
  --force          enrol even if the state file exists (forgets the old enrolment)
  --lat <deg>      latitude, -90 to 90 (WGS 84); with --lon
  --lon <deg>      longitude, -180 to 180 (WGS 84); with --lat
  --accuracy <m>   accuracy radius of the position, metres
  --tracking-interval <seconds>
                   seconds between location reports while tracking is on (default 900)
  --offline-lock-after <minutes>
                   lock the phone after this long without a check-in (default: never)
  --slot <n>       SIM slot, 1 to 4
  --iccid <digits> ICCID of the card, 18 to 22 digits
  --operator <name> operator name shown by the phone (e.g. Jio, Airtel)
  --empty          the slot has no card
  --code <digits>  an offline code (8 digits) for the shown challenge; with enrol, the
                   link-based app's enrolment code (XXXX-XXXX); with redeem, the plan's code
  --action <name>  what the offline code does: unlock (default) or lock
  --server <url>   the Kisht server (redeem, enrol --code), e.g. http://localhost:8080
  --org <id>       the organisation whose app this is (redeem, enrol --code)
  --serial <text>  the phone's serial number (redeem)
  --model <text>   the phone's model name (redeem)
  -h, --help       show this help

Output (stdout, one line per event):
  enrolled: device <id> (IMEI <imei1>)
  state: LOCKED | state: UNLOCKED
  connected to <mqttUrl>
  command <name> <id> applied | already applied | failed: <reason>
  control <feature>: ON | OFF
  sims: <slot>=<iccid> (<operator>) | <slot>=empty, …
  report sim | report location <latitude>,<longitude> | report offline_lock <action> (<source>)
  report app_removed <latitude>,<longitude>
  offline lock (offline_limit) | offline unlock (offline_code) | offline lock (offline_code)
  challenge: <digits>
  offline code accepted: <action> | offline code wrong: <n> tries left
  offline code wrong: too many wrong tries, the challenge changed
  disconnected
  reconnecting
  uninstalled
  stopped
`;

/** Where the CLI writes; tests may pass their own. */
export type TCliOutput = { out: (line: string) => void; err: (line: string) => void };

const CONSOLE_OUTPUT: TCliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

const stateLine = (isLocked: boolean) => `state: ${isLocked ? 'LOCKED' : 'UNLOCKED'}`;

const simsLine = (sims: readonly TSimSlot[]) =>
  `sims: ${
    sims.length === 0
      ? 'none'
      : sims
          .map((sim) =>
            sim.iccid
              ? `${sim.slot}=${sim.iccid}${sim.operator ? ` (${sim.operator})` : ''}`
              : `${sim.slot}=empty`,
          )
          .join(', ')
  }`;

/**
 * What a locked phone's screen shows (device protocol §9.2), on one line: the lock screen's lines
 * (lock-screen.ts lockScreenOf: why, whom to call, what is overdue and how to pay when something
 * is, the offline challenge, and that emergency calls work).
 */
const lockScreenLine = (state: TAgentStateFile): string =>
  `lock screen: ${lockScreenOf(state)?.lines.join('; ') ?? ''}`;

/** Thrown for bad option values: exit code 2. */
class UsageError extends Error {}

/** Resolves on the first SIGINT or SIGTERM, or when `stop` aborts (an in-process caller's stop). */
const untilSignal = (stop?: AbortSignal): Promise<NodeJS.Signals | 'stopped'> =>
  new Promise((resolve) => {
    const finish = (outcome: NodeJS.Signals | 'stopped') => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stop?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onSignal = (signal: NodeJS.Signals) => finish(signal);
    const onAbort = () => finish('stopped');
    if (stop?.aborted) return resolve('stopped');
    stop?.addEventListener('abort', onAbort);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

/**
 * Prints the agent's events, connects, and keeps running until SIGINT/SIGTERM (exit code 0), until
 * an uninstall command removes the device (exit code 0), or until the broker refuses the device's
 * credentials (exit code 1). Meanwhile it polls the state file, so `kisht-agent sim` and
 * `kisht-agent position` run from another shell reach the running device.
 */
const runAgent = async (agent: DeviceAgent, output: TCliOutput, stop?: AbortSignal): Promise<number> => {
  if (agent.isUninstalled) {
    output.err(`error: device ${agent.deviceId} was uninstalled by an uninstall command; enrol again`);
    return 1;
  }
  // One running agent per state file: a second one refuses at once (StateFileInUseError).
  const release = await claimStateFileForRun(agent.statePath);
  try {
    return await runClaimedAgent(agent, output, stop);
  } finally {
    await release().catch(() => {});
  }
};

const runClaimedAgent = async (
  agent: DeviceAgent,
  output: TCliOutput,
  stop?: AbortSignal,
): Promise<number> => {
  let lastWarning = '';
  let shown = agent.reportedState;
  agent.on('connected', ({ mqttUrl }) => {
    lastWarning = '';
    output.out(`connected to ${mqttUrl}`);
  });
  agent.on('disconnected', () => output.out('disconnected'));
  agent.on('reconnecting', ({ attempt }) => {
    if (attempt === 1) output.out('reconnecting');
  });
  agent.on('command', ({ id, name, result, error }) => {
    if (result === 'done') {
      output.out(`command ${name} ${id} applied`);
      const { messages, ads } = inboxOf(agent.state);
      if (name === 'show_message')
        output.out(`showing message from ${messages.at(-1)?.from}: "${messages.at(-1)?.text}"`);
      if (name === 'show_ad')
        output.out(`showing ad #${ads.at(-1)?.advertisementId}: "${ads.at(-1)?.title}"`);
    } else if (result === 'duplicate') output.out(`command ${name} ${id} already applied`);
    else output.out(`command ${name} ${id} failed: ${error}`);
  });
  agent.on('state', (state) => {
    if (state.isLocked !== shown.isLocked) output.out(stateLine(state.isLocked));
    for (const [feature, isOn] of Object.entries(state.controls ?? {})) {
      if (feature !== 'lock' && shown.controls?.[feature] !== isOn) {
        output.out(`control ${feature}: ${isOn ? 'ON' : 'OFF'}`);
      }
    }
    if (JSON.stringify(state.sims) !== JSON.stringify(shown.sims)) output.out(simsLine(state.sims ?? []));
    shown = state;
  });
  agent.on('report', ({ kind, data }) => {
    if (kind === 'location') output.out(`report location ${data.latitude},${data.longitude}`);
    else if (kind === 'offline_lock') output.out(`report offline_lock ${data.action} (${data.source})`);
    else if (kind === 'app_removed') output.out(`report app_removed ${data.latitude},${data.longitude}`);
    else output.out(`report ${kind}`);
  });
  agent.on('offline', ({ action, source }) => output.out(`offline ${action} (${source})`));
  agent.on('invalidMessage', ({ reason }) => output.err(`ignored invalid command message: ${reason}`));
  agent.on('warning', (error) => {
    // Transport errors repeat on every reconnect attempt; say each one once per outage.
    if (error.message === lastWarning) return;
    lastWarning = error.message;
    output.err(`warning: ${error.message}`);
  });

  // `kisht-agent sim` / `position` / `offline-code` write the state file; hand their changes to the
  // running agent. Only a file newer than the agent's own state counts (its own saves do not).
  const onFileChange = () => {
    readStateFile(agent.statePath)
      .then(async (saved) => {
        const current = agent.state;
        if (saved.revision <= current.revision) return;
        await agent.adoptOfflineState(saved);
        if (JSON.stringify(saved.sims) !== JSON.stringify(current.sims)) await agent.setSims(saved.sims);
        if (JSON.stringify(saved.position) !== JSON.stringify(current.position)) {
          await agent.setPosition(saved.position);
        }
      })
      .catch((error: Error) => output.err(`warning: ${error.message}`));
  };
  watchFile(agent.statePath, { interval: 250, persistent: false }, onFileChange);

  output.out(stateLine(agent.isLocked));
  const refused = new Promise<Error>((resolve) => agent.once('refused', resolve));
  const uninstalled = new Promise<'uninstalled'>((resolve) =>
    agent.once('uninstalled', () => resolve('uninstalled')),
  );
  agent.start().catch(() => {
    // Failures are reported through the 'refused' event or end with stop().
  });
  const outcome = await Promise.race([untilSignal(stop), refused, uninstalled]);
  unwatchFile(agent.statePath, onFileChange);
  await agent.stop();
  if (outcome instanceof Error) {
    output.err(`error: ${outcome.message}`);
    return 1;
  }
  output.out(outcome === 'uninstalled' ? 'uninstalled' : 'stopped');
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
  for (const line of statusDetails(state)) output.out(line);
  return 0;
};

/** The newest message and advertisement the phone shows (issue 16), for `status`. */
const inboxLines = (state: TAgentStateFile): string[] => {
  const { messages, ads } = inboxOf(state);
  const message = messages.at(-1);
  const ad = ads.at(-1);
  return [
    `messages: ${messages.length}${message ? `, newest from ${message.from}: "${message.text}"` : ''}`,
    `ads: ${ads.length}${ad ? `, newest #${ad.advertisementId} from ${ad.from}: "${ad.title}"` : ''}`,
  ];
};

/**
 * The paid-through date the phone holds (device protocol §12.5) in +05:30, and the countdown it
 * shows from PAID_THROUGH_COUNTDOWN_MS before it would lock itself.
 */
const paidThroughLines = (state: TAgentStateFile): string[] => {
  const paidThrough = state.policy?.policy.paidThrough;
  if (!paidThrough) return ['paid through: no date (never locks itself for it)'];
  const countdown = paidThroughCountdown(paidThroughLockAtOf(state), Date.now());
  return [
    `paid through: ${formatIstDateTime(paidThrough)}`,
    ...(countdown
      ? [
          `reminder: pay before ${formatIstDateTime(paidThrough)}; this phone locks itself in ${Math.ceil(countdown.msLeft / 3_600_000)} h`,
        ]
      : []),
  ];
};

/** The simulated phone's state beyond the lock, one line each, for `status`. */
const statusDetails = (state: TAgentStateFile): string[] => {
  const controls = Object.entries(state.controls).filter(([feature]) => feature !== 'lock');
  const { position, wallpaper, lostMode, antitheftLostMode, lastAlert } = state;
  const lostModeText = (mode: typeof lostMode) =>
    mode ? `ON "${mode.message}"${mode.phone ? ` call ${mode.phone}` : ''}` : 'OFF';
  return [
    `controls: ${controls.length === 0 ? 'none' : controls.map(([feature, isOn]) => `${feature}=${isOn ? 'ON' : 'OFF'}`).join(', ')}`,
    simsLine(state.sims),
    `position: ${position.latitude},${position.longitude} (±${position.accuracyM} m)`,
    `wallpaper: ${wallpaper ? [wallpaper.text && `"${wallpaper.text}"`, wallpaper.imageUrl].filter(Boolean).join(' ') : 'none'}`,
    `lost mode: ${lostModeText(lostMode)}`,
    `anti-theft lost mode: ${lostModeText(antitheftLostMode)}`,
    `locked apps: ${state.lockedApps.join(', ') || 'none'}`,
    `hidden apps: ${state.hiddenApps.join(', ') || 'none'}`,
    `last EMI alert: ${lastAlert ? JSON.stringify(lastAlert) : 'none'}`,
    `boots: ${state.bootCount}`,
    ...inboxLines(state),
    ...paidThroughLines(state),
    ...(state.isLocked ? [lockScreenLine(state)] : []),
    // This phone never blocks emergency calls, locked or not (device protocol §9.2).
    'Emergency calls: allowed',
    `offline challenge: ${state.offlineChallenge} (wrong tries: ${state.offlineWrongTries} of ${OFFLINE_CODE_MAX_WRONG_TRIES})`,
    `last check-in: ${state.lastCheckInAt}`,
    `offline reports pending: ${state.offlineEvents.filter((event) => event.isReportPending).length}`,
    ...Object.entries(state.actionsAppliedAt).map(([name, at]) => `last ${name}: ${at}`),
    ...(state.uninstalled ? ['UNINSTALLED'] : []),
  ];
};

/** `sim`: puts a card in a slot (or empties it) in the state file; reported on the next connect. */
const changeSim = async (statePath: string, values: TCliValues, output: TCliOutput): Promise<number> => {
  const slot = numberOption(values, 'slot');
  if (slot === undefined) throw new UsageError('sim needs --slot');
  if (values.empty === (values.iccid !== undefined))
    throw new UsageError('sim needs --iccid or --empty (one of them)');
  const agent = await DeviceAgent.load({ statePath });
  const card: TSimSlot = values.empty
    ? { slot, iccid: null, operator: null }
    : { slot, iccid: values.iccid!, operator: values.operator ?? null };
  await agent.setSims([...agent.state.sims.filter((sim) => sim.slot !== slot), card]);
  output.out(simsLine(agent.state.sims));
  return 0;
};

/** `position`: moves the phone in the state file. */
const changePosition = async (statePath: string, values: TCliValues, output: TCliOutput): Promise<number> => {
  const position = positionOption(values);
  if (!position) throw new UsageError('position needs --lat and --lon');
  const agent = await DeviceAgent.load({ statePath });
  await agent.setPosition(position);
  const saved = agent.state.position;
  output.out(`position: ${saved.latitude},${saved.longitude} (±${saved.accuracyM} m)`);
  return 0;
};

/** `challenge`: prints the offline challenge the phone shows. */
const printChallenge = async (statePath: string, output: TCliOutput): Promise<number> => {
  // load() saves a migrated file, so the challenge shown is the one kept.
  const agent = await DeviceAgent.load({ statePath });
  output.out(`challenge: ${agent.offlineChallenge}`);
  return 0;
};

/** `offline-code`: enters an offline code on the phone (no network); exit 1 when refused. */
const enterOfflineCode = async (
  statePath: string,
  values: TCliValues,
  output: TCliOutput,
): Promise<number> => {
  if (values.code === undefined) throw new UsageError('offline-code needs --code');
  const action = values.action ?? 'unlock';
  if (!(OFFLINE_CODE_ACTIONS as readonly string[]).includes(action)) {
    throw new UsageError(`--action must be ${OFFLINE_CODE_ACTIONS.join(' or ')}, not "${action}"`);
  }
  const agent = await DeviceAgent.load({ statePath });
  const outcome = await agent.enterOfflineCode(values.code, action as (typeof OFFLINE_CODE_ACTIONS)[number]);
  if (outcome.result === 'accepted') {
    output.out(`offline code accepted: ${outcome.action}`);
    output.out(stateLine(outcome.isLocked));
  } else if (outcome.result === 'wrong') {
    output.out(`offline code wrong: ${outcome.triesLeft} tries left`);
  } else {
    output.out('offline code wrong: too many wrong tries, the challenge changed');
  }
  output.out(`challenge: ${outcome.challenge}`);
  return outcome.result === 'accepted' ? 0 : 1;
};

type TCliValues = ReturnType<typeof parseCliArgs>['values'];

/** A numeric option, or undefined when absent; UsageError when not a number. */
const numberOption = (
  values: TCliValues,
  name: 'slot' | 'lat' | 'lon' | 'accuracy' | 'tracking-interval' | 'offline-lock-after',
) => {
  const text = values[name];
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value))
    throw new UsageError(`--${name} must be a number, not "${text}"`);
  return value;
};

/** --lat/--lon/--accuracy as a position, or undefined when none is given. */
const positionOption = (values: TCliValues): TPositionInput | undefined => {
  const latitude = numberOption(values, 'lat');
  const longitude = numberOption(values, 'lon');
  const accuracyM = numberOption(values, 'accuracy');
  if (latitude === undefined && longitude === undefined && accuracyM === undefined) return undefined;
  if (latitude === undefined || longitude === undefined) throw new UsageError('--lat and --lon go together');
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || (accuracyM ?? 0) < 0) {
    throw new UsageError('--lat must be -90 to 90, --lon -180 to 180, --accuracy 0 or more');
  }
  return { latitude, longitude, ...(accuracyM === undefined ? {} : { accuracyM }) };
};

/** The agent options from --tracking-interval (seconds) and --offline-lock-after (minutes). */
const agentOptions = (values: TCliValues): TAgentOptions => {
  const options: TAgentOptions = {};
  const seconds = numberOption(values, 'tracking-interval');
  if (seconds !== undefined) {
    if (seconds <= 0) throw new UsageError('--tracking-interval must be more than 0 seconds');
    options.trackingIntervalMs = seconds * 1000;
  }
  const minutes = numberOption(values, 'offline-lock-after');
  if (minutes !== undefined) {
    if (minutes <= 0) throw new UsageError('--offline-lock-after must be more than 0 minutes');
    options.offlineLockAfterMs = minutes * 60_000;
  }
  return options;
};

const COMMANDS = [
  'enrol',
  'run',
  'status',
  'sim',
  'position',
  'challenge',
  'offline-code',
  'redeem',
  'uninstall-app',
];

/**
 * `uninstall-app`: the link-based app is removed. Connects (with the position given, if any),
 * reports 'app_removed' with the position (or Bypassed with --no-fix) and stops for good. Exit
 * code 1 when it cannot connect or was already uninstalled.
 */
const uninstallApp = async (statePath: string, values: TCliValues, output: TCliOutput): Promise<number> => {
  const position = positionOption(values);
  const agent = await DeviceAgent.load({ statePath });
  if (agent.isUninstalled) {
    output.err(`error: device ${agent.deviceId} is already uninstalled`);
    return 1;
  }
  if (position) await agent.setPosition(position);
  agent.on('warning', (error) => output.err(`warning: ${error.message}`));
  try {
    await agent.start();
  } catch (error) {
    await agent.stop();
    output.err(`error: cannot connect: ${(error as Error).message}`);
    return 1;
  }
  const data = await agent.reportAppRemoved({ hasFix: !values['no-fix'] });
  output.out(`report app_removed ${data.latitude},${data.longitude}`);
  output.out('uninstalled');
  return 0;
};

/** The enrolment source of `enrol`: exactly one of --qr, --link, or --code with --server and --org. */
const enrolSource = (values: TCliValues): Pick<TEnrolOptions, 'qr' | 'link' | 'code'> => {
  const ways = [values.qr, values.link, values.code].filter((value) => value !== undefined);
  if (ways.length !== 1)
    throw new UsageError('enrol needs one of --qr, --link, or --code with --server and --org');
  if (values.qr !== undefined) return { qr: values.qr };
  if (values.link !== undefined) return { link: values.link };
  const missing = (['server', 'org'] as const).filter((name) => !values[name]);
  if (missing.length > 0)
    throw new UsageError(`enrol --code needs ${missing.map((name) => `--${name}`).join(', ')}`);
  const orgId = Number(values.org);
  if (!Number.isInteger(orgId) || orgId <= 0) throw new UsageError('--org must be a whole number above 0');
  return { code: { serverUrl: values.server!, orgId, code: values.code! } };
};

/**
 * `redeem`: POSTs the code to the server's redeem route (public, no client headers: a phone, not
 * the app) and prints the answer's data as one line of JSON. Exit code 1 with the server's message
 * when it refuses; bad options are a UsageError.
 */
const redeemCode = async (values: TCliValues, output: TCliOutput): Promise<number> => {
  const missing = (['server', 'org', 'code'] as const).filter((name) => !values[name]);
  if (missing.length > 0)
    throw new UsageError(`redeem needs ${missing.map((name) => `--${name}`).join(', ')}`);
  const orgId = Number(values.org);
  if (!Number.isInteger(orgId) || orgId <= 0) throw new UsageError('--org must be a whole number above 0');
  const body = {
    orgId,
    code: values.code,
    ...(values.imei ? { imei: values.imei } : {}),
    ...(values.serial ? { serialNumber: values.serial } : {}),
    ...(values.model ? { model: values.model } : {}),
  };
  const answer = await fetch(new URL(paths.plans.redeem, values.server), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const envelope = (await answer.json().catch(() => null)) as { message?: string; data?: unknown } | null;
  if (!answer.ok) {
    output.err(`error: ${envelope?.message ?? `HTTP ${answer.status}`}`);
    return 1;
  }
  output.out(JSON.stringify(envelope?.data ?? null));
  return 0;
};

/**
 * How `main` runs in-process (tests, tools): `stop` ends `enrol` and `run` as SIGINT/SIGTERM do, and
 * `cwd` is the directory a relative `--state` (and the default state file) resolves against.
 */
export type TCliOptions = { stop?: AbortSignal; cwd?: string };

/**
 * Runs the CLI with `argv` (without node and script). Returns the exit code: 0 success, 1 failure
 * (message on stderr), 2 bad usage. `enrol` and `run` return only after SIGINT/SIGTERM, `options.stop`
 * (or an uninstall command).
 */
export const main = async (
  argv: string[],
  output: TCliOutput = CONSOLE_OUTPUT,
  options: TCliOptions = {},
): Promise<number> => {
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
  if (!command || extra.length > 0 || !COMMANDS.includes(command)) {
    output.err(command ? `error: unknown command "${positionals.join(' ')}"` : 'error: no command given');
    output.err('run "kisht-agent --help" for usage');
    return 2;
  }

  const statePath = resolveStatePath(values.state, options.cwd);
  try {
    if (command === 'status') return await printStatus(statePath, output);
    if (command === 'sim') return await changeSim(statePath, values, output);
    if (command === 'position') return await changePosition(statePath, values, output);
    if (command === 'challenge') return await printChallenge(statePath, output);
    if (command === 'offline-code') return await enterOfflineCode(statePath, values, output);
    if (command === 'redeem') return await redeemCode(values, output);
    if (command === 'uninstall-app') return await uninstallApp(statePath, values, output);
    const agentSettings = agentOptions(values);
    const position = positionOption(values);

    let agent: DeviceAgent;
    if (command === 'run') {
      agent = await DeviceAgent.load({ statePath, ...agentSettings });
    } else {
      const missing = [
        ...(values.qr || values.link || values.code ? [] : ['qr']),
        ...(['imei1', 'imei2'] as const).filter((name) => !values[name]),
      ];
      if (missing.length > 0)
        throw new UsageError(`enrol needs ${missing.map((name) => `--${name}`).join(', ')}`);
      agent = await DeviceAgent.enrol({
        ...enrolSource(values),
        imei1: values.imei1!,
        imei2: values.imei2!,
        statePath,
        canOverwrite: values.force,
        ...agentSettings,
      });
      output.out(`enrolled: device ${agent.deviceId} (IMEI ${agent.state.credentials.imei1})`);
    }
    if (position && !agent.isUninstalled) await agent.setPosition(position);
    return await runAgent(agent, output, options.stop);
  } catch (error) {
    output.err(`error: ${(error as Error).message}`);
    if (!(error instanceof UsageError)) return 1;
    output.err('run "kisht-agent --help" for usage');
    return 2;
  }
};

const parseCliArgs = (argv: string[]) =>
  parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      qr: { type: 'string' },
      link: { type: 'string' },
      'no-fix': { type: 'boolean', default: false },
      imei1: { type: 'string' },
      imei2: { type: 'string' },
      state: { type: 'string' },
      force: { type: 'boolean', default: false },
      lat: { type: 'string' },
      lon: { type: 'string' },
      accuracy: { type: 'string' },
      'tracking-interval': { type: 'string' },
      slot: { type: 'string' },
      iccid: { type: 'string' },
      operator: { type: 'string' },
      empty: { type: 'boolean', default: false },
      'offline-lock-after': { type: 'string' },
      code: { type: 'string' },
      action: { type: 'string' },
      server: { type: 'string' },
      org: { type: 'string' },
      imei: { type: 'string' },
      serial: { type: 'string' },
      model: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
