import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SimChangeList } from '../components/sim-change-list';
import { SIM_CHANGES_PAGE_SIZE, useGetSimChangesQuery } from '../device-api';

/**
 * Spec §2 sim_changes: the SIM changes the organisation's phones reported, newest first, a page at
 * a time. Each names its customer (opening customer_details), when it was detected, and each
 * slot's card before → after (operator and the ICCID's last 4 digits, or empty).
 */
export const SimChangesPage = () => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useGetSimChangesQuery(
    { page, pageSize: SIM_CHANGES_PAGE_SIZE },
    { refetchOnMountOrArgChange: true },
  );

  const renderBody = () => {
    if (list.isLoading) return <PageSkeleton />;
    if (!list.data) return <LoadError message={list.error?.message} onRetry={list.refetch} />;
    if (list.data.items.length === 0) {
      return (
        <Card>
          <CardContent sx={{ textAlign: 'center', py: 5 }}>
            <Typography color="textSecondary" data-testid="sim-changes-empty">
              {t('simChanges.empty')}
            </Typography>
          </CardContent>
        </Card>
      );
    }
    const pageCount = Math.max(1, Math.ceil(list.data.total / SIM_CHANGES_PAGE_SIZE));
    return (
      <Stack spacing={2} sx={{ alignItems: 'center' }}>
        <Card sx={{ width: '100%', opacity: list.isFetching ? 0.6 : 1, transition: 'opacity 150ms' }}>
          <SimChangeList changes={list.data.items} isCustomerShown />
        </Card>
        {pageCount > 1 ? (
          <Pagination
            count={pageCount}
            page={page}
            onChange={(_event, next: number) => setPage(next)}
            data-testid="sim-changes-pagination"
          />
        ) : null}
      </Stack>
    );
  };

  return (
    <>
      <PageHeader title={t('pages.sim_changes')} />
      {renderBody()}
    </>
  );
};
