import type { retailersContract } from '@kisht/domain/contract/retailers';
import { formatAddress } from '@kisht/domain/customers/customers.rules';
import { paths } from '@kisht/domain/paths';
import type { TRetailer, TUpdateRetailerRequest } from '@kisht/domain/retailers/retailers.schema';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FilePickButton } from '../../../components/file-pick-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SignaturePadCard } from '../../../components/signature-pad-card';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { formatMobile } from '../../../lib/format';
import { apiErrorMessage, isApiError } from '../../../lib/http/base-query';
import { contractBlobSource } from '../../../lib/http/contract-download';
import { useBlobUrl } from '../../../lib/http/use-blob-url';
import { appPaths } from '../../../lib/paths';
import { prepareUploadFile, uploadAccept } from '../../../lib/upload-file';
import { AccessSwitches, type TAccessChange } from '../components/access-switches';
import { OwnBirthdayRow } from '../components/own-birthday-row';
import { RetailerFields } from '../components/retailer-fields';
import {
  retailerFormResolver,
  retailerFormValues,
  type TRetailerFormOutput,
  type TRetailerFormValues,
} from '../retailer-form';
import {
  useGetOwnProfileQuery,
  useGetRetailerQuery,
  useUpdateRetailerMutation,
  useUploadOwnSignatureMutation,
  useUploadProfileImageMutation,
} from '../retailers-api';
import { retailerFormPath } from './add-retailer-page';

/** The users' own images route (profile image, signature, payment QR): the profile image here. */
type TUserImage = (typeof retailersContract)['image'];

/** Slots the app fills from other features (the ledger's key balances and transfer button). */
export type TRetailerProfileSlots = {
  /** Key balances of the retailer shown (own, or the mini-retailer's). */
  balances?: ReactNode;
  /** More actions on the retailer shown (transfer keys). */
  actions?: ReactNode;
};

const DetailRow = ({ label, value, testId }: { label: string; value: string; testId?: string }) => (
  <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
    <Typography variant="body2" color="textSecondary">
      {label}
    </Typography>
    <Typography variant="body2" sx={{ textAlign: 'right', wordBreak: 'break-word' }} data-testid={testId}>
      {value}
    </Typography>
  </Stack>
);

/** The profile image (fetched behind the session) with an upload button. */
const ProfileImage = ({ retailer, userId }: { retailer: TRetailer; userId?: number | undefined }) => {
  const { t } = useTranslation();
  const [upload, uploadState] = useUploadProfileImageMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const image = useBlobUrl(
    retailer.hasProfileImage
      ? contractBlobSource<TUserImage>(
          { path: paths.users.image, method: 'GET' },
          userId === undefined ? { kind: 'profile_image' } : { user_id: userId, kind: 'profile_image' },
          String(version),
        )
      : null,
  );
  const pick = async (file: File) => {
    setProblem(null);
    const prepared = await prepareUploadFile(file, { canBePdf: false });
    if ('problem' in prepared) {
      setProblem(
        t(
          prepared.problem === 'notAllowed' ? 'upload.errors.imageOnly' : `upload.errors.${prepared.problem}`,
        ),
      );
      return;
    }
    const result = await upload({ userId, file: prepared.file });
    if (result.error) {
      setProblem(apiErrorMessage(result.error, t('errors.somethingWentWrong')));
      return;
    }
    setVersion((v) => v + 1);
    enqueueSnackbar(t('retailers.imageSaved'), { variant: 'success' });
  };
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      <Avatar src={image.url ?? undefined} sx={{ width: 72, height: 72 }} data-testid="retailer-avatar">
        {retailer.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Stack spacing={1} sx={{ minWidth: 0 }}>
        <Typography variant="h6" noWrap data-testid="retailer-name">
          {retailer.name}
        </Typography>
        <FilePickButton
          label={t('retailers.uploadImage')}
          accept={uploadAccept({ canBePdf: false })}
          onFile={(file) => void pick(file)}
          isBusy={uploadState.isLoading}
          size="small"
          variant="outlined"
          inputTestId="retailer-image-input"
        />
        {problem ? <Alert severity="error">{problem}</Alert> : null}
      </Stack>
    </Stack>
  );
};

const Details = ({ retailer }: { retailer: TRetailer }) => {
  const { t } = useTranslation();
  const none = t('retailers.details.none');
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1}>
        <Chip
          size="small"
          color={retailer.isActive ? 'success' : 'default'}
          label={retailer.isActive ? t('retailers.active') : t('retailers.inactive')}
          data-testid="retailer-status"
        />
        <Chip
          size="small"
          variant="outlined"
          label={t('retailers.customerCount', { count: retailer.customerCount })}
        />
      </Stack>
      <DetailRow
        label={t('retailers.details.shop')}
        value={retailer.shopName ?? none}
        testId="retailer-shop"
      />
      <DetailRow label={t('retailers.details.mobile')} value={formatMobile(retailer.mobile)} />
      <DetailRow label={t('retailers.details.email')} value={retailer.email ?? none} />
      <DetailRow
        label={t('retailers.details.gst')}
        value={retailer.gstNumber ?? none}
        testId="retailer-gst"
      />
      <DetailRow
        label={t('retailers.details.address')}
        value={retailer.address ? formatAddress(retailer.address) : none}
      />
      {retailer.parentName ? (
        <DetailRow label={t('retailers.details.parent')} value={retailer.parentName} />
      ) : null}
    </Stack>
  );
};

/** Edit of a mini-retailer's details by its parent: the add form's fields, sent as updateUsers. */
const EditForm = ({ retailer, onDone }: { retailer: TRetailer; onDone: () => void }) => {
  const { t } = useTranslation();
  const [update, updateState] = useUpdateRetailerMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<TRetailerFormValues, unknown, TRetailerFormOutput>({
    resolver: retailerFormResolver(),
    defaultValues: retailerFormValues(retailer),
    mode: 'onTouched',
  });
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    const body: TUpdateRetailerRequest = {
      user_id: retailer.id,
      ...values,
      email: values.email ?? '',
      gstNumber: values.gstNumber ?? '',
    };
    const result = await update(body);
    if (result.error) {
      const error = isApiError(result.error) ? result.error : null;
      const isOnField = error ? applyServerFieldErrors(error, form.setError, retailerFormPath) : false;
      if (!isOnField) setProblem(error?.message ?? t('errors.somethingWentWrong'));
      return;
    }
    enqueueSnackbar(t('retailers.saved'), { variant: 'success' });
    onDone();
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="edit-retailer-form">
      <Stack spacing={2}>
        <RetailerFields form={form} />
        {problem ? <Alert severity="error">{problem}</Alert> : null}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onDone}>{t('retailers.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={updateState.isLoading}
            data-testid="edit-retailer-save"
          >
            {t('retailers.save')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
};

/** A mini-retailer as its parent sees it: details and edit, access switches, deactivate/reactivate. */
const MiniRetailerProfile = ({ userId, balances, actions }: { userId: number } & TRetailerProfileSlots) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useGetRetailerQuery(userId);
  const [update, updateState] = useUpdateRetailerMutation();
  const [isEditing, setIsEditing] = useState(false);
  const [isConfirming, setIsConfirming] = useState(false);
  const back = () => navigate(appPaths.retailerList.href());

  if (query.isLoading) return <PageSkeleton />;
  if (!query.data)
    return (
      <>
        <PageHeader title={t('pages.retailer_profile')} onBack={back} />
        <LoadError
          message={isApiError(query.error) ? query.error.message : undefined}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  const retailer = query.data;

  const send = async (body: Omit<TUpdateRetailerRequest, 'user_id'>, message: string) => {
    const result = await update({ user_id: retailer.id, ...body });
    if (result.error) {
      enqueueSnackbar(apiErrorMessage(result.error, t('errors.somethingWentWrong')), {
        variant: 'error',
      });
      return;
    }
    enqueueSnackbar(message, { variant: 'success' });
  };

  return (
    <Stack spacing={2}>
      <PageHeader title={t('pages.retailer_profile')} onBack={back} />
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <ProfileImage retailer={retailer} userId={retailer.id} />
            {isEditing ? (
              <EditForm retailer={retailer} onDone={() => setIsEditing(false)} />
            ) : (
              <>
                <Details retailer={retailer} />
                <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap' }}>
                  {actions}
                  <Button onClick={() => setIsEditing(true)} data-testid="retailer-edit">
                    {t('retailers.edit')}
                  </Button>
                  <Button
                    color={retailer.isActive ? 'error' : 'success'}
                    variant="outlined"
                    onClick={() => setIsConfirming(true)}
                    data-testid="retailer-toggle-active"
                  >
                    {retailer.isActive ? t('retailers.deactivate') : t('retailers.reactivate')}
                  </Button>
                </Stack>
              </>
            )}
          </Stack>
        </CardContent>
      </Card>
      {balances}
      <Card>
        <CardContent>
          <AccessSwitches
            userAccess={retailer.userAccess}
            lockAccess={retailer.lockAccess}
            isBusy={updateState.isLoading}
            onChange={(change: TAccessChange) => void send(change, t('retailers.accessSaved'))}
          />
        </CardContent>
      </Card>
      <ConfirmDialog
        isOpen={isConfirming}
        title={retailer.isActive ? t('retailers.deactivateTitle') : t('retailers.reactivateTitle')}
        body={retailer.isActive ? t('retailers.deactivateBody') : t('retailers.reactivateBody')}
        confirmLabel={retailer.isActive ? t('retailers.deactivate') : t('retailers.reactivate')}
        confirmColor={retailer.isActive ? 'error' : 'success'}
        isBusy={updateState.isLoading}
        confirmTestId="retailer-confirm-active"
        onClose={() => setIsConfirming(false)}
        onConfirm={() => {
          const isActive = !retailer.isActive;
          setIsConfirming(false);
          void send({ isActive }, isActive ? t('retailers.reactivated') : t('retailers.deactivated'));
        }}
      />
    </Stack>
  );
};

/** The signed-in user's own profile: details, date of birth, profile image and signature. */
const OwnProfile = ({ balances, actions }: TRetailerProfileSlots) => {
  const { t } = useTranslation();
  const query = useGetOwnProfileQuery();
  const [uploadSignature, signatureState] = useUploadOwnSignatureMutation();
  if (query.isLoading) return <PageSkeleton />;
  if (!query.data)
    return (
      <LoadError
        message={isApiError(query.error) ? query.error.message : undefined}
        onRetry={() => void query.refetch()}
      />
    );
  const retailer = query.data;
  return (
    <Stack spacing={2}>
      <PageHeader title={t('pages.retailer_profile')} />
      <Card>
        <CardContent>
          <Stack spacing={2}>
            <ProfileImage retailer={retailer} />
            <Details retailer={retailer} />
            <OwnBirthdayRow retailer={retailer} />
            {actions}
          </Stack>
        </CardContent>
      </Card>
      {balances}
      <Typography variant="subtitle1">{t('retailers.signature')}</Typography>
      <Typography variant="body2" color="textSecondary" data-testid="retailer-signature-state">
        {retailer.hasSignature ? t('retailers.signatureStored') : t('retailers.signatureMissing')}
      </Typography>
      <SignaturePadCard
        instructions={t('retailers.signatureInstructions')}
        fileName="signature.png"
        isSaving={signatureState.isLoading}
        onSave={(file) => {
          if (!file) return;
          void uploadSignature(file).then((result) => {
            if (result.error)
              enqueueSnackbar(apiErrorMessage(result.error, t('errors.somethingWentWrong')), {
                variant: 'error',
              });
            else enqueueSnackbar(t('retailers.signatureSaved'), { variant: 'success' });
          });
        }}
      />
    </Stack>
  );
};

/**
 * retailer_profile: with `?user_id=` a mini-retailer's profile for its parent (details and edit,
 * profile image, access switches, deactivate/reactivate after a confirmation); without it the
 * signed-in user's own profile with its profile image and signature. `balances` and `actions` are
 * filled by the app from other features.
 */
export const RetailerProfilePage = ({ balances, actions }: TRetailerProfileSlots) => {
  const [params] = useSearchParams();
  const raw = params.get('user_id');
  const userId = raw && /^\d+$/.test(raw) ? Number(raw) : undefined;
  return userId === undefined ? (
    <OwnProfile balances={balances} actions={actions} />
  ) : (
    <MiniRetailerProfile userId={userId} balances={balances} actions={actions} />
  );
};
