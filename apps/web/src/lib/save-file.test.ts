import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveTextFile } from './save-file';

// jsdom has no object URLs; these tests put stand-ins in place and take them away after.
const { createObjectURL, revokeObjectURL } = URL;

describe('saveTextFile', () => {
  let saved: { href: string; download: string; blob: Blob | null }[];

  beforeEach(() => {
    vi.useFakeTimers();
    saved = [];
    let blob: Blob | null = null;
    URL.createObjectURL = vi.fn((value: Blob) => {
      blob = value;
      return 'blob:kisht/1';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download, blob });
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
  });

  it('saves the text under the file name through a temporary object URL', async () => {
    saveTextFile({ text: 'No.,Amount\n1,8814.86\n', fileName: 'emi-schedule-5.csv' });
    expect(saved).toHaveLength(1);
    expect(saved[0]?.download).toBe('emi-schedule-5.csv');
    expect(saved[0]?.href).toBe('blob:kisht/1');
    expect(await saved[0]?.blob?.text()).toBe('No.,Amount\n1,8814.86\n');
    expect(saved[0]?.blob?.type).toBe('text/csv;charset=utf-8');
    // The link is gone at once; the URL is revoked a little later.
    expect(document.querySelector('a[download]')).toBeNull();
    expect(URL.revokeObjectURL).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:kisht/1');
  });
});
