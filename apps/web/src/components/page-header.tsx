import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type TPageHeaderProps = {
  title: string;
  subtitle?: ReactNode;
  onBack?: () => void;
  action?: ReactNode;
};

/** A page's heading row: optional back button, title, subtitle and an action on the right. */
export const PageHeader = ({ title, subtitle, onBack, action }: TPageHeaderProps) => {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
      {onBack ? (
        <IconButton edge="start" onClick={onBack} aria-label={t('common.back')}>
          <ArrowBackIcon />
        </IconButton>
      ) : null}
      <Stack sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="h5" component="h1" noWrap>
          {title}
        </Typography>
        {subtitle ? (
          <Typography variant="body2" color="textSecondary" component="div">
            {subtitle}
          </Typography>
        ) : null}
      </Stack>
      {action}
    </Stack>
  );
};
