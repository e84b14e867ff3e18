import { COMMAND_CATALOGUE, commandNameFor, commandSpecByName, commandSpecOf } from './command-catalogue';
import type { TPolicy, TPolicyControl } from './protocol.schema';

/**
 * Device policy rules shared by the server and the reference agent (design §5, device protocol
 * §6): how a lock/unlock or toggle command edits a policy, and which commands a device runs to
 * move from the policy it holds to a newer one. Pure; no I/O.
 */

/** JSON text with object keys sorted, so equal arguments compare equal however they were stored. */
const stableJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
};

/** True when two policy entries of a feature mean the same (a missing entry is off). */
export const isSameControl = (a: TPolicyControl | undefined, b: TPolicyControl | undefined): boolean => {
  const on = (c: TPolicyControl | undefined) => c?.on === true;
  if (on(a) !== on(b)) return false;
  return !on(a) || stableJson(a?.args ?? {}) === stableJson(b?.args ?? {});
};

/**
 * How long a one-shot command stays applicable when its organisation sets no expiry: 7 days from
 * when it goes out, in ms (its `notAfter`, device protocol §7).
 */
export const COMMAND_STALE_AFTER_MS = 7 * 86_400_000;

/** Every lock/unlock and toggle command name: the commands that are edits of the policy. */
export const POLICY_COMMAND_NAMES: readonly string[] = COMMAND_CATALOGUE.filter(
  (spec) => spec.kind === 'toggle',
).flatMap((spec) => [spec.on, spec.off!]);

/** True when the command name is a lock/unlock or toggle half, i.e. an edit of the policy. */
export const isPolicyCommand = (name: string): boolean => POLICY_COMMAND_NAMES.includes(name);

/**
 * The policy after lock/unlock or a toggle command `name` with `args` (the `on` command's
 * arguments; an `off` command clears them). Throws Error for a name that is not a toggle half.
 */
export const editPolicy = (policy: TPolicy, name: string, args: Record<string, unknown> = {}): TPolicy => {
  const found = commandSpecByName(name);
  if (found?.spec.kind !== 'toggle') throw new Error(`${name} is not a policy command`);
  if (found.spec.feature === 'lock') return { ...policy, locked: found.isOn };
  const control: TPolicyControl = found.isOn ? { on: true, args } : { on: false };
  return { ...policy, controls: { ...policy.controls, [found.spec.feature]: control } };
};

/**
 * The commands (catalogue names with their args) a device runs to go from policy `held` to `next`:
 * one per feature that differs, `lock`/`unlock` first, then the other features in name order.
 * A feature `next` leaves out is turned off if `held` had it on. An unknown feature is returned
 * with name `unknown:{feature}`, for the device to report as failed.
 */
export const policyChanges = (
  held: TPolicy,
  next: TPolicy,
): { feature: string; name: string; args: Record<string, unknown> }[] => {
  const changes: { feature: string; name: string; args: Record<string, unknown> }[] = [];
  if (held.locked !== next.locked)
    changes.push({ feature: 'lock', name: next.locked ? 'lock' : 'unlock', args: {} });
  const features = [...new Set([...Object.keys(held.controls), ...Object.keys(next.controls)])].sort();
  for (const feature of features) {
    const wanted = next.controls[feature];
    if (isSameControl(held.controls[feature], wanted)) continue;
    const spec = commandSpecOf(feature);
    if (spec?.kind !== 'toggle' || feature === 'lock') {
      changes.push({ feature, name: `unknown:${feature}`, args: {} });
      continue;
    }
    const isOn = wanted?.on === true;
    changes.push({ feature, name: commandNameFor(spec, isOn), args: isOn ? (wanted?.args ?? {}) : {} });
  }
  return changes;
};
