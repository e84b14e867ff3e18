import type { TLockAccess, TUserAccess } from '@kisht/domain/devices/devices.schema';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

const USER_FLAGS = ['feature_access', 'lock_unlock', 'unistall', 'active_deactive', 'bulk_retailer'] as const;
const LOCK_FLAGS = ['lock', 'unlock', 'read', 'uninstall'] as const;

/** A change of one flag, as updateUsers takes it. */
export type TAccessChange = { userAccess: Partial<TUserAccess> } | { lockAccess: Partial<TLockAccess> };

/**
 * The spec §6 access flags of a mini-retailer as switches (user access, then lock access), each
 * translated; turning one sends that flag alone.
 */
export const AccessSwitches = ({
  userAccess,
  lockAccess,
  isBusy,
  onChange,
}: {
  userAccess: TUserAccess;
  lockAccess: TLockAccess;
  isBusy: boolean;
  onChange: (change: TAccessChange) => void;
}) => {
  const { t } = useTranslation();
  const flag = (value: '0' | '1') => (value === '1' ? '0' : '1');
  return (
    <Stack>
      <Typography variant="subtitle1">{t('retailers.accessTitle')}</Typography>
      {USER_FLAGS.map((key) => (
        <FormControlLabel
          key={key}
          label={t(`retailers.access.${key}`)}
          control={
            <Switch
              checked={userAccess[key] === '1'}
              disabled={isBusy}
              onChange={() => onChange({ userAccess: { [key]: flag(userAccess[key]) } })}
              slotProps={{ input: { 'data-testid': `access-user-${key}` } as object }}
            />
          }
        />
      ))}
      {LOCK_FLAGS.map((key) => (
        <FormControlLabel
          key={key}
          label={t(`retailers.access.${key}`)}
          control={
            <Switch
              checked={lockAccess[key] === '1'}
              disabled={isBusy}
              onChange={() => onChange({ lockAccess: { [key]: flag(lockAccess[key]) } })}
              slotProps={{ input: { 'data-testid': `access-lock-${key}` } as object }}
            />
          }
        />
      ))}
    </Stack>
  );
};
