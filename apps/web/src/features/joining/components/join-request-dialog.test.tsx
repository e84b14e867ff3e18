import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { JoinRequestLink } from './join-request-link';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const openDialog = async () => {
  renderRoutes({
    routes: [{ path: '/login', element: <JoinRequestLink orgId={41} /> }],
    url: '/login',
    i18n,
  });
  fireEvent.click(await screen.findByTestId('join-open'));
  return screen.findByTestId('join-dialog');
};

const fill = (values: Record<string, string>) => {
  for (const [name, value] of Object.entries(values)) {
    fireEvent.change(screen.getByTestId(`join-${name}`), { target: { value } });
  }
};

describe('Ask to join (login screen)', () => {
  it("says 'This is a required field' under every empty field and sends nothing", async () => {
    const api = stubApi({ [paths.users.signupRequest]: () => null });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByTestId('join-submit'));
    await waitFor(() => expect(within(dialog).getAllByText('This is a required field')).toHaveLength(4));
    fill({ mobile: '12345' });
    fireEvent.click(within(dialog).getByTestId('join-submit'));
    expect(
      await within(dialog).findByText('Enter a 10-digit mobile number starting with 6, 7, 8 or 9'),
    ).toBeTruthy();
    expect(api.requestsTo(paths.users.signupRequest)).toHaveLength(0);
  });

  it('sends the request with the mobile as +91 and shows the thank-you message', async () => {
    const api = stubApi({ [paths.users.signupRequest]: () => null });
    const dialog = await openDialog();
    fill({ name: 'Suresh Patil', shopName: 'Patil Mobile Point', mobile: '98220 01122', city: 'Pune' });
    fireEvent.click(within(dialog).getByTestId('join-submit'));
    expect((await screen.findByTestId('join-success')).textContent).toBe(
      'Thank you. We will call you once your request is approved.',
    );
    expect(await api.bodiesTo(paths.users.signupRequest)).toEqual([
      {
        orgId: 41,
        name: 'Suresh Patil',
        shopName: 'Patil Mobile Point',
        mobile: '+919822001122',
        city: 'Pune',
        role: 'retailer',
      },
    ]);
  });

  it('joins as a distributor under the distributor whose mobile it gives (issue 30)', async () => {
    const api = stubApi({
      [paths.users.signupRequest]: () =>
        failureResponse(404, 'No distributor of this organisation has this mobile number', {
          code: 'NOT_FOUND',
          fields: [
            { field: 'parentMobile', message: 'No distributor of this organisation has this mobile number' },
          ],
        }),
    });
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByTestId('join-role-distributor'));
    fill({
      name: 'Meena Shah',
      shopName: 'Shah Distributors',
      mobile: '98220 01133',
      city: 'Surat',
      parentMobile: '98765 00101',
    });
    fireEvent.click(within(dialog).getByTestId('join-submit'));
    expect(
      await within(dialog).findByText('No distributor of this organisation has this mobile number'),
    ).toBeTruthy();
    expect(await api.bodiesTo(paths.users.signupRequest)).toEqual([
      {
        orgId: 41,
        name: 'Meena Shah',
        shopName: 'Shah Distributors',
        mobile: '+919822001133',
        city: 'Surat',
        role: 'distributor',
        parentMobile: '+919876500101',
      },
    ]);
  });

  it("shows the server's words under the field it names (a request already waiting)", async () => {
    stubApi({
      [paths.users.signupRequest]: () =>
        failureResponse(409, 'A request for this mobile number is already waiting for approval', {
          code: 'SIGNUP_ALREADY_REQUESTED',
          fields: [
            { field: 'mobile', message: 'A request for this mobile number is already waiting for approval' },
          ],
        }),
    });
    const dialog = await openDialog();
    fill({ name: 'Suresh Patil', shopName: 'Patil Mobile Point', mobile: '9822001122', city: 'Pune' });
    fireEvent.click(within(dialog).getByTestId('join-submit'));
    expect(
      await within(dialog).findByText('A request for this mobile number is already waiting for approval'),
    ).toBeTruthy();
    expect(screen.queryByTestId('join-success')).toBeNull();
  });
});
