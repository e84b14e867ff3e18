import type { TAddRetailerRequest } from '@kisht/domain/retailers/retailers.schema';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { type Path, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { FilePickButton } from '../../../components/file-pick-button';
import { PageHeader } from '../../../components/page-header';
import { getUserType } from '../../../lib/auth-storage';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { appPaths } from '../../../lib/paths';
import { prepareUploadFile, uploadAccept } from '../../../lib/upload-file';
import { RetailerFields } from '../components/retailer-fields';
import {
  EMPTY_RETAILER_FORM,
  retailerFormResolver,
  type TRetailerFormOutput,
  type TRetailerFormValues,
} from '../retailer-form';
import { useAddRetailerMutation, useUploadProfileImageMutation } from '../retailers-api';

/** Request fields the form shows, mapped to its paths (address.* as they are). */
export const retailerFormPath = (field: string): Path<TRetailerFormValues> | null =>
  ['name', 'shopName', 'mobile', 'email', 'gstNumber'].includes(field) || field.startsWith('address.')
    ? (field as Path<TRetailerFormValues>)
    : null;

/**
 * add_retailer: a retailer adds a mini-retailer (name, shop, mobile, email, GST number, address)
 * with an optional profile image, compressed per spec §5 before it goes up. Validated with the
 * domain schema before any request; server field errors land under their fields. A mini-retailer
 * who opens it is sent to the dashboard.
 */
export const AddRetailerPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [addRetailer, addState] = useAddRetailerMutation();
  const [uploadImage, uploadState] = useUploadProfileImageMutation();
  const [image, setImage] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TRetailerFormValues, unknown, TRetailerFormOutput>({
    resolver: retailerFormResolver(),
    defaultValues: EMPTY_RETAILER_FORM,
    mode: 'onTouched',
  });

  if (getUserType() !== 'retailer') return <Navigate to={appPaths.dashboard.href()} replace />;

  const pickImage = async (file: File) => {
    setProblem(null);
    const prepared = await prepareUploadFile(file, { canBePdf: false });
    if ('problem' in prepared) {
      setImage(null);
      setProblem(
        t(
          prepared.problem === 'notAllowed' ? 'upload.errors.imageOnly' : `upload.errors.${prepared.problem}`,
        ),
      );
      return;
    }
    setImage(prepared.file);
  };

  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    const result = await addRetailer(values as TAddRetailerRequest);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error ? applyServerFieldErrors(error, form.setError, retailerFormPath) : false;
      if (!isOnField) setProblem(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    if (image) {
      const uploaded = await uploadImage({ userId: result.data.id, file: image });
      if (uploaded.error) enqueueSnackbar(t('retailers.imageNotSaved'), { variant: 'warning' });
    }
    enqueueSnackbar(t('retailers.added'), { variant: 'success' });
    navigate(appPaths.retailerProfile.href(result.data.id), { replace: true });
  });

  const isBusy = addState.isLoading || uploadState.isLoading;
  return (
    <>
      <PageHeader title={t('pages.add_retailer')} onBack={() => navigate(appPaths.retailerList.href())} />
      <form noValidate onSubmit={(event) => void submit(event)} data-testid="add-retailer-form">
        <Card>
          <CardContent>
            <Stack spacing={2}>
              <RetailerFields form={form} />
              <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                <FilePickButton
                  label={t('retailers.chooseImage')}
                  accept={uploadAccept({ canBePdf: false })}
                  onFile={(file) => void pickImage(file)}
                  variant="outlined"
                  inputTestId="add-retailer-image"
                />
                <Typography
                  variant="body2"
                  color="textSecondary"
                  noWrap
                  data-testid="add-retailer-image-name"
                >
                  {image ? image.name : t('retailers.imageOptional')}
                </Typography>
              </Stack>
              {problem ? (
                <Alert severity="error" data-testid="add-retailer-error">
                  {problem}
                </Alert>
              ) : null}
              <Button type="submit" variant="contained" disabled={isBusy} data-testid="add-retailer-submit">
                {t('retailers.add')}
              </Button>
            </Stack>
          </CardContent>
        </Card>
      </form>
    </>
  );
};
