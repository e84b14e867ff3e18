import CakeIcon from '@mui/icons-material/Cake';
import CloseIcon from '@mui/icons-material/Close';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { selectUi, setBirthdayCelebration, type TStateWithUi } from '../../../lib/ui-slice';
import { useGetBirthdaysTodayQuery } from '../birthdays-api';

/**
 * The birthday celebration (spec §3 client state `birthdayCelebration`, issue 16): on the signed-in
 * user's birthday (+05:30 day, decided by the server: a retailer's own date of birth, a customer's
 * on their loan) a "Happy birthday, <name>!" banner on the dashboard. Closing it sets
 * birthdayCelebration, so it stays closed for the rest of the session.
 */
export const BirthdayBanner = () => {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const isCelebrated = useSelector((state: TStateWithUi) => selectUi(state).birthdayCelebration);
  const { data } = useGetBirthdaysTodayQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!data?.isOwnBirthday || isCelebrated) return null;
  return (
    <Card
      elevation={0}
      sx={{ mb: 2, bgcolor: 'secondary.main', color: 'secondary.contrastText' }}
      role="status"
      data-testid="birthday-banner"
    >
      <CardContent sx={{ display: 'flex', alignItems: 'flex-start', gap: 2, '&:last-child': { pb: 2 } }}>
        <CakeIcon sx={{ fontSize: 40, mt: 0.5 }} aria-hidden />
        <Stack sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
            {t('birthday.banner', { name: data.name })}
          </Typography>
          <Typography variant="body2">{t('birthday.bannerBody')}</Typography>
        </Stack>
        <IconButton
          aria-label={t('birthday.dismiss')}
          onClick={() => dispatch(setBirthdayCelebration(true))}
          sx={{ color: 'inherit' }}
          data-testid="birthday-banner-close"
        >
          <CloseIcon />
        </IconButton>
      </CardContent>
    </Card>
  );
};
