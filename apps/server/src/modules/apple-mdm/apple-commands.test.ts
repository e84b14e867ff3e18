import { AppErrorCode } from '@kisht/domain/common/errors';
import { type PlistValue, parse } from 'plist';
import { afterEach, describe, expect, it } from 'vitest';
import { appleSchemaProblem, type FakeNanoMdm, startFakeNanoMdm } from '../../test/fake-nanomdm';
import {
  bareCommand,
  deviceInformationCommand,
  deviceLockCommand,
  enableLostModeCommand,
  installApplicationCommand,
  installProfileCommand,
  lockScreenMessage,
  removeProfileCommand,
  restrictionsProfile,
  toPlist,
} from './apple-commands';
import { createNanoMdmClient } from './nanomdm.client';

const UUID = '0c6a3b8e-2f44-4f0e-9d7a-5b1d2f3e4a5b';

let fake: FakeNanoMdm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('Apple MDM command plists', () => {
  const commands = [
    deviceLockCommand(UUID, { message: 'Pay your EMI', phone: '+919876543210' }),
    enableLostModeCommand(UUID, {
      message: 'Return me',
      phone: '+919876543210',
      footnote: 'Financed by Ravi',
    }),
    bareCommand(UUID, 'DisableLostMode'),
    bareCommand(UUID, 'DeviceLocation'),
    bareCommand(UUID, 'RestartDevice'),
    bareCommand(UUID, 'ActivationLockBypassCode'),
    deviceInformationCommand(UUID),
    installApplicationCommand(UUID, { manifestUrl: 'https://apps.example.in/manifest.plist' }),
    installApplicationCommand(UUID, { iTunesStoreId: 1_234_567 }),
    removeProfileCommand(UUID, 'in.kisht.mdm.enrolment'),
  ];

  it.each(commands.map((c) => [c.Command.RequestType, c] as const))(
    '%s round-trips as an XML plist whose keys Apple’s schema allows',
    (_type, command) => {
      const decoded = parse(toPlist(command)) as { CommandUUID: string; Command: Record<string, PlistValue> };
      expect(decoded.CommandUUID).toBe(UUID);
      expect(decoded.Command).toEqual(command.Command);
      expect(appleSchemaProblem(decoded.Command)).toBeNull();
    },
  );

  it('the fake refuses what Apple’s schema does not allow', () => {
    expect(appleSchemaProblem({ RequestType: 'DeviceLock', Pin: '123456' })).toBe(
      'DeviceLock has no key Pin',
    );
    expect(appleSchemaProblem({ RequestType: 'InstallApplication', iTunesStoreID: '12' })).toMatch(
      /must be integer/,
    );
    expect(appleSchemaProblem({ RequestType: 'DeviceInformation' })).toMatch(/Queries is required/);
    expect(appleSchemaProblem({ RequestType: 'EnableLostMode', Footnote: 'x' })).toMatch(
      /Message or PhoneNumber/,
    );
  });

  it('a lock screen names the retailer, the amount overdue and how to pay', () => {
    expect(
      lockScreenMessage({
        reason: 'overdue_emi',
        retailerName: 'Ravi Mobiles',
        retailerPhone: '+919876543210',
        overduePaise: 450_000,
        howToPay: 'UPI ravimobiles@okaxis',
        emergencyCalls: true,
      }),
    ).toBe(
      'This phone is locked because an EMI is overdue. Call Ravi Mobiles on +919876543210. Overdue: ₹4,500.00 How to pay: UPI ravimobiles@okaxis',
    );
    expect(
      lockScreenMessage({
        reason: 'customer_request',
        retailerName: 'Ravi Mobiles',
        retailerPhone: '+919876543210',
        overduePaise: 0,
        howToPay: 'UPI ravimobiles@okaxis',
        emergencyCalls: true,
      }),
    ).toBe('This phone is locked at your request. Call Ravi Mobiles on +919876543210.');
  });
});

describe('NanoMDM client', () => {
  it('enqueues with Basic auth and turns refusals, a wrong key and an unreachable server into MDM_UNAVAILABLE', async () => {
    fake = await startFakeNanoMdm('right-key');
    const phone = fake.phone('UDID-1', { serialNumber: 'F2LXK9ABCD12' });
    phone.isOnline = false;
    const client = createNanoMdmClient({ baseUrl: fake.url, apiKey: 'right-key', timeoutMs: 2_000 });
    await client.enqueue('UDID-1', toPlist(bareCommand(UUID, 'RestartDevice')));
    expect(phone.queue.map((c) => c.requestType)).toEqual(['RestartDevice']);

    const bad = toPlist({ CommandUUID: UUID, Command: { RequestType: 'RestartDevice', Force: true } });
    await expect(client.enqueue('UDID-1', bad)).rejects.toMatchObject({
      code: AppErrorCode.MDM_UNAVAILABLE,
      message: expect.stringContaining('RestartDevice has no key Force'),
    });
    const wrongKey = createNanoMdmClient({ baseUrl: fake.url, apiKey: 'wrong', timeoutMs: 2_000 });
    await expect(wrongKey.push('UDID-1')).rejects.toMatchObject({ code: AppErrorCode.MDM_UNAVAILABLE });
    const url = fake.url;
    await fake.close();
    fake = undefined;
    await expect(
      createNanoMdmClient({ baseUrl: url, apiKey: 'right-key', timeoutMs: 500 }).push('UDID-1'),
    ).rejects.toMatchObject({ code: AppErrorCode.MDM_UNAVAILABLE });
  });
});

describe('the Restrictions profile (InstallProfile)', () => {
  it('carries a Configuration profile with one com.apple.applicationaccess payload of only the restricted keys', () => {
    const xml = restrictionsProfile(
      'in.kisht.mdm.enrolment.restrictions',
      { camera_lock: true, usb_debugging: true, app_lock: ['net.whatsapp.WhatsApp', 'com.a.b', 'com.a.b'] },
      'Ravi Mobiles',
    );
    const command = parse(toPlist(installProfileCommand(UUID, xml))) as Record<string, PlistValue>;
    const inner = command.Command as Record<string, PlistValue>;
    expect(appleSchemaProblem(inner)).toBeNull();
    expect(inner.Payload).toBeInstanceOf(Uint8Array);
    const profile = parse(Buffer.from(inner.Payload as Uint8Array).toString('utf8')) as Record<
      string,
      PlistValue
    >;
    expect(profile).toMatchObject({
      PayloadType: 'Configuration',
      PayloadVersion: 1,
      PayloadIdentifier: 'in.kisht.mdm.enrolment.restrictions',
      PayloadOrganization: 'Ravi Mobiles',
    });
    const [payload] = profile.PayloadContent as Record<string, PlistValue>[];
    expect(payload).toMatchObject({
      PayloadType: 'com.apple.applicationaccess',
      allowCamera: false,
      allowHostPairing: false,
      blockedAppBundleIDs: ['com.a.b', 'net.whatsapp.WhatsApp'],
      blacklistedAppBundleIDs: ['com.a.b', 'net.whatsapp.WhatsApp'],
    });
    const cameraOnly = parse(
      restrictionsProfile('x.y', { camera_lock: true, usb_debugging: false, app_lock: [] }),
    ) as Record<string, PlistValue>;
    const [only] = cameraOnly.PayloadContent as Record<string, PlistValue>[];
    expect(Object.keys(only!).filter((k) => !k.startsWith('Payload'))).toEqual(['allowCamera']);
  });

  it('the fake NanoMDM refuses a Payload that is not data or not a Restrictions profile', () => {
    expect(appleSchemaProblem({ RequestType: 'InstallProfile', Payload: 'text' })).toMatch(/must be data/);
    expect(appleSchemaProblem({ RequestType: 'InstallProfile' })).toMatch(/Payload is required/);
    expect(
      appleSchemaProblem({ RequestType: 'InstallProfile', Payload: Buffer.from('not a plist') }),
    ).toMatch(/not a plist|not a dict/);
    const wrongKey = restrictionsProfile('x.y', {
      camera_lock: true,
      usb_debugging: false,
      app_lock: [],
    }).replace('<key>allowCamera</key>', '<key>allowKamera</key>');
    expect(appleSchemaProblem({ RequestType: 'InstallProfile', Payload: Buffer.from(wrongKey) })).toMatch(
      /no key allowKamera/,
    );
  });
});
