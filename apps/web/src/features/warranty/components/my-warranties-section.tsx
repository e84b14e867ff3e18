import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useListActivationsQuery } from '../../../lib/http/plans-api';
import { WARRANTIES } from '../warranty-api';
import { WarrantyList } from './warranty-list';

/**
 * A customer's own extended warranties (those bought with their mobile) with their certificates,
 * for the customer's dashboard; nothing while loading, on error or when they have none.
 */
export const MyWarrantiesSection = () => {
  const { t } = useTranslation();
  const { data } = useListActivationsQuery(WARRANTIES);
  if (!data || data.length === 0) return null;
  return (
    <Card sx={{ mt: 2 }} data-testid="my-warranties">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('warranty.mine')}
        </Typography>
        <WarrantyList warranties={data} isBuyerShown={false} />
      </CardContent>
    </Card>
  );
};
