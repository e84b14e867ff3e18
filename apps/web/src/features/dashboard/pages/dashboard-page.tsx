import type { TCustomerStatusWord } from '@kisht/domain/common/enums';
import { CUSTOMER_STATUS_WORDS } from '@kisht/domain/common/enums';
import type { SvgIconComponent } from '@mui/icons-material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import GroupsIcon from '@mui/icons-material/Groups';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import PauseCircleIcon from '@mui/icons-material/PauseCircle';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import RemoveCircleIcon from '@mui/icons-material/RemoveCircle';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import Avatar from '@mui/material/Avatar';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { appPaths } from '../../../app/paths';
import { STATUS_COLORS } from '../../../components/customer-status-chip';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useGetDashboardQuery } from '../dashboard-api';

const STATUS_ICONS: Record<TCustomerStatusWord, SvgIconComponent> = {
  inactive: HourglassEmptyIcon,
  install: CheckCircleIcon,
  deactive: PauseCircleIcon,
  uninstall: RemoveCircleIcon,
  apple_removed: PhonelinkEraseIcon,
  emi_completed: TaskAltIcon,
  emi_maturing: EventRepeatIcon,
};

const numberFormat = new Intl.NumberFormat('en-IN');

/** Spec §2 dashboard: customers in total and by status; a card opens the list filtered to it. */
export const DashboardPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data, isLoading, isError, error, refetch } = useGetDashboardQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });

  if (isLoading) return <PageSkeleton />;
  if (isError || !data) return <LoadError message={error?.message} onRetry={refetch} />;

  return (
    <>
      <PageHeader title={t('dashboard.title')} />
      <Card
        variant="elevation"
        elevation={0}
        sx={{ mb: 3, bgcolor: 'primary.main', color: 'primary.contrastText' }}
        data-testid="dashboard-total"
      >
        <CardActionArea onClick={() => navigate(appPaths.customerList.href())}>
          <CardContent sx={{ p: 3 }}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Avatar sx={{ bgcolor: 'primary.dark', width: 56, height: 56 }}>
                <GroupsIcon />
              </Avatar>
              <Stack>
                <Typography variant="h3" component="p" sx={{ fontWeight: 700, lineHeight: 1.1 }}>
                  {numberFormat.format(data.total)}
                </Typography>
                <Typography variant="body1">{t('dashboard.total')}</Typography>
              </Stack>
            </Stack>
          </CardContent>
        </CardActionArea>
      </Card>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {t('dashboard.byStatus')}
      </Typography>
      <Grid container spacing={1.5}>
        {CUSTOMER_STATUS_WORDS.map((word, code) => {
          const Icon = STATUS_ICONS[word];
          const color = STATUS_COLORS[code as keyof typeof STATUS_COLORS];
          return (
            <Grid key={word} size={{ xs: 6, sm: 4 }}>
              <Card sx={{ height: '100%' }} data-testid={`dashboard-status-${word}`}>
                <CardActionArea
                  sx={{ height: '100%' }}
                  onClick={() => navigate(appPaths.customerList.href({ status: word }))}
                >
                  <CardContent>
                    <Icon color={color === 'default' ? 'action' : color} sx={{ mb: 1 }} />
                    <Typography variant="h5" component="p">
                      {numberFormat.format(data.countsByStatus[word] ?? 0)}
                    </Typography>
                    <Typography variant="body2" color="textSecondary">
                      {t(`customerStatus.${word}`)}
                    </Typography>
                  </CardContent>
                </CardActionArea>
              </Card>
            </Grid>
          );
        })}
      </Grid>
    </>
  );
};
