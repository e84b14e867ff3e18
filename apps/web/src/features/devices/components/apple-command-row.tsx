import { isPendingCommandState } from '@kisht/domain/common/enums';
import type { TDeviceCommand, TDeviceCommandRequest } from '@kisht/domain/devices/devices.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useTrackedCommand } from '../use-tracked-command';
import { CommandStateChip } from './command-state-chip';

/** A mutation trigger of apple-api: POST `{ customer_id }`, answered with the command row. */
type TSendCommand = (body: TDeviceCommandRequest) => Promise<{ data?: TDeviceCommand; error?: unknown }>;

type TAppleCommandRowProps = {
  customerId: number;
  label: string;
  description: string;
  icon: ReactNode;
  send: TSendCommand;
  isSending: boolean;
  isDisabled?: boolean;
  testId: string;
  /** Called once when the command this row sent ends (done, failed, cancelled or expired). */
  onEnded?: () => void;
  /** A line under the row, whatever the command's state (what the server holds). */
  footer?: ReactNode;
};

/**
 * One Apple command of apple_details (issue 15): what it does, its button, and once sent the
 * command's state as it moves (queued → sent → done or failed, from the command history), with
 * when it last changed and why it failed. A refused POST shows the server's message (the app's
 * error toast) and leaves nothing tracked.
 */
export const AppleCommandRow = ({
  customerId,
  label,
  description,
  icon,
  send,
  isSending,
  isDisabled = false,
  testId,
  onEnded,
  footer,
}: TAppleCommandRowProps) => {
  const { t } = useTranslation();
  const [sent, setSent] = useState<TDeviceCommand | null>(null);
  const tracked = useTrackedCommand(customerId, sent);
  const hasEnded = tracked !== null && !isPendingCommandState(tracked.state);
  const onEndedRef = useRef(onEnded);
  onEndedRef.current = onEnded;
  useEffect(() => {
    if (hasEnded) onEndedRef.current?.();
  }, [hasEnded]);
  const handleSend = async () => {
    const result = await send({ customer_id: customerId });
    if (result.data) setSent(result.data);
  };
  return (
    <Stack spacing={1} data-testid={testId}>
      <Typography variant="body2" color="textSecondary">
        {description}
      </Typography>
      <Button
        variant="outlined"
        startIcon={icon}
        onClick={() => void handleSend()}
        loading={isSending}
        disabled={isDisabled}
        data-testid={`${testId}-send`}
      >
        {label}
      </Button>
      {tracked ? (
        <Stack spacing={1}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <CommandStateChip state={tracked.state} testId={`${testId}-state`} />
            <Typography variant="caption" color="textSecondary">
              {t('apple.commandUpdatedAt', { time: formatDateTime(tracked.updatedAt) })}
            </Typography>
          </Stack>
          {tracked.error ? (
            <Alert severity="error" data-testid={`${testId}-error`}>
              {tracked.error}
            </Alert>
          ) : null}
        </Stack>
      ) : null}
      {footer}
    </Stack>
  );
};
