import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema';
import { sha256Hex } from '../../lib/crypto';
import { createTestApp, type TestApp } from '../../test/harness';
import { createDeviceAuthenticator } from './device-connections';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

/** The seeded devices with a secret each (the first `enrolled` enrolled, the rest not). */
const devicesWithSecrets = async (enrolled: number) => {
  const rows = await t.app.ctx.db.select({ id: devices.id }).from(devices).orderBy(devices.id).limit(4);
  for (const [index, row] of rows.entries()) {
    await t.app.ctx.db
      .update(devices)
      .set({ secretHash: sha256Hex(`secret-${row.id}`), enrolledAt: index < enrolled ? new Date() : null })
      .where(eq(devices.id, row.id));
  }
  return rows.map((row) => row.id);
};

describe('the broker authenticating connects', () => {
  it('lets in an enrolled device with its secret only', async () => {
    const [enrolled, notEnrolled] = await devicesWithSecrets(1);
    const authenticate = createDeviceAuthenticator(t.app.ctx.db);
    expect(await authenticate(enrolled!, `secret-${enrolled}`)).toBe(true);
    expect(await authenticate(enrolled!.toUpperCase(), `secret-${enrolled}`)).toBe(true);
    expect(await authenticate(enrolled!, 'wrong')).toBe(false);
    expect(await authenticate(notEnrolled!, `secret-${notEnrolled}`)).toBe(false);
    expect(await authenticate(randomUUID(), 'anything')).toBe(false);
    expect(await authenticate("x' or 1=1 --", 'anything')).toBe(false);
  });

  it('checks connects that arrive together in one read', async () => {
    const ids = await devicesWithSecrets(4);
    // The same database, counting the statements the authenticator runs.
    const { db } = t.app.ctx;
    let reads = 0;
    const counting = Object.create(db) as typeof db;
    counting.execute = ((...args: Parameters<typeof db.execute>) => {
      reads += 1;
      return db.execute(...args);
    }) as typeof db.execute;
    const authenticate = createDeviceAuthenticator(counting);
    const answers = await Promise.all([
      ...ids.map((id) => authenticate(id, `secret-${id}`)),
      authenticate(ids[0]!, 'wrong'),
    ]);
    expect(answers).toEqual([true, true, true, true, false]);
    expect(reads).toBe(1);
  });
});
