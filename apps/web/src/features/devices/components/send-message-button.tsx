import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { lazy, Suspense, useState } from 'react';
import type { TSendMessageDialogProps } from './send-message-dialog';

// The dialog (its form, react-hook-form, the message schema and zod, MUI's Dialog and TextField)
// loads when first opened, not with the dashboard or the customer's page (issue 17).
const SendMessageDialog = lazy(() =>
  import('./send-message-dialog').then((module) => ({ default: module.SendMessageDialog })),
);

type TSendMessageButtonProps = Omit<TSendMessageDialogProps, 'isOpen' | 'onClose'> & {
  label: string;
  testId: string;
  variant?: 'text' | 'outlined' | 'contained';
  size?: 'small' | 'medium';
  startIcon?: ReactNode;
};

/** A button that opens the message dialog for one customer (customer_details, the birthdays card). */
export const SendMessageButton = ({
  label,
  testId,
  variant,
  size,
  startIcon,
  ...dialog
}: TSendMessageButtonProps) => {
  const [isOpen, setIsOpen] = useState(false);
  // Mounted from the first opening on, so that closing keeps the dialog's exit transition.
  const [hasOpened, setHasOpened] = useState(false);
  return (
    <>
      <Button
        variant={variant ?? 'outlined'}
        size={size}
        startIcon={startIcon}
        onClick={() => {
          setHasOpened(true);
          setIsOpen(true);
        }}
        data-testid={testId}
      >
        {label}
      </Button>
      {hasOpened && (
        <Suspense fallback={null}>
          <SendMessageDialog {...dialog} isOpen={isOpen} onClose={() => setIsOpen(false)} />
        </Suspense>
      )}
    </>
  );
};
