import { paths } from '@kisht/domain/paths';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appPaths } from '../../../lib/paths';
import { failureResponse, stubApi } from '../../../test/fake-api';
import { createCustomerDetails, createCustomerMedia, createMedia } from '../../../test/fixtures';
import { fakeOrgConfig, renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import type { TSignatureKind } from '../customers-api';
import { SignaturePage } from './signature-page';

/** A stand-in for signature_pad (jsdom has no 2D canvas): a test draws a stroke with `draw()`. */
const { pads, padOptions, FakeSignaturePad } = vi.hoisted(() => {
  const created: Array<{ draw: () => void; clearCalls: number }> = [];
  /** Set `hasNoCanvas` to make the pad fail as signature_pad does without a 2D context. */
  const options = { hasNoCanvas: false };
  class FakePad {
    isBlank = true;
    clearCalls = 0;
    listeners = new Map<string, () => void>();
    constructor() {
      if (options.hasNoCanvas) throw new TypeError("Cannot set properties of null (setting 'fillStyle')");
      created.push(this);
    }
    addEventListener(type: string, listener: () => void) {
      this.listeners.set(type, listener);
    }
    removeEventListener(type: string) {
      this.listeners.delete(type);
    }
    isEmpty() {
      return this.isBlank;
    }
    clear() {
      this.clearCalls += 1;
      this.isBlank = true;
    }
    toData() {
      return [];
    }
    fromData() {}
    off() {}
    draw() {
      this.isBlank = false;
      this.listeners.get('endStroke')?.();
    }
  }
  return { pads: created, padOptions: options, FakeSignaturePad: FakePad };
});
vi.mock('signature_pad', () => ({ default: FakeSignaturePad }));

const { getContext, toBlob } = HTMLCanvasElement.prototype;
const { createObjectURL, revokeObjectURL } = URL;
let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  pads.length = 0;
  padOptions.hasNoCanvas = false;
  HTMLCanvasElement.prototype.getContext = vi.fn(() => null) as unknown as typeof getContext;
  HTMLCanvasElement.prototype.toBlob = function fakeToBlob(callback: BlobCallback, type?: string) {
    callback(new Blob(['PNG'], { type: type ?? 'image/png' }));
  };
  URL.createObjectURL = vi.fn(() => 'blob:signature');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  HTMLCanvasElement.prototype.getContext = getContext;
  HTMLCanvasElement.prototype.toBlob = toBlob;
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

const stubSignatureApi = (
  options: { media?: ReturnType<typeof createCustomerMedia>; onUpload?: () => unknown } = {},
) =>
  stubApi({
    [paths.customers.details]: () => createCustomerDetails(),
    [paths.customers.documents]: () => options.media ?? createCustomerMedia(),
    [paths.customers.signature]: options.onUpload ?? (() => createMedia({ kind: 'customer_signature' })),
    [paths.media.file]: () => new Response('PNG', { headers: { 'content-type': 'image/png' } }),
  });

/** Opens the signature screen from customer_documents, so that Back has somewhere to go. */
const openSignature = async (kind: TSignatureKind, witnessLayout = false) => {
  const rendered = renderRoutes({
    i18n,
    url: appPaths.customerDocuments.href(5),
    orgConfig: fakeOrgConfig({ features: { witnessLayout, paymentGateway: false } }),
    routes: [
      { path: appPaths.customerDocuments.path, element: <p>documents screen</p> },
      { path: appPaths.signature.path, element: <SignaturePage kind="customer_signature" /> },
      { path: appPaths.witnessSignature.path, element: <SignaturePage kind="witness_signature" /> },
    ],
  });
  const href = kind === 'witness_signature' ? appPaths.witnessSignature.href(5) : appPaths.signature.href(5);
  await act(() => rendered.router.navigate(href));
  return rendered;
};

const saveButton = () => screen.getByTestId<HTMLButtonElement>('signature-save');

describe('signature', () => {
  it('saves what was drawn as a PNG customer_signature and goes back', async () => {
    const api = stubSignatureApi();
    const { router } = await openSignature('customer_signature');
    expect(await screen.findByRole('heading', { level: 1, name: 'Signature' })).toBeTruthy();
    expect(await screen.findByText('Anita Rao')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Signature box' })).toBeTruthy();
    // Nothing to save until the customer signs.
    expect(saveButton().disabled).toBe(true);
    act(() => pads[0]?.draw());
    await waitFor(() => expect(saveButton().disabled).toBe(false));

    fireEvent.click(saveButton());
    expect(await screen.findByText('Signature saved')).toBeTruthy();
    expect(await screen.findByText('documents screen')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths.customerDocuments.path);
    const form = await api.requestsTo(paths.customers.signature)[0]?.formData();
    expect(form?.get('customer_id')).toBe('5');
    expect(form?.get('kind')).toBe('customer_signature');
    expect((form?.get('file') as File | null)?.type).toBe('image/png');
  });

  it('clears the pad', async () => {
    stubSignatureApi();
    await openSignature('customer_signature');
    await screen.findByTestId('signature-canvas');
    act(() => pads[0]?.draw());
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(saveButton().disabled).toBe(true));
    expect(pads[0]?.clearCalls).toBeGreaterThan(0);
    expect(screen.getByTestId('signature-empty').textContent).toBe('Sign in the box above to save.');
  });

  it("stays on the pad with the server's message when the upload fails", async () => {
    stubSignatureApi({
      onUpload: () => failureResponse(404, 'Customer not found', { code: 'CUSTOMER_NOT_FOUND' }),
    });
    const { router } = await openSignature('customer_signature');
    await screen.findByTestId('signature-canvas');
    act(() => pads[0]?.draw());
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    fireEvent.click(saveButton());
    expect(await screen.findByText('Customer not found')).toBeTruthy();
    expect(router.state.location.pathname).toBe(appPaths.signature.path);
  });

  it('says so when the browser cannot draw on a canvas', async () => {
    stubSignatureApi();
    padOptions.hasNoCanvas = true;
    await openSignature('customer_signature');
    expect((await screen.findByTestId('signature-unsupported')).textContent).toContain(
      'This browser cannot draw a signature',
    );
    expect(saveButton().disabled).toBe(true);
  });

  it('shows the signature it replaces', async () => {
    stubSignatureApi({
      media: createCustomerMedia({
        signature: createMedia({ kind: 'customer_signature', mimeType: 'image/png' }),
      }),
    });
    await openSignature('customer_signature');
    expect(await screen.findByTestId('current-signature')).toBeTruthy();
    expect(screen.getByText('Saving a new signature replaces this one.')).toBeTruthy();
  });
});

describe('witness_signature', () => {
  it("says witness signatures are off when the organisation's witness layout flag is off", async () => {
    const api = stubSignatureApi();
    await openSignature('witness_signature', false);
    expect(await screen.findByRole('heading', { level: 1, name: 'Witness signature' })).toBeTruthy();
    expect(screen.getByTestId('witness-off').textContent).toBe(
      'Your organisation does not take witness signatures. Ask your admin to turn on the witness layout.',
    );
    expect(screen.queryByTestId('signature-canvas')).toBeNull();
    expect(api.requestsTo(paths.customers.signature)).toHaveLength(0);
  });

  it('saves a witness_signature when the flag is on', async () => {
    const api = stubSignatureApi();
    await openSignature('witness_signature', true);
    expect(
      await screen.findByText('Ask the witness to sign inside the box with a finger or a stylus.'),
    ).toBeTruthy();
    act(() => pads[0]?.draw());
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    fireEvent.click(saveButton());
    expect(await screen.findByText('Witness signature saved')).toBeTruthy();
    const form = await api.requestsTo(paths.customers.signature)[0]?.formData();
    expect(form?.get('kind')).toBe('witness_signature');
  });
});
