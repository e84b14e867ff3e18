import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as TI18n } from 'i18next';
import { SnackbarProvider } from 'notistack';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../test/test-i18n';
import { CODE_DRAWER_HEIGHT, CodeDrawer } from './code-drawer';

let i18n: TI18n;
let writeText: ReturnType<typeof vi.fn>;

beforeAll(async () => {
  i18n = await createTestI18n();
});

beforeEach(() => {
  writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(cleanup);

const renderDrawer = (code: string | null, onClose = () => {}) =>
  render(
    <I18nextProvider i18n={i18n}>
      <SnackbarProvider maxSnack={1}>
        <CodeDrawer isOpen code={code} onClose={onClose} />
      </SnackbarProvider>
    </I18nextProvider>,
  );

describe('CodeDrawer (spec §2)', () => {
  it('shows the code in a 200 px bottom drawer', () => {
    renderDrawer('AH-4821-9930');
    expect(screen.getByTestId('code-drawer-code').textContent).toBe('AH-4821-9930');
    expect(CODE_DRAWER_HEIGHT).toBe(200);
    expect(getComputedStyle(screen.getByTestId('code-drawer')).height).toBe('200px');
    expect(screen.getByRole('dialog', { name: 'Code' })).toBeTruthy();
  });

  it("copies the code, turns Copy into 'Copied' and toasts 'Code Copied Successfully.'", async () => {
    renderDrawer('AH-4821-9930');
    const copy = screen.getByTestId('code-drawer-copy');
    expect(copy.textContent).toBe('Copy');
    await act(async () => {
      fireEvent.click(copy);
    });
    expect(writeText).toHaveBeenCalledWith('AH-4821-9930');
    expect(copy.textContent).toBe('Copied');
    expect(await screen.findByText('Code Copied Successfully.')).toBeTruthy();
  });

  it("shows 'N/A' without a code, and Copy toasts the error 'Code not found' (spec §5)", async () => {
    renderDrawer('');
    expect(screen.getByTestId('code-drawer-code').textContent).toBe('N/A');
    await act(async () => {
      fireEvent.click(screen.getByTestId('code-drawer-copy'));
    });
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.getByTestId('code-drawer-copy').textContent).toBe('Copy');
    expect(await screen.findByText('Code not found')).toBeTruthy();
  });

  it('closes on Cancel', async () => {
    const onClose = vi.fn();
    renderDrawer('X1', onClose);
    fireEvent.click(screen.getByTestId('code-drawer-cancel'));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(screen.getByTestId('code-drawer-cancel').textContent).toBe('Cancel');
  });
});
