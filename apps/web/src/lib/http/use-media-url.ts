import type { mediaContract } from '@kisht/domain/contract/media';
import { paths } from '@kisht/domain/paths';
import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { appBaseQuery } from './api';
import type { TApiError } from './base-query';
import { contractBlobRequest } from './contract-download';

type TMediaFile = (typeof mediaContract)['file'];

/** The store parts a direct base-query call needs: its state (the request context) and dispatch. */
type TStoreAccess = Pick<BaseQueryApi, 'getState' | 'dispatch'>;

/**
 * Fetches a stored file (GET paths.media.file?image_name=) through the app's base query: the same
 * base URL and spec §7 headers as every API call (bearer token, auth-session, request token…),
 * the same 511 handling and error messages. Resolves to the file's Blob or the TApiError; never
 * throws. The Blob stays out of the store.
 */
export const fetchMediaBlob = async (
  imageName: string,
  store: TStoreAccess,
  signal: AbortSignal,
): Promise<{ blob: Blob } | { error: TApiError }> => {
  const queryApi: BaseQueryApi = {
    signal,
    abort: () => undefined,
    dispatch: store.dispatch,
    getState: store.getState,
    extra: undefined,
    endpoint: 'mediaFile',
    type: 'query',
  };
  const result = await appBaseQuery(
    contractBlobRequest<TMediaFile>({ path: paths.media.file, method: 'GET' }, { image_name: imageName }),
    queryApi,
    {},
  );
  if (result.error) return { error: result.error };
  return { blob: result.data as Blob };
};

export type TMediaUrl = {
  /** An object URL of the file for `<img src>` or a link, or null while loading, on error or with no file. */
  url: string | null;
  /** The file's content type as the server sent it ('image/png', 'application/pdf'), or null. */
  mimeType: string | null;
  isLoading: boolean;
  /** What went wrong (spec §8 message), or null. */
  error: string | null;
  /** Fetches the file again (after an error). */
  retry: () => void;
};

type TLoaded = {
  imageName: string;
  attempt: number;
  url: string | null;
  mimeType: string | null;
  error: string | null;
};

/**
 * A stored file of a customer as an object URL. Media needs the spec §7 headers, so an `<img src>`
 * cannot load it by itself: the hook fetches it with the base query's headers, makes an object URL
 * and revokes it when the name changes or the component unmounts. Null `imageName`: no file.
 */
export const useMediaUrl = (imageName: string | null | undefined): TMediaUrl => {
  const store = useStore();
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<TLoaded | null>(null);

  useEffect(() => {
    if (!imageName) return undefined;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    void fetchMediaBlob(imageName, store, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      if ('error' in result) {
        setLoaded({ imageName, attempt, url: null, mimeType: null, error: result.error.message });
        return;
      }
      objectUrl = URL.createObjectURL(result.blob);
      setLoaded({ imageName, attempt, url: objectUrl, mimeType: result.blob.type || null, error: null });
    });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [imageName, attempt, store]);

  const current = loaded && loaded.imageName === imageName && loaded.attempt === attempt ? loaded : null;
  return {
    url: current?.url ?? null,
    mimeType: current?.mimeType ?? null,
    isLoading: Boolean(imageName) && current === null,
    error: current?.error ?? null,
    retry: () => setAttempt((value) => value + 1),
  };
};
