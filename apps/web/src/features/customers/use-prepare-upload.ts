import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPrepareUploadOptions, TUploadProblem } from '../../lib/upload-file';
import { prepareUploadFile } from '../../lib/upload-file';

/**
 * Gets a picked file ready to upload (prepareUploadFile: images compressed, PDFs as they are,
 * nothing over 5 MB) and says in a toast why a file cannot be sent. `prepare` resolves to the file
 * to upload, or null when there is none.
 */
export const usePrepareUpload = () => {
  const { t } = useTranslation();
  const [isPreparing, setIsPreparing] = useState(false);

  const problemMessage = (problem: TUploadProblem, options: TPrepareUploadOptions): string => {
    if (problem === 'tooLarge') return t('upload.errors.tooLarge');
    if (problem === 'unreadable') return t('upload.errors.unreadable');
    return options.canBePdf ? t('upload.errors.notAllowed') : t('upload.errors.imageOnly');
  };

  const prepare = async (file: File, options: TPrepareUploadOptions): Promise<File | null> => {
    setIsPreparing(true);
    const result = await prepareUploadFile(file, options);
    setIsPreparing(false);
    if ('problem' in result) {
      enqueueSnackbar(problemMessage(result.problem, options), { variant: 'error' });
      return null;
    }
    return result.file;
  };

  return { prepare, isPreparing };
};
