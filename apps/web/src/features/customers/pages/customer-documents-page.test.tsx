import { MAX_UPLOAD_BYTES } from '@kisht/domain/media/media.schema';
import { paths } from '@kisht/domain/paths';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { compressImage } from '../../../lib/image';
import { appPaths } from '../../../lib/paths';
import { stubApi } from '../../../test/fake-api';
import { createCustomerDetails, createCustomerMedia, createMedia } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render-app';
import { createTestI18n } from '../../../test/test-i18n';
import { CustomerDocumentsPage } from './customer-documents-page';

vi.mock('../../../lib/image', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/image')>()),
  compressImage: vi.fn(),
}));
const compress = vi.mocked(compressImage);

const { createObjectURL, revokeObjectURL } = URL;
let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  let count = 0;
  URL.createObjectURL = vi.fn(() => {
    count += 1;
    return `blob:file-${count}`;
  });
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  compress.mockReset();
  localStorage.clear();
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

const PHOTO = createMedia({ id: 1, kind: 'customer_profile', documentType: null });
const INVOICE = createMedia({ id: 2, kind: 'customer_invoice_attachment', mimeType: 'application/pdf' });
const SIGNATURE = createMedia({ id: 3, kind: 'customer_signature', mimeType: 'image/png' });
const AADHAAR = createMedia({ id: 11, documentType: 'aadhaar_front', createdAt: '2026-01-15T18:40:00Z' });
const PAN = createMedia({ id: 12, documentType: 'pan_card', uploadedByName: null });

/** The fake API of the screen: the customer, their media (GET) and every upload. */
const stubMediaApi = (media = createCustomerMedia()) =>
  stubApi({
    [paths.customers.details]: () => createCustomerDetails(),
    [paths.customers.documents]: (request) =>
      request.method === 'GET' ? media : createMedia({ id: 20, documentType: 'pan_card' }),
    [paths.customers.uploadImage]: () => createMedia({ id: 21, kind: 'customer_profile' }),
    [paths.customers.deleteDocument]: () => media,
    [paths.media.file]: () => new Response('BYTES', { headers: { 'content-type': 'image/jpeg' } }),
  });

const renderDocuments = (url = appPaths.customerDocuments.href(5)) =>
  renderRoutes({
    i18n,
    url,
    routes: [
      { path: appPaths.customerDocuments.path, element: <CustomerDocumentsPage /> },
      { path: appPaths.signature.path, element: <p>signature screen</p> },
      { path: appPaths.witnessSignature.path, element: <p>witness screen</p> },
    ],
  });

const fileOf = (name: string, type: string, size = 2000) => new File([new Uint8Array(size)], name, { type });
const pick = (testId: string, file: File) =>
  fireEvent.change(screen.getByTestId(testId), { target: { files: [file] } });
const mediaGets = (api: ReturnType<typeof stubMediaApi>) =>
  api.requestsTo(paths.customers.documents).filter((request) => request.method === 'GET');

describe('customer_documents', () => {
  it('shows the photo, invoice, signature and each document with its type, +05:30 time and uploader', async () => {
    const api = stubMediaApi(
      createCustomerMedia({
        photo: PHOTO,
        invoice: INVOICE,
        signature: SIGNATURE,
        documents: [AADHAAR, PAN],
      }),
    );
    renderDocuments();
    expect(await screen.findByRole('heading', { level: 1, name: 'Customer documents' })).toBeTruthy();
    expect((await screen.findByTestId('customer-name')).textContent).toBe('Anita Rao');

    await waitFor(() =>
      expect(
        within(screen.getByTestId('customer-photo-thumbnail')).getByRole('img', { name: 'Customer photo' }),
      ).toHaveProperty('src', expect.stringMatching(/^blob:file-/)),
    );
    expect(screen.getByTestId('customer-photo-status').textContent).toBe('Added 15-01-2026 12:15 PM');
    expect(screen.getByRole('button', { name: 'Replace photo' })).toBeTruthy();
    // The PDF invoice shows an icon: only images are fetched for thumbnails.
    expect(screen.getByRole('img', { name: 'Invoice attachment' })).toBeTruthy();
    const fetched = api
      .requestsTo(paths.media.file)
      .map((r) => new URL(r.url).searchParams.get('image_name'));
    expect(fetched).not.toContain(INVOICE.imageName);
    expect(fetched).toContain(PHOTO.imageName);
    expect(screen.getByTestId('customer-signature-sign').textContent).toBe('Sign again');

    const aadhaar = screen.getByTestId('customer-document-11');
    expect(within(aadhaar).getByText('Aadhaar (front)')).toBeTruthy();
    // 18:40 UTC is 12:10 AM the next day in +05:30.
    expect(screen.getByTestId('customer-document-11-meta').textContent).toBe(
      '16-01-2026 12:10 AM · uploaded by Ravi Kumar',
    );
    expect(screen.getByTestId('customer-document-12-meta').textContent).toBe('15-01-2026 12:15 PM');
    expect(screen.queryByTestId('witness-signature-card')).toBeNull();
  });

  it('offers the witness signature only when the organisation asks for one, and opens the signature screens', async () => {
    stubMediaApi(createCustomerMedia({ witnessRequired: true }));
    const { router } = renderDocuments();
    const witness = await screen.findByTestId('witness-signature-card');
    expect(within(witness).getByTestId('witness-signature-status').textContent).toBe('Not added yet');
    expect(screen.getByTestId('customer-documents-empty').textContent).toBe('No documents uploaded yet.');
    fireEvent.click(within(witness).getByRole('button', { name: 'Add witness signature' }));
    expect(await screen.findByText('witness screen')).toBeTruthy();
    expect(router.state.location.search).toBe('?customer_id=5');
  });

  it('uploads a document of the chosen type (a PDF as it is) and lists it', async () => {
    const api = stubMediaApi();
    renderDocuments();
    const input = await screen.findByTestId<HTMLInputElement>('customer-document-input');
    expect(input.disabled).toBe(true);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Document type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'PAN card' }));
    await waitFor(() => expect(input.disabled).toBe(false));

    pick('customer-document-input', fileOf('pan.pdf', 'application/pdf'));
    expect(await screen.findByText('Document uploaded')).toBeTruthy();
    expect(compress).not.toHaveBeenCalled();
    const upload = api.requestsTo(paths.customers.documents).find((request) => request.method === 'POST');
    const form = await upload?.formData();
    expect(form?.get('customer_id')).toBe('5');
    expect(form?.get('document_type')).toBe('pan_card');
    expect((form?.get('file') as File | null)?.type).toBe('application/pdf');
    // The list is fetched again.
    await waitFor(() => expect(mediaGets(api)).toHaveLength(2));
  });

  it('compresses a new photo before uploading it as the customer photo', async () => {
    const compressed = fileOf('photo.jpg', 'image/jpeg', 150_000);
    compress.mockResolvedValue(compressed);
    const api = stubMediaApi();
    renderDocuments();
    const picked = fileOf('IMG_2041.jpg', 'image/jpeg', 4_500_000);
    await screen.findByTestId('customer-photo-input');
    pick('customer-photo-input', picked);
    expect(await screen.findByText('Photo saved')).toBeTruthy();
    expect(compress).toHaveBeenCalledWith(picked);
    const form = await api.requestsTo(paths.customers.uploadImage)[0]?.formData();
    expect(form?.get('customer_id')).toBe('5');
    expect(form?.get('kind')).toBe('customer_profile');
    await waitFor(() => expect(mediaGets(api)).toHaveLength(2));
  });

  it('uploads an invoice as customer_invoice_attachment', async () => {
    compress.mockResolvedValue(fileOf('bill.png', 'image/png'));
    const api = stubMediaApi();
    renderDocuments();
    await screen.findByTestId('customer-invoice-input');
    pick('customer-invoice-input', fileOf('bill.webp', 'image/webp'));
    expect(await screen.findByText('Invoice saved')).toBeTruthy();
    const form = await api.requestsTo(paths.customers.uploadImage)[0]?.formData();
    expect(form?.get('kind')).toBe('customer_invoice_attachment');
  });

  it('refuses a file still over 5 MB after compression, with a clear message, and sends nothing', async () => {
    compress.mockResolvedValue(fileOf('photo.png', 'image/png', MAX_UPLOAD_BYTES + 1));
    const api = stubMediaApi();
    renderDocuments();
    await screen.findByTestId('customer-photo-input');
    pick('customer-photo-input', fileOf('photo.png', 'image/png'));
    expect(
      await screen.findByText(
        'This file is larger than 5 MB, even after compression. Choose a smaller file.',
      ),
    ).toBeTruthy();
    expect(api.requestsTo(paths.customers.uploadImage)).toHaveLength(0);
  });

  it('refuses a PDF as the customer photo', async () => {
    const api = stubMediaApi();
    renderDocuments();
    await screen.findByTestId('customer-photo-input');
    pick('customer-photo-input', fileOf('photo.pdf', 'application/pdf'));
    expect(await screen.findByText('Choose a photo (JPEG, PNG or WebP).')).toBeTruthy();
    expect(api.requestsTo(paths.customers.uploadImage)).toHaveLength(0);
  });

  it('deletes a document after confirming', async () => {
    const api = stubMediaApi(createCustomerMedia({ documents: [AADHAAR] }));
    renderDocuments();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Aadhaar (front)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this document?' });
    expect(dialog.textContent).toContain('Aadhaar (front) uploaded on 16-01-2026 12:10 AM will be removed.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Document deleted')).toBeTruthy();
    expect(await api.requestsTo(paths.customers.deleteDocument)[0]?.json()).toEqual({
      customer_id: 5,
      media_id: 11,
    });
  });

  it('keeps the document when the deletion is cancelled', async () => {
    const api = stubMediaApi(createCustomerMedia({ documents: [AADHAAR] }));
    renderDocuments();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Aadhaar (front)' }));
    fireEvent.click(await screen.findByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requestsTo(paths.customers.deleteDocument)).toHaveLength(0);
  });

  it('opens a document full size', async () => {
    stubMediaApi(createCustomerMedia({ documents: [AADHAAR] }));
    renderDocuments();
    fireEvent.click(await screen.findByRole('button', { name: 'View Aadhaar (front)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Aadhaar (front)' });
    await waitFor(() =>
      expect(within(dialog).getByTestId('media-viewer-image').getAttribute('src')).toMatch(/^blob:file-/),
    );
    expect(within(dialog).getByRole('link', { name: 'Download' })).toBeTruthy();
  });

  it('says so when the link has no customer', async () => {
    stubMediaApi();
    renderDocuments(appPaths.customerDocuments.path);
    expect(await screen.findByText('Customer not found')).toBeTruthy();
  });
});
