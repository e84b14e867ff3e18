import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepLanguageOffline, LOCALES_CACHE } from './offline-language';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('keepLanguageOffline (issue 28: no language precached)', () => {
  it("adds the language's strings to the translations' runtime cache", async () => {
    const added: string[] = [];
    const opened: string[] = [];
    vi.stubGlobal('caches', {
      open: async (name: string) => {
        opened.push(name);
        return { add: async (url: string) => void added.push(url) };
      },
    });
    await keepLanguageOffline('tm');
    expect(opened).toEqual([LOCALES_CACHE]);
    expect(added).toEqual(['/locales/tm.json']);
  });

  it('never throws: without the Cache API, or when the fetch fails', async () => {
    vi.stubGlobal('caches', undefined);
    await expect(keepLanguageOffline('hn')).resolves.toBeUndefined();
    vi.stubGlobal('caches', {
      open: async () => ({
        add: async () => {
          throw new TypeError('Failed to fetch');
        },
      }),
    });
    await expect(keepLanguageOffline('hn')).resolves.toBeUndefined();
  });
});
