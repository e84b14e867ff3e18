import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { appBaseQuery } from './api';
import { blobRequest } from './base-query';

export type TBlobSource = {
  /** API path (from the domain `paths` table). */
  url: string;
  params: Record<string, string | number>;
  /** Changes when the file behind the same URL changes (an upload time), so it is fetched again. */
  version?: string;
};

export type TBlobUrl = {
  /** An object URL for `<img src>`, or null while loading, on error or with no source. */
  url: string | null;
  isLoading: boolean;
  /** What went wrong (spec §8 message), or null. */
  error: string | null;
};

type TLoaded = { key: string; url: string | null; error: string | null };

const keyOf = (source: TBlobSource) => JSON.stringify([source.url, source.params, source.version ?? '']);

/**
 * A file the API serves behind the session (a user's uploaded image, say) as an object URL. Such
 * files need the spec §7 headers, so an `<img src>` cannot load them by itself: the hook fetches
 * through the app's base query (same headers, 511 handling, error messages), makes an object URL
 * and revokes it when the source changes or the component unmounts. Null `source`: no file.
 */
export const useBlobUrl = (source: TBlobSource | null): TBlobUrl => {
  const store = useStore();
  const [loaded, setLoaded] = useState<TLoaded | null>(null);
  const key = source ? keyOf(source) : null;

  useEffect(() => {
    if (!key) return undefined;
    // The source, read back from its key, so the effect runs once per distinct source.
    const [url, params] = JSON.parse(key) as [string, Record<string, string | number>, string];
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const queryApi: BaseQueryApi = {
      signal: controller.signal,
      abort: () => undefined,
      dispatch: store.dispatch,
      getState: store.getState,
      extra: undefined,
      endpoint: 'blobFile',
      type: 'query',
    };
    void Promise.resolve(appBaseQuery(blobRequest(url, params), queryApi, {})).then((result) => {
      if (controller.signal.aborted) return;
      if (result.error) {
        setLoaded({ key, url: null, error: result.error.message });
        return;
      }
      objectUrl = URL.createObjectURL(result.data as Blob);
      setLoaded({ key, url: objectUrl, error: null });
    });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [key, store]);

  const current = loaded && loaded.key === key ? loaded : null;
  return {
    url: current?.url ?? null,
    isLoading: key !== null && current === null,
    error: current?.error ?? null,
  };
};
