import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { pwaTestState } from '../test/pwa-register-react';
import { createTestI18n } from '../test/test-i18n';
import { OFFLINE_READY_HIDE_MS, ReloadPrompt } from './reload-prompt';

let i18n: TI18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
beforeEach(() => {
  pwaTestState.offlineReady = false;
  pwaTestState.needRefresh = false;
  pwaTestState.updateCalls = [];
});
afterEach(cleanup);

const renderPrompt = () =>
  render(
    <I18nextProvider i18n={i18n}>
      <ReloadPrompt />
    </I18nextProvider>,
  );

describe('ReloadPrompt (spec §2, §4 service worker)', () => {
  it('shows nothing while the worker has nothing to say', () => {
    renderPrompt();
    expect(screen.queryByTestId('reload-prompt')).toBeNull();
  });

  it("says 'App ready to work offline' with Close only", async () => {
    pwaTestState.offlineReady = true;
    renderPrompt();
    expect(screen.getByTestId('reload-prompt-message').textContent).toBe('App ready to work offline');
    expect(screen.queryByTestId('reload-prompt-reload')).toBeNull();
    fireEvent.click(screen.getByTestId('reload-prompt-close'));
    await waitFor(() => expect(screen.queryByTestId('reload-prompt')).toBeNull());
  });

  it('lets the offline notice go by itself, but not an update', async () => {
    vi.useFakeTimers();
    try {
      pwaTestState.offlineReady = true;
      renderPrompt();
      await act(async () => {
        vi.advanceTimersByTime(OFFLINE_READY_HIDE_MS + 100);
      });
      // Then the exit transition.
      await act(async () => {
        vi.advanceTimersByTime(1000);
      });
      expect(screen.queryByTestId('reload-prompt')).toBeNull();
      cleanup();
      pwaTestState.offlineReady = false;
      pwaTestState.needRefresh = true;
      renderPrompt();
      await act(async () => {
        vi.advanceTimersByTime(OFFLINE_READY_HIDE_MS * 3);
      });
      expect(screen.getByTestId('reload-prompt')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers Reload for new content, which applies the update and reloads', () => {
    pwaTestState.needRefresh = true;
    renderPrompt();
    expect(screen.getByTestId('reload-prompt-message').textContent).toBe(
      'New content available, click on reload button to update.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(pwaTestState.updateCalls).toEqual([true]);
  });

  it('only logs a registration error (spec §8)', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderPrompt();
    pwaTestState.options?.onRegisterError?.(new Error('no service worker'));
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });
});
