import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { saveBlob } from '../../../lib/save-file';
import { fetchCollectionsWorkbook, type TCollectionsFilter } from '../collections-api';

/** The XLSX media type (ECMA-376). */
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * "Download Excel": fetches the collections workbook (buckets, shops, roll rates and loans) with
 * the session's headers and saves it as `fileName`; a failure toasts the server's message.
 */
export const WorkbookButton = ({ filter, fileName }: { filter: TCollectionsFilter; fileName: string }) => {
  const { t } = useTranslation();
  const store = useStore();
  const [isBusy, setIsBusy] = useState(false);

  const download = async () => {
    setIsBusy(true);
    const result = await fetchCollectionsWorkbook(filter, store);
    setIsBusy(false);
    if ('error' in result) {
      enqueueSnackbar(result.error.message, { variant: 'error' });
      return;
    }
    const { blob } = result;
    saveBlob(blob.type ? blob : new Blob([blob], { type: XLSX_TYPE }), fileName);
    enqueueSnackbar(t('csv.saved', { fileName }), { variant: 'success' });
  };

  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<DownloadIcon />}
      loading={isBusy}
      onClick={() => void download()}
      data-testid="collections-xlsx"
      sx={{ flexShrink: 0 }}
    >
      {t('collections.downloadExcel')}
    </Button>
  );
};
