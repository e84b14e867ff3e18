import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrgConfig } from '../../../lib/http/org-config-api';

type TAuthLayoutProps = { title: string; subtitle: ReactNode; children: ReactNode };

/** The frame of the sign-in screens: the organisation's brand (logo or initial, org and company name) above a centred card. */
export const AuthLayout = ({ title, subtitle, children }: TAuthLayoutProps) => {
  const { t } = useTranslation();
  const config = useOrgConfig();
  const orgName = config?.orgName || t('app.name');
  return (
    <Box
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: 4,
        background: (theme) =>
          `linear-gradient(160deg, ${theme.palette.primary.main} 0%, ${theme.palette.primary.dark} 45%, ${theme.palette.background.default} 45%)`,
      }}
    >
      <Stack spacing={1} sx={{ alignItems: 'center', mb: 3, color: 'primary.contrastText' }}>
        <Avatar
          src={config?.theme.logoUrl || undefined}
          alt={orgName}
          sx={{ width: 64, height: 64, bgcolor: 'secondary.main', fontSize: 28, fontWeight: 700 }}
        >
          {orgName.charAt(0)}
        </Avatar>
        <Typography variant="h5" component="p" data-testid="org-name">
          {orgName}
        </Typography>
        {config?.companyName ? (
          <Typography variant="body2" sx={{ opacity: 0.9 }} data-testid="company-name">
            {t('login.companyName', { company: config.companyName })}
          </Typography>
        ) : null}
        <Typography variant="body2" sx={{ opacity: 0.85 }}>
          {t('app.tagline')}
        </Typography>
      </Stack>
      <Card variant="elevation" elevation={3} sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent sx={{ p: 3 }}>
          <Typography variant="h6" component="h1" gutterBottom>
            {title}
          </Typography>
          <Typography variant="body2" color="textSecondary" component="div" sx={{ mb: 3 }}>
            {subtitle}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
};
