import type { TControlFeature } from '@kisht/domain/common/enums';
import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import type { TDeviceControlSettings } from '@kisht/domain/devices/devices.schema';
import { paidThroughGraceDaysOf } from '@kisht/domain/devices/paid-through';
import type { TPenaltyRule } from '@kisht/domain/emi/emi.schema';
import { distributorLevelsOf } from '@kisht/domain/network/network.rules';
import type { TAppConfig, TOrgAppConfig } from '@kisht/domain/orgs/orgs.schema';
import type { TReminderSettings } from '@kisht/domain/reminders/reminders.schema';
import type { TConfig } from '../../config';

/** Spec §7: default cache 300 s; plans cache 5 s. */
const DEFAULT_CACHE_SECONDS = 300;
const PLANS_CACHE_SECONDS = 5;

import type { DbOrTx } from '../../db/client';
import type { TActor } from '../../lib/actor';
import { insertAudit } from '../audit/audit.repository';
import {
  findOrganization,
  findOrganizationsWithAutoLock,
  findOrganizationsWithReminders,
  setOrganizationSetting,
  updateOrganizationSettings,
} from './orgs.repository';

/** White-label configuration of an organisation (spec §1). Throws NOT_FOUND for an unknown id. */
export const getOrgAppConfig = async (db: DbOrTx, orgId: number): Promise<TOrgAppConfig> => {
  const org = await findOrganization(db, orgId);
  if (!org) throw new AppError(AppErrorCode.NOT_FOUND, 'Organisation not found');
  return {
    orgId: org.id,
    apiBaseUrl: org.settings.apiBaseUrl ?? '',
    orgName: org.name,
    companyName: org.companyName,
    theme: org.theme,
    mainLayout: org.mainLayout,
    pages: org.pages,
    features: org.features,
    aiName: org.aiName,
    aiAgentId: org.aiAgentId,
  };
};

/** Organisation settings with defaults applied. */
export const getOrgSettings = async (db: DbOrTx, orgId: number) => {
  const org = await findOrganization(db, orgId);
  return { defaultAnnualRateBps: org?.settings.defaultAnnualRateBps ?? 0 };
};

/** Penalties off: the rule of an organisation that has not set one. */
export const NO_PENALTY_RULE: TPenaltyRule = { kind: 'none', flatPaise: 0, percentBps: 0, graceDays: 0 };

/**
 * An organisation's row: by id, or an actor's (as the request's session read found it, else read).
 * Null when it is gone.
 */
const organizationOf = async (db: DbOrTx, who: number | TActor) =>
  typeof who === 'number'
    ? findOrganization(db, who)
    : (who.known?.organization ?? (await findOrganization(db, who.orgId)));

/** The late-payment penalty rule (send_penalty) of an organisation or an actor's, or NO_PENALTY_RULE. */
export const getPenaltyRule = async (db: DbOrTx, who: number | TActor): Promise<TPenaltyRule> => {
  const org = await organizationOf(db, who);
  return org?.settings.penalty ?? NO_PENALTY_RULE;
};

/** Device-control settings of an organisation or an actor's: the spec §6 allowed list and the command expiry. */
export const getDeviceSettings = async (
  db: DbOrTx,
  who: number | TActor,
): Promise<{
  allowedControls: string[] | null;
  commandExpiryHours: number | null;
  offlineLockAfterHours: number | null;
}> => {
  const org = await organizationOf(db, who);
  return {
    allowedControls: org?.settings.allowedControls ?? null,
    commandExpiryHours: org?.settings.commandExpiryHours ?? null,
    offlineLockAfterHours: org?.settings.offlineLockAfterHours ?? null,
  };
};

/** The auto-lock ladder of each organisation that has one (settings.autoLock). */
export const listAutoLockLadders = async (db: DbOrTx) =>
  (await findOrganizationsWithAutoLock(db)).flatMap((org) =>
    org.settings.autoLock ? [{ orgId: org.id, ladder: org.settings.autoLock }] : [],
  );

/** The auto-lock ladder of one organisation (or an actor's), or null. */
export const getAutoLockLadder = async (db: DbOrTx, who: number | TActor) =>
  (await organizationOf(db, who))?.settings.autoLock ?? null;

type TOrgSettings = NonNullable<Awaited<ReturnType<typeof findOrganization>>>['settings'];

/** The device-control part of an organisation's settings document, nulls where unset. */
const deviceControlSettingsOf = (settings: TOrgSettings): TDeviceControlSettings => ({
  allowedControls: (settings.allowedControls as TControlFeature[] | undefined) ?? null,
  offlineLockAfterHours: settings.offlineLockAfterHours ?? null,
  commandExpiryHours: settings.commandExpiryHours ?? null,
  autoLock: settings.autoLock ?? null,
  lockScreenText: settings.lockScreenText ?? null,
  paidThroughGraceDays: paidThroughGraceDaysOf(settings),
});

/** The actor's organisation; throws NOT_FOUND when it is gone. */
const actorOrganization = async (db: DbOrTx, actor: TActor) => {
  const org = await findOrganization(db, actor.orgId);
  if (!org) throw new AppError(AppErrorCode.NOT_FOUND, 'Organisation not found');
  return org;
};

/**
 * device_settings: the actor's organisation's device-control settings (allowed list, offline limit,
 * command expiry, auto-lock ladder, lock-screen text), nulls where unset. Retailers and mini-retailers may read them;
 * throws FORBIDDEN for a customer.
 */
export const getDeviceControlSettings = async (
  db: DbOrTx,
  actor: TActor,
): Promise<TDeviceControlSettings> => {
  if (actor.userType === 'customer')
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only retailers see these settings');
  return deviceControlSettingsOf((await actorOrganization(db, actor)).settings);
};

/**
 * Replaces the device-control settings of the actor's organisation inside the caller's transaction
 * (a null removes a setting: no allowed list, no offline limit, commands never expire, no
 * auto-lock, no lock-screen text, no paid-through lock; paid-through grace days left out are kept),
 * keeping its other settings, with an audit entry of before and after; returns the
 * settings as they were. Throws FORBIDDEN unless the actor is a retailer.
 */
export const writeDeviceControlSettings = async (
  tx: DbOrTx,
  actor: TActor,
  next: TDeviceControlSettings,
): Promise<TDeviceControlSettings> => {
  if (actor.userType !== 'retailer') {
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only the retailer can change these settings');
  }
  const { settings } = await actorOrganization(tx, actor);
  const before = deviceControlSettingsOf(settings);
  const {
    allowedControls: _allowed,
    offlineLockAfterHours: _offline,
    commandExpiryHours: _expiry,
    autoLock: _autoLock,
    lockScreenText: _lockScreenText,
    ...kept
  } = settings;
  await updateOrganizationSettings(tx, actor.orgId, {
    ...kept,
    ...(next.allowedControls ? { allowedControls: [...new Set(next.allowedControls)] } : {}),
    ...(next.offlineLockAfterHours ? { offlineLockAfterHours: next.offlineLockAfterHours } : {}),
    ...(next.commandExpiryHours ? { commandExpiryHours: next.commandExpiryHours } : {}),
    ...(next.autoLock ? { autoLock: next.autoLock } : {}),
    ...(next.lockScreenText ? { lockScreenText: next.lockScreenText } : {}),
    // Left out: kept as it was (`kept`); null turns the paid-through lock off.
    ...(next.paidThroughGraceDays !== undefined ? { paidThroughGraceDays: next.paidThroughGraceDays } : {}),
  });
  await insertAudit(tx, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    action: 'org.device_settings',
    entity: 'organization',
    entityId: String(actor.orgId),
    details: { before, after: next },
  });
  return before;
};

/** How customers reach an organisation (settings.supportContact), or null when none is set (issue 16). */
export const getSupportContact = async (
  db: DbOrTx,
  orgId: number,
): Promise<{ phone?: string; whatsapp?: string; email?: string } | null> =>
  (await findOrganization(db, orgId))?.settings.supportContact ?? null;

/**
 * Replaces the support contact of an organisation (settings.supportContact; no field set removes
 * it) inside the caller's transaction, leaving its other settings alone. The caller checks who may.
 */
export const writeSupportContact = async (
  tx: DbOrTx,
  orgId: number,
  contact: { phone?: string; whatsapp?: string; email?: string },
): Promise<void> => {
  const isEmpty = !contact.phone && !contact.whatsapp && !contact.email;
  await setOrganizationSetting(tx, orgId, 'supportContact', isEmpty ? undefined : contact);
};

/** Client-contract settings every app needs before login (spec §7). */
export const getClientConfig = (config: TConfig): TAppConfig => ({
  requestTokenSecret: config.REQUEST_TOKEN_SECRET,
  authSessionWindowSeconds: config.AUTH_SESSION_WINDOW_SECONDS,
  otpResendAfterSeconds: config.OTP_RESEND_AFTER_SECONDS,
  defaultCacheSeconds: DEFAULT_CACHE_SECONDS,
  plansCacheSeconds: PLANS_CACHE_SECONDS,
  googleSignIn: Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET),
});

/** The payment-reminder schedule (issue 29) of an organisation or an actor's, or null for none. */
export const getReminderSchedule = async (
  db: DbOrTx,
  who: number | TActor,
): Promise<TReminderSettings | null> => (await organizationOf(db, who))?.settings.reminders ?? null;

/** Every organisation that sends payment reminders, with its schedule. */
export const listReminderSchedules = async (db: DbOrTx) =>
  (await findOrganizationsWithReminders(db)).flatMap((org) =>
    org.settings.reminders ? [{ orgId: org.id, schedule: org.settings.reminders }] : [],
  );

/**
 * Replaces the actor's organisation's payment-reminder schedule (null: none; the days sorted)
 * inside the caller's transaction, keeping its other settings, with an audit entry of before and
 * after. Throws FORBIDDEN unless the actor is a retailer.
 */
export const writeReminderSchedule = async (
  tx: DbOrTx,
  actor: TActor,
  next: TReminderSettings | null,
): Promise<void> => {
  if (actor.userType !== 'retailer') {
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only the retailer can change these settings');
  }
  const { settings } = await actorOrganization(tx, actor);
  const { reminders: before, ...kept } = settings;
  const after = next
    ? { offsetsDays: [...next.offsetsDays].sort((a, b) => a - b), channels: [...next.channels] }
    : null;
  await updateOrganizationSettings(tx, actor.orgId, { ...kept, ...(after ? { reminders: after } : {}) });
  await insertAudit(tx, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    action: 'org.reminders',
    entity: 'organization',
    entityId: String(actor.orgId),
    details: { before: before ?? null, after },
  });
};

/**
 * The distributor levels (issue 30, network.rules) of an organisation or an actor's: its
 * settings.distributorLevels, else DEFAULT_DISTRIBUTOR_LEVELS.
 */
export const getDistributorLevels = async (db: DbOrTx, who: number | TActor): Promise<number> =>
  distributorLevelsOf((await organizationOf(db, who))?.settings);

/**
 * Sets the actor's organisation's distributor levels inside the caller's transaction, keeping its
 * other settings, with an audit entry of before and after (`org.network_settings`). Nodes already
 * deeper than the new levels stay; only new distributors are held to it. Throws FORBIDDEN unless
 * the actor is the organisation admin.
 */
export const writeDistributorLevels = async (tx: DbOrTx, actor: TActor, levels: number): Promise<void> => {
  if (actor.userType !== 'admin') {
    throw new AppError(AppErrorCode.FORBIDDEN, 'Only the organisation admin can change the network');
  }
  const { settings } = await actorOrganization(tx, actor);
  await setOrganizationSetting(tx, actor.orgId, 'distributorLevels', levels);
  await insertAudit(tx, {
    orgId: actor.orgId,
    actorUserId: actor.userId,
    action: 'org.network_settings',
    entity: 'organization',
    entityId: String(actor.orgId),
    details: { before: distributorLevelsOf(settings), after: levels },
  });
};
