import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../lib/http/base-query';
import { saveTextFile } from '../lib/save-file';

type TDownloadCsvButtonProps = {
  /** The name the file is saved under, e.g. `customers.csv`. */
  fileName: string;
  /**
   * Fetches the CSV text through the api (an endpoint built with lib/http fileRequest, so it carries
   * the same headers as every call). A rejection has already been toasted by the store, except
   * when the network gave no answer (a read offline), which this button says itself.
   */
  fetchCsv: () => Promise<string>;
  testId: string;
};

/** "Download CSV": fetches an export and hands it to the browser to save as `fileName`. */
export const DownloadCsvButton = ({ fileName, fetchCsv, testId }: TDownloadCsvButtonProps) => {
  const { t } = useTranslation();
  const [isBusy, setIsBusy] = useState(false);

  const handleClick = async () => {
    setIsBusy(true);
    try {
      const text = await fetchCsv();
      saveTextFile({ text, fileName });
      enqueueSnackbar(t('csv.saved', { fileName }), { variant: 'success' });
    } catch (error) {
      // The store toasts a failed read (app/store apiErrorToast) but not an unanswered one, which
      // a screen shows in place; a download has no place, so it says so here (issue 28).
      if (isApiError(error) && error.status === 'FETCH_ERROR')
        enqueueSnackbar(error.message, { variant: 'error' });
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={<DownloadIcon />}
      loading={isBusy}
      onClick={handleClick}
      data-testid={testId}
      sx={{ flexShrink: 0 }}
    >
      {t('csv.download')}
    </Button>
  );
};
