import { readAuthSession } from '@kisht/domain/client/client-headers';
import { paths } from '@kisht/domain/paths';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureResponse, stubApi } from '../../test/fake-api';
import { createTestStore } from '../../test/render-app';
import { useMediaUrl } from './use-media-url';

const IMAGE_NAME = '41/customer_profile/0193a5a4-7e0e-7c55-8f00-000000000001.jpg';
const { createObjectURL, revokeObjectURL } = URL;

const imageResponse = () => new Response('JPEGBYTES', { headers: { 'content-type': 'image/jpeg' } });

let created: Blob[];
let revoked: string[];
beforeEach(() => {
  localStorage.setItem('token', 'jwt-123');
  created = [];
  revoked = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    created.push(blob);
    return `blob:media-${created.length}`;
  });
  // Only this hook's URLs: the web project shares one environment between files, and another file's
  // delayed revoke (the warranty page's certificate download) may land during a test here.
  URL.revokeObjectURL = vi.fn((url: string) => {
    if (url.startsWith('blob:media-')) revoked.push(url);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

const wrapperWithStore = () => {
  const store = createTestStore();
  return ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
};

describe('useMediaUrl', () => {
  it('fetches the file with the API headers and gives an object URL, revoked on unmount', async () => {
    const api = stubApi({ [paths.media.file]: () => imageResponse() });
    const { result, unmount } = renderHook(() => useMediaUrl(IMAGE_NAME), { wrapper: wrapperWithStore() });
    expect(result.current.isLoading).toBe(true);
    await waitFor(() => expect(result.current.url).toBe('blob:media-1'));
    expect(result.current.mimeType).toBe('image/jpeg');
    expect(result.current.isLoading).toBe(false);
    expect(await created[0]?.text()).toBe('JPEGBYTES');

    const [request] = api.requestsTo(paths.media.file);
    expect(new URL(request?.url ?? '').searchParams.get('image_name')).toBe(IMAGE_NAME);
    expect(request?.headers.get('authorization')).toBe('Bearer jwt-123');
    expect(request?.headers.get('platform')).toBe('mobile');
    expect(
      await readAuthSession(paths.media.file, request?.headers.get('auth-session') ?? ''),
    ).not.toBeNull();

    unmount();
    expect(revoked).toEqual(['blob:media-1']);
  });

  it("reports the server's message when the file cannot be had, and fetches again on retry", async () => {
    let isMissing = true;
    stubApi({
      [paths.media.file]: () =>
        isMissing ? failureResponse(404, 'File not found', { code: 'NOT_FOUND' }) : imageResponse(),
    });
    const { result } = renderHook(() => useMediaUrl(IMAGE_NAME), { wrapper: wrapperWithStore() });
    await waitFor(() => expect(result.current.error).toBe('File not found'));
    expect(result.current.url).toBeNull();
    expect(created).toHaveLength(0);

    isMissing = false;
    act(() => result.current.retry());
    await waitFor(() => expect(result.current.url).toBe('blob:media-1'));
    expect(result.current.error).toBeNull();
  });

  it('fetches nothing without a file, and revokes the old URL when the file changes', async () => {
    const api = stubApi({ [paths.media.file]: () => imageResponse() });
    const { result, rerender } = renderHook(({ name }: { name: string | null }) => useMediaUrl(name), {
      wrapper: wrapperWithStore(),
      initialProps: { name: null as string | null },
    });
    expect(result.current).toMatchObject({ url: null, isLoading: false, error: null });
    expect(api.requestsTo(paths.media.file)).toHaveLength(0);

    rerender({ name: IMAGE_NAME });
    await waitFor(() => expect(result.current.url).toBe('blob:media-1'));
    rerender({ name: IMAGE_NAME.replace('001.jpg', '002.jpg') });
    expect(result.current.url).toBeNull();
    expect(revoked).toEqual(['blob:media-1']);
    await waitFor(() => expect(result.current.url).toBe('blob:media-2'));
  });
});
