/**
 * Limits on OTPs per mobile number (issue 12), as pure rules over the number's recent challenges.
 * The server reads the challenges of the number (every organisation, every purpose of spec §4)
 * made in the last OTP_LIMIT_WINDOW_MS and asks these rules whether an OTP may be sent, or a code
 * tried, now; when not, they say until when.
 *
 * Sources: OWASP ASVS 5.0, chapter V6 Authentication: 6.1.1 (the controls against brute force are
 * documented, here and in ARCHITECTURE.md, including how they limit malicious lockout), 6.3.1
 * (controls against brute force), 6.6.3 (a code-based out-of-band mechanism is protected against
 * brute force by rate limiting); NIST SP 800-63B (rev. 3) §5.2.2 Rate Limiting (Throttling): the
 * verifier SHALL limit consecutive failed attempts on a single account (to no more than 100) and
 * MAY make the claimant wait longer after each failure.
 */

/** The rolling window of the daily caps: 24 hours, ms. */
export const OTP_LIMIT_WINDOW_MS = 24 * 60 * 60_000;
/** The longest wait the growing cool-down asks between two wrong codes: 1 hour, ms. */
export const MAX_WRONG_OTP_COOLDOWN_MS = 60 * 60_000;

/** The configured limits (the server's OTP_* settings), in ms and counts. */
export type TOtpLimits = {
  /** Resend cool-down per organisation, number and purpose, counted from the last SMS that went out. */
  resendAfterMs: number;
  /** OTPs a number may be sent in OTP_LIMIT_WINDOW_MS, every organisation and purpose together. */
  dailySendsPerMobile: number;
  /** Wrong codes a number may try in OTP_LIMIT_WINDOW_MS, every challenge of it together. */
  dailyWrongPerMobile: number;
  /** Wrong codes in the window before the growing cool-down starts. */
  freeWrongTries: number;
  /** The first cool-down after the free tries; each further wrong code doubles it (at most an hour). */
  wrongCooldownMs: number;
};

/** One OTP challenge of the number (an otp_challenges row). */
export type TOtpHistoryEntry = {
  orgId: number;
  purpose: string;
  createdAt: Date;
  /** When its SMS went to the gateway; null while queued or when it never went. */
  sentAt: Date | null;
  /**
   * Its SMS is queued and no try at it has ended yet: it is being delivered right now (issue 27).
   * Such a challenge starts the cool-down from its creation, so requests racing it send nothing.
   */
  isSmsInFlight?: boolean;
  expiresAt: Date;
  /** Wrong codes tried against it. */
  attempts: number;
  /** When the last wrong code was tried; null when none was (or before it was recorded). */
  lastAttemptAt: Date | null;
};

/** Why an OTP may not be sent or tried now, and the instant it may be. */
export type TOtpRefusal = {
  reason: 'resend_cool_down' | 'daily_send_cap' | 'daily_wrong_cap' | 'wrong_cool_down';
  retryAt: Date;
};

const inWindow = (history: TOtpHistoryEntry[], now: Date) =>
  history
    .filter((entry) => now.getTime() - entry.createdAt.getTime() < OTP_LIMIT_WINDOW_MS)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

/** When the oldest entries leave the window, the instant `count(kept) < cap` holds again. */
const whenBelowCap = (entries: TOtpHistoryEntry[], weight: (e: TOtpHistoryEntry) => number, cap: number) => {
  let total = entries.reduce((sum, entry) => sum + weight(entry), 0);
  for (const entry of entries) {
    total -= weight(entry);
    if (total < cap) return new Date(entry.createdAt.getTime() + OTP_LIMIT_WINDOW_MS);
  }
  return new Date(0);
};

/**
 * Whether an OTP of `request.purpose` may be sent to the number for `request.orgId` now. Refuses
 * inside the resend cool-down and at the daily cap. The cool-down runs from when an SMS went out,
 * or from the creation of a challenge whose SMS is being delivered now (isSmsInFlight, unexpired:
 * 30 requests at once send one SMS); a queued SMS whose try failed starts none, so a gateway
 * failure burns nothing. The cap counts every challenge in the window that was sent or may still
 * be (not expired): a queued SMS counts, one dropped unsent does not.
 */
export const refuseOtpSend = (
  history: TOtpHistoryEntry[],
  request: { orgId: number; purpose: string },
  limits: TOtpLimits,
  now: Date,
): TOtpRefusal | null => {
  const recent = inWindow(history, now);
  const goingOut = (e: TOtpHistoryEntry) =>
    e.sentAt?.getTime() ??
    (e.isSmsInFlight && e.expiresAt.getTime() > now.getTime() ? e.createdAt.getTime() : null);
  const lastSent = recent
    .filter((e) => e.orgId === request.orgId && e.purpose === request.purpose)
    .reduce<number | null>((latest, e) => {
      const at = goingOut(e);
      return at === null ? latest : Math.max(latest ?? 0, at);
    }, null);
  if (lastSent !== null && now.getTime() - lastSent < limits.resendAfterMs) {
    return { reason: 'resend_cool_down', retryAt: new Date(lastSent + limits.resendAfterMs) };
  }
  const counted = recent.filter((e) => e.sentAt !== null || e.expiresAt.getTime() > now.getTime());
  if (counted.length >= limits.dailySendsPerMobile) {
    return { reason: 'daily_send_cap', retryAt: whenBelowCap(counted, () => 1, limits.dailySendsPerMobile) };
  }
  return null;
};

/** The wait the growing cool-down asks after `wrongTries` wrong codes in the window, ms (0 = none). */
export const wrongOtpCooldownMs = (wrongTries: number, limits: TOtpLimits): number => {
  if (wrongTries < limits.freeWrongTries) return 0;
  const doublings = Math.min(wrongTries - limits.freeWrongTries, 30);
  return Math.min(limits.wrongCooldownMs * 2 ** doublings, MAX_WRONG_OTP_COOLDOWN_MS);
};

/**
 * Whether a code may be tried for the number now: refused at the daily cap of wrong codes (the
 * sum of wrong tries over the number's challenges in the window, every purpose), and inside the
 * growing cool-down after the last wrong code (wrongOtpCooldownMs). Checked before the code is
 * compared, so a refused try tells nothing about the code, the right one included.
 */
export const refuseOtpTry = (
  history: TOtpHistoryEntry[],
  limits: TOtpLimits,
  now: Date,
): TOtpRefusal | null => {
  const recent = inWindow(history, now);
  const wrongTries = recent.reduce((sum, e) => sum + e.attempts, 0);
  if (wrongTries >= limits.dailyWrongPerMobile) {
    return {
      reason: 'daily_wrong_cap',
      retryAt: whenBelowCap(recent, (e) => e.attempts, limits.dailyWrongPerMobile),
    };
  }
  const cooldown = wrongOtpCooldownMs(wrongTries, limits);
  if (cooldown === 0) return null;
  const lastWrong = recent
    .filter((e) => e.attempts > 0)
    .reduce((latest, e) => Math.max(latest, (e.lastAttemptAt ?? e.createdAt).getTime()), 0);
  if (now.getTime() - lastWrong < cooldown) {
    return { reason: 'wrong_cool_down', retryAt: new Date(lastWrong + cooldown) };
  }
  return null;
};
